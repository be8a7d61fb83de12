// Coin-count boards: what the sensors can see of a position (0 empty, 1 man,
// 2 king — colours are invisible), and the comparisons the tracker makes
// against positions and moves. Boards are Uint8Array(32), index 0 = square 1.

import { colorAt, legalMoves, playMove, type Color, type Move, type Position, type RulesOptions } from '../rules/index.ts';

export type Counts = Uint8Array;

export function countsOf(pos: Position): Counts {
  const c = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const b = 1 << i;
    if ((pos.black | pos.white) & b) c[i] = pos.kings & b ? 2 : 1;
  }
  return c;
}

export function sameCounts(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Squares (1–32) where two boards differ. */
export function diffSquares(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) out.push(i + 1);
  return out;
}

/** A candidate result: the position after a move, and the board it shows. */
export interface Outcome {
  move: Move;
  after: Position;
  counts: Counts;
}

export function outcomes(pos: Position, opts: RulesOptions): Outcome[] {
  return legalMoves(pos, opts).map((move) => {
    const after = playMove(pos, move);
    return { move, after, counts: countsOf(after) };
  });
}

/**
 * Does the board show the result of this move? A crowning move may show the
 * new king as the man alone (1 coin, crown still to come) or already stacked (2).
 * Returns 'crowned' / 'uncrowned' / false.
 */
export function matchesResult(board: ArrayLike<number>, o: Outcome): 'crowned' | 'uncrowned' | false {
  const to = o.move.to - 1;
  for (let i = 0; i < 32; i++) {
    if (i === to) continue;
    if (board[i] !== o.counts[i]) return false;
  }
  if (board[to] === o.counts[to]) return o.move.crowned ? 'crowned' : 'uncrowned';
  if (o.move.crowned && board[to] === 1) return 'uncrowned';
  return false;
}

/**
 * Is the board part-way through this move from `before`? The piece lifted or
 * standing on one landing square of its path, and any of the captured pieces
 * already gone, in any order; nothing else changed.
 */
export function isPartOf(board: ArrayLike<number>, before: Counts, move: Move, kingRowCrown: boolean): boolean {
  const from = move.from - 1;
  const size = before[from];
  let touched = 1 << from;
  for (const p of move.path) touched |= 1 << (p - 1);
  let capMask = 0;
  for (const c of move.captures) capMask |= 1 << (c - 1);
  let pieceSeen = 0;
  for (let i = 0; i < 32; i++) {
    const b = board[i];
    const bit = 1 << i;
    if (capMask & bit) {
      if (b !== before[i] && b !== 0) return false;
      continue;
    }
    if (touched & bit) {
      if (i === from && b === size) {
        pieceSeen++;
        continue;
      }
      if (b === 0) continue;
      // The start square holds the piece or nothing (unless a king's route comes back to it).
      if (i === from && !move.path.includes(move.from)) return false;
      // The moving piece resting on a landing square (a man may show crowned where it reaches the far row).
      if (b === size || (kingRowCrown && size === 1 && b === 2 && move.crowned)) {
        pieceSeen++;
        continue;
      }
      return false;
    }
    if (b !== before[i]) return false;
  }
  return pieceSeen <= 1;
}

export type PieceName = 'black man' | 'black king' | 'white man' | 'white king';

export function pieceName(pos: Position, square: number): PieceName | null {
  const c = colorAt(pos, square);
  if (!c) return null;
  return `${c} ${(pos.kings & (1 << (square - 1))) !== 0 ? 'king' : 'man'}` as PieceName;
}

export { sideName } from '../rules/index.ts';
