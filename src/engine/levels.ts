// Playing levels 1–10 and the one entry point the rest of Crownhead calls:
// `think(request, tools)` → the move, its score and line. A level caps the
// depth and the time, and below level 7 adds seeded noise to every root
// move's score, so a low level is fast and fallible (it misjudges, and now and
// then drops a man) while level 10 is the full search. Same seed, same moves.

import { hashPosition, playMove, type Move, type Position } from '../rules/index.ts';
import { seededRandom, type Book } from './book.ts';
import { WEIGHTS, type Weights } from './eval.ts';
import { NET, type Net } from './net.ts';
import { Searcher, WIN, type SearchLimits, type SearchResult } from './search.ts';
import { timeForMove } from './time.ts';
import type { EndgameProbe } from './egdb.ts';
import type { EngineRequest } from './port.ts';

/** The time a search at full strength gets when the service is not given another (its engine options), ms: a level uses its share. */
export const DEFAULT_THINK_MS = 2000;

export interface Level {
  readonly level: number;
  /** Deepest iteration (plies). */
  readonly maxDepth: number;
  /** Share of the time allowance the level may use (1 = all). */
  readonly timeShare: number;
  /** Root scores get a uniform random offset in ±noise (hundredths of a man). */
  readonly noise: number;
}

/**
 * The documented mapping. Noise 150 means a level-1 player often prefers a
 * move one and a half men worse on a quiet board; depth 2 means it sees a
 * one-move shot but not a two-move combination. From level 7 up there is no
 * noise, and each level has about twice the time of the one below (a ply or
 * so deeper): with shares 0.7 and 0.85 levels 8–10 searched to the same depth
 * in the same time and were a coin toss against each other (level 10 scored
 * 38 % against level 9 in the bench's short match). `npm run bench -- engine`
 * plays level k against level k−1.
 */
export const LEVELS: readonly Level[] = [
  { level: 1, maxDepth: 1, timeShare: 0.05, noise: 150 },
  { level: 2, maxDepth: 2, timeShare: 0.05, noise: 110 },
  { level: 3, maxDepth: 3, timeShare: 0.1, noise: 80 },
  { level: 4, maxDepth: 4, timeShare: 0.1, noise: 55 },
  { level: 5, maxDepth: 6, timeShare: 0.1, noise: 35 },
  { level: 6, maxDepth: 8, timeShare: 0.15, noise: 20 },
  { level: 7, maxDepth: 10, timeShare: 0.12, noise: 0 },
  { level: 8, maxDepth: 14, timeShare: 0.25, noise: 0 },
  { level: 9, maxDepth: 20, timeShare: 0.5, noise: 0 },
  { level: 10, maxDepth: 120, timeShare: 1, noise: 0 },
];

export function levelOf(n: number): Level {
  const l = LEVELS[n - 1];
  if (!Number.isInteger(n) || !l) throw new RangeError(`level must be a whole number from 1 to 10, not ${n}`);
  return l;
}

/**
 * What the in-process engine searches with, besides the request: state and
 * data the caller owns (a searcher kept across a game, the endgame database,
 * the opening book, trial weights) and the hooks of a search.
 */
export interface EngineTools {
  /** Reuse a searcher (its hash table and history) across the moves of a game. */
  readonly searcher?: Searcher;
  /** Exact endgame values (see egdb.ts); used by a level-7-or-better search. */
  readonly egdb?: EndgameProbe | null;
  /** An opening book (book.ts): in book, its move is played (levels 5 and up, or no level) unless the request's book is 'off'. */
  readonly book?: Book | null;
  /** The evaluation's weights (default eval.ts WEIGHTS; the tuner tries others). */
  readonly weights?: Weights;
  /**
   * The evaluation network (net.ts); null: the hand-tuned evaluation. By default NET from NET_FROM_LEVEL up (and
   * with no level) unless `weights` is given.
   */
  readonly net?: Net | null;
  /** The clock, ms (default performance.now); tests pass a fake one. */
  readonly now?: () => number;
  /** Polled during the search: true stops it (the last completed iteration stands). */
  readonly shouldStop?: () => boolean;
  /** Called after every completed iteration. */
  readonly onIteration?: (info: SearchResult) => void;
}

const rng = seededRandom;

/**
 * The lowest level that evaluates with the network (and a request with no level), or null: the hand-tuned
 * evaluation everywhere. Levels 1–4 keep the hand-tuned one (its mistakes are more human). Against the hand-tuned
 * table (bench/results/net-2026-11-29.txt), the first network: +18 Elo at 20,000 nodes a move, +10 at 100,000, +26
 * (95 % −15 … +68) at 100 ms a move over 53 pairs; the second (1.45 M positions) against the first: +61 Elo
 * (95 % +37 … +85) at 100 ms over 104 pairs, SPRT H1.
 */
export const NET_FROM_LEVEL: number | null = 5;

/** Depth of the short search that scores a book move (and gives its line). */
const BOOK_SCORE_DEPTH = 6;

/** The engine's choice for the side to move: the one request (port.ts) answered in this thread. */
export function think(req: EngineRequest, tools: EngineTools = {}): SearchResult {
  const pos = req.position,
    lim = req.limits;
  const searcher = tools.searcher ?? new Searcher(lim.level !== undefined && lim.level <= 6 ? 16 : 20);
  const weights = tools.weights ?? WEIGHTS;
  const game = {
    ...(req.history ? { history: req.history } : {}),
    ...(req.quietPlies !== undefined ? { quietPlies: req.quietPlies } : {}),
  };
  const hooks = {
    ...(tools.now ? { now: tools.now } : {}),
    ...(tools.shouldStop ? { shouldStop: tools.shouldStop } : {}),
    ...(tools.onIteration ? { onIteration: tools.onIteration } : {}),
  };
  const bookMode = lim.book ?? 'best';
  if (tools.book && bookMode !== 'off' && (lim.level === undefined || lim.level >= 5)) {
    const h = hashPosition(pos);
    const m = tools.book.choose(pos, bookMode, rng((lim.seed ?? 1) ^ h.lo ^ h.hi));
    if (m) {
      // In book: play its move; a short search after it gives the score and the line.
      // (Within the move's time too: on a busy machine depth 6 can take longer than a short move may.)
      const bookTime = Math.min(lim.timeMs ?? Infinity, lim.clock ? timeForMove(lim.clock) : Infinity);
      const r = searcher.search(playMove(pos, m), {
        depth: BOOK_SCORE_DEPTH,
        ...(bookTime < Infinity ? { timeMs: bookTime } : {}),
        weights,
        ...(req.history ? { history: req.history } : {}),
        ...(tools.now ? { now: tools.now } : {}),
        quietPlies: m.captures.length || !(pos.kings & (1 << (m.from - 1))) ? 0 : (req.quietPlies ?? 0) + 1,
      });
      return { move: m, score: r.move ? -r.score : WIN, depth: r.depth + 1, pv: [m, ...r.pv], nodes: r.nodes, ms: r.ms, book: true };
    }
  }
  const base = {
    ...(lim.depth !== undefined ? { depth: lim.depth } : {}),
    ...(lim.nodes !== undefined ? { nodes: lim.nodes } : {}),
    ...(lim.timeMs !== undefined ? { timeMs: lim.timeMs } : {}),
    ...(lim.clock ? { clock: lim.clock } : {}),
  };
  let limits: SearchLimits = { ...base, ...game, ...hooks };
  let rootNoise: ((m: Move) => number) | null = null;
  if (lim.level !== undefined) {
    const lv = levelOf(lim.level);
    const depth = Math.min(lv.maxDepth, lim.depth ?? Infinity);
    limits = {
      ...limits,
      depth,
      ...(lim.timeMs !== undefined ? { timeMs: lim.timeMs * lv.timeShare } : {}),
      ...(lim.clock
        ? {
            clock: {
              ...lim.clock,
              remainingMs: lim.clock.remainingMs * lv.timeShare,
              incrementMs: (lim.clock.incrementMs ?? 0) * lv.timeShare,
            },
          }
        : {}),
    };
    if (lv.noise > 0) {
      const random = rng((lim.seed ?? 1) ^ (pos.black * 31 + pos.white * 17 + pos.kings));
      const offsets = new Map<string, number>();
      rootNoise = (m) => {
        const k = `${m.from}-${m.path.join('-')}`;
        let o = offsets.get(k);
        if (o === undefined) offsets.set(k, (o = Math.round((random() * 2 - 1) * lv.noise)));
        return o;
      };
    }
  }
  // Low levels play on their own judgement even in the endgame.
  const egdb = tools.egdb && (lim.level === undefined || lim.level >= 7) ? tools.egdb : null;
  const byLevel = NET_FROM_LEVEL !== null && (lim.level === undefined || lim.level >= NET_FROM_LEVEL);
  const net = tools.net !== undefined ? tools.net : !tools.weights && byLevel ? NET : null;
  // An analysis's positions are shared among lanes in any order: each is searched as if first (search-limits.ts).
  const freshHistory = req.purpose === 'analysis';
  const r = searcher.search(pos, { ...limits, weights, egdb, rootNoise, net, freshHistory });
  // Report the search's own score of the chosen move, without the level's noise.
  const noise = rootNoise && r.move ? rootNoise(r.move) : 0;
  return noise ? { ...r, score: r.score - noise } : r;
}
