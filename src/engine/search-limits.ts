// What one search is asked and what it gives: the limits (depth, nodes, time
// per move or a running clock, the game's 40-move count and history, the
// hooks that stop it or watch it), the options it searches with (the endgame
// database, the weights, a level's noise, pruning, reductions, a fresh
// history), and its result (the port's). Types only: search.ts takes them,
// levels.ts builds them.

import type { Move } from '../rules/index.ts';
import type { EndgameProbe } from './egdb.ts';
import type { Weights } from './eval.ts';
import type { Net } from './net.ts';
import type { Clock, EngineResult } from './port.ts';

export interface SearchLimits {
  /** Stop after completing this depth (plies). */
  readonly depth?: number;
  /** Stop once this many nodes have been searched (checked between nodes; deterministic). */
  readonly nodes?: number;
  /** Time for this move, ms. */
  readonly timeMs?: number;
  /** Or derive the time from a running clock (with timeMs too: whichever is less). */
  readonly clock?: Clock;
  /** The clock, ms (defaults to performance.now). Tests pass a fake one. */
  readonly now?: () => number;
  /**
   * Plies since the last capture or man move (the game's Game.quietPlies): the
   * 40-move rule lets a player claim a draw once it reaches 80, so a line that
   * gets there scores as a draw, and an endgame-database win is only taken as
   * exact when it ends inside the count. Default 0.
   */
  readonly quietPlies?: number;
  /** Hashes (Hash.hi * 2³² + lo) of positions earlier in the game, for repetition draws. */
  readonly history?: readonly number[];
  /** Polled every 1024 nodes: true stops the search (the last completed iteration stands). */
  readonly shouldStop?: () => boolean;
  /** Called after every completed iteration. */
  readonly onIteration?: (info: SearchResult) => void;
}

/** What one search gives: the port's result (port.ts). */
export type SearchResult = EngineResult;

/** A search's limits and what it searches with, given as one value to Searcher.search (nobody sets its fields). */
export interface SearchOptions extends SearchLimits {
  /** Exact values for positions with few pieces (egdb.ts); none when absent. */
  readonly egdb?: EndgameProbe | null;
  /** The evaluation's weight table (default eval.ts WEIGHTS; a tuner or a test tries another). */
  readonly weights?: Weights;
  /** Added to each root move's score (a level's noise); none when absent. */
  readonly rootNoise?: ((move: Move) => number) | null;
  /** Verified pruning off the principal line (default on); off: every move searched to full depth (a measure of what it saves). */
  readonly pruning?: boolean;
  /** Evaluate with this network (net.ts) instead of the weights; none when absent. */
  readonly net?: Net | null;
  /** Late-move reductions off the principal line (default on; reductions.ts); off: a late quiet move is searched to full depth. */
  readonly reductions?: boolean;
  /**
   * Start the move-ordering history afresh (it decides which late moves are reduced) instead of from a quarter of the
   * last search's: an analysis lane's positions come in any order, so none leans on the one searched before it.
   */
  readonly freshHistory?: boolean;
}
