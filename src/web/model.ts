// The page's data: the protocol's types as the page uses them (the parsed
// message is used directly, see src/protocol/v1.ts), replaying a game's move
// records to show any earlier position (review mode), the board geometry
// the renderer needs, and a time control tag written the way the form takes it.

import type { MoveRecord, Piece, Side } from '../protocol/v1.ts';

export type {
  Alert,
  BoardStatus as Status,
  CalibrationProgress as Calibration,
  ClockState as Clock,
  Fix,
  GameRecord,
  MoveRecord as Move,
  Piece,
  ServerInfo,
  Side,
  Snapshot,
  ArchiveEntry,
} from '../protocol/v1.ts';

/**
 * The pieces after the first `plies` moves, replayed from the start position:
 * the huffed piece goes, the mover goes from `from` to `to` (crowned if so),
 * the captured pieces go. Exact for every record the session or the archive sends.
 */
export function piecesAfter(start: readonly Piece[], moves: readonly MoveRecord[], plies: number): Piece[] {
  const at = new Map<number, Piece>(start.map((p) => [p.square, p]));
  for (const m of moves.slice(0, plies)) {
    if (m.huff !== null) at.delete(m.huff);
    const p = at.get(m.from);
    at.delete(m.from);
    for (const c of m.captures) at.delete(c);
    at.set(m.to, { square: m.to, color: p?.color ?? m.side, king: (p?.king ?? false) || m.crowned });
  }
  return [...at.values()].sort((a, b) => a.square - b.square);
}

// ------------------------------------------------------------------ geometry

/** Row (0–7, 0 = squares 1–4 at Black's side) and column (0–7) of square 1–32. */
export function squareRowCol(square: number): { row: number; col: number } {
  const i = square - 1;
  const row = i >> 2;
  return { row, col: 2 * (i & 3) + ((row & 1) === 0 ? 1 : 0) };
}

/** Where square 1–32 is drawn (x = column, y = row from the top), flipped or not. */
export function squareXY(square: number, flipped: boolean): { x: number; y: number } {
  const { row, col } = squareRowCol(square);
  return flipped ? { x: 7 - col, y: 7 - row } : { x: col, y: row };
}

/** The number of coins the game position puts on each square (a king is two). */
export function expectedCounts(pieces: readonly Piece[]): number[] {
  const out = new Array<number>(32).fill(0);
  for (const p of pieces) out[p.square - 1] = p.king ? 2 : 1;
  return out;
}

export { sideName } from '../rules/position.ts';
export const other = (s: Side): Side => (s === 'black' ? 'white' : 'black');

// ------------------------------------------------------------------ forms

/** A TimeControl tag in the form's notation: "300+3" → "300s+3s", "40/5400:1800" → "40/5400s,1800s" (per move: as it is). */
export function formTimeControl(tag: string): string {
  if (!tag || /\/\s*(move|forced|grace)/.test(tag)) return tag;
  const secs = (t: string) => (/^\d+$/.test(t) ? `${t}s` : t);
  if (tag.includes(':') || tag.includes('/'))
    return tag
      .split(':')
      .map((p) => (p.includes('/') ? `${p.split('/')[0]}/${secs(p.split('/')[1])}` : secs(p)))
      .join(',');
  return tag.split('+').map(secs).join('+');
}

/** A result in words, as both pages say it (ACF 2-0 style scores too). */
export const RESULT_WORDS: Readonly<Record<string, string>> = {
  '1-0': 'Black wins',
  '0-1': 'White wins',
  '1/2-1/2': 'Draw',
  '2-0': 'Black wins',
  '0-2': 'White wins',
  '1-1': 'Draw',
  '0-0': 'No result',
};
