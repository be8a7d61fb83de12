// The carrier's geometry, one source of truth for every drawing and print of
// it: where each sensor sits and the window it needs (body + bent legs), the
// mount holes (two per 101.6 mm quarter), the spacer sheet's thickness, the
// place of the electronics under the carrier, and the shapes of the three
// true-scale drawings built from them (carrier plate, spacer sheet, the
// carrier's solder side seen from below, mirrored). diagrams.ts writes these
// shapes as SVG (carrier.svg, spacer.svg, solder-side.svg), pdf.ts as tiled
// A4 / Letter PDFs; test/hardware/ checks both against this module.
// Lengths in mm; x to the right, y down, seen from above (Black's side at the
// top), origin at the board's top-left corner unless a drawing says otherwise.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GEOMETRY, rowCol } from './physics.ts';

interface Pinmap {
  squares: { square: number; mux: number; channel: number }[];
}
const pinmap = JSON.parse(readFileSync(fileURLToPath(new URL('../pinmap.json', import.meta.url)), 'utf8')) as Pinmap;
const bySquare = new Map(pinmap.squares.map((s) => [s.square, s]));

/** square pitch and board size */
export const PITCH = GEOMETRY.pitch;
export const BOARD = 8 * PITCH;
/** a quarter of the carrier: one 100 × 100 mm perfboard holds 4 × 4 squares */
export const QUARTER = BOARD / 2;
/** perfboard hole pitch */
export const HOLE_PITCH = 2.54;

/** Centre of a square (= its Hall element), mm from the board's top-left corner. */
export function squareCentre(square: number): [number, number] {
  const [r, c] = rowCol(square);
  return [(c + 0.5) * PITCH, (r + 0.5) * PITCH];
}

// ------------------------------------------------------------------ the sensor

/** SS49E (TO-92S) body lying flat, branded face up: width × length (legs leave the length's far end), thickness. */
export const SENSOR_BODY: [number, number] = [4.0, 3.0];
export const SENSOR_THICKNESS = 1.52;
/** TO-92S legs are 1.27 mm apart; the outer two are splayed to the perfboard's 2.54 mm holes. */
export const LEAD_PITCH = 1.27;
/**
 * The three legs' perfboard holes from the Hall element (the body's centre),
 * legs towards +y (White's side): bent down 90° into the hole row 2.54 mm
 * below the body's centre, the middle straight, the outer two splayed out by
 * 1.27 mm each. SS49E, branded face up, legs towards you: VCC, GND, OUT from
 * the left.
 */
export const LEAD_HOLES: { pin: 'VCC' | 'GND' | 'OUT'; dx: number; dy: number }[] = [
  { pin: 'VCC', dx: -HOLE_PITCH, dy: HOLE_PITCH },
  { pin: 'GND', dx: 0, dy: HOLE_PITCH },
  { pin: 'OUT', dx: HOLE_PITCH, dy: HOLE_PITCH },
];
/** clearance round the body, and round a leg's hole (a bent leg, a solder joint) */
const BODY_CLEAR = 0.3,
  LEAD_CLEAR = 0.6;
/**
 * The rectangle each sensor needs, from its Hall element: the body and the
 * splayed legs down to their holes. The carrier's sensor rectangle (a pocket
 * in a cut plate) and the spacer's window are this same rectangle.
 */
export const SENSOR_WINDOW = {
  x0: -(HOLE_PITCH + LEAD_CLEAR),
  x1: HOLE_PITCH + LEAD_CLEAR,
  y0: -(SENSOR_BODY[1] / 2 + BODY_CLEAR),
  y1: HOLE_PITCH + LEAD_CLEAR,
};
export const WINDOW_SIZE: [number, number] = [SENSOR_WINDOW.x1 - SENSOR_WINDOW.x0, SENSOR_WINDOW.y1 - SENSOR_WINDOW.y0];

/** The window of one square's sensor: top-left corner, width, height. */
export function sensorWindow(square: number): { x: number; y: number; w: number; h: number } {
  const [cx, cy] = squareCentre(square);
  return { x: cx + SENSOR_WINDOW.x0, y: cy + SENSOR_WINDOW.y0, w: WINDOW_SIZE[0], h: WINDOW_SIZE[1] };
}

// ------------------------------------------------------------------ the spacer

/** the paper template between the spacer and the tile */
export const PAPER = 0.1;
/**
 * The spacer sheet carries the tiles: its top is the paper's underside. It is
 * as thick as the sensor body plus the air gap physics.ts assumes under the
 * paper (GEOMETRY.gap = paper + air), so the Hall element sits where the
 * physics puts it and no tile rests on a sensor.
 */
export const SPACER_THICKNESS = Math.round((SENSOR_THICKNESS + GEOMETRY.gap - PAPER) * 100) / 100;

// ------------------------------------------------------------------ fixings

/** M3 clearance hole in the carrier, and the spacer's hole that clears the screw head */
export const MOUNT_HOLE_D = 3.2;
export const SPACER_HOLE_D = 7;
/** head height of the top screw: an ISO 7380 M3 button head (or a countersunk head in a 3 mm plate carrier) */
export const SCREW_HEAD = { diameter: 5.7, height: 1.65 };
/** the standoffs: room under the carrier for the Nano in its socket on the electronics strip (≈ 14 mm) */
export const STANDOFF_HEIGHT = 20;
export const STANDOFF_D = 6;

/**
 * Two fixings per quarter, each on a light square's centre (no sensor, no
 * leg, no bus within 5 mm), far apart so a quarter cannot turn about one, and
 * clear of the electronics strip; the set is symmetric under a half turn.
 * [row, column] of the light squares.
 */
const MOUNT_SQUARES: [number, number][] = [
  [0, 2],
  [2, 0],
  [0, 4],
  [2, 6],
  [7, 5],
  [5, 7],
  [7, 3],
  [5, 1],
];
export const MOUNT_HOLES: [number, number][] = MOUNT_SQUARES.map(([r, c]) => [(c + 0.5) * PITCH, (r + 0.5) * PITCH]);

/** Which quarter (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) a point is in. */
export function quarterOf(x: number, y: number): number {
  return (y >= QUARTER ? 2 : 0) + (x >= QUARTER ? 1 : 0);
}

// ------------------------------------------------------------------ under the carrier

export interface Place {
  what: string;
  x: number;
  y: number;
  w: number;
  h: number;
}
/**
 * The electronics strip: a piece of perfboard on the base board under the
 * middle of the carrier, carrying the Nano's socket and both mux breakouts
 * (8–10 mm tall with headers), in the space the standoffs leave. Seen from
 * above, through the carrier.
 */
export const STRIP: Place = { what: 'electronics strip on the base board', x: 56.6, y: 76.6, w: 90, h: 50 };
export const UNDER: Place[] = [
  { what: 'mux 0 (squares 1-16)', x: 60.6, y: 80.1, w: 41, h: 18 },
  { what: 'mux 1 (squares 17-32)', x: 60.6, y: 105.1, w: 41, h: 18 },
  { what: 'Nano (USB to the 4-28 edge)', x: 119.6, y: 79.1, w: 18, h: 45 },
];

// ------------------------------------------------------------------ shapes

/** How a shape is drawn: cut line, a guide, a bus, a part outline, text. */
export type Ink = 'cut' | 'guide' | 'bus5v' | 'busGnd' | 'part' | 'text' | 'faint';
export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; ink: Ink; id?: string; cls?: string }
  | { kind: 'circle'; cx: number; cy: number; r: number; ink: Ink; id?: string; cls?: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; ink: Ink; id?: string; cls?: string }
  | { kind: 'text'; x: number; y: number; size: number; text: string; anchor: 'start' | 'middle' | 'end'; ink: Ink; bold?: boolean };

export interface Drawing {
  /** file stem: carrier, spacer, solder-side */
  name: string;
  title: string;
  /** size of the whole drawing, mm */
  w: number;
  h: number;
  shapes: Shape[];
}

/** margin round the board in the drawings, and the band above it for the title */
export const FRAME = { side: 8, top: 16, bottom: 10 };

const shift = (s: Shape, dx: number, dy: number): Shape => {
  switch (s.kind) {
    case 'rect':
      return { ...s, x: s.x + dx, y: s.y + dy };
    case 'circle':
      return { ...s, cx: s.cx + dx, cy: s.cy + dy };
    case 'line':
      return { ...s, x1: s.x1 + dx, y1: s.y1 + dy, x2: s.x2 + dx, y2: s.y2 + dy };
    case 'text':
      return { ...s, x: s.x + dx, y: s.y + dy };
  }
};

/** Seen from the other side: x → BOARD − x (text stays readable: its anchor point moves, its glyphs do not turn). */
export function mirror(s: Shape): Shape {
  const m = (x: number) => BOARD - x;
  switch (s.kind) {
    case 'rect':
      return { ...s, x: m(s.x + s.w) };
    case 'circle':
      return { ...s, cx: m(s.cx) };
    case 'line':
      return { ...s, x1: m(s.x1), x2: m(s.x2) };
    case 'text':
      return { ...s, x: m(s.x), anchor: s.anchor === 'start' ? 'end' : s.anchor === 'end' ? 'start' : 'middle' };
  }
}

function frame(name: string, title: string, lines: string[], board: Shape[]): Drawing {
  const { side, top, bottom } = FRAME;
  const shapes: Shape[] = [
    { kind: 'text', x: side, y: 7, size: 4.2, text: title, anchor: 'start', ink: 'text', bold: true },
    ...lines.map((t, i): Shape => ({ kind: 'text', x: side, y: 11.2 + i * 3.4, size: 2.8, text: t, anchor: 'start', ink: 'text' })),
    ...board.map((s) => shift(s, side, top)),
  ];
  return { name, title, w: BOARD + 2 * side, h: top + BOARD + bottom, shapes };
}

const quarterLines = (): Shape[] => [
  { kind: 'line', x1: QUARTER, y1: 0, x2: QUARTER, y2: BOARD, ink: 'faint', cls: 'quarter' },
  { kind: 'line', x1: 0, y1: QUARTER, x2: BOARD, y2: QUARTER, ink: 'faint', cls: 'quarter' },
];

/** The carrier plate seen from above: outline, one rectangle per sensor, the mount holes. */
export function carrierPlate(): Shape[] {
  const s: Shape[] = [{ kind: 'rect', x: 0, y: 0, w: BOARD, h: BOARD, ink: 'cut', id: 'carrier-outline' }];
  for (let sq = 1; sq <= 32; sq++) s.push({ kind: 'rect', ...sensorWindow(sq), ink: 'cut', id: `sensor${sq}` });
  for (const [x, y] of MOUNT_HOLES) s.push({ kind: 'circle', cx: x, cy: y, r: MOUNT_HOLE_D / 2, ink: 'cut', cls: 'mount' });
  return s;
}

export function carrierDrawing(): Drawing {
  const labels: Shape[] = [];
  for (let sq = 1; sq <= 32; sq++) {
    const [cx, cy] = squareCentre(sq);
    labels.push({ kind: 'text', x: cx, y: cy - 4, size: 3, text: String(sq), anchor: 'middle', ink: 'text' });
  }
  return frame(
    'carrier',
    'Crownhead carrier, component side (seen from above)',
    [
      `${BOARD} mm: four ${QUARTER} mm quarters of perfboard, or one cut plate. A rectangle per sensor (body + legs), Hall element on the square centre;`,
      `legs towards the bottom (White). ${MOUNT_HOLES.length} M3 holes, 2 per quarter.`,
    ],
    [...carrierPlate(), ...quarterLines(), ...labels],
  );
}

/** The spacer sheet: outline, the 32 windows (the carrier's rectangles), the holes that clear the screw heads. */
export function spacerSheet(): Shape[] {
  const s: Shape[] = [{ kind: 'rect', x: 0, y: 0, w: BOARD, h: BOARD, ink: 'cut', id: 'spacer-outline' }];
  for (let sq = 1; sq <= 32; sq++) s.push({ kind: 'rect', ...sensorWindow(sq), ink: 'cut', id: `window${sq}` });
  for (const [x, y] of MOUNT_HOLES) s.push({ kind: 'circle', cx: x, cy: y, r: SPACER_HOLE_D / 2, ink: 'cut', cls: 'mount' });
  return s;
}

export function spacerDrawing(): Drawing {
  const guides: Shape[] = [];
  for (let i = 1; i < 8; i++) {
    guides.push({ kind: 'line', x1: i * PITCH, y1: 0, x2: i * PITCH, y2: BOARD, ink: 'faint', cls: 'grid' });
    guides.push({ kind: 'line', x1: 0, y1: i * PITCH, x2: BOARD, y2: i * PITCH, ink: 'faint', cls: 'grid' });
  }
  for (let sq = 1; sq <= 32; sq++) {
    const [cx, cy] = squareCentre(sq);
    guides.push({ kind: 'text', x: cx, y: cy - 4, size: 3, text: String(sq), anchor: 'middle', ink: 'text' });
  }
  return frame(
    'spacer',
    `Crownhead spacer sheet, ${SPACER_THICKNESS} mm (seen from above)`,
    [
      `Cut the outline, the 32 windows and the ${MOUNT_HOLES.length} holes (${SPACER_HOLE_D} mm: they clear the screw heads). Card, plywood or a print, ${SPACER_THICKNESS} mm thick;`,
      `it lies on the carrier, round the sensors, and carries the paper and the tiles. Grey lines: the squares.`,
    ],
    [...spacerSheet(), ...guides],
  );
}

/**
 * The carrier's solder side as you see it when you turn the carrier over to
 * wire it: mirrored left to right. Each sensor's three leg holes (VCC, GND,
 * OUT), its square and mux channel; a 5 V bus above and a GND bus below each
 * row of sensors; the holes; where the electronics strip sits underneath.
 */
export function solderSide(): Shape[] {
  const top: Shape[] = [{ kind: 'rect', x: 0, y: 0, w: BOARD, h: BOARD, ink: 'part', id: 'solder-outline' }, ...quarterLines()];
  for (let row = 0; row < 8; row++) {
    const cy = (row + 0.5) * PITCH;
    const xs = Array.from({ length: 4 }, (_, k) => (2 * k + (row % 2 === 0 ? 1 : 0) + 0.5) * PITCH);
    const x0 = xs[0] - 2 * HOLE_PITCH,
      x1 = xs[3] + 2 * HOLE_PITCH;
    top.push({ kind: 'line', x1: x0, y1: cy - 2 * HOLE_PITCH, x2: x1, y2: cy - 2 * HOLE_PITCH, ink: 'bus5v', cls: 'bus-5v' });
    top.push({ kind: 'line', x1: x0, y1: cy + 2 * HOLE_PITCH, x2: x1, y2: cy + 2 * HOLE_PITCH, ink: 'busGnd', cls: 'bus-gnd' });
  }
  for (let sq = 1; sq <= 32; sq++) {
    const [cx, cy] = squareCentre(sq);
    const m = bySquare.get(sq)!;
    for (const l of LEAD_HOLES) {
      const x = cx + l.dx,
        y = cy + l.dy;
      top.push({ kind: 'circle', cx: x, cy: y, r: 0.6, ink: 'part', cls: `lead lead-${l.pin}`, id: `s${sq}-${l.pin}` });
      top.push({ kind: 'text', x, y: y - 1.1, size: 1.6, text: l.pin[0], anchor: 'middle', ink: 'text' });
    }
    // the stubs to the buses: VCC up to the 5 V bus, GND down to the GND bus
    top.push({ kind: 'line', x1: cx - HOLE_PITCH, y1: cy + HOLE_PITCH, x2: cx - HOLE_PITCH, y2: cy - 2 * HOLE_PITCH, ink: 'bus5v' });
    top.push({ kind: 'line', x1: cx, y1: cy + HOLE_PITCH, x2: cx, y2: cy + 2 * HOLE_PITCH, ink: 'busGnd' });
    top.push({ kind: 'text', x: cx, y: cy - 6.6, size: 3, text: String(sq), anchor: 'middle', ink: 'text', bold: true });
    top.push({ kind: 'text', x: cx + 4.2, y: cy + 3.2, size: 2, text: `m${m.mux} C${m.channel}`, anchor: 'start', ink: 'text' });
  }
  for (const [x, y] of MOUNT_HOLES) top.push({ kind: 'circle', cx: x, cy: y, r: MOUNT_HOLE_D / 2, ink: 'cut', cls: 'mount' });
  for (const p of [STRIP, ...UNDER]) {
    top.push({ kind: 'rect', x: p.x, y: p.y, w: p.w, h: p.h, ink: 'guide', cls: 'under' });
    top.push({
      kind: 'text',
      x: p.x + p.w / 2,
      y: p === STRIP ? p.y + p.h - 1.5 : p.y + 3,
      size: 2.2,
      text: p.what,
      anchor: 'middle',
      ink: 'guide',
    });
  }
  return top.map(mirror);
}

export function solderSideDrawing(): Drawing {
  return frame(
    'solder-side',
    'Crownhead carrier, SOLDER SIDE (turned over: mirrored left to right)',
    [
      'Square 1 is now at the top RIGHT. Leg holes: V = VCC, G = GND, O = OUT (legs 1.27 mm apart: splay the outer two to these 2.54 mm holes).',
      `Red: 5 V bus, blue: GND bus, one pair per row on this side. Dashed: the strip under the carrier (Nano + both muxes), ${STANDOFF_HEIGHT} mm standoffs.`,
    ],
    solderSide(),
  );
}

export const DRAWINGS: (() => Drawing)[] = [carrierDrawing, spacerDrawing, solderSideDrawing];
