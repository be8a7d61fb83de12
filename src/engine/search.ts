// The search: iterative-deepening principal-variation alpha-beta with a
// transposition table on the rules' Zobrist keys, move ordering (hash move,
// killers, history), late-move reductions and verified pruning off the
// principal line, and a quiescence that never stops while a capture is
// pending (captures are compulsory, so an exchange is always played out).
// Pure and deterministic: the clock is an input (`now`), and a fixed depth or
// node count gives the same answer on every run.

import { legalMoves, popcount, sameMove, sameMove as sameMove_, type Move, type Position } from '../rules/index.ts';
import { compileWeights, evaluateCompiled, evaluateWithin, WEIGHTS, type CompiledWeights } from './eval.ts';
import { generate, generateWith, jumpersOf, keyNumber, mFrom, mTo, MoveStack, Z_HI, Z_LO, Z_TURN, zobrist } from './moves.ts';
import { DEPTH_MASK, EXACT, FLAG_SHIFT, LOWER, MOVE_SHIFT, SCORE_SHIFT, TranspositionTable, UPPER } from './tt.ts';
import { CHANGE_WINDOW, nextIteration, timeBudget } from './time.ts';
import { WIN_BASE, type EndgameProbe } from './egdb.ts';
import { NetStack } from './net.ts';
import { capMaskOf, extendWithEgdb, moveOf, movesOf } from './line.ts';
import type { SearchOptions, SearchResult } from './search-limits.ts';
import { CrownheadError } from '../common/errors.ts';
import { HIST_MAX, HIST_PLY, LMR, LMR_SIZE } from './reductions.ts';
import { RootMemory } from './root-memory.ts';

export type { Clock } from './port.ts';

export const WIN = 30000;
/** Scores beyond this are forced wins/losses (WIN − plies to the end). */
export const WIN_BOUND = WIN - 1000;
/** A forced result found and proved: its distance to the end lies within the depth searched. */
const proven = (r: SearchResult): boolean => Math.abs(r.score) >= WIN_BOUND && r.depth > WIN - Math.abs(r.score) + 2;
const MAX_PLY = 128;
/** Verified pruning: how far above beta (centi-men) a move's static score must be, and how much shallower its check is. */
const PRUNE_MARGIN = 45;
const PRUNE_REDUCTION = 4;
/** The 40-move rule: a draw may be claimed after this many plies without a capture or a man's move. */
const FORTY_MOVES = 80;
/** From this quiet count on, the count is part of the hash-table key (a score near the rule depends on it). */
const QUIET_KEYED = 16;
const QUIET_KEYS = Array.from({ length: 2 * FORTY_MOVES + 2 }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(i + 7, 0x85ebca6b)) | 0);

export type { SearchLimits, SearchOptions, SearchResult } from './search-limits.ts';

/** Thrown through the search when it is told to stop (caught at its root). */
class Aborted extends CrownheadError<'aborted'> {
  override readonly name = 'Aborted';
  constructor() {
    super('aborted', 'search stopped');
  }
}

/** Stride of the triangular PV table (one row per ply). */
const PV_STRIDE = MAX_PLY + 1;
/** Ordering keys of a move: from | to << 5 (0…1023). */
const ORDER_KEYS = 1024;
/** XORed into the key's hi half inside a threat look (Zobrist's hi half has 21 bits: this one is above them). */
const IN_THREAT_KEY = 1 << 24;

export class Searcher {
  readonly tt: TranspositionTable;
  private readonly st = new MoveStack();
  private readonly killers = new Int32Array(MAX_PLY * 2);
  private readonly hist = new Int32Array(2 * ORDER_KEYS);
  private readonly pvMove = new Int32Array(PV_STRIDE * PV_STRIDE);
  private readonly pvCap = new Int32Array(PV_STRIDE * PV_STRIDE);
  private readonly pvLen = new Int32Array(MAX_PLY + 1);
  /** The key halves of the position at each ply of the current line, and whether the move from it was irreversible. */
  private readonly keyHi = new Int32Array(MAX_PLY + 2);
  private readonly keyLo = new Int32Array(MAX_PLY + 2);
  private readonly irr = new Uint8Array(MAX_PLY + 2);
  /** Quiet plies (40-move rule count) at each ply of the current line. */
  private readonly quietAt = new Int32Array(MAX_PLY + 2);
  private readonly rootKey = new Int32Array(2);
  private gameKeys = new Set<number>();
  nodes = 0;
  private inThreat = false;
  /** The best-scoring root move of the iteration (packed, and its captures), when no line was kept. */
  private rootBest = -1;
  private rootBestCap = 0;
  /** The score of the root's line so far in the current iteration (see partialRoot). */
  private partialScore = 0;
  /** The first root move searched in the current iteration (packed, and its captures). */
  private rootFirst = -1;
  private rootFirstCap = 0;
  /** The root's legal moves (rules Moves), for the level's noise and the answer. */
  private rootLegal: Move[] = [];
  private nodeLimit = Infinity;
  private deadline = Infinity;
  private now: () => number = () => performance.now();
  private shouldStop: () => boolean = () => false;
  /** Exact values for positions with few pieces (this search's SearchOptions.egdb). */
  private egdb: EndgameProbe | null = null;
  private egdbPieces = 0;
  /** The evaluation's weight table (this search's SearchOptions.weights). */
  private weights: CompiledWeights = compileWeights(WEIGHTS);
  /** Added to each root move's score (this search's SearchOptions.rootNoise). */
  private rootNoise: ((move: Move) => number) | null = null;
  /** Verified pruning on (this search's SearchOptions.pruning). */
  private pruning = true;
  /** The network's accumulators, one per ply, when this search evaluates with it (SearchOptions.net). */
  private net: NetStack | null = null;
  /** Late-move reductions on (this search's SearchOptions.reductions). */
  private reductions = true;
  /** The root searched last and its completed iterations (root-memory.ts): the same root again starts after them. */
  private readonly memory = new RootMemory();

  constructor(ttBits = 20) {
    this.tt = new TranspositionTable(ttBits);
  }

  /** Forget everything learnt (a new game). */
  reset(): void {
    this.tt.clear();
    this.hist.fill(0);
    this.killers.fill(0);
    this.memory.forget();
  }

  search(pos: Position, limits: SearchOptions = {}): SearchResult {
    this.egdb = limits.egdb ?? null;
    this.egdbPieces = this.egdb ? this.egdb.maxPieces : 0;
    this.weights = compileWeights(limits.weights ?? WEIGHTS);
    this.rootNoise = limits.rootNoise ?? null;
    this.pruning = limits.pruning ?? true;
    this.net = limits.net ? (this.net?.net === limits.net ? this.net : new NetStack(limits.net, MAX_PLY + 2)) : null;
    this.reductions = limits.reductions ?? true;
    this.now = limits.now ?? (() => performance.now());
    this.shouldStop = limits.shouldStop ?? (() => false);
    const t0 = this.now();
    let budget = timeBudget(limits, popcount(pos.black | pos.white));
    if (limits.depth === undefined && limits.nodes === undefined && budget.maxMs === Infinity) budget = { targetMs: 1000, maxMs: 1000 };
    // Cut at the target until an iteration shows the move unsettled (time.ts: then up to the hard limit).
    this.deadline = t0 + budget.targetMs;
    this.nodeLimit = limits.nodes ?? Infinity;
    this.nodes = 0;
    this.killers.fill(0);
    for (let i = 0; i < this.hist.length; i++) this.hist[i] = limits.freshHistory ? 0 : this.hist[i]! >> 2;
    this.tt.nextAge();
    this.gameKeys = new Set(limits.history ?? []);
    this.quietAt[0] = limits.quietPlies ?? 0;
    const maxDepth = Math.min(limits.depth ?? MAX_PLY - 8, MAX_PLY - 8);
    const legal = legalMoves(pos);
    this.rootLegal = legal;
    if (legal.length === 0) return { move: null, score: -WIN, depth: 0, pv: [], nodes: 0, ms: 0 };
    let best: SearchResult = { move: legal[0]!, score: 0, depth: 0, pv: [legal[0]!], nodes: 0, ms: 0 };
    if (legal.length === 1 && limits.depth === undefined && limits.nodes === undefined) return this.forced(pos, best, maxDepth, t0);
    // The same root searched before (a ponder hit): its completed iterations stand, the search goes on after them.
    const known = this.memory.begin(pos, limits),
      from = Math.min(known.length, maxDepth);
    if (from) best = { ...known[from - 1]!, ms: 0 };
    if (from) limits.onIteration?.(best);
    let score = best.score,
      sameMove = 0;
    const changed: boolean[] = [];
    const easy = legal.length <= 2 && legal.every((m) => m.captures.length > 0);
    for (let depth = from + 1; depth <= maxDepth && !(from && proven(best)); depth++) {
      let r: SearchResult | null;
      // Aspiration window around the previous score from depth 4 on.
      if (depth >= 4 && Math.abs(score) < WIN_BOUND && !this.rootNoise) {
        r = this.searchDepth(pos, depth, score - 40, score + 40);
        if (r && (r.score <= score - 40 || r.score >= score + 40)) r = this.searchDepth(pos, depth);
      } else r = this.searchDepth(pos, depth);
      if (!r) {
        // Out of time or nodes mid-iteration: a root move that beat the previous best in it stands (the previous
        // best is searched first, so a move that raised the bound over it is better); else the last iteration.
        const partial = best.move ? this.partialRoot(pos, depth, best.move) : null;
        if (partial && !sameMove_(partial.move!, best.move!)) best = { ...partial, depth: depth - 1 };
        break;
      }
      sameMove = best.move && r.move && sameMove_(best.move, r.move) ? sameMove + 1 : 1;
      if (depth > 1) changed.push(sameMove === 1);
      const drop = depth > 1 ? score - r.score : 0;
      score = r.score;
      best = { ...r, ms: this.now() - t0 };
      this.memory.record(best);
      limits.onIteration?.(best);
      if (proven(best)) break; // a forced result found and proved
      if (this.nodes >= this.nodeLimit) break;
      const changes = changed.slice(-CHANGE_WINDOW).filter(Boolean).length;
      const next = nextIteration(budget, { elapsedMs: this.now() - t0, sameMove, scoreDrop: drop, changes, easy });
      if (!next.go) break;
      this.deadline = t0 + next.deadlineMs;
    }
    // (+ 0: a draw negated up the tree is −0; report it as 0.)
    return {
      ...best,
      score: best.score + 0,
      pv: this.egdb ? extendWithEgdb(this.egdb, pos, best.pv) : [...best.pv],
      nodes: this.nodes,
      ms: this.now() - t0,
    };
  }

  /** A forced move: no thinking, but a short look for the score and line (the deepest finished in the time). */
  private forced(pos: Position, only: SearchResult, maxDepth: number, t0: number): SearchResult {
    let r: SearchResult | null = null;
    for (let d = 1; d <= Math.min(6, maxDepth); d++) {
      const x = this.searchDepth(pos, d);
      if (!x) break;
      r = x;
    }
    return { ...(r ?? only), move: only.move, nodes: this.nodes, ms: this.now() - t0 };
  }

  /** The line of an iteration stopped part-way, when a root move raised the bound in it (never with a level's noise). */
  private partialRoot(pos: Position, depth: number, previous: Move): SearchResult | null {
    if (this.rootNoise || this.pvLen[0]! === 0) return null;
    // Only when the previous best was searched first (and fully): a move that raised the bound after it beat it.
    const first = this.rootFirst;
    if (mFrom(first) + 1 !== previous.from || mTo(first) + 1 !== previous.to || this.rootFirstCap !== capMaskOf(previous)) return null;
    const n = this.pvLen[0]!,
      pv = movesOf(pos, this.pvMove.subarray(0, n), this.pvCap.subarray(0, n));
    return pv.length ? { move: pv[0]!, score: this.partialScore, depth, pv, nodes: this.nodes, ms: 0 } : null;
  }

  private searchDepth(pos: Position, depth: number, alpha = -WIN - 1, beta = WIN + 1): SearchResult | null {
    this.inThreat = false;
    this.rootBest = -1;
    const btm = pos.turn === 'black';
    zobrist(pos.black, pos.white, pos.kings, btm, this.rootKey);
    this.net?.refresh(0, pos.black, pos.white, pos.kings);
    try {
      const score = this.pvs(pos.black, pos.white, pos.kings, btm, this.rootKey[0]!, this.rootKey[1]!, depth, 0, alpha, beta, true, 0);
      // A root that failed low keeps no line: its best-scoring move stands alone.
      const n = this.pvLen[0]!;
      const pv =
        n === 0 && this.rootBest >= 0
          ? movesOf(pos, [this.rootBest], [this.rootBestCap])
          : movesOf(pos, this.pvMove.subarray(0, n), this.pvCap.subarray(0, n));
      return { move: pv[0] ?? null, score, depth, pv, nodes: this.nodes, ms: 0 };
    } catch (e) {
      if (e instanceof Aborted) return null;
      throw e;
    }
  }

  /** A draw by repetition: the position stood earlier in this line or in the game (with the same side to move). */
  private repeated(ply: number, hi: number, lo: number): boolean {
    for (let i = ply - 2; i >= 0; i -= 2) {
      if (this.keyHi[i] === hi && this.keyLo[i] === lo) return true;
      if (this.irr[i + 1] || this.irr[i]) return false;
    }
    // Only reversible moves since the root: the game's history counts.
    return this.gameKeys.size > 0 && this.gameKeys.has(keyNumber(hi, lo));
  }

  private pvs(
    b: number,
    w: number,
    k: number,
    btm: boolean,
    hi: number,
    lo: number,
    depth: number,
    ply: number,
    alpha: number,
    beta: number,
    isPv: boolean,
    sp: number,
  ): number {
    this.pvLen[ply] = 0;
    const nodes = ++this.nodes;
    if (nodes >= this.nodeLimit) throw new Aborted();
    if ((nodes & 1023) === 0 && (this.now() >= this.deadline || this.shouldStop())) throw new Aborted();
    this.keyHi[ply] = hi;
    this.keyLo[ply] = lo;
    if (ply > 0 && this.repeated(ply, hi, lo)) return 0;
    const quiet = this.quietAt[ply]!;
    if (ply > 0 && quiet >= FORTY_MOVES) return 0; // the 40-move rule: the side to move may claim a draw
    if (ply >= MAX_PLY - 2) return (btm ? 1 : -1) * evaluateCompiled(this.weights, b, w, k);
    if (ply > 0 && this.egdb && popcount(b | w) <= this.egdbPieces) {
      const v = this.egdb.probe({ black: b, white: w, kings: k, turn: btm ? 'black' : 'white' });
      // Exact: a draw, or a win or loss in so many plies — when it ends before the 40-move count runs out
      // (else search on: the count may be reset on the way, or the rule saves the loser).
      if (v === 0) return 0;
      if (v !== null) {
        const plies = WIN_BASE - Math.abs(v);
        if (quiet + plies <= FORTY_MOVES) return v > 0 ? WIN - ply - plies : -(WIN - ply - plies);
      }
    }
    let tlo = lo,
      thi = hi;
    // Inside a threat look the horizon is cut short (a score that holds on this line only): kept apart.
    if (this.inThreat) thi ^= IN_THREAT_KEY;
    if (quiet >= QUIET_KEYED) {
      tlo ^= QUIET_KEYS[quiet]!;
      thi ^= QUIET_KEYS[quiet + FORTY_MOVES + 1]!;
    }
    const own = btm ? b : w,
      opp = btm ? w : b;
    const jumpers = jumpersOf(own, opp, k, btm),
      capture = jumpers !== 0;
    if (depth <= 0 && !capture) {
      // The horizon: the static evaluation, unless the opponent threatens a capture (quiet's look), one look per line.
      if (this.inThreat || jumpersOf(opp, own, k, !btm) === 0 || ply >= MAX_PLY - 4) {
        // Only the side of [alpha, beta] the score falls on matters here (the patterns may be skipped: eval.ts).
        return this.staticScore(ply, b, w, k, btm, btm, alpha, beta);
      }
      return this.quiet(b, w, k, btm, hi, lo, ply, alpha, beta, sp);
    }
    const horizon = depth < 1;
    if (horizon) depth = 1; // a pending capture: extend until the exchange is over (plies cost no depth below)
    // Mate-distance pruning.
    if (alpha < -WIN + ply) alpha = -WIN + ply;
    if (beta > WIN - ply - 1) beta = WIN - ply - 1;
    if (alpha >= beta) return alpha;
    const tt = this.tt;
    let hashMove = 0;
    const slot = tt.probe(tlo, thi);
    if (slot >= 0) {
      // The entry's words read here (tt.ts's layout): calls to its accessors would not be inlined.
      const meta = tt.data[slot + 1]!;
      hashMove = (meta >>> MOVE_SHIFT) & 31;
      if (!isPv && (meta & DEPTH_MASK) >= depth) {
        let s = meta >> SCORE_SHIFT;
        s = s >= WIN_BOUND ? s - ply : s <= -WIN_BOUND ? s + ply : s; // a forced result, counted from the root
        const f = (meta >>> FLAG_SHIFT) & 3;
        if (f === EXACT || (f === LOWER && s >= beta) || (f === UPPER && s <= alpha)) return s;
      }
    }
    const st = this.st;
    const end = generateWith(st, sp, b, w, k, btm, jumpers);
    const n = end - sp;
    if (n === 0) return -WIN + ply; // no move: lost
    const turn = btm ? 0 : ORDER_KEYS;
    // Ordering scores: hash move, captures (longer first), killers, history; a crowning move gets a lift.
    const k1 = this.killers[ply * 2]!,
      k2 = this.killers[ply * 2 + 1]!;
    for (let i = sp; i < end; i++) {
      const m = st.move[i]!;
      const key = m & 1023;
      let s = this.hist[turn + key]! + HIST_MAX;
      if (i - sp + 1 === hashMove) s = 1e9;
      else if (st.cap[i] !== 0) {
        let c = st.cap[i]!; // popcount, written out (a call here is not inlined)
        c = c - ((c >>> 1) & 0x55555555);
        c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
        s = 1e8 + (Math.imul((c + (c >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) * 1000;
      } else if (key + 1 === k1) s = 1e7;
      else if (key + 1 === k2) s = 1e7 - 1;
      if (m & 1024) s += 5e6;
      st.score[i] = s;
    }
    // A single reply (most often a forced capture) costs no depth — above the horizon only: past it, an exchange
    // played out to its end must not hand the side to move after it a whole ply of its own (every move searched),
    // which had the search spend 94 % of its nodes there (nodes to depth 10 from five ballots: 5.77 M, now 0.37 M).
    const ext = n === 1 && !horizon ? 1 : 0;
    const alpha0 = alpha;
    let bestScore = -Infinity, // -Infinity: root noise may push a lost score below −WIN
      bestIdx = 0;
    const side = btm ? 0 : 2;
    const noise = ply === 0 ? this.rootNoise : null;
    for (let i = 0; i < n; i++) {
      // Pick the best-ordered move left, the first of equals in generation order (no sort: most nodes cut off
      // after one or two). Ordering scores are never negative: a move taken is marked −1 where it stands.
      let bi = sp,
        bs = -1;
      for (let j = sp; j < end; j++)
        if (st.score[j]! > bs) {
          bs = st.score[j]!;
          bi = j;
        }
      st.score[bi] = -1;
      const m = st.move[bi]!,
        cap = st.cap[bi]!,
        gen = bi - sp + 1;
      const from = m & 31,
        to = (m >>> 5) & 31;
      const fromBit = 1 << from,
        toBit = 1 << to;
      const wasKing = (k & fromBit) !== 0;
      const crowned = (m & 1024) !== 0;
      const nOwn = (own & ~fromBit) | toBit,
        nOpp = opp & ~cap;
      let nk = k & ~cap;
      if (wasKing) nk = (nk & ~fromBit) | toBit;
      else if (crowned) nk |= toBit;
      const zf = (side + (wasKing ? 1 : 0)) * 32 + from,
        zt = (side + (wasKing || crowned ? 1 : 0)) * 32 + to;
      let chi = hi ^ Z_HI[zf]! ^ Z_HI[zt]! ^ Z_HI[Z_TURN]!,
        clo = lo ^ Z_LO[zf]! ^ Z_LO[zt]! ^ Z_LO[Z_TURN]!;
      let c = cap;
      while (c) {
        const ci = 31 - Math.clz32(c & -c);
        c &= c - 1;
        const zc = (2 - side + ((k >>> ci) & 1)) * 32 + ci;
        chi ^= Z_HI[zc]!;
        clo ^= Z_LO[zc]!;
      }
      if (ply === 0 && i === 0) {
        this.rootFirst = m;
        this.rootFirstCap = cap;
      }
      const irreversible = cap !== 0 || !wasKing;
      this.irr[ply] = irreversible ? 1 : 0;
      this.quietAt[ply + 1] = irreversible ? 0 : quiet + 1;
      const nb = btm ? nOwn : nOpp,
        nw = btm ? nOpp : nOwn;
      this.net?.play(ply, btm, from, to, wasKing, crowned, cap, k);
      let s: number;
      const d = depth - 1 + ext;
      if (noise)
        s = -this.pvs(nb, nw, nk, !btm, chi, clo, d, 1, -WIN - 1, WIN + 1, true, end); // every root move's true score
      else if (
        // Verified pruning (as GuiNN does): off the principal line, a move whose position already scores
        // PRUNE_MARGIN above beta is searched PRUNE_REDUCTION plies shallower against that raised bar; if it
        // clears it there too, that score stands as the cut. Not near the root, at shallow depth, with a forced
        // result in view or inside the endgame database (exact values there).
        this.pruning &&
        !isPv &&
        ply >= 2 &&
        d > 2 &&
        beta > -WIN_BOUND &&
        beta < WIN_BOUND &&
        popcount(nb | nw) > this.egdbPieces &&
        this.staticScore(ply + 1, nb, nw, nk, !btm, btm, beta + PRUNE_MARGIN - 1, beta + PRUNE_MARGIN) >= beta + PRUNE_MARGIN &&
        (s = -this.pvs(
          nb,
          nw,
          nk,
          !btm,
          chi,
          clo,
          d > PRUNE_REDUCTION + 1 ? d - PRUNE_REDUCTION : 1,
          ply + 1,
          -(beta + PRUNE_MARGIN + 1),
          -(beta + PRUNE_MARGIN),
          false,
          end,
        )) >
          beta + PRUNE_MARGIN
      ) {
        // (s holds the verified score: a cut below.)
      } else if (i === 0) s = -this.pvs(nb, nw, nk, !btm, chi, clo, d, ply + 1, -beta, -alpha, isPv, end);
      else {
        // Late quiet moves in a non-PV node are searched shallower first (reductions.ts: more the deeper the node and
        // the later the move, less for a move with a good history), re-searched at full depth if they look good.
        let reduce = 0;
        if (this.reductions && !isPv && depth >= 3 && !capture && !crowned && ext === 0) {
          reduce = LMR[(depth < LMR_SIZE ? depth : LMR_SIZE - 1) * LMR_SIZE + (i < LMR_SIZE ? i : LMR_SIZE - 1)]!;
          reduce -= (this.hist[turn + (m & 1023)]! / HIST_PLY) | 0;
          reduce = reduce < 0 ? 0 : reduce > d - 1 ? d - 1 : reduce;
        }
        s = -this.pvs(nb, nw, nk, !btm, chi, clo, d - reduce, ply + 1, -alpha - 1, -alpha, false, end);
        if (reduce && s > alpha) s = -this.pvs(nb, nw, nk, !btm, chi, clo, d, ply + 1, -alpha - 1, -alpha, false, end);
        if (s > alpha && s < beta) s = -this.pvs(nb, nw, nk, !btm, chi, clo, d, ply + 1, -beta, -alpha, true, end);
      }
      if (noise) s += noise(moveOf(this.rootLegal, m, cap));
      if (s > bestScore) {
        bestScore = s;
        bestIdx = gen;
        if (ply === 0) {
          this.rootBest = m;
          this.rootBestCap = cap;
        }
        if (s > alpha) {
          alpha = s;
          if (ply === 0) this.partialScore = s;
          const row = ply * PV_STRIDE,
            next = (ply + 1) * PV_STRIDE;
          this.pvMove[row] = m;
          this.pvCap[row] = cap;
          const len = this.pvLen[ply + 1]!;
          for (let j = 0; j < len; j++) {
            this.pvMove[row + j + 1] = this.pvMove[next + j]!;
            this.pvCap[row + j + 1] = this.pvCap[next + j]!;
          }
          this.pvLen[ply] = len + 1;
          if (s >= beta) {
            if (cap === 0) {
              const kk = (m & 1023) + 1;
              if (k1 !== kk) {
                this.killers[ply * 2 + 1] = k1;
                this.killers[ply * 2] = kk;
              }
              // History with gravity: the cutting move's rises, those searched before it (all quiet) fall.
              const bonus = depth * depth < 1200 ? depth * depth : 1200;
              const hi0 = turn + kk - 1;
              this.hist[hi0] = (this.hist[hi0]! + bonus - (this.hist[hi0]! * bonus) / HIST_MAX) | 0;
              for (let j = sp; j < end; j++)
                if (j !== bi && st.score[j] === -1) {
                  const hj = turn + (st.move[j]! & 1023);
                  this.hist[hj] = (this.hist[hj]! - bonus - (this.hist[hj]! * bonus) / HIST_MAX) | 0;
                }
            }
            break;
          }
        }
      }
    }
    const flag = bestScore >= beta ? LOWER : bestScore > alpha0 ? EXACT : UPPER;
    // A forced result is kept counted from this node (+ ply for a win), read back counted from the root (above).
    const kept = bestScore >= WIN_BOUND ? bestScore + ply : bestScore <= -WIN_BOUND ? bestScore - ply : bestScore;
    if (!noise) tt.store(tlo, thi, depth, flag, kept, bestIdx);
    return bestScore;
  }

  /**
   * The static score of the position at `ply` (Black to move when `btm`) for Black when `black`, else for White:
   * the network's (SearchOptions.net), else the evaluation's, exact where it falls within [lo, hi] (eval.ts).
   */
  private staticScore(ply: number, b: number, w: number, k: number, btm: boolean, black: boolean, lo: number, hi: number): number {
    if (this.net) {
      const e = this.net.evaluate(ply, btm, b | w);
      return black ? e : -e;
    }
    return black ? evaluateWithin(this.weights, b, w, k, lo, hi) : -evaluateWithin(this.weights, b, w, k, -hi, -lo);
  }

  /**
   * Quiescence at the horizon, side to move has no capture but the opponent
   * threatens one (pvs evaluates the rest itself): look one move further
   * (each reply, then its exchange), so a piece left en prise is seen.
   */
  private quiet(
    b: number,
    w: number,
    k: number,
    btm: boolean,
    hi: number,
    lo: number,
    ply: number,
    alpha: number,
    beta: number,
    sp: number,
  ): number {
    const own = btm ? b : w,
      opp = btm ? w : b;
    // (pvs calls this only with a threat, outside a threat look and short of MAX_PLY − 4.)
    this.inThreat = true;
    // A threat: every move, each followed by its forced exchange (captures extend in pvs).
    const st = this.st;
    const end = generate(st, sp, b, w, k, btm);
    if (end === sp) {
      this.inThreat = false;
      return -WIN + ply;
    }
    let best = -WIN - 1;
    const side = btm ? 0 : 2;
    const quiet = this.quietAt[ply]!;
    for (let i = sp; i < end; i++) {
      const nodes = ++this.nodes;
      if (nodes >= this.nodeLimit) throw new Aborted();
      if ((nodes & 1023) === 0 && (this.now() >= this.deadline || this.shouldStop())) throw new Aborted();
      const m = st.move[i]!;
      const from = m & 31,
        to = (m >>> 5) & 31;
      const fromBit = 1 << from,
        toBit = 1 << to;
      const wasKing = (k & fromBit) !== 0;
      const crowned = (m & 1024) !== 0;
      const nOwn = (own & ~fromBit) | toBit;
      let nk = k;
      if (wasKing) nk = (nk & ~fromBit) | toBit;
      else if (crowned) nk |= toBit;
      const nb = btm ? nOwn : opp,
        nw = btm ? opp : nOwn;
      this.net?.play(ply, btm, from, to, wasKing, crowned, 0, k);
      let s: number;
      // No capture here (the side to move had none), so the opponent's pieces stay.
      if (jumpersOf(opp, nOwn, nk, !btm) !== 0) {
        const zf = (side + (wasKing ? 1 : 0)) * 32 + from,
          zt = (side + (wasKing || crowned ? 1 : 0)) * 32 + to;
        this.irr[ply] = wasKing ? 0 : 1;
        this.quietAt[ply + 1] = wasKing ? quiet + 1 : 0;
        s = -this.pvs(
          nb,
          nw,
          nk,
          !btm,
          hi ^ Z_HI[zf]! ^ Z_HI[zt]! ^ Z_HI[Z_TURN]!,
          lo ^ Z_LO[zf]! ^ Z_LO[zt]! ^ Z_LO[Z_TURN]!,
          0,
          ply + 1,
          -beta,
          -(alpha > best ? alpha : best),
          false,
          end,
        );
      } else {
        const lo = alpha > best ? alpha : best;
        s = this.staticScore(ply + 1, nb, nw, nk, !btm, btm, lo, beta);
      }
      if (s > best) best = s;
      if (best >= beta) break;
    }
    this.inThreat = false;
    return best;
  }
}

/** Is `move` one of the legal moves of `pos`? (The tests' guard against an illegal answer.) */
export const isLegal = (pos: Position, move: Move): boolean => legalMoves(pos).some((m) => sameMove(m, move));
