// Move generation and making moves: the legal moves of a position (captures
// compulsory unless huffing; multi-jumps as one move with their full path) and
// the position after a move. Bitboards for simple moves and for "is there a
// capture", table-driven depth-first search for jump sequences.

import {
  BLACK_KING_ROW, WHITE_KING_ROW, JUMP_LAND, NEIGHBOUR, lowestIndex, popcount,
  stepDL, stepDR, stepUL, stepUR, type Bitboard,
} from './squares.ts';
import type { Position } from './position.ts';

/** A move with its full path. Squares are 1–32. */
export interface Move {
  readonly from: number;
  readonly to: number;
  /** Every landing square in order, ending with `to` (one entry for a simple move). */
  readonly path: readonly number[];
  /** Captured squares in the order they were jumped (empty for a simple move). */
  readonly captures: readonly number[];
  /** A man that ends the move as a king. */
  readonly crowned: boolean;
}

export interface RulesOptions {
  /** Huffing: jumping is optional (the opponent may huff a piece that failed to jump). */
  readonly huffing?: boolean;
  /** A man crowned mid-capture goes on jumping as a king. */
  readonly crownContinue?: boolean;
}

export const isCapture = (m: Move): boolean => m.captures.length > 0;

// ---------------------------------------------------------------------------
// Bitboard helpers

/** Pieces of `own` that can make a simple move (non-capture). */
export function simpleMovers(own: Bitboard, kings: Bitboard, empty: Bitboard, black: boolean): Bitboard {
  const kingsOwn = own & kings;
  const fwd = black
    ? stepUR(empty) | stepUL(empty) // a square whose down-left/down-right neighbour is empty
    : stepDL(empty) | stepDR(empty);
  const back = black ? stepDL(empty) | stepDR(empty) : stepUR(empty) | stepUL(empty);
  return (own & fwd) | (kingsOwn & back);
}

/** Pieces of `own` that have at least one capture. */
export function jumpers(own: Bitboard, opp: Bitboard, kings: Bitboard, empty: Bitboard, black: boolean): Bitboard {
  const k = own & kings;
  let down = 0, up = 0;
  // A piece at s can jump down-left if stepDL(s) is an opponent and stepDL²(s) is empty:
  // s ∈ stepUR(opp ∩ stepUR(empty)).
  down = stepUR(opp & stepUR(empty)) | stepUL(opp & stepUL(empty));
  up = stepDL(opp & stepDL(empty)) | stepDR(opp & stepDR(empty));
  return black ? (own & down) | (k & up) : (own & up) | (k & down);
}

export function sideBoards(pos: Position): { own: Bitboard; opp: Bitboard; black: boolean } {
  const black = pos.turn === 'black';
  return { own: black ? pos.black : pos.white, opp: black ? pos.white : pos.black, black };
}

/** True if the side to move has a capture available. */
export function hasCapture(pos: Position): boolean {
  const { own, opp, black } = sideBoards(pos);
  return jumpers(own, opp, pos.kings, ~(pos.black | pos.white), black) !== 0;
}

/** Squares (1–32) of the side to move's pieces that can capture. */
export function capturingSquares(pos: Position): number[] {
  const { own, opp, black } = sideBoards(pos);
  let j = jumpers(own, opp, pos.kings, ~(pos.black | pos.white), black);
  const out: number[] = [];
  while (j) {
    out.push(lowestIndex(j) + 1);
    j &= j - 1;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Jump search. One reusable searcher; it reports each complete sequence.

const FORWARD_BLACK = [2, 3]; // DL, DR
const FORWARD_WHITE = [0, 1]; // UL, UR
const ALL_DIRS = [0, 1, 2, 3];

type JumpSink = (fromIdx: number, toIdx: number, capMask: number, crowned: boolean, path: Int8Array, caps: Int8Array, len: number) => void;

class JumpSearch {
  readonly path = new Int8Array(32);
  readonly caps = new Int8Array(32);
  opp = 0;
  empty = 0;
  kingRow = 0;
  black = true;
  crownContinue = false;
  from = 0;
  sink: JumpSink = () => {};

  /** Searches every complete jump sequence of the piece at `from`; returns how many were reported. */
  run(from: number, king: boolean): number {
    this.from = from;
    return this.dfs(from, king, 0, 0, false);
  }

  private dfs(sq: number, king: boolean, capMask: number, len: number, crowned: boolean): number {
    const dirs = king ? ALL_DIRS : this.black ? FORWARD_BLACK : FORWARD_WHITE;
    let found = 0;
    for (let k = 0; k < dirs.length; k++) {
      const d = dirs[k];
      const land = JUMP_LAND[sq * 4 + d];
      if (land < 0) continue;
      const over = NEIGHBOUR[sq * 4 + d];
      const overBit = 1 << over;
      if ((this.opp & overBit) === 0 || (capMask & overBit) !== 0 || (this.empty & (1 << land)) === 0) continue;
      this.path[len] = land;
      this.caps[len] = over;
      const caps = capMask | overBit;
      if (!king && (this.kingRow & (1 << land)) !== 0) {
        // A man reaches the far row: crowned, and the move ends (unless the variant says go on).
        const more = this.crownContinue ? this.dfs(land, true, caps, len + 1, true) : 0;
        if (more === 0) this.sink(this.from, land, caps, true, this.path, this.caps, len + 1);
        found += more === 0 ? 1 : more;
      } else {
        const more = this.dfs(land, king, caps, len + 1, crowned);
        if (more === 0) this.sink(this.from, land, caps, crowned, this.path, this.caps, len + 1);
        found += more === 0 ? 1 : more;
      }
    }
    return found;
  }
}

const searcher = new JumpSearch();

function prepare(s: JumpSearch, pos: Position, fromIdx: number, opts: RulesOptions): void {
  const black = pos.turn === 'black';
  s.black = black;
  s.opp = black ? pos.white : pos.black;
  // The moving piece leaves its square, so a king may pass over or return to it.
  s.empty = ~(pos.black | pos.white) | (1 << fromIdx);
  s.kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW;
  s.crownContinue = !!opts.crownContinue;
}

// ---------------------------------------------------------------------------
// Public generation

/** All legal moves of the side to move, captures first. Duplicate king paths are listed separately. */
export function legalMoves(pos: Position, opts: RulesOptions = {}): Move[] {
  const moves: Move[] = [];
  const { own, opp, black } = sideBoards(pos);
  const empty = ~(pos.black | pos.white);
  let j = jumpers(own, opp, pos.kings, empty, black);
  if (j) {
    const s = searcher;
    s.sink = (f, t, _cap, crowned, path, caps, len) => {
      const p: number[] = [], c: number[] = [];
      for (let i = 0; i < len; i++) {
        p.push(path[i] + 1);
        c.push(caps[i] + 1);
      }
      moves.push({ from: f + 1, to: t + 1, path: p, captures: c, crowned });
    };
    while (j) {
      const i = lowestIndex(j);
      j &= j - 1;
      prepare(s, pos, i, opts);
      s.run(i, (pos.kings & (1 << i)) !== 0);
    }
    if (!opts.huffing) return moves;
  }
  let movers = simpleMovers(own, pos.kings, empty, black);
  const kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW;
  while (movers) {
    const i = lowestIndex(movers);
    movers &= movers - 1;
    const king = (pos.kings & (1 << i)) !== 0;
    const dirs = king ? ALL_DIRS : black ? FORWARD_BLACK : FORWARD_WHITE;
    for (const d of dirs) {
      const t = NEIGHBOUR[i * 4 + d];
      if (t < 0 || (empty & (1 << t)) === 0) continue;
      moves.push({ from: i + 1, to: t + 1, path: [t + 1], captures: [], crowned: !king && (kingRow & (1 << t)) !== 0 });
    }
  }
  return moves;
}

/** The position after a legal move (the move is trusted: take it from legalMoves). */
export function playMove(pos: Position, move: Move): Position {
  const fromBit = 1 << (move.from - 1);
  const toBit = 1 << (move.to - 1);
  let capMask = 0;
  for (const c of move.captures) capMask |= 1 << (c - 1);
  return applyMask(pos, fromBit, toBit, capMask, move.crowned);
}

function applyMask(pos: Position, fromBit: number, toBit: number, capMask: number, crowned: boolean): Position {
  const black = pos.turn === 'black';
  let own = black ? pos.black : pos.white;
  let opp = black ? pos.white : pos.black;
  own = (own & ~fromBit) | toBit;
  opp &= ~capMask;
  let kings = pos.kings & ~capMask;
  if (kings & fromBit) kings = (kings & ~fromBit) | toBit;
  else if (crowned) kings |= toBit;
  return black
    ? { black: own, white: opp, kings, turn: 'white' }
    : { black: opp, white: own, kings, turn: 'black' };
}

/** Two moves that leave the same position (e.g. a king's two routes round the same pieces). */
export const sameResult = (a: Move, b: Move): boolean =>
  a.from === b.from && a.to === b.to && a.crowned === b.crowned &&
  a.captures.length === b.captures.length && a.captures.every((c) => b.captures.includes(c));

export const sameMove = (a: Move, b: Move): boolean =>
  a.from === b.from && a.path.length === b.path.length && a.path.every((p, i) => p === b.path[i]);

// ---------------------------------------------------------------------------
// Perft: leaf-node counts, a whole multi-jump as one move, duplicate paths counted separately.

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
    popcount(stepDL(men) & empty) + popcount(stepDR(men) & empty) +
    popcount(stepUL(upMovers) & empty) + popcount(stepUR(upMovers) & empty)
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
    s.black = black; s.opp = opp; s.kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW; s.crownContinue = !!opts.crownContinue;
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
  const F = bufFrom[ply], T = bufTo[ply], C = bufCap[ply], K = bufCrown[ply];
  const captures = j !== 0;
  if (captures) {
    s.black = black; s.opp = opp; s.kingRow = black ? BLACK_KING_ROW : WHITE_KING_ROW; s.crownContinue = !!opts.crownContinue;
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
        F[n] = i; T[n] = t; C[n] = 0; K[n] = !king && (kingRow & (1 << t)) !== 0 ? 1 : 0;
        n++;
      }
    }
  }
  if (depth === 1) return n;
  let total = 0;
  for (let m = 0; m < n; m++) {
    const fromBit = 1 << F[m], toBit = 1 << T[m], cap = C[m];
    const o = (own & ~fromBit) | toBit;
    const p = opp & ~cap;
    let nk = k & ~cap;
    if (nk & fromBit) nk = (nk & ~fromBit) | toBit;
    else if (K[m]) nk |= toBit;
    total += black
      ? perftRec(o, p, nk, false, depth - 1, ply + 1, opts)
      : perftRec(p, o, nk, true, depth - 1, ply + 1, opts);
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
