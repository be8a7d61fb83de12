// Board geometry for English draughts on the 32 dark squares.
//
// Squares are numbered 1–32 as in PDN; internally square s is bit (s − 1) of a
// 32-bit bitboard. Row 0 holds squares 1–4 (Black's back rank, Black's double
// corner is 1/5), row 7 holds 29–32 (White's back rank). In even rows the dark
// squares sit in columns 1,3,5,7; in odd rows in columns 0,2,4,6. "Down" means
// towards higher numbers: Black's men move down, White's men move up.

export type Bitboard = number;

/** Squares in even rows (0, 2, 4, 6). */
export const EVEN_ROWS: Bitboard = 0x0f0f0f0f;
/** Squares in odd rows (1, 3, 5, 7). */
export const ODD_ROWS: Bitboard = 0xf0f0f0f0 | 0;
/** Rightmost square of each row (index % 4 === 3) and leftmost (index % 4 === 0). */
const C3: Bitboard = 0x88888888 | 0;
const C0: Bitboard = 0x11111111;

/** Black's men crown on row 7 (29–32), White's on row 0 (1–4). */
export const BLACK_KING_ROW: Bitboard = 0xf0000000 | 0;
export const WHITE_KING_ROW: Bitboard = 0x0000000f;

// One diagonal step in each direction, applied to a whole bitboard. Each is an
// exact partial bijection, and UR/DL and UL/DR are each other's inverse.
export const stepDL = (x: Bitboard): Bitboard => ((x & EVEN_ROWS) << 4) | ((x & ODD_ROWS & ~C0) << 3);
export const stepDR = (x: Bitboard): Bitboard => ((x & EVEN_ROWS & ~C3) << 5) | ((x & ODD_ROWS) << 4);
export const stepUL = (x: Bitboard): Bitboard => ((x & EVEN_ROWS) >>> 4) | ((x & ODD_ROWS & ~C0) >>> 5);
export const stepUR = (x: Bitboard): Bitboard => ((x & EVEN_ROWS & ~C3) >>> 3) | ((x & ODD_ROWS) >>> 4);

/** Direction indices: 0 UL, 1 UR, 2 DL, 3 DR. Up = towards square 1. */
export const UL = 0;
export const UR = 1;
export const DL = 2;
export const DR = 3;

/** Row (0–7) and column (0–7) of a square index 0–31. */
export const rowOf = (i: number): number => i >> 2;
export const colOf = (i: number): number => (((i >> 2) & 1) === 0 ? 2 * (i & 3) + 1 : 2 * (i & 3));
/** Square index 0–31 at row/column, or −1 for a light square or off the board. */
export function indexAt(row: number, col: number): number {
  if (row < 0 || row > 7 || col < 0 || col > 7) return -1;
  if ((row + col) % 2 === 0) return -1;
  return row * 4 + (col >> 1);
}

const DR_ROW = [-1, -1, 1, 1];
const DR_COL = [-1, 1, -1, 1];

/** NEIGHBOUR[i * 4 + d]: the index one step from i in direction d, or −1. */
export const NEIGHBOUR = new Int8Array(128);
/** JUMP_LAND[i * 4 + d]: the landing index of a jump from i in direction d, or −1. */
export const JUMP_LAND = new Int8Array(128);
for (let i = 0; i < 32; i++) {
  for (let d = 0; d < 4; d++) {
    const r = rowOf(i),
      c = colOf(i);
    NEIGHBOUR[i * 4 + d] = indexAt(r + DR_ROW[d], c + DR_COL[d]);
    JUMP_LAND[i * 4 + d] = indexAt(r + 2 * DR_ROW[d], c + 2 * DR_COL[d]);
  }
}

export function popcount(x: Bitboard): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Index of the lowest set bit (x must be non-zero). */
export const lowestIndex = (x: Bitboard): number => 31 - Math.clz32(x & -x);

export const bit = (square: number): Bitboard => 1 << (square - 1);

/** The squares (1–32) set in a bitboard, ascending. */
export function squaresOf(x: Bitboard): number[] {
  const out: number[] = [];
  while (x !== 0) {
    out.push(lowestIndex(x) + 1);
    x &= x - 1;
  }
  return out;
}

export const isSquare = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 32;
