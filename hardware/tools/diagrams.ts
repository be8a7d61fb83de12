// Writes the hardware drawings, all at true scale in millimetres (width and
// height in mm, viewBox in mm, so 1 user unit = 1 mm on paper or on a cutter):
//   hardware/squares.svg        the template: 203.2 mm board of 25.4 mm squares
//                               (2-inch piecepack tiles), square numbers and the
//                               mux/channel under each, centring circles, a 50 mm
//                               scale bar to check the print
//   hardware/carrier.svg        for a laser cutter or 3D printer (outlines only):
//                               the sensor carrier plate (a rectangle per sensor,
//                               mounting holes) and the 32 coin centring rings
//   hardware/spacer.svg         the spacer sheet that carries the tiles round the
//                               sensors (32 windows, the mount holes' clearances)
//   hardware/solder-side.svg    the carrier turned over, mirrored: leg holes, buses,
//                               mux channels, where the electronics sit underneath
//   hardware/cross-section.svg  one square from the side, the stack-up of physics.ts
// The carrier, spacer and solder side are geometry.ts's shapes (the PDFs of
// pdf.ts draw the same shapes); the template reads hardware/pinmap.json.
// Run: node bin/run-ts.js hardware/tools/diagrams.ts
// test/hardware/template.test.ts checks the files are what this writes and that
// their scale is right.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHOSEN, GEOMETRY, magnet, tileRange, z1 } from './physics.ts';
import {
  BOARD,
  LEAD_HOLES,
  LEAD_PITCH,
  MOUNT_HOLES,
  PAPER,
  PITCH,
  SCREW_HEAD,
  SENSOR_BODY,
  SENSOR_THICKNESS,
  SENSOR_WINDOW,
  SPACER_HOLE_D,
  SPACER_THICKNESS,
  STANDOFF_HEIGHT,
  WINDOW_SIZE,
  carrierPlate,
  spacerDrawing,
  solderSideDrawing,
  squareCentre,
  type Drawing,
  type Ink,
  type Shape,
} from './geometry.ts';
export { BOARD, MOUNT_HOLES, PITCH, SENSOR_BODY, squareCentre } from './geometry.ts';

const HW = fileURLToPath(new URL('..', import.meta.url));
interface Pinmap {
  squares: { square: number; mux: number; channel: number }[];
}
const pinmap = JSON.parse(readFileSync(`${HW}pinmap.json`, 'utf8')) as Pinmap;
const bySquare = new Map(pinmap.squares.map((s) => [s.square, s]));

const FONT = 'font-family="Helvetica, Arial, sans-serif"';
/** centring ring: inner diameter (a 19 mm coin + 0.6 mm play) and width, mm */
export const RING_INNER = 19.6;
export const RING_WIDTH = 1.2;
export const SCALE_BAR = 50;
const HOLE = 2.54;

/** Format a length in mm without float noise. */
const n = (x: number) => String(Math.round(x * 1000) / 1000);

function svgOpen(w: number, h: number, title: string, extra = ''): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(w)}mm" height="${n(h)}mm" viewBox="0 0 ${n(w)} ${n(h)}" ${FONT}${extra}>`,
    `<title>${title}</title>`,
  ];
}

// ------------------------------------------------------------------ template

export const TEMPLATE = { margin: 12, top: 24, bottom: 34 };

export function squaresSvg(): string {
  const { margin, top, bottom } = TEMPLATE;
  const W = BOARD + 2 * margin,
    H = top + BOARD + bottom;
  const X0 = margin,
    Y0 = top,
    S = PITCH;
  const muxColour: Record<number, string> = { 0: '#2f7fc1', 1: '#e07b24' };
  const o = svgOpen(
    W,
    H,
    'Crownhead: sensor template at true scale (print at 100 %): PDN square numbers and the mux input under each dark square',
  );
  o.push(`<rect width="${n(W)}" height="${n(H)}" fill="#ffffff"/>`);
  o.push(
    `<text x="${n(W / 2)}" y="7" font-size="4.2" font-weight="bold" text-anchor="middle" fill="#333">Crownhead sensor template — print at 100 % (actual size)</text>`,
  );
  o.push(
    `<text x="${n(W / 2)}" y="12.5" font-size="3" text-anchor="middle" fill="#555">Check: the bar at the bottom measures 50 mm, a square 25.4 mm. Seen from above, Black's side at the top; + = sensor centre, circle = coin ring.</text>`,
  );
  o.push(
    `<text x="${n(W / 2)}" y="${n(Y0 - 3)}" font-size="3" text-anchor="middle" fill="#333">Black — men start on 1–12 (double corner 1/5 at the left, single corner 4 at the right)</text>`,
  );
  o.push(
    `<rect id="board" x="${n(X0)}" y="${n(Y0)}" width="${n(BOARD)}" height="${n(BOARD)}" fill="none" stroke="#5b3a22" stroke-width="0.3"/>`,
  );
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const x = X0 + col * S,
        y = Y0 + row * S;
      const dark = (row + col) % 2 === 1;
      if (!dark) {
        o.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(S)}" height="${n(S)}" fill="#f4ecd8"/>`);
        continue;
      }
      const sq = row * 4 + Math.floor(col / 2) + 1;
      const m = bySquare.get(sq)!;
      const cx = x + S / 2,
        cy = y + S / 2;
      o.push(`<g id="sq${sq}">`);
      o.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(S)}" height="${n(S)}" fill="#dfe8d6"/>`);
      o.push(
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(RING_INNER / 2)}" fill="none" stroke="#6f8f5e" stroke-width="0.25" stroke-dasharray="1 1"/>`,
      );
      o.push(`<path d="M${n(cx - 2.5)} ${n(cy)}h5M${n(cx)} ${n(cy - 2.5)}v5" stroke="#000" stroke-width="0.2"/>`);
      o.push(`<text x="${n(cx)}" y="${n(y + 8.5)}" font-size="5.5" font-weight="bold" text-anchor="middle" fill="#2c3e22">${sq}</text>`);
      o.push(`<rect x="${n(x + 3)}" y="${n(y + S - 6.5)}" width="${n(S - 6)}" height="4" rx="0.8" fill="${muxColour[m.mux]}"/>`);
      o.push(
        `<text x="${n(cx)}" y="${n(y + S - 3.4)}" font-size="2.6" text-anchor="middle" fill="#ffffff">mux ${m.mux} · C${m.channel}</text>`,
      );
      o.push('</g>');
    }
  }
  // tile joints: 2 × 2 squares per 2-inch tile
  for (let i = 2; i < 8; i += 2) {
    o.push(
      `<line x1="${n(X0 + i * S)}" y1="${n(Y0)}" x2="${n(X0 + i * S)}" y2="${n(Y0 + BOARD)}" stroke="#5b3a22" stroke-width="0.2" stroke-dasharray="2 1"/>`,
    );
    o.push(
      `<line x1="${n(X0)}" y1="${n(Y0 + i * S)}" x2="${n(X0 + BOARD)}" y2="${n(Y0 + i * S)}" stroke="#5b3a22" stroke-width="0.2" stroke-dasharray="2 1"/>`,
    );
  }
  for (let i = 0; i < 8; i++) {
    o.push(`<text x="${n(X0 - 5)}" y="${n(Y0 + i * S + S / 2 + 1)}" font-size="2.6" text-anchor="middle" fill="#777">r${i}</text>`);
    o.push(`<text x="${n(X0 + i * S + S / 2)}" y="${n(Y0 + BOARD + 4)}" font-size="2.6" text-anchor="middle" fill="#777">c${i}</text>`);
  }
  const ly = Y0 + BOARD + 9;
  o.push(
    `<text x="${n(W / 2)}" y="${n(ly)}" font-size="3" text-anchor="middle" fill="#333">White — men start on 21–32 (single corner 29 at the left, double corner 28/32 at the right)</text>`,
  );
  // the scale bar: 50 mm with 10 mm ticks
  const bx = X0,
    by = ly + 8;
  o.push(`<g id="scale-bar">`);
  o.push(
    `<line id="scale-bar-line" x1="${n(bx)}" y1="${n(by)}" x2="${n(bx + SCALE_BAR)}" y2="${n(by)}" stroke="#000" stroke-width="0.3"/>`,
  );
  for (let t = 0; t <= SCALE_BAR; t += 10)
    o.push(`<line x1="${n(bx + t)}" y1="${n(by - (t % 50 ? 1.5 : 3))}" x2="${n(bx + t)}" y2="${n(by)}" stroke="#000" stroke-width="0.3"/>`);
  o.push(
    `<text x="${n(bx + SCALE_BAR + 3)}" y="${n(by + 1)}" font-size="3" fill="#000">50 mm: if it measures otherwise, the print was scaled — reprint at 100 %</text>`,
  );
  o.push('</g>');
  o.push(`<rect x="${n(X0)}" y="${n(by + 5)}" width="4" height="4" rx="0.8" fill="${muxColour[0]}"/>`);
  o.push(`<text x="${n(X0 + 6)}" y="${n(by + 8.2)}" font-size="2.8" fill="#333">mux 0 → A0: squares 1–16, channel = square − 1</text>`);
  o.push(`<rect x="${n(X0 + 105)}" y="${n(by + 5)}" width="4" height="4" rx="0.8" fill="${muxColour[1]}"/>`);
  o.push(`<text x="${n(X0 + 111)}" y="${n(by + 8.2)}" font-size="2.8" fill="#333">mux 1 → A1: squares 17–32, channel = square − 17</text>`);
  o.push(
    `<text x="${n(X0)}" y="${n(by + 14)}" font-size="2.5" fill="#777">Squares 25.4 mm: 16 piecepack tiles of 2 × 2 squares (dashed: tile joints). Both muxes share S0–S3 (D2–D5). Fits A3, or two A4 sheets taped together.</text>`,
  );
  o.push('</svg>');
  return o.join('\n') + '\n';
}

// ------------------------------------------------------------------ carrier + rings

export const RING_GRID = { cols: 8, rows: 4, pitch: 24, gap: 12 };

/** How each kind of line is drawn in an SVG (cut lines red, as cutters expect). */
const SVG_INK: Record<Ink, string> = {
  cut: 'fill="none" stroke="#ff0000" stroke-width="0.1"',
  guide: 'fill="none" stroke="#2f7fc1" stroke-width="0.25" stroke-dasharray="1.5 1"',
  bus5v: 'fill="none" stroke="#d12f2f" stroke-width="0.5"',
  busGnd: 'fill="none" stroke="#2f4fd1" stroke-width="0.5"',
  part: 'fill="none" stroke="#000000" stroke-width="0.2"',
  faint: 'fill="none" stroke="#b0b0b0" stroke-width="0.15"',
  text: 'fill="#000000"',
};
const TEXT_FILL: Record<Ink, string> = { ...SVG_INK, text: 'fill="#000000"', guide: 'fill="#2f7fc1"' } as Record<Ink, string>;

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One shape as an SVG element. */
export function svgShape(s: Shape): string {
  const id = 'id' in s && s.id ? ` id="${s.id}"` : '';
  const cls = 'cls' in s && s.cls ? ` class="${s.cls}"` : '';
  switch (s.kind) {
    case 'rect':
      return `<rect${id}${cls} x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" ${SVG_INK[s.ink]}/>`;
    case 'circle':
      return `<circle${id}${cls} cx="${n(s.cx)}" cy="${n(s.cy)}" r="${n(s.r)}" ${SVG_INK[s.ink]}/>`;
    case 'line':
      return `<line${id}${cls} x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}" ${SVG_INK[s.ink]}/>`;
    case 'text': {
      const anchor = s.anchor === 'start' ? '' : ` text-anchor="${s.anchor}"`;
      const fill = s.ink === 'guide' ? TEXT_FILL.guide : TEXT_FILL.text;
      return `<text x="${n(s.x)}" y="${n(s.y)}" font-size="${n(s.size)}"${s.bold ? ' font-weight="bold"' : ''}${anchor} ${fill}>${esc(s.text)}</text>`;
    }
  }
}

/** A geometry.ts drawing as a true-scale SVG. */
export function drawingSvg(d: Drawing): string {
  const o = svgOpen(d.w, d.h, esc(d.title));
  o.push(`<rect width="${n(d.w)}" height="${n(d.h)}" fill="#ffffff"/>`);
  o.push(`<g id="${d.name}">`);
  for (const s of d.shapes) o.push(svgShape(s));
  o.push('</g>');
  o.push('</svg>');
  return o.join('\n') + '\n';
}

export function carrierSvg(): string {
  const margin = 5;
  const ringsTop = margin + BOARD + RING_GRID.gap;
  const W = BOARD + 2 * margin;
  const H = ringsTop + RING_GRID.rows * RING_GRID.pitch + margin + 12;
  const cut = 'fill="none" stroke="#ff0000" stroke-width="0.1"';
  const o = svgOpen(W, H, 'Crownhead: sensor carrier plate and coin centring rings, for a laser cutter or 3D printer (mm, cut lines red)');
  o.push(`<g id="carrier" transform="translate(${margin} ${margin})">`);
  for (const sh of carrierPlate()) o.push(svgShape(sh));
  o.push('</g>');
  o.push(`<g id="rings" transform="translate(${margin} ${ringsTop})">`);
  for (let i = 0; i < 32; i++) {
    const cx = RING_GRID.pitch / 2 + (i % RING_GRID.cols) * RING_GRID.pitch;
    const cy = RING_GRID.pitch / 2 + Math.floor(i / RING_GRID.cols) * RING_GRID.pitch;
    o.push(`<circle class="ring-inner" cx="${n(cx)}" cy="${n(cy)}" r="${n(RING_INNER / 2)}" ${cut}/>`);
    o.push(`<circle class="ring-outer" cx="${n(cx)}" cy="${n(cy)}" r="${n(RING_INNER / 2 + RING_WIDTH)}" ${cut}/>`);
  }
  o.push('</g>');
  o.push(
    `<text x="${margin}" y="${n(H - 8)}" font-size="3" fill="#000000">Carrier: ${n(BOARD)} mm plate (3 mm plywood or acrylic), a ${WINDOW_SIZE.map(n).join(' × ')} mm opening per SS49E (body + legs; Hall element on the square centre), ${MOUNT_HOLES.length} × M3.</text>`,
  );
  o.push(
    `<text x="${margin}" y="${n(H - 3)}" font-size="3" fill="#000000">Rings: ${RING_INNER} mm inside, ${RING_WIDTH} mm wide; cut from 0.4 mm sheet, or extrude 0.4 mm and print.</text>`,
  );
  o.push('</svg>');
  return o.join('\n') + '\n';
}

// ------------------------------------------------------------------ cross-section

export function crossSectionSvg(): string {
  const g = GEOMETRY;
  const m = magnet(CHOSEN.magnet);
  const k = 5; // drawing units per mm would distort the mm viewBox: draw at 5:1 and say so
  const W = 340,
    H = 92;
  const cx = 150; // coin centre x (drawing mm)
  const ytile = 45; // top of the tile
  const mm = (v: number) => v * k;
  const o = svgOpen(W, H, `Crownhead: one square in cross-section (drawn at ${k}:1)`);
  o.push(
    `<defs><marker id="a" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`,
  );
  o.push(`<rect width="${W}" height="${H}" fill="#fbf8f1"/>`);
  o.push(`<text x="4" y="7" font-size="4" font-weight="bold" fill="#333">One square in cross-section (scale ${k}:1)</text>`);
  o.push(
    `<text x="4" y="12" font-size="2.6" fill="#555">A king (two coins) over a sensor. Magnets (${m.diameter} × ${m.thickness} mm ${m.grade}) glued flush in a pocket under each coin, S pole down.</text>`,
  );
  const half = 14; // drawing mm either side of the centre shown
  const tileH = mm(g.tile),
    gapH = mm(g.gap);
  o.push(
    `<rect x="${n(cx - mm(half))}" y="${ytile}" width="${n(mm(2 * half))}" height="${n(tileH)}" fill="#d9b98c" stroke="#8a6a44" stroke-width="0.2"/>`,
  );
  // ring
  for (const sx of [-1, 1]) {
    const rx = cx + sx * mm(RING_INNER / 2) + (sx > 0 ? 0 : -mm(RING_WIDTH));
    o.push(`<rect x="${n(rx)}" y="${n(ytile - mm(0.4))}" width="${n(mm(RING_WIDTH))}" height="${n(mm(0.4))}" fill="#4a7dbf"/>`);
  }
  for (let i = 0; i < 2; i++) {
    const cy = ytile - mm(g.coin) * (i + 1);
    o.push(
      `<rect x="${n(cx - mm(9.5))}" y="${n(cy)}" width="${n(mm(19))}" height="${n(mm(g.coin))}" rx="1" fill="#e9e4d8" stroke="#7d766a" stroke-width="0.2"/>`,
    );
    o.push(
      `<rect x="${n(cx - mm(m.diameter / 2))}" y="${n(cy + mm(g.coin - m.thickness))}" width="${n(mm(m.diameter))}" height="${n(mm(m.thickness))}" fill="#9aa3ad" stroke="#59616a" stroke-width="0.2"/>`,
    );
    o.push(
      `<text x="${n(cx)}" y="${n(cy + mm(g.coin - m.thickness) + mm(m.thickness) - 1.2)}" font-size="2.6" text-anchor="middle" fill="#fff">S ↓</text>`,
    );
    o.push(`<text x="${n(cx + mm(7))}" y="${n(cy + 4)}" font-size="2.2" text-anchor="middle" fill="#7d766a">• top</text>`);
  }
  const yb = ytile + tileH;
  // paper on the spacer sheet; the sensor lies on the perfboard in the spacer's window
  const spacerTop = yb + mm(PAPER);
  o.push(
    `<rect x="${n(cx - mm(half))}" y="${n(yb)}" width="${n(mm(2 * half))}" height="${n(mm(PAPER))}" fill="#ffffff" stroke="#888" stroke-width="0.15"/>`,
  );
  const ypcb = spacerTop + mm(SPACER_THICKNESS);
  const wx0 = cx + mm(SENSOR_WINDOW.x0),
    wx1 = cx + mm(SENSOR_WINDOW.x1);
  for (const [x0, x1] of [
    [cx - mm(half), wx0],
    [wx1, cx + mm(half)],
  ])
    o.push(
      `<rect class="spacer" x="${n(x0)}" y="${n(spacerTop)}" width="${n(x1 - x0)}" height="${n(mm(SPACER_THICKNESS))}" fill="#b9c7a5" stroke="#6d7d58" stroke-width="0.2"/>`,
    );
  const ys = ypcb - mm(SENSOR_THICKNESS); // sensor face
  o.push(
    `<rect x="${n(cx - mm(SENSOR_BODY[0] / 2))}" y="${n(ys)}" width="${n(mm(SENSOR_BODY[0]))}" height="${n(mm(SENSOR_THICKNESS))}" rx="0.5" fill="#222"/>`,
  );
  const ye = ys + mm(g.element);
  o.push(`<circle cx="${cx}" cy="${n(ye)}" r="0.8" fill="#f2c500"/>`);
  const pcbH = mm(1.6);
  o.push(
    `<rect x="${n(cx - mm(half))}" y="${n(ypcb)}" width="${n(mm(2 * half))}" height="${n(pcbH)}" fill="#c8a35a" stroke="#8b6d2c" stroke-width="0.2"/>`,
  );
  // the legs (behind the body): out of its end at mid-height, 1.27 mm apart, splayed to the 2.54 mm holes, soldered below
  const ysol = ypcb + pcbH;
  for (const l of LEAD_HOLES) {
    const from = cx + mm((l.dx / HOLE) * LEAD_PITCH),
      to = cx + mm(l.dx);
    o.push(
      `<path d="M${n(from)} ${n(ys + mm(SENSOR_THICKNESS / 2))}L${n(to)} ${n(ypcb)}V${n(ysol + 3)}" fill="none" stroke="#888" stroke-width="0.5"/>`,
    );
    o.push(`<circle cx="${n(to)}" cy="${n(ysol + 1)}" r="1.2" fill="#bfbfbf"/>`);
  }
  // the buses run along the row on the solder side
  for (const [dy, colour] of [
    [5, '#d12f2f'],
    [8, '#2f4fd1'],
  ] as const)
    o.push(
      `<line x1="${n(cx - mm(half))}" y1="${n(ysol + dy)}" x2="${n(cx + mm(half))}" y2="${n(ysol + dy)}" stroke="${colour}" stroke-width="0.9"/>`,
    );
  const vdim = (x: number, y1: number, y2: number, label: string, side: 1 | -1) => {
    o.push(
      `<line x1="${n(x)}" y1="${n(y1)}" x2="${n(x)}" y2="${n(y2)}" stroke="#333" stroke-width="0.25" marker-start="url(#a)" marker-end="url(#a)"/>`,
    );
    o.push(
      `<text x="${n(x + 1.5 * side)}" y="${n((y1 + y2) / 2 + 1)}" font-size="2.6" text-anchor="${side > 0 ? 'start' : 'end'}" fill="#333">${label}</text>`,
    );
  };
  vdim(cx - mm(half) - 2, ytile, ye, `z₁ = ${g.tile} + ${g.gap} + ${g.element} = ${n(z1())} mm`, -1);
  vdim(cx - mm(half) - 45, ytile - mm(g.coin), ye, `z₂ = ${n(z1() + g.coin)} mm`, -1);
  const lx = cx + mm(half) + 6;
  const air = Math.round((g.gap - PAPER) * 100) / 100;
  const notes: [number, string][] = [
    [ytile - mm(2 * g.coin) + 4, `two coins = a king; ${19} × ${g.coin} mm each, marked face up`],
    [ytile - mm(m.thickness) - 5, `${m.grade} disc magnet ${m.diameter} × ${m.thickness} mm, flush, S pole down`],
    [ytile - 1, 'centring ring (0.4 mm) on the tile'],
    [
      ytile + tileH / 2,
      `piecepack tile ${g.tile} mm (${tileRange()
        .map((x) => x.toFixed(1))
        .join('–')} mm works)`,
    ],
    [yb - 1.3, `paper template ${PAPER} mm; under it ${air} mm of air over the sensor: gap ${g.gap} mm`],
    [spacerTop + 2.2, `spacer sheet ${SPACER_THICKNESS} mm carries the tile; a window round each sensor`],
    [ye, `SS49E (TO-92S, ${SENSOR_THICKNESS} mm), flat on the board, branded face up; element ${g.element} mm deep`],
    [ypcb + pcbH / 2 + 1, `carrier: perfboard; legs ${LEAD_PITCH} mm apart, splayed to its ${HOLE} mm holes`],
    [ysol + 6.5, `solder side: 5 V and GND buses along each row; ${STANDOFF_HEIGHT} mm standoffs below`],
  ];
  for (const [y, t] of notes) {
    o.push(`<line x1="${n(cx + mm(4))}" y1="${n(y)}" x2="${n(lx - 1)}" y2="${n(y)}" stroke="#999" stroke-width="0.15"/>`);
    o.push(`<text x="${n(lx)}" y="${n(y + 0.9)}" font-size="2.6" fill="#333">${t}</text>`);
  }
  o.push('</svg>');
  return o.join('\n') + '\n';
}

export const OUTPUTS: Record<string, () => string> = {
  'squares.svg': squaresSvg,
  'carrier.svg': carrierSvg,
  'spacer.svg': () => drawingSvg(spacerDrawing()),
  'solder-side.svg': () => drawingSvg(solderSideDrawing()),
  'cross-section.svg': crossSectionSvg,
};
export const HARDWARE_DIR = HW;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [file, make] of Object.entries(OUTPUTS)) writeFileSync(`${HW}${file}`, make());
  console.log(`wrote ${Object.keys(OUTPUTS).join(', ')}`);
}
