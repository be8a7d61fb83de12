// Small helpers for the page's HTML and SVG strings: escaping text, numbers
// written short for SVG coordinates, and the page's buttons (data-act).

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]);
export const f2 = (n: number): string => String(Math.round(n * 1000) / 1000);

/** A button whose click main.ts turns into an action or a command (data-act, data-* arguments). */
export function button(act: string, label: string, attrs: Record<string, string> = {}, cls = '', busy = false): string {
  const extra = Object.entries(attrs)
    .map(([k, v]) => ` data-${k}="${esc(v)}"`)
    .join('');
  const id = `b-${act}${attrs.side ? '-' + attrs.side : attrs.kind ? '-' + attrs.kind : ''}`;
  return `<button type="button" id="${id}" class="btn${cls ? ' ' + cls : ''}" data-act="${act}"${extra}${busy ? ' disabled aria-busy="true"' : ''}>${esc(label)}</button>`;
}
