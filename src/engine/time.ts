// The search's time policy, as pure functions of what it is given (no clock
// is read here): how long a move may take, and after each finished iteration
// whether to start another and where the running one is cut. A time per move
// is what a move takes on average: a move whose best choice keeps changing
// between iterations, or whose score falls, may run past it up to half as
// long again (never near the twice it the match harness allows before a loss
// on time); an easy one — every move a capture with at most two to choose
// from (a recapture, an exchange under way) — stops at 40 % of it, and one
// whose move and score have held for many iterations at 85 %. A running clock
// gives a target that is larger in the middlegame than in the opening or the
// ending, scaled the same way, and a hard limit that keeps a reserve so the
// clock never runs out. Past the target only while the move is unsettled.

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

/** How far past a time per move an unsettled move may run (the harness loses a move only past twice it, plus a grace). */
export const STRETCH = 1.5;

/**
 * The budget of one search. A time per move is the target, and the hard limit
 * is STRETCH times it; a clock gives timeForMove as the target and up to
 * three times it as the limit, but never more than a third of what is left
 * nor into the reserve. Both: the lesser of each. Neither: unlimited.
 */
export function timeBudget(limits: { readonly timeMs?: number; readonly clock?: Clock }, pieces?: number): TimeBudget {
  let target = limits.timeMs ?? Infinity,
    max = limits.timeMs !== undefined ? limits.timeMs * STRETCH : Infinity;
  if (limits.clock) {
    const c = limits.clock;
    const t = timeForMove(c, pieces);
    const hard = Math.max(1, Math.min(3 * t, c.remainingMs / 3, c.remainingMs - CLOCK_RESERVE_MS));
    target = Math.min(target, t);
    max = Math.min(max, Math.max(t, hard));
  }
  return { targetMs: target, maxMs: Math.max(target, max) };
}

/** What the search knows after a finished iteration. */
export interface IterationState {
  readonly elapsedMs: number;
  /** Finished iterations in a row (this one included) that chose the same move. */
  readonly sameMove: number;
  /** The previous iteration's score minus this one's (positive: falling). */
  readonly scoreDrop: number;
  /** Of the last CHANGE_WINDOW iterations (this one included), how many chose another move than the one before. */
  readonly changes?: number;
  /** Every legal move a capture, at most two of them (a recapture, an exchange under way). */
  readonly easy?: boolean;
}

/** Same move this many iterations running, score steady: the move is clear. */
export const CLEAR_AFTER = 8;
/** The iterations over which changes of the best move are counted. */
export const CHANGE_WINDOW = 4;

/**
 * The share of the target this move deserves: 1 as a rule; more while the
 * best move changes (a quarter more per change among the last iterations) or
 * the score falls (30 centi-men: half as much again, 60: all the limit
 * allows), up to the hard limit; less when it is easy (0.4) or clear (0.85).
 */
export function timeScale(b: TimeBudget, s: IterationState): number {
  const most = b.maxMs / b.targetMs;
  let f = 1 + 0.25 * (s.changes ?? 0);
  if (s.scoreDrop >= 60) f = most;
  else if (s.scoreDrop >= 30) f = Math.max(f, 1.5);
  if (f > 1) return Math.min(f, most);
  if (s.easy) return 0.4;
  if (s.sameMove >= CLEAR_AFTER && Math.abs(s.scoreDrop) < 15) return 0.85;
  return 1;
}

/** After a finished iteration: start another (go), and where, from the start of the search, the next one is cut. */
export interface TimeDecision {
  readonly go: boolean;
  readonly deadlineMs: number;
}

/** Start another iteration? Only short of the scaled target; the next is cut at the target, or past it while unsettled. */
export function nextIteration(b: TimeBudget, s: IterationState): TimeDecision {
  if (b.targetMs === Infinity) return { go: true, deadlineMs: Infinity }; // no time limit (a depth, a node count)
  const f = timeScale(b, s);
  const deadlineMs = Math.min(b.maxMs, b.targetMs * Math.max(1, f));
  return { go: s.elapsedMs < Math.min(b.maxMs, b.targetMs * f), deadlineMs };
}

/** Start another iteration? (nextIteration's go.) */
export function keepSearching(b: TimeBudget, s: IterationState): boolean {
  return nextIteration(b, s).go;
}
