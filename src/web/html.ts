// Small helpers for the page's HTML and SVG strings: escaping text, and
// numbers written short for SVG coordinates.

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]);
export const f2 = (n: number): string => String(Math.round(n * 1000) / 1000);
