// Zobrist hashing: a 53-bit key per position (two 32-bit halves from a fixed
// seeded table), updated incrementally as moves are made. Used for repetition.

import { lowestIndex } from './squares.ts';
import { mulberry32u } from '../common/prng.ts';
import type { Position } from './position.ts';
import type { Move } from './movegen.ts';

// Table: [piece kind 0..3 = black man, black king, white man, white king][square index] × (hi, lo).
const HI = new Uint32Array(4 * 32 + 1);
const LO = new Uint32Array(4 * 32 + 1);
// mulberry32 with a fixed seed, so keys are the same in every run and process.
const next = mulberry32u(0x9e3779b9);
for (let i = 0; i < HI.length; i++) {
  HI[i] = next() & 0x1fffff; // 21 bits so hi·2³² + lo stays a safe integer
  LO[i] = next();
}
const TURN = 4 * 32; // XORed in when White is to move

export interface Hash {
  hi: number;
  lo: number;
}

const kindOf = (black: boolean, king: boolean): number => (black ? 0 : 2) + (king ? 1 : 0);

export function hashPosition(pos: Position): Hash {
  let hi = 0,
    lo = 0;
  for (const [bb, black] of [
    [pos.black, true],
    [pos.white, false],
  ] as const) {
    let x = bb;
    while (x) {
      const i = lowestIndex(x);
      x &= x - 1;
      const k = kindOf(black, (pos.kings & (1 << i)) !== 0) * 32 + i;
      hi ^= HI[k];
      lo ^= LO[k];
    }
  }
  if (pos.turn === 'white') {
    hi ^= HI[TURN];
    lo ^= LO[TURN];
  }
  return { hi, lo: lo >>> 0 };
}

/** The hash after `move`, from the hash before it (`pos` is the position before). */
export function hashAfter(h: Hash, pos: Position, move: Move): Hash {
  let { hi, lo } = h;
  const black = pos.turn === 'black';
  const wasKing = (pos.kings & (1 << (move.from - 1))) !== 0;
  const from = kindOf(black, wasKing) * 32 + move.from - 1;
  const to = kindOf(black, wasKing || move.crowned) * 32 + move.to - 1;
  hi ^= HI[from] ^ HI[to] ^ HI[TURN];
  lo ^= LO[from] ^ LO[to] ^ LO[TURN];
  for (const c of move.captures) {
    const k = kindOf(!black, (pos.kings & (1 << (c - 1))) !== 0) * 32 + c - 1;
    hi ^= HI[k];
    lo ^= LO[k];
  }
  return { hi, lo: lo >>> 0 };
}

/** Removing one piece (a huff) from the hash. */
export function hashWithout(h: Hash, pos: Position, square: number): Hash {
  const b = 1 << (square - 1);
  const k = kindOf((pos.black & b) !== 0, (pos.kings & b) !== 0) * 32 + square - 1;
  return { hi: h.hi ^ HI[k], lo: (h.lo ^ LO[k]) >>> 0 };
}

/** One number usable as a Map key. */
export const hashKey = (h: Hash): number => h.hi * 0x100000000 + h.lo;
