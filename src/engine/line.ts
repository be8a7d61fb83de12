// The search's line as the rules' Moves: packed moves (moves.ts) unpacked
// against the legal moves of each position, and the endgame database's best
// play appended where the search's line reached it.

import { legalMoves, playMove, type Move, type Position } from '../rules/index.ts';
import { WIN_BASE, type EndgameProbe } from './egdb.ts';
import { mFrom, mTo } from './moves.ts';

/** The captured squares of a rules Move as a bitboard. */
export function capMaskOf(m: Move): number {
  let c = 0;
  for (const s of m.captures) c |= 1 << (s - 1);
  return c;
}

/** Packed moves (moves.ts) played from a position, as the rules' Moves (the first of equal routes). */
export function movesOf(pos: Position, packed: ArrayLike<number>, caps: ArrayLike<number>): Move[] {
  const out: Move[] = [];
  let p = pos;
  for (let j = 0; j < packed.length; j++) {
    const from = mFrom(packed[j]!) + 1,
      to = mTo(packed[j]!) + 1;
    const m = legalMoves(p).find((l) => l.from === from && l.to === to && capMaskOf(l) === caps[j]);
    if (!m) break; // never: both generators agree
    out.push(m);
    p = playMove(p, m);
  }
  return out;
}

/** The root's legal move (rules Move) a packed move stands for. */
export function moveOf(legal: readonly Move[], packed: number, cap: number): Move {
  const from = mFrom(packed) + 1,
    to = mTo(packed) + 1;
  for (const m of legal) if (m.from === from && m.to === to && capMaskOf(m) === cap) return m;
  throw new Error(`the search's move ${from}-${to} is not legal at the root`); // never: both generators agree (moves.test.ts)
}

/** The line goes on where the endgame database took over: its best play to the end. */
export function extendWithEgdb(egdb: EndgameProbe, pos: Position, pv: readonly Move[]): Move[] {
  let p = pos;
  for (const m of pv) p = playMove(p, m);
  const out = [...pv];
  while (out.length < 80) {
    const v = egdb.probe(p);
    if (v === null || v === 0) break;
    let best: Move | null = null,
      bestKey = Infinity;
    for (const m of legalMoves(p)) {
      const c = egdb.probe(playMove(p, m))!;
      // Winning: the reply that loses fastest; losing: the longest defence.
      const key = v > 0 ? (c < 0 ? WIN_BASE + c : Infinity) : c > 0 ? -(WIN_BASE - c) : Infinity;
      if (key < bestKey) [best, bestKey] = [m, key];
    }
    if (!best) break;
    out.push(best);
    p = playMove(p, best);
  }
  return out;
}
