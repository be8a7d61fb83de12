// The search: iterative-deepening principal-variation alpha-beta with a
// transposition table on the rules' Zobrist keys, move ordering (hash move,
// killers, history), and a quiescence that never stops while a capture is
// pending (captures are compulsory, so an exchange is always played out).
// Pure and deterministic: the clock is an input (`now`), and a fixed depth or
// node count gives the same answer on every run.

import {
  hasCapture,
  hashAfter,
  hashPosition,
  legalMoves,
  playMove,
  sameMove,
  type Hash,
  type Move,
  type Position,
} from '../rules/index.ts';
import { evaluate, WEIGHTS, type Weights } from './eval.ts';
import { WIN_BASE, type Egdb } from './egdb.ts';
import type { Clock, EngineResult } from './port.ts';
import { CrownheadError } from '../common/errors.ts';

export type { Clock } from './port.ts';

export const WIN = 30000;
/** Scores beyond this are forced wins/losses (WIN − plies to the end). */
export const WIN_BOUND = WIN - 1000;
const MAX_PLY = 128;
/** The 40-move rule: a draw may be claimed after this many plies without a capture or a man's move. */
const FORTY_MOVES = 80;
/** From this quiet count on, the count is part of the hash-table key (a score near the rule depends on it). */
const QUIET_KEYED = 16;
const QUIET_KEYS = Array.from({ length: 2 * FORTY_MOVES + 2 }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(i + 7, 0x85ebca6b)) | 0);

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
  readonly egdb?: Egdb | null;
  /** The evaluation's weight table (default eval.ts WEIGHTS; a tuner or a test tries another). */
  readonly weights?: Weights;
  /** Added to each root move's score (a level's noise); none when absent. */
  readonly rootNoise?: ((move: Move) => number) | null;
}

// ---------------------------------------------------------------------------
// Transposition table

const EXACT = 1,
  LOWER = 2,
  UPPER = 3;

export class TranspositionTable {
  readonly size: number;
  private readonly mask: number;
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  private readonly depth: Int8Array;
  private readonly flag: Uint8Array;
  private readonly score: Int16Array;
  private readonly move: Int16Array;

  constructor(bits = 20) {
    this.size = 1 << bits;
    this.mask = this.size - 1;
    this.lo = new Int32Array(this.size);
    this.hi = new Int32Array(this.size);
    this.depth = new Int8Array(this.size);
    this.flag = new Uint8Array(this.size);
    this.score = new Int16Array(this.size);
    this.move = new Int16Array(this.size);
  }

  clear(): void {
    this.flag.fill(0);
  }

  /** Slot of a hash if stored, else −1. */
  probe(h: Hash): number {
    const i = h.lo & this.mask;
    return this.flag[i] !== 0 && this.lo[i] === (h.lo | 0) && this.hi[i] === h.hi ? i : -1;
  }

  store(h: Hash, depth: number, flag: number, score: number, move: number): void {
    const i = h.lo & this.mask;
    // Depth-preferred, but always replace a different position.
    if (this.flag[i] !== 0 && this.lo[i] === (h.lo | 0) && this.hi[i] === h.hi && this.depth[i] > depth && flag !== EXACT) return;
    this.lo[i] = h.lo | 0;
    this.hi[i] = h.hi;
    this.depth[i] = Math.max(-128, Math.min(127, depth));
    this.flag[i] = flag;
    this.score[i] = score;
    this.move[i] = move;
  }

  entry(i: number): { depth: number; flag: number; score: number; move: number } {
    return { depth: this.depth[i], flag: this.flag[i], score: this.score[i], move: this.move[i] };
  }
}

// ---------------------------------------------------------------------------

/** A move's key for ordering tables: from·32 + to (0…1055), +1 so 0 means none. */
const keyOf = (m: Move): number => (m.from - 1) * 32 + (m.to - 1) + 1;
const hkey = (h: Hash): number => h.hi * 0x100000000 + h.lo;

/** Thrown through the search when it is told to stop (caught at its root). */
class Aborted extends CrownheadError<'aborted'> {
  override readonly name = 'Aborted';
  constructor() {
    super('aborted', 'search stopped');
  }
}

/** Time for one move from a clock: a slice of what is left plus most of the increment, never more than a third. */
export function timeForMove(clock: Clock): number {
  const inc = clock.incrementMs ?? 0;
  const togo = clock.movesToGo && clock.movesToGo > 0 ? Math.min(clock.movesToGo, 30) : 30;
  const t = clock.remainingMs / togo + inc * 0.8;
  return Math.max(1, Math.min(t, clock.remainingMs / 3, Math.max(0, clock.remainingMs - 50)));
}

export class Searcher {
  readonly tt: TranspositionTable;
  private killers = new Int16Array(MAX_PLY * 2);
  private hist = new Int32Array(2 * 1056);
  private pvTable: (Move | null)[][] = Array.from({ length: MAX_PLY + 1 }, () => new Array<Move | null>(MAX_PLY + 1).fill(null));
  private pvLen = new Int32Array(MAX_PLY + 1);
  private pathKeys: number[] = [];
  private pathIrreversible: boolean[] = [];
  /** Quiet plies (40-move rule count) at each ply of the current line. */
  private quietAt = new Int32Array(MAX_PLY + 2);
  private gameKeys = new Set<number>();
  nodes = 0;
  private inThreat = false;
  private rootBest: Move | null = null;
  private nodeLimit = Infinity;
  private deadline = Infinity;
  private now: () => number = () => performance.now();
  private shouldStop: () => boolean = () => false;
  /** Exact values for positions with few pieces (this search's SearchOptions.egdb). */
  private egdb: Egdb | null = null;
  /** The evaluation's weight table (this search's SearchOptions.weights). */
  private weights: Weights = WEIGHTS;
  /** Added to each root move's score (this search's SearchOptions.rootNoise). */
  private rootNoise: ((move: Move) => number) | null = null;

  constructor(ttBits = 20) {
    this.tt = new TranspositionTable(ttBits);
  }

  /** Forget everything learnt (a new game). */
  reset(): void {
    this.tt.clear();
    this.hist.fill(0);
    this.killers.fill(0);
  }

  search(pos: Position, limits: SearchOptions = {}): SearchResult {
    this.egdb = limits.egdb ?? null;
    this.weights = limits.weights ?? WEIGHTS;
    this.rootNoise = limits.rootNoise ?? null;
    this.now = limits.now ?? (() => performance.now());
    this.shouldStop = limits.shouldStop ?? (() => false);
    const t0 = this.now();
    let budget = Math.min(limits.timeMs ?? Infinity, limits.clock ? timeForMove(limits.clock) : Infinity);
    if (limits.depth === undefined && limits.nodes === undefined && budget === Infinity) budget = 1000;
    this.deadline = t0 + budget;
    this.nodeLimit = limits.nodes ?? Infinity;
    this.nodes = 0;
    this.killers.fill(0);
    for (let i = 0; i < this.hist.length; i++) this.hist[i] >>= 2;
    this.gameKeys = new Set(limits.history ?? []);
    this.quietAt[0] = limits.quietPlies ?? 0;
    const maxDepth = Math.min(limits.depth ?? MAX_PLY - 8, MAX_PLY - 8);
    const legal = legalMoves(pos);
    if (legal.length === 0) return { move: null, score: -WIN, depth: 0, pv: [], nodes: 0, ms: 0 };
    const h = hashPosition(pos);
    let best: SearchResult = { move: legal[0], score: 0, depth: 0, pv: [legal[0]], nodes: 0, ms: 0 };
    if (legal.length === 1 && limits.depth === undefined && limits.nodes === undefined) {
      // A forced move: no thinking, but a short look for the score and line.
      const r = this.searchDepth(pos, h, Math.min(6, maxDepth));
      return r ? { ...r, move: legal[0], ms: this.now() - t0 } : best;
    }
    let score = 0;
    for (let depth = 1; depth <= maxDepth; depth++) {
      let r: SearchResult | null;
      // Aspiration window around the previous score from depth 4 on.
      if (depth >= 4 && Math.abs(score) < WIN_BOUND && !this.rootNoise) {
        r = this.searchDepth(pos, h, depth, score - 40, score + 40);
        if (r && (r.score <= score - 40 || r.score >= score + 40)) r = this.searchDepth(pos, h, depth);
      } else r = this.searchDepth(pos, h, depth);
      if (!r) break; // out of time or nodes: keep the last completed iteration
      score = r.score;
      best = { ...r, ms: this.now() - t0 };
      limits.onIteration?.(best);
      if (Math.abs(score) >= WIN_BOUND && depth > WIN - Math.abs(score) + 2) break; // a forced result found and proved
      const elapsed = this.now() - t0;
      if (elapsed > budget * 0.45) break; // the next iteration would not finish
      if (this.nodes >= this.nodeLimit) break;
    }
    // (+ 0: a draw negated up the tree is −0; report it as 0.)
    return { ...best, score: best.score + 0, pv: this.extendPv(pos, best.pv), nodes: this.nodes, ms: this.now() - t0 };
  }

  /** The line goes on where the endgame database took over: its best play to the end. */
  private extendPv(pos: Position, pv: readonly Move[]): Move[] {
    if (!this.egdb) return [...pv];
    let p = pos;
    for (const m of pv) p = playMove(p, m);
    const out = [...pv];
    while (out.length < 80) {
      const v = this.egdb.probe(p);
      if (v === null || v === 0) break;
      let best: Move | null = null,
        bestKey = Infinity;
      for (const m of legalMoves(p)) {
        const c = this.egdb.probe(playMove(p, m))!;
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

  private searchDepth(pos: Position, h: Hash, depth: number, alpha = -WIN - 1, beta = WIN + 1): SearchResult | null {
    this.pathKeys = [];
    this.pathIrreversible = [];
    this.inThreat = false;
    this.rootBest = null;
    try {
      const score = this.pvs(pos, h, depth, 0, alpha, beta, true);
      let pv = this.pvTable[0].slice(0, this.pvLen[0]).filter((m): m is Move => m !== null);
      // A root that failed low keeps no line: its best-scoring move stands alone.
      if (pv.length === 0 && this.rootBest) pv = [this.rootBest];
      return { move: pv[0] ?? null, score, depth, pv, nodes: this.nodes, ms: 0 };
    } catch (e) {
      if (e instanceof Aborted) return null;
      throw e;
    }
  }

  private checkLimits(): void {
    if (this.nodes >= this.nodeLimit) throw new Aborted();
    if ((this.nodes & 1023) === 0 && (this.now() >= this.deadline || this.shouldStop())) throw new Aborted();
  }

  /** A draw by repetition: the position stood earlier in this line or in the game (with the same side to move). */
  private repeated(key: number): boolean {
    const n = this.pathKeys.length;
    for (let i = n - 2; i >= 0; i -= 2) {
      if (this.pathKeys[i] === key) return true;
      if (this.pathIrreversible[i + 1] || this.pathIrreversible[i]) return false;
    }
    // Only reversible moves since the root: the game's history counts.
    return this.gameKeys.has(key);
  }

  private order(moves: Move[], ply: number, hashMove: number, turn: number): void {
    if (moves.length < 2) return;
    const k1 = this.killers[ply * 2],
      k2 = this.killers[ply * 2 + 1];
    const scores = new Map<Move, number>();
    for (const m of moves) {
      const k = keyOf(m);
      let s = this.hist[turn * 1056 + k];
      if (k === hashMove) s = 1e9;
      else if (m.captures.length) s = 1e8 + m.captures.length * 1000 + s;
      else if (k === k1) s = 1e7;
      else if (k === k2) s = 1e7 - 1;
      if (m.crowned) s += 5e6;
      scores.set(m, s);
    }
    moves.sort((a, b) => scores.get(b)! - scores.get(a)!);
  }

  private pvs(pos: Position, h: Hash, depth: number, ply: number, alpha: number, beta: number, isPv: boolean): number {
    this.pvLen[ply] = 0;
    this.nodes++;
    this.checkLimits();
    const key = hkey(h);
    if (ply > 0 && this.repeated(key)) return 0;
    const quiet = this.quietAt[ply];
    if (ply > 0 && quiet >= FORTY_MOVES) return 0; // the 40-move rule: the side to move may claim a draw
    if (ply >= MAX_PLY - 2) return evaluate(pos, this.weights);
    if (ply > 0 && this.egdb) {
      const v = this.egdb.probe(pos);
      // Exact: a draw, or a win or loss in so many plies — when it ends before the 40-move count runs out
      // (else search on: the count may be reset on the way, or the rule saves the loser).
      if (v === 0) return 0;
      if (v !== null) {
        const plies = WIN_BASE - Math.abs(v);
        if (quiet + plies <= FORTY_MOVES) return v > 0 ? WIN - ply - plies : -(WIN - ply - plies);
      }
    }
    const th = quiet >= QUIET_KEYED ? { lo: h.lo ^ QUIET_KEYS[quiet]!, hi: h.hi ^ QUIET_KEYS[quiet + FORTY_MOVES + 1]! } : h;
    const capture = hasCapture(pos);
    if (depth <= 0 && !capture) return this.quiet(pos, ply, alpha, beta);
    if (depth < 1) depth = 1; // a pending capture: extend until the exchange is over (plies cost no depth below)
    // Mate-distance pruning.
    alpha = Math.max(alpha, -WIN + ply);
    beta = Math.min(beta, WIN - ply - 1);
    if (alpha >= beta) return alpha;
    let hashMove = 0;
    const slot = this.tt.probe(th);
    if (slot >= 0) {
      const e = this.tt.entry(slot);
      hashMove = e.move;
      if (!isPv && e.depth >= depth) {
        const s = fromTT(e.score, ply);
        if (e.flag === EXACT || (e.flag === LOWER && s >= beta) || (e.flag === UPPER && s <= alpha)) return s;
      }
    }
    const moves = legalMoves(pos);
    if (moves.length === 0) return -WIN + ply; // no move: lost
    const turn = pos.turn === 'black' ? 0 : 1;
    this.order(moves, ply, hashMove, turn);
    // A single reply (most often a forced capture) costs no depth.
    const ext = moves.length === 1 ? 1 : 0;
    const alpha0 = alpha;
    let bestScore = -Infinity,
      bestKey = 0; // -Infinity: root noise may push a lost score below −WIN
    this.pathKeys.push(key);
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      const child = playMove(pos, m);
      const ch = hashAfter(h, pos, m);
      const irreversible = m.captures.length > 0 || (pos.kings & (1 << (m.from - 1))) === 0;
      this.pathIrreversible.push(irreversible);
      this.quietAt[ply + 1] = irreversible ? 0 : quiet + 1;
      let s: number;
      const d = depth - 1 + ext;
      try {
        if (ply === 0 && this.rootNoise)
          s = -this.pvs(child, ch, d, ply + 1, -WIN - 1, WIN + 1, true); // every root move's true score
        else if (i === 0) s = -this.pvs(child, ch, d, ply + 1, -beta, -alpha, isPv);
        else {
          // Late quiet moves in a non-PV node are searched one ply shallower first (re-searched if they look good).
          const reduce = !isPv && depth >= 3 && i >= 3 && !capture && !m.crowned && ext === 0 ? 1 : 0;
          s = -this.pvs(child, ch, d - reduce, ply + 1, -alpha - 1, -alpha, false);
          if (reduce && s > alpha) s = -this.pvs(child, ch, d, ply + 1, -alpha - 1, -alpha, false);
          if (s > alpha && s < beta) s = -this.pvs(child, ch, d, ply + 1, -beta, -alpha, true);
        }
      } finally {
        this.pathIrreversible.pop();
      }
      if (ply === 0 && this.rootNoise) s += this.rootNoise(m);
      if (s > bestScore) {
        bestScore = s;
        bestKey = keyOf(m);
        if (ply === 0) this.rootBest = m;
        if (s > alpha) {
          alpha = s;
          const row = this.pvTable[ply],
            next = this.pvTable[ply + 1];
          row[0] = m;
          const n = this.pvLen[ply + 1];
          for (let j = 0; j < n; j++) row[j + 1] = next[j];
          this.pvLen[ply] = n + 1;
          if (s >= beta) {
            if (!m.captures.length) {
              const kk = keyOf(m);
              if (this.killers[ply * 2] !== kk) {
                this.killers[ply * 2 + 1] = this.killers[ply * 2];
                this.killers[ply * 2] = kk;
              }
              this.hist[turn * 1056 + kk] += depth * depth;
            }
            break;
          }
        }
      }
    }
    this.pathKeys.pop();
    const flag = bestScore >= beta ? LOWER : bestScore > alpha0 ? EXACT : UPPER;
    if (!(ply === 0 && this.rootNoise)) this.tt.store(th, depth, flag, toTT(bestScore, ply), bestKey);
    return bestScore;
  }

  /**
   * Quiescence at the horizon, side to move has no capture. If the opponent
   * threatens one, look one move further (each reply, then its exchange), so
   * a piece left en prise is seen; otherwise the static evaluation.
   */
  private quiet(pos: Position, ply: number, alpha: number, beta: number): number {
    const flipped: Position = { ...pos, turn: pos.turn === 'black' ? 'white' : 'black' };
    // One threat look per line: inside it, the horizon is the plain evaluation.
    if (this.inThreat || !hasCapture(flipped) || ply >= MAX_PLY - 4) return evaluate(pos, this.weights);
    this.inThreat = true;
    // A threat: every move, each followed by its forced exchange (captures extend in pvs).
    const moves = legalMoves(pos);
    if (moves.length === 0) return -WIN + ply;
    let best = -WIN - 1;
    const h = hashPosition(pos);
    this.pathKeys.push(hkey(h));
    try {
      for (const m of moves) {
        this.nodes++;
        this.checkLimits();
        const child = playMove(pos, m);
        this.quietAt[ply + 1] = m.captures.length > 0 || (pos.kings & (1 << (m.from - 1))) === 0 ? 0 : this.quietAt[ply] + 1;
        const s = hasCapture(child)
          ? -this.pvs(child, hashAfter(h, pos, m), 0, ply + 1, -beta, -Math.max(alpha, best), false)
          : -evaluate(child, this.weights);
        if (s > best) best = s;
        if (best >= beta) break;
      }
    } finally {
      this.pathKeys.pop();
      this.inThreat = false;
    }
    return best;
  }
}

const toTT = (s: number, ply: number): number => (s >= WIN_BOUND ? s + ply : s <= -WIN_BOUND ? s - ply : s);
const fromTT = (s: number, ply: number): number => (s >= WIN_BOUND ? s - ply : s <= -WIN_BOUND ? s + ply : s);

/** Is `move` one of the legal moves of `pos`? (The tests' guard against an illegal answer.) */
export const isLegal = (pos: Position, move: Move): boolean => legalMoves(pos).some((m) => sameMove(m, move));
