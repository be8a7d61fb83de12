// The search's time policy, as pure functions of what it is given (no clock
// is read here): how long a move may take — a fixed time per move is used in
// full; a running clock gives a target that is larger in the middlegame than
// in the opening or the ending, and a hard limit that keeps a reserve so the
// clock never runs out — and, after each finished iteration, whether to start
// another. The search stops early only when the move is clear (a proven
// result, or the same move and score for many iterations with most of the
// time spent) and may run past the target, up to the hard limit, while its
// score is falling.

import type { Clock } from './port.ts';

export interface TimeBudget {
  /** Aim to have finished by this, ms from the start of the search. */
  readonly targetMs: number;
  /** Never past this (the search is stopped mid-iteration and keeps what it has). */
  readonly maxMs: number;
}

/** Moves a game still needs, as the policy assumes for the slice of a clock. */
const MOVES_AHEAD = 30;
/** Kept on the clock whatever happens: the answer's way back, a busy machine. */
export const CLOCK_RESERVE_MS = 50;

/**
 * How much of an even slice of the clock a move gets by the pieces on the
 * board: the opening is short (the book and the first plies are simple), the
 * middlegame, where games are decided, gets the most, the ending (deep but
 * narrow, and the endgame database) in between. Unknown: 1.
 */
export function phaseWeight(pieces?: number): number {
  if (pieces === undefined) return 1;
  if (pieces >= 21) return 0.7;
  if (pieces >= 11) return 1.4;
  return 1;
}

/** Time for one move from a clock: a slice of what is left plus most of the increment, never more than a third. */
export function timeForMove(clock: Clock, pieces?: number): number {
  const inc = clock.incrementMs ?? 0;
  const togo = clock.movesToGo && clock.movesToGo > 0 ? Math.min(clock.movesToGo, MOVES_AHEAD) : MOVES_AHEAD;
  const t = (clock.remainingMs / togo) * phaseWeight(pieces) + inc * 0.8;
  return Math.max(1, Math.min(t, clock.remainingMs / 3, Math.max(0, clock.remainingMs - CLOCK_RESERVE_MS)));
}

/**
 * The budget of one search. A time per move is the target and the limit both
 * (use it all, stop only when clear); a clock gives timeForMove as the target
 * and up to three times it as the limit, but never more than a third of what
 * is left nor into the reserve. Both: the lesser of each. Neither: unlimited.
 */
export function timeBudget(limits: { readonly timeMs?: number; readonly clock?: Clock }, pieces?: number): TimeBudget {
  let target = limits.timeMs ?? Infinity,
    max = limits.timeMs ?? Infinity;
  if (limits.clock) {
    const c = limits.clock;
    const t = timeForMove(c, pieces);
    const hard = Math.max(1, Math.min(3 * t, c.remainingMs / 3, c.remainingMs - CLOCK_RESERVE_MS));
    target = Math.min(target, t);
    max = Math.min(max, Math.max(t, hard));
  }
  return { targetMs: target, maxMs: max };
}

/** What the search knows after a finished iteration. */
export interface IterationState {
  readonly elapsedMs: number;
  /** Finished iterations in a row (this one included) that chose the same move. */
  readonly sameMove: number;
  /** The previous iteration's score minus this one's (positive: falling). */
  readonly scoreDrop: number;
}

/** Same move this many iterations running, score steady: the move is clear. */
export const CLEAR_AFTER = 8;

/** Start another iteration? */
export function keepSearching(b: TimeBudget, s: IterationState): boolean {
  if (s.elapsedMs >= b.maxMs) return false;
  // A falling score: look further, up to the hard limit.
  if (s.scoreDrop >= 30) return true;
  if (s.elapsedMs >= b.targetMs) return false;
  // A clear move: the same for many iterations, its score steady, most of the time spent.
  if (s.sameMove >= CLEAR_AFTER && Math.abs(s.scoreDrop) < 15 && s.elapsedMs >= 0.6 * b.targetMs) return false;
  return true;
}
