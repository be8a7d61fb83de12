// Perft: leaf-node counts to a depth (a whole multi-jump is one move; a king's
// different capture routes count separately), allocation-free on per-ply
// buffers, and perft divided by first move, for the CLI, tests and benches.

import { BLACK_KING_ROW, WHITE_KING_ROW, NEIGHBOUR, lowestIndex, popcount, stepDL, stepDR, stepUL, stepUR } from './squares.ts';
import { JumpSearch, type JumpSink } from './jumps.ts';
import { jumpers, legalMoves, playMove, simpleMovers, type Move, type RulesOptions } from './movegen.ts';
import type { Position } from './position.ts';

export interface DivideEntry {
  move: Move;
  nodes: number;
}

/** Perft split by first move. */
export function perftDivide(pos: Position, depth: number, opts: RulesOptions = {}): DivideEntry[] {
  if (depth < 1) throw new RangeError('divide needs depth ≥ 1');
  return legalMoves(pos, opts).map((move) => ({ move, nodes: perft(playMove(pos, move), depth - 1, opts) }));
}

const MAX_PLY = 64;
const bufFrom = Array.from({ length: MAX_PLY }, () => new Int8Array(256));
const bufTo = Array.from({ length: MAX_PLY }, () => new Int8Array(256));
const bufCap = Array.from({ length: MAX_PLY }, () => new Int32Array(256));
const bufCrown = Array.from({ length: MAX_PLY }, () => new Uint8Array(256));

const perftSearch = new JumpSearch();
let sinkPly = 0;
let sinkN = 0;
const countOnly = (): void => {};

function countSimple(own: number, kings: number, empty: number, black: boolean): number {
  const k = own & kings;
  const men = black ? own : k; // pieces that may move down
  const upMovers = black ? k : own; // pieces that may move up
  return (
    popcount(stepDL(men) & empty) + popcount(stepDR(men) & empty) + popcount(stepUL(upMovers) & empty) + popcount(stepUR(upMovers) & empty)
  );
}

function perftRec(b: number, w: number, k: number, black: boolean, depth: number, ply: number, opts: RulesOptions): number {
  const own = black ? b : w;
  const opp = black ? w : b;
  const empty = ~(b | w);
  let j = jumpers(own, opp, k, empty, black);
  const s = perftSearch;
  if (depth === 1 && !opts.huffing) {
    if (j === 0) return countSimple(own, k, empty, black);
    let n = 0;
    s.sink = countOnly;
    s.black = black;
    s.opp = opp;
    s.kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW;
    s.crownContinue = !!opts.crownContinue;
    while (j) {
      const i = lowestIndex(j);
      j &= j - 1;
      s.empty = empty | (1 << i);
      n += s.run(i, (k & (1 << i)) !== 0);
    }
    return n;
  }
  // Generate into this ply's buffers.
  let n = 0;
  const F = bufFrom[ply],
    T = bufTo[ply],
    C = bufCap[ply],
    K = bufCrown[ply];
  const captures = j !== 0;
  if (captures) {
    s.black = black;
    s.opp = opp;
    s.kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW;
    s.crownContinue = !!opts.crownContinue;
    s.sink = perftSink;
    sinkPly = ply;
    sinkN = 0;
    while (j) {
      const i = lowestIndex(j);
      j &= j - 1;
      s.empty = empty | (1 << i);
      s.run(i, (k & (1 << i)) !== 0);
    }
    n = sinkN;
  }
  if (!captures || opts.huffing) {
    const kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW;
    let movers = simpleMovers(own, k, empty, black);
    while (movers) {
      const i = lowestIndex(movers);
      movers &= movers - 1;
      const king = (k & (1 << i)) !== 0;
      for (let d = 0; d < 4; d++) {
        if (!king && (black ? d < 2 : d >= 2)) continue;
        const t = NEIGHBOUR[i * 4 + d];
        if (t < 0 || (empty & (1 << t)) === 0) continue;
        F[n] = i;
        T[n] = t;
        C[n] = 0;
        K[n] = !king && (kingRow & (1 << t)) !== 0 ? 1 : 0;
        n++;
      }
    }
  }
  if (depth === 1) return n;
  let total = 0;
  for (let m = 0; m < n; m++) {
    const fromBit = 1 << F[m],
      toBit = 1 << T[m],
      cap = C[m];
    const o = (own & ~fromBit) | toBit;
    const p = opp & ~cap;
    let nk = k & ~cap;
    if (nk & fromBit) nk = (nk & ~fromBit) | toBit;
    else if (K[m]) nk |= toBit;
    total += black ? perftRec(o, p, nk, false, depth - 1, ply + 1, opts) : perftRec(p, o, nk, true, depth - 1, ply + 1, opts);
  }
  return total;
}
const perftSink: JumpSink = (f, t, cap, crowned) => {
  bufFrom[sinkPly][sinkN] = f;
  bufTo[sinkPly][sinkN] = t;
  bufCap[sinkPly][sinkN] = cap;
  bufCrown[sinkPly][sinkN] = crowned ? 1 : 0;
  sinkN++;
};

/** Number of leaf nodes at `depth` plies (perft). */
export function perft(pos: Position, depth: number, opts: RulesOptions = {}): number {
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`perft depth must be a whole number ≥ 0, not ${depth}`);
  if (depth === 0) return 1;
  if (depth > MAX_PLY) throw new RangeError(`perft depth is limited to ${MAX_PLY}`);
  return perftRec(pos.black, pos.white, pos.kings, pos.turn === 'black', depth, 0, opts);
}
