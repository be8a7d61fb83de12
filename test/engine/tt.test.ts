// The transposition table's entries: what is stored is read back whole (the
// packed word's every field, negative scores, the move past 31 kept as none),
// a key that was not stored is not found, and the replacement keeps what its
// header says (a deeper bound of this search over a shallower one, an exact
// result over it, an older search's entries first).
import { describe, expect, it } from 'vitest';
import { EXACT, LOWER, MAX_TT_MOVE, TranspositionTable, UPPER } from '../../src/engine/tt.ts';
import { mulberry32u } from '../../src/common/prng.ts';

/** Keys that fall in one bucket of a table of 2^bits entries (the same low bits of lo). */
function sameBucket(t: TranspositionTable, n: number, seed: number): [number, number][] {
  const next = mulberry32u(seed);
  return Array.from({ length: n }, () => [(next() & ~t.mask) | 5 | 0, next() | 0] as [number, number]);
}

describe('transposition table', () => {
  it('reads back every field stored, for many random keys', () => {
    const t = new TranspositionTable(16);
    const next = mulberry32u(7);
    const kept: { lo: number; hi: number; depth: number; flag: number; score: number; move: number }[] = [];
    for (let i = 0; i < 3000; i++) {
      const e = {
        lo: next() | 0,
        hi: next() | 0,
        depth: 1 + (next() % 60),
        flag: [EXACT, LOWER, UPPER][next() % 3]!,
        score: (next() % 60257) - 30128,
        move: next() % 40,
      };
      t.store(e.lo, e.hi, e.depth, e.flag, e.score, e.move);
      kept.push(e);
    }
    let found = 0;
    for (const e of kept) {
      const slot = t.probe(e.lo, e.hi);
      if (slot < 0) continue; // replaced in a full bucket
      found++;
      expect([t.depth(slot), t.flag(slot), t.score(slot), t.move(slot)]).toEqual([
        e.depth,
        e.flag,
        e.score,
        e.move > MAX_TT_MOVE ? 0 : e.move,
      ]);
    }
    // 3000 keys in 65536 entries: almost all stay.
    expect(found).toBeGreaterThan(2990);
  });

  it('does not find a key it was not given, nor one that differs in the hi half only', () => {
    const t = new TranspositionTable(12);
    const keys = sameBucket(t, 8, 3);
    for (const [lo, hi] of keys) t.store(lo, hi, 5, EXACT, 10, 1);
    for (const [lo, hi] of keys) {
      expect(t.probe(lo, hi)).toBeGreaterThanOrEqual(0);
      expect(t.probe(lo, hi ^ 1)).toBe(-1);
      expect(t.probe(lo, hi ^ (1 << 24))).toBe(-1);
    }
    expect(t.probe(keys[0]![0] ^ 1, keys[0]![1])).toBe(-1);
  });

  it('replaces the shallowest entry of a full bucket, and an older search entry before it', () => {
    const t = new TranspositionTable(12);
    const keys = sameBucket(t, 10, 9);
    keys.slice(0, 8).forEach(([lo, hi], i) => t.store(lo, hi, 10 + i, LOWER, 0, 0));
    t.store(keys[8]![0], keys[8]![1], 30, LOWER, 0, 0);
    expect(t.probe(keys[0]![0], keys[0]![1])).toBe(-1); // depth 10, the shallowest
    expect(t.probe(keys[8]![0], keys[8]![1])).toBeGreaterThanOrEqual(0);
    // A new search: its entry takes an old one's place even if that one is deeper.
    t.nextAge();
    t.probe(keys[1]![0], keys[1]![1]); // read in this search: it is this search's now
    t.store(keys[9]![0], keys[9]![1], 1, UPPER, 0, 0);
    expect(t.probe(keys[1]![0], keys[1]![1])).toBeGreaterThanOrEqual(0);
    expect(t.probe(keys[2]![0], keys[2]![1])).toBe(-1); // the shallowest of the older search's
    expect(t.probe(keys[9]![0], keys[9]![1])).toBeGreaterThanOrEqual(0);
  });

  it('keeps a clearly deeper bound of this search over a shallower one, but not over an exact result, and keeps the move', () => {
    const t = new TranspositionTable(12);
    const [lo, hi] = [0x1234567, 0x89abc];
    t.store(lo, hi, 12, LOWER, 50, 7);
    t.store(lo, hi, 4, UPPER, -20, 0);
    let slot = t.probe(lo, hi);
    expect([t.depth(slot), t.flag(slot), t.score(slot), t.move(slot)]).toEqual([12, LOWER, 50, 7]);
    t.store(lo, hi, 4, EXACT, -20, 0);
    slot = t.probe(lo, hi);
    expect([t.depth(slot), t.flag(slot), t.score(slot), t.move(slot)]).toEqual([4, EXACT, -20, 7]);
  });
});
