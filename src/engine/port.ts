// The engine's one port: the request every caller makes (the computer
// opponent, a hint, the evaluation bar, game analysis, the CLI's bestmove and
// analyse, the worker's messages), the result it gets, the one `Clock` (time
// left on the mover's clock) and the `Think` function type the game side is
// given. Types only: plain values, so a request crosses the worker boundary
// as it is.

import type { Move, Position } from '../rules/index.ts';
import type { BookMode } from './book.ts';

/** Time left on the mover's clock, as the engine sees it. */
export interface Clock {
  /** Time left on the mover's clock, ms. */
  readonly remainingMs: number;
  /** Increment (or delay) added per move, ms. */
  readonly incrementMs?: number;
  /** Moves to the next time control, when known. */
  readonly movesToGo?: number;
}

/**
 * Why the engine is asked: the computer's move, a hint, the evaluation bar, the after-game analysis, or the
 * computer thinking on the player's time (ponder.ts: the position after the reply it expects, until stopped).
 */
export type Purpose = 'computer' | 'hint' | 'evaluation' | 'analysis' | 'ponder';

/** How far and how well to search. */
export interface EngineLimits {
  /** Stop after completing this depth (plies). */
  readonly depth?: number;
  /** Stop once this many nodes have been searched (deterministic). */
  readonly nodes?: number;
  /** Time for this move, ms (a level uses its share of it). */
  readonly timeMs?: number;
  /** Or the time from the mover's running clock (with timeMs too: whichever is less). */
  readonly clock?: Clock;
  /** 1–10; omitted = full strength within the other limits. */
  readonly level?: number;
  /** Seed for a level's and the book's randomness (same seed, same choices). */
  readonly seed?: number;
  /** The opening book: its most-played move ('best'), a seeded random one ('random') or none ('off'). The worker plays none unless asked; the in-process `think` plays a book it is given, 'best' by default. */
  readonly book?: BookMode | 'off';
}

/** One question to the engine. */
export interface EngineRequest {
  readonly position: Position;
  /** Zobrist keys (Hash.hi · 2³² + lo) of the game's positions before this one (repetition draws). */
  readonly history?: readonly number[];
  /** The game's 40-move count (Game.quietPlies), so the engine plays inside the rule. */
  readonly quietPlies?: number;
  readonly limits: EngineLimits;
  /** What it is for (the scheduler takes the computer's move first). Default 'computer'. */
  readonly purpose?: Purpose;
  /** An analysis search's lane (0 … lanes − 1 of its `Think`): the lane's own engine runs it, so one lane's searches share a hash table. */
  readonly lane?: number;
}

/** The engine's answer. */
export interface EngineResult {
  /** The chosen move (null only when there is no legal move). */
  readonly move: Move | null;
  /** Score in hundredths of a man for the side to move; ±(WIN − n) is a win/loss in n plies. */
  readonly score: number;
  /** Depth of the last completed iteration. */
  readonly depth: number;
  readonly pv: readonly Move[];
  readonly nodes: number;
  readonly ms: number;
  /** True when the move came from the opening book (the score and line are a short search after it). */
  readonly book?: boolean;
}

/**
 * The engine as the game side sees it: a result, or null when the search was
 * dropped (superseded or cancelled). `lanes`: how many analysis searches it
 * runs at once (the service's analysis workers, one per core; absent: one),
 * so the after-game analysis asks that many positions at a time, each naming
 * its lane.
 */
export type Think = ((req: EngineRequest) => Promise<EngineResult | null>) & { readonly lanes?: number };
