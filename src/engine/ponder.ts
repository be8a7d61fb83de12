// Thinking on the opponent's time (pondering), as pure decisions: after the
// engine's move, the reply it expects is the second move of its line; the
// position after both is the one to search while the opponent thinks (the
// ponder position). When the opponent has moved, the ponder was a hit if the
// position on the board is that one (the search's hash table already holds
// its tree: the search of the real move starts warm), else a miss (the ponder
// search is stopped and the position searched afresh). A ponder search has no
// time of its own: it runs until it is told (stopped) or reaches its depth.

import { legalMoves, playMove, sameMove, samePosition, type Move, type Position } from '../rules/index.ts';
import type { EngineLimits, EngineResult } from './port.ts';

/** The search of the position the engine expects next. */
export interface PonderPlan {
  /** The engine's own move (the line's first). */
  readonly move: Move;
  /** The reply it expects (the line's second). */
  readonly expected: Move;
  /** The position after both: the one searched on the opponent's time (the engine is to move there). */
  readonly position: Position;
}

/** Deepest iteration of a ponder search: it runs until stopped (the search's own cap is lower). */
export const PONDER_DEPTH = 100;

/** A ponder search's limits: as deep as the time the opponent takes allows, no time of its own (stopped by the caller). */
export function ponderLimits(maxDepth = PONDER_DEPTH): EngineLimits {
  return { depth: Math.min(maxDepth, PONDER_DEPTH), book: 'off' };
}

/**
 * What to ponder after playing `result.move` from `pos`: the expected reply
 * and the position after it; null when the line has no reply (a short line, a
 * game that ends) or the line is not legal from `pos` (a stale result).
 */
export function ponderPlan(pos: Position, result: Pick<EngineResult, 'move' | 'pv'>): PonderPlan | null {
  const [first, reply] = result.pv;
  if (!result.move || !first || !reply || !sameMove(first, result.move)) return null;
  if (!legalMoves(pos).some((m) => sameMove(m, first))) return null;
  const after = playMove(pos, first);
  if (!legalMoves(after).some((m) => sameMove(m, reply))) return null;
  const position = playMove(after, reply);
  if (legalMoves(position).length === 0) return null; // the expected reply ends the game: nothing to search
  return { move: first, expected: reply, position };
}

/** The opponent has moved: was it the expected reply (the ponder position is on the board)? */
export function ponderHit(plan: PonderPlan, now: Position): boolean {
  return samePosition(plan.position, now);
}
