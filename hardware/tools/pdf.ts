// Writes the home-printable carrier and spacer: hardware/print/*.pdf, each
// drawing of geometry.ts (the same shapes as carrier.svg, spacer.svg and
// solder-side.svg) at true scale, tiled over A4 or Letter pages that overlap
// by OVERLAP mm, with registration marks in the overlaps (lay the pages so the
// marks coincide, then tape) and a 100 mm scale bar on every page to check
// the printer did not scale it. The PDF is written by hand: PDF 1.4, vector
// paths, the standard Helvetica fonts (not embedded), no compression and no
// dates, so the same geometry always gives the same bytes.
// Run: node bin/run-ts.js hardware/tools/pdf.ts
// test/hardware/print.test.ts checks the files are what this writes and renders
// them (pdftoppm) to measure the scale bar.

import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { carrierDrawing, solderSideDrawing, spacerDrawing, type Drawing, type Ink, type Shape } from './geometry.ts';

export const PRINT_DIR = fileURLToPath(new URL('../print/', import.meta.url));

export interface Paper {
  name: string;
  w: number;
  h: number;
}
export const PAPERS: Paper[] = [
  { name: 'A4', w: 210, h: 297 },
  { name: 'Letter', w: 215.9, h: 279.4 },
];

/** page margin (most printers cannot print nearer the edge), the band under the drawing, the overlap of neighbouring pages */
export const MARGIN = 10;
export const BAND = 24;
export const OVERLAP = 14;
export const SCALE_BAR_MM = 100;
export const SCALE_BAR_HEIGHT = 3;

/** The part of a drawing one page shows: drawing mm [x, x + w] × [y, y + h]. */
export interface Tile {
  col: number;
  row: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** How a drawing is cut into pages of a paper size. */
export function tiles(d: Drawing, p: Paper): { cols: number; rows: number; tiles: Tile[] } {
  const ww = p.w - 2 * MARGIN,
    wh = p.h - 2 * MARGIN - BAND;
  const count = (size: number, win: number) => (size <= win ? 1 : Math.ceil((size - OVERLAP) / (win - OVERLAP)));
  const cols = count(d.w, ww),
    rows = count(d.h, wh);
  const out: Tile[] = [];
  for (let row = 0; row < rows; row++)
    for (let col = 0; col < cols; col++) out.push({ col, row, x: col * (ww - OVERLAP), y: row * (wh - OVERLAP), w: ww, h: wh });
  return { cols, rows, tiles: out };
}

/** Registration marks, drawing mm: on the middle line of every overlap, three along it. */
export function registrationMarks(d: Drawing, p: Paper): [number, number][] {
  const { tiles: ts } = tiles(d, p);
  const marks: [number, number][] = [];
  const along = (from: number, to: number) => [0.2, 0.5, 0.8].map((f) => from + f * (to - from));
  for (const t of ts) {
    const right = ts.find((u) => u.row === t.row && u.col === t.col + 1);
    if (right) for (const y of along(t.y, Math.min(t.y + t.h, d.h))) marks.push([(right.x + t.x + t.w) / 2, y]);
    const below = ts.find((u) => u.col === t.col && u.row === t.row + 1);
    if (below) for (const x of along(t.x, Math.min(t.x + t.w, d.w))) marks.push([x, (below.y + t.y + t.h) / 2]);
  }
  return marks;
}

// ------------------------------------------------------------------ PDF content

const PT = 72 / 25.4;
/** A number for a content stream: at most 3 decimals, no float noise, no "-0". */
const f = (x: number) => {
  const r = Math.round(x * 1000) / 1000;
  return String(r === 0 ? 0 : r);
};
/** Helvetica's advance widths (1/1000 em), printable ASCII 32–126, for centring text. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/** Plain ASCII for the standard fonts' encoding. */
export const ascii = (t: string) =>
  t
    .replace(/×/g, 'x')
    .replace(/[–—−]/g, '-')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/°/g, ' deg')
    .replace(/[^\x20-\x7e]/g, '?');
const textWidth = (t: string, size: number) =>
  (t.split('').reduce((s, ch) => s + (HELVETICA[ch.charCodeAt(0) - 32] ?? 556), 0) * size) / 1000;
const pdfString = (t: string) => `(${t.replace(/[\\()]/g, (c) => '\\' + c)})`;

interface Pen {
  rgb: [number, number, number];
  width: number;
  dash?: [number, number];
}
const PEN: Record<Ink, Pen> = {
  cut: { rgb: [0.85, 0, 0], width: 0.25 },
  guide: { rgb: [0.18, 0.5, 0.76], width: 0.25, dash: [1.5, 1] },
  bus5v: { rgb: [0.82, 0.18, 0.18], width: 0.5 },
  busGnd: { rgb: [0.18, 0.31, 0.82], width: 0.5 },
  part: { rgb: [0, 0, 0], width: 0.2 },
  faint: { rgb: [0.69, 0.69, 0.69], width: 0.15 },
  text: { rgb: [0, 0, 0], width: 0.2 },
};

/** Content-stream operators in a frame where 1 unit = 1 mm and y grows downwards. */
class Content {
  readonly ops: string[] = [];
  private pen = '';
  /** Q: back to the saved graphics state, whose pen this no longer knows */
  restore(): void {
    this.ops.push('Q');
    this.pen = '';
  }
  stroke(ink: Ink): void {
    const p = PEN[ink];
    const key = `${p.rgb.map(f).join(' ')} RG ${f(p.width)} w [${p.dash ? p.dash.map(f).join(' ') : ''}] 0 d`;
    if (key !== this.pen) this.ops.push(key);
    this.pen = key;
  }
  fillRgb(rgb: [number, number, number]): void {
    this.ops.push(`${rgb.map(f).join(' ')} rg`);
  }
  rect(x: number, y: number, w: number, h: number, op: 'S' | 'f'): void {
    this.ops.push(`${f(x)} ${f(y)} ${f(w)} ${f(h)} re ${op}`);
  }
  line(x1: number, y1: number, x2: number, y2: number): void {
    this.ops.push(`${f(x1)} ${f(y1)} m ${f(x2)} ${f(y2)} l S`);
  }
  circle(cx: number, cy: number, r: number): void {
    const k = 0.5523 * r;
    this.ops.push(
      `${f(cx + r)} ${f(cy)} m ` +
        `${f(cx + r)} ${f(cy + k)} ${f(cx + k)} ${f(cy + r)} ${f(cx)} ${f(cy + r)} c ` +
        `${f(cx - k)} ${f(cy + r)} ${f(cx - r)} ${f(cy + k)} ${f(cx - r)} ${f(cy)} c ` +
        `${f(cx - r)} ${f(cy - k)} ${f(cx - k)} ${f(cy - r)} ${f(cx)} ${f(cy - r)} c ` +
        `${f(cx + k)} ${f(cy - r)} ${f(cx + r)} ${f(cy - k)} ${f(cx + r)} ${f(cy)} c S`,
    );
  }
  text(
    x: number,
    y: number,
    size: number,
    t: string,
    anchor: 'start' | 'middle' | 'end' = 'start',
    bold = false,
    rgb: [number, number, number] = [0, 0, 0],
  ): void {
    const s = ascii(t);
    const w = textWidth(s, size);
    const x0 = anchor === 'start' ? x : anchor === 'middle' ? x - w / 2 : x - w;
    // the page frame has y downwards: flip the text matrix back so glyphs stand upright
    this.ops.push(
      `BT /${bold ? 'F2' : 'F1'} 1 Tf ${rgb.map(f).join(' ')} rg ${f(size)} 0 0 ${f(-size)} ${f(x0)} ${f(y)} Tm ${pdfString(s)} Tj ET`,
    );
  }
  shape(s: Shape): void {
    if (s.kind === 'text') return this.text(s.x, s.y, s.size, s.text, s.anchor, s.bold, s.ink === 'guide' ? PEN.guide.rgb : [0, 0, 0]);
    this.stroke(s.ink);
    if (s.kind === 'rect') this.rect(s.x, s.y, s.w, s.h, 'S');
    else if (s.kind === 'circle') this.circle(s.cx, s.cy, s.r);
    else this.line(s.x1, s.y1, s.x2, s.y2);
  }
}

function registrationMark(c: Content, x: number, y: number): void {
  c.stroke('part');
  c.circle(x, y, 2.5);
  c.line(x - 5, y, x + 5, y);
  c.line(x, y - 5, x, y + 5);
}

/** One page: the tile of the drawing, clipped, its frame, the marks, the scale bar and the notes. */
export function pageContent(
  d: Drawing,
  p: Paper,
  t: Tile,
  n: { page: number; pages: number; cols: number; rows: number; part: string },
): string {
  const c = new Content();
  c.ops.push(`q ${f(PT)} 0 0 ${f(-PT)} 0 ${f(p.h * PT)} cm`);
  // the drawing, clipped to this page's window
  c.ops.push(`q ${f(MARGIN)} ${f(MARGIN)} ${f(t.w)} ${f(t.h)} re W n ${f(1)} 0 0 1 ${f(MARGIN - t.x)} ${f(MARGIN - t.y)} cm`);
  for (const s of d.shapes) c.shape(s);
  for (const [x, y] of registrationMarks(d, p)) registrationMark(c, x, y);
  c.restore();
  // the window's frame
  c.stroke('faint');
  c.rect(MARGIN, MARGIN, t.w, t.h, 'S');
  // the band: scale bar with 10 mm ticks, what this page is, how to join
  const by = p.h - MARGIN - BAND + 8;
  c.fillRgb([0, 0, 0]);
  c.rect(MARGIN, by, SCALE_BAR_MM, SCALE_BAR_HEIGHT, 'f');
  c.stroke('part');
  for (let k = 0; k <= SCALE_BAR_MM; k += 10) c.line(MARGIN + k, by - (k % 50 ? 1.5 : 3), MARGIN + k, by);
  c.text(
    MARGIN + SCALE_BAR_MM + 3,
    by + 2.6,
    3,
    `<- ${SCALE_BAR_MM} mm: measure it. Not ${SCALE_BAR_MM} mm? Print at 100 % (actual size).`,
  );
  c.text(
    MARGIN,
    by - 4,
    3,
    `${d.title}: ${n.part} ${n.page} of ${n.pages} (${p.name}), column ${t.col + 1} of ${n.cols}, row ${t.row + 1} of ${n.rows}`,
    'start',
    true,
  );
  c.text(
    MARGIN,
    by + SCALE_BAR_HEIGHT + 5,
    2.6,
    `Join: overlap the neighbouring page by ${OVERLAP} mm until the registration marks (circle + cross) coincide, then tape. GENERATED by hardware/tools/pdf.ts.`,
  );
  c.restore();
  return c.ops.join('\n') + '\n';
}

/** A whole PDF file: one or more drawings, each tiled over the paper. */
export function pdfFile(drawings: Drawing[], p: Paper, title: string): Buffer {
  const pages: string[] = [];
  for (const d of drawings) {
    const { cols, rows, tiles: ts } = tiles(d, p);
    ts.forEach((t, k) => pages.push(pageContent(d, p, t, { page: k + 1, pages: ts.length, cols, rows, part: 'page' })));
  }
  const objects: string[] = [];
  const pageIds = pages.map((_, k) => 5 + 2 * k);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((i) => `${i} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  const box = `[0 0 ${f(p.w * PT)} ${f(p.h * PT)}]`;
  pages.forEach((content, k) => {
    objects[pageIds[k]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox ${box} /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[k] + 1} 0 R >>`;
    objects[pageIds[k] + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`;
  });
  const info = objects.length;
  objects[info] =
    `<< /Title ${pdfString(ascii(title))} /Subject ${pdfString(`GENERATED by hardware/tools/pdf.ts from hardware/tools/geometry.ts: do not edit; print at 100 %`)} /Producer (hardware/tools/pdf.ts) >>`;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    offsets[i] = Buffer.byteLength(out, 'latin1');
    out += `${i} 0 obj\n${objects[i]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let i = 1; i < objects.length; i++) out += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Every file this writes, by name in hardware/print/. */
export function outputs(): Record<string, () => Buffer> {
  const out: Record<string, () => Buffer> = {};
  for (const p of PAPERS) {
    const tag = p.name.toLowerCase();
    out[`carrier-${tag}.pdf`] = () =>
      pdfFile([carrierDrawing(), solderSideDrawing()], p, `Crownhead carrier: component side, then solder side (mirrored), ${p.name}`);
    out[`spacer-${tag}.pdf`] = () => pdfFile([spacerDrawing()], p, `Crownhead spacer sheet, ${p.name}`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(PRINT_DIR, { recursive: true });
  const files = outputs();
  for (const [name, make] of Object.entries(files)) writeFileSync(`${PRINT_DIR}${name}`, make());
  console.log(
    `wrote ${Object.keys(files)
      .map((n) => `hardware/print/${n}`)
      .join(', ')}`,
  );
}
