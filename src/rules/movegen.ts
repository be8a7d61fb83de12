// Move generation and making moves: the legal moves of a position (captures
// compulsory unless huffing; multi-jumps as one move with their full path) and
// the position after a move. Bitboards for simple moves and for "is there a
// capture", the jump search in jumps.ts for jump sequences; perft lives in perft.ts.

import { BLACK_KING_ROW, WHITE_KING_ROW, NEIGHBOUR, lowestIndex, stepDL, stepDR, stepUL, stepUR, type Bitboard } from './squares.ts';
import type { Position } from './position.ts';
import { ALL_DIRS, FORWARD_BLACK, FORWARD_WHITE, JumpSearch } from './jumps.ts';

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
  let down = 0,
    up = 0;
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
      const p: number[] = [],
        c: number[] = [];
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
  return black ? { black: own, white: opp, kings, turn: 'white' } : { black: opp, white: own, kings, turn: 'black' };
}

/** Two moves that leave the same position (e.g. a king's two routes round the same pieces). */
export const sameResult = (a: Move, b: Move): boolean =>
  a.from === b.from &&
  a.to === b.to &&
  a.crowned === b.crowned &&
  a.captures.length === b.captures.length &&
  a.captures.every((c) => b.captures.includes(c));

export const sameMove = (a: Move, b: Move): boolean =>
  a.from === b.from && a.path.length === b.path.length && a.path.every((p, i) => p === b.path[i]);
