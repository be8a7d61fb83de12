// `crownhead doctor --live`: the 32 readings as an 8 × 4 grid of decimal
// numbers laid out as the board (row 1–4 at the top, each dark square's number
// beside its reading, light squares a dot), with the squares that moved since
// the grid started named below it — the F-line check of the build guide
// without counting hex digits. Pure: frames (time, readings) in, the lines to
// print out. On a terminal each grid rewrites the last in place with plain
// ANSI (cursor up, clear line; no full-screen library, so it works over SSH);
// otherwise one grid a second as plain lines. Time is the frames' own.

import { MV_PER_COUNT, sensor, type Sensor } from '../sensors/magnet-physics.ts';

/** A square moved if its reading left the grid's first reading by more than this, counts. */
export const LIVE_MOVED_COUNTS = 25;

export interface LiveOptions {
  /** stdout is a terminal: redraw in place (else print one grid per `everyMs`) */
  tty: boolean;
  /** how often a grid is drawn, ms of frame time (default 200 on a terminal, 1000 otherwise) */
  everyMs?: number;
  /** the sensor fitted, for the empty range the footer quotes (default SS49E) */
  sensor?: Sensor;
  /** the board's id for the header */
  id?: string;
}

const ESC = '\x1b[';

/** (row, column) on the board of a PDN square: row 0 holds squares 1–4, dark squares at odd columns on even rows. */
export function boardCell(square: number): [number, number] {
  const r = Math.floor((square - 1) / 4);
  return [r, 2 * ((square - 1) % 4) + (r % 2 === 0 ? 1 : 0)];
}

/** The grid: 8 lines of 8 cells, a dark square's " 1: 512", a light square's "   ·   ". */
export function gridLines(readings: ArrayLike<number>): string[] {
  const rows = Array.from({ length: 8 }, () => Array<string>(8).fill('   ·   '));
  for (let sq = 1; sq <= 32; sq++) {
    const [r, c] = boardCell(sq);
    rows[r][c] = `${String(sq).padStart(2)}:${String(Math.round(readings[sq - 1])).padStart(4)}`;
  }
  return rows.map((cells) => cells.join('  ').trimEnd());
}

/** "moved: 1 +153, 17 −94" (each square that left its first reading by more than LIVE_MOVED_COUNTS), or "moved: none". */
export function movedLine(readings: ArrayLike<number>, base: ArrayLike<number>): string {
  const moved: string[] = [];
  for (let i = 0; i < 32; i++) {
    const d = Math.round(readings[i] - base[i]);
    if (Math.abs(d) > LIVE_MOVED_COUNTS) moved.push(`${i + 1} ${d > 0 ? '+' : '−'}${Math.abs(d)}`);
  }
  return `moved since the start: ${moved.length ? moved.join(', ') : 'none'}`;
}

export class LiveGrid {
  private readonly everyMs: number;
  private readonly sn: Sensor;
  private base: number[] | null = null;
  private lastAt = -Infinity;
  private printed = 0;
  private frames = 0;
  private firstT = 0;

  constructor(private readonly options: LiveOptions) {
    this.everyMs = options.everyMs ?? (options.tty ? 200 : 1000);
    this.sn = options.sensor ?? sensor('SS49E');
  }

  /** Takes a frame; the lines to print when a grid is due, else null. */
  push(t: number, readings: ArrayLike<number>): string[] | null {
    if (!this.base) {
      this.base = Array.from(readings);
      this.firstT = t;
    }
    this.frames++;
    if (t - this.lastAt < this.everyMs) return null;
    this.lastAt = t;
    const lines = this.grid(t, readings);
    if (!this.options.tty) return [...lines, ''];
    // back to the first line of the previous grid, then clear and rewrite each line
    const out = lines.map((l) => `${ESC}2K${l}`);
    out[0] = (this.printed ? `${ESC}${this.printed}F` : `${ESC}?25l`) + out[0];
    this.printed = lines.length;
    return out;
  }

  /** What leaves the terminal as it was (the cursor shown again); nothing on a pipe. */
  finish(): string[] {
    return this.options.tty ? [`${ESC}?25h`] : [];
  }

  private grid(t: number, readings: ArrayLike<number>): string[] {
    const secs = (t - this.firstT) / 1000;
    const rate = secs > 0.5 ? ` (${Math.round((this.frames - 1) / secs)}/s)` : '';
    const lo = Math.round(this.sn.qMin / MV_PER_COUNT),
      hi = Math.round(this.sn.qMax / MV_PER_COUNT);
    return [
      `${this.options.id ? `Board ${this.options.id}: ` : ''}live readings, counts 0–1023, frame ${this.frames}${rate} — Ctrl-C to leave`,
      ...gridLines(readings),
      movedLine(readings, this.base!),
      `empty ${lo}–${hi} on a working ${this.sn.key}; a coin over a square raises it (or lowers it, magnet the other way up)`,
    ];
  }
}
