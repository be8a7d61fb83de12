// The search's own move generator and keys, on plain numbers: the moves of a
// position (black, white, kings bitboards and the side to move) written as
// packed integers into a preallocated stack — from, to, crowned, and the mask
// of captured squares — so the hot path allocates nothing; and the Zobrist
// keys of rules/zobrist.ts (the same table, so the game's history keys match)
// updated move by move as two 32-bit halves. A capture sequence is one move;
// two routes of a king to the same squares over the same pieces are one move
// here (they leave the same position). The rules core (src/rules) stays the
// reference: test/engine/moves.test.ts checks both agree.

import { BLACK_KING_ROW, JUMP_LAND, NEIGHBOUR, WHITE_KING_ROW } from '../rules/index.ts';
import { mulberry32u } from '../common/prng.ts';

/** Room for every move of every ply of one search. */
export const STACK_SIZE = 1 << 15;

/** One search's move stack: parallel arrays, slot i is one move. */
export class MoveStack {
  /** from | to << 5 | crowned << 10 (square indices 0–31). */
  readonly move = new Int32Array(STACK_SIZE);
  /** Captured squares (bitboard), 0 for a simple move. */
  readonly cap = new Int32Array(STACK_SIZE);
  /** Ordering scores (never negative; the search marks a move it has taken −1). The hash table keeps a best move
   * as its place in generation order, + 1. */
  readonly score = new Int32Array(STACK_SIZE);
}

export const mFrom = (m: number): number => m & 31;
export const mTo = (m: number): number => (m >>> 5) & 31;
export const mCrowned = (m: number): boolean => (m & 1024) !== 0;

// The diagonal steps of rules/squares.ts spelt out as shifts (the search is
// large enough that V8 stops inlining small functions into it; a call costs
// more than the step): a square of an even row not last in its row steps
// down-right (<< 5) and up-right (>>> 3), one of an odd row not first in its
// row steps down-left (<< 3) and up-left (>>> 5); every square steps the
// other way by 4 (its row's parity decides which diagonal that is).
//   stepDL(x) = (x & EVEN) << 4 | (x & ODD_NOT_FIRST) << 3    stepDR(x) = (x & EVEN_NOT_LAST) << 5 | (x & ODD) << 4
//   stepUL(x) = (x & EVEN) >>> 4 | (x & ODD_NOT_FIRST) >>> 5  stepUR(x) = (x & EVEN_NOT_LAST) >>> 3 | (x & ODD) >>> 4
const EVEN = 0x0f0f0f0f,
  ODD = 0xf0f0f0f0 | 0,
  ODD_NOT_FIRST = 0xe0e0e0e0 | 0,
  EVEN_NOT_LAST = 0x07070707;

/** Pieces of the side to move that can capture. */
export function jumpersOf(own: number, opp: number, kings: number, black: boolean): number {
  const empty = ~(own | opp);
  // Opponent's pieces with an empty square beyond them, seen from each direction; then the squares before them.
  let x = opp & (((empty & EVEN_NOT_LAST) >>> 3) | ((empty & ODD) >>> 4)); // opp & stepUR(empty)
  let down = ((x & EVEN_NOT_LAST) >>> 3) | ((x & ODD) >>> 4);
  x = opp & (((empty & EVEN) >>> 4) | ((empty & ODD_NOT_FIRST) >>> 5)); // opp & stepUL(empty)
  down |= ((x & EVEN) >>> 4) | ((x & ODD_NOT_FIRST) >>> 5);
  x = opp & (((empty & EVEN) << 4) | ((empty & ODD_NOT_FIRST) << 3)); // opp & stepDL(empty)
  let up = ((x & EVEN) << 4) | ((x & ODD_NOT_FIRST) << 3);
  x = opp & (((empty & EVEN_NOT_LAST) << 5) | ((empty & ODD) << 4)); // opp & stepDR(empty)
  up |= ((x & EVEN_NOT_LAST) << 5) | ((x & ODD) << 4);
  return black ? (own & down) | (own & kings & up) : (own & up) | (own & kings & down);
}

// Jump search state (one generation at a time; the search is single-threaded).
let jOpp = 0,
  jEmpty = 0,
  jKingRow = 0,
  jFrom = 0,
  jBlack = true,
  jStack: MoveStack | null = null,
  jStart = 0,
  jN = 0;

/** A capture ending at `to` (a king's: unless a route already found ends there over the same pieces). */
function pushJump(to: number, capMask: number, crowned: boolean, king: boolean): void {
  const packed = jFrom | (to << 5) | (crowned ? 1024 : 0);
  const s = jStack!;
  // A king's second route to the same square over the same pieces: the same move. (A man's routes never meet so:
  // each of its jumps takes it two rows on, so the pieces it takes lie on different rows, in the order it meets them.)
  if (king) for (let i = jStart; i < jN; i++) if (s.move[i] === packed && s.cap[i] === capMask) return;
  s.move[jN] = packed;
  s.cap[jN] = capMask;
  jN++;
}

function jumpFrom(sq: number, king: boolean, capMask: number): boolean {
  let found = false;
  const d0 = king ? 0 : jBlack ? 2 : 0;
  const d1 = king ? 4 : jBlack ? 4 : 2;
  for (let d = d0; d < d1; d++) {
    const land = JUMP_LAND[sq * 4 + d]!;
    if (land < 0) continue;
    const overBit = 1 << NEIGHBOUR[sq * 4 + d]!;
    if ((jOpp & overBit) === 0 || (capMask & overBit) !== 0 || (jEmpty & (1 << land)) === 0) continue;
    found = true;
    const caps = capMask | overBit;
    if (!king && (jKingRow & (1 << land)) !== 0)
      pushJump(land, caps, true, false); // crowned: the move ends
    else if (!jumpFrom(land, king, caps)) pushJump(land, caps, false, king);
  }
  return found;
}

/**
 * Writes the legal moves of the position into the stack from `start`; returns
 * the index after the last (captures only when there is one: they are
 * compulsory).
 */
export function generate(s: MoveStack, start: number, black: number, white: number, kings: number, blackToMove: boolean): number {
  const own = blackToMove ? black : white,
    opp = blackToMove ? white : black;
  return generateWith(s, start, black, white, kings, blackToMove, jumpersOf(own, opp, kings, blackToMove));
}

/** generate, given the side to move's jumpers (jumpersOf) when the caller has them already. */
export function generateWith(
  s: MoveStack,
  start: number,
  black: number,
  white: number,
  kings: number,
  blackToMove: boolean,
  jumpers: number,
): number {
  const own = blackToMove ? black : white,
    opp = blackToMove ? white : black;
  const empty = ~(black | white);
  let j = jumpers;
  if (j) {
    jStack = s;
    jN = start;
    jOpp = opp;
    jKingRow = blackToMove ? BLACK_KING_ROW : WHITE_KING_ROW;
    jBlack = blackToMove;
    while (j) {
      const i = 31 - Math.clz32(j & -j);
      j &= j - 1;
      jFrom = i;
      jStart = jN;
      jEmpty = empty | (1 << i); // the moving piece leaves its square
      jumpFrom(i, (kings & (1 << i)) !== 0, 0);
    }
    jStack = null;
    return jN;
  }
  // Simple moves in the rules' order (by square, then direction), so equal scores break the same way.
  let n = start;
  const kingRow = blackToMove ? BLACK_KING_ROW : WHITE_KING_ROW;
  // Pieces with an empty square up-left, up-right, down-left, down-right of them.
  const eUL = ((empty & EVEN_NOT_LAST) << 5) | ((empty & ODD) << 4), // stepDR(empty)
    eUR = ((empty & EVEN) << 4) | ((empty & ODD_NOT_FIRST) << 3), // stepDL(empty)
    eDL = ((empty & EVEN_NOT_LAST) >>> 3) | ((empty & ODD) >>> 4), // stepUR(empty)
    eDR = ((empty & EVEN) >>> 4) | ((empty & ODD_NOT_FIRST) >>> 5); // stepUL(empty)
  const ownKings = own & kings;
  let movers = blackToMove ? (own & (eDL | eDR)) | (ownKings & (eUL | eUR)) : (own & (eUL | eUR)) | (ownKings & (eDL | eDR));
  const mv = s.move,
    cp = s.cap;
  // Each move written in place (a helper here is not inlined): from | to << 5, + 1024 when a man crowns. The
  // neighbour is the square's index moved by the step's shift (see the steps above; odd rows sit one lower).
  while (movers) {
    const i = 31 - Math.clz32(movers & -movers);
    const bit = 1 << i;
    movers &= movers - 1;
    const man = (kings & bit) === 0;
    const odd = (i >> 2) & 1;
    if (!man || !blackToMove) {
      if (eUL & bit) {
        const to = i - 4 - odd;
        mv[n] = i | (to << 5) | (man && (kingRow & (1 << to)) !== 0 ? 1024 : 0);
        cp[n++] = 0;
      }
      if (eUR & bit) {
        const to = i - 3 - odd;
        mv[n] = i | (to << 5) | (man && (kingRow & (1 << to)) !== 0 ? 1024 : 0);
        cp[n++] = 0;
      }
    }
    if (!man || blackToMove) {
      if (eDL & bit) {
        const to = i + 4 - odd;
        mv[n] = i | (to << 5) | (man && (kingRow & (1 << to)) !== 0 ? 1024 : 0);
        cp[n++] = 0;
      }
      if (eDR & bit) {
        const to = i + 5 - odd;
        mv[n] = i | (to << 5) | (man && (kingRow & (1 << to)) !== 0 ? 1024 : 0);
        cp[n++] = 0;
      }
    }
  }
  return n;
}

// ---------------------------------------------------------------------------
// Zobrist keys: rules/zobrist.ts's table, rebuilt from the same seed.

/** [kind 0–3: black man, black king, white man, white king][square index]; slot 128 is the side (White to move). */
export const Z_HI = new Int32Array(4 * 32 + 1);
export const Z_LO = new Int32Array(4 * 32 + 1);
{
  const next = mulberry32u(0x9e3779b9);
  for (let i = 0; i < Z_HI.length; i++) {
    Z_HI[i] = next() & 0x1fffff;
    Z_LO[i] = next() | 0;
  }
}
export const Z_TURN = 128;

/** The key's halves of a position, as rules/zobrist.ts's hashPosition (lo as a signed 32-bit integer). */
export function zobrist(black: number, white: number, kings: number, blackToMove: boolean, out: Int32Array): void {
  let hi = 0,
    lo = 0;
  for (let side = 0; side < 2; side++) {
    let x = side === 0 ? black : white;
    while (x) {
      const i = 31 - Math.clz32(x & -x);
      x &= x - 1;
      const k = (side * 2 + ((kings >>> i) & 1)) * 32 + i;
      hi ^= Z_HI[k]!;
      lo ^= Z_LO[k]!;
    }
  }
  if (!blackToMove) {
    hi ^= Z_HI[Z_TURN]!;
    lo ^= Z_LO[Z_TURN]!;
  }
  out[0] = hi;
  out[1] = lo;
}

/** The number rules/zobrist.ts's hashKey gives for these halves. */
export const keyNumber = (hi: number, lo: number): number => hi * 0x100000000 + (lo >>> 0);
