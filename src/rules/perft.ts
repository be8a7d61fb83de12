// Perft with divide, for the CLI and tests.

import { legalMoves, playMove, perft, type Move, type RulesOptions } from './movegen.ts';
import type { Position } from './position.ts';

export { perft };

export interface DivideEntry {
  move: Move;
  nodes: number;
}

/** Perft split by first move. */
export function perftDivide(pos: Position, depth: number, opts: RulesOptions = {}): DivideEntry[] {
  if (depth < 1) throw new RangeError('divide needs depth ≥ 1');
  return legalMoves(pos, opts).map((move) => ({ move, nodes: perft(playMove(pos, move), depth - 1, opts) }));
}
