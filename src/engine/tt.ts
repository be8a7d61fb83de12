// The search's transposition table: buckets of eight entries, each holding a
// check of the position's key (32 bits of both Zobrist halves mixed; the
// bucket is the low bits of the lo half), the depth searched, the kind of
// bound (exact, lower, upper), the score and the best move (its index in the
// order moves.ts generates them, + 1; 0 for none or past 31), and the search
// it was written in (its age, modulo 4). A new entry replaces, in its bucket,
// the same position if not deeper-searched, else an empty slot, else the
// entry of an older search or the shallowest one. One Int32Array, two words
// an entry, so a bucket is one 64-byte cache line: the search spends more of
// its time waiting for the line of a probe than on anything else, so an entry
// is as small as it can be (8 bytes: twice the entries in the same memory as
// four words, or the same entries in half of it, fewer cache and TLB misses).
// Nothing is allocated per probe. The search reads a probed entry's word
// itself (`data`, layout below: a call per accessor cost more than the read,
// as V8 does not inline them into the large search).

export const EXACT = 1,
  LOWER = 2,
  UPPER = 3;

const WAYS = 8;
/** An entry's words: the key check (slot), then the packed rest (slot + 1): */
// depth (bits 0–6, 0–127), flag (7–8; 0 = empty), age (9–10), move (11–15), score (16–31, signed).
export const DEPTH_MASK = 127,
  FLAG_SHIFT = 7,
  AGE_SHIFT = 9,
  MOVE_SHIFT = 11,
  SCORE_SHIFT = 16;
const FLAGS = 3 << FLAG_SHIFT;
const AGES = 3 << AGE_SHIFT;
/** The largest move index an entry keeps (5 bits); a later move is kept as none. */
export const MAX_TT_MOVE = 31;

/** The check word of a key (its bucket is lo & mask): hi scrambled (a bijection), XOR lo. */
export const keyCheck = (lo: number, hi: number): number => Math.imul(hi, 0x9e3779b1) ^ lo;

export class TranspositionTable {
  /** Entries in all. */
  readonly size: number;
  /** Buckets − 1: a key's bucket is lo & mask, its first word (lo & mask) << 4. */
  readonly mask: number;
  /** Per entry: the key check (word slot), the packed depth/flag/age/move/score (word slot + 1). */
  readonly data: Int32Array;
  private now = 0;

  /** 2^bits entries (in buckets of eight; bits ≥ 3). */
  constructor(bits = 20) {
    this.size = 1 << bits;
    this.mask = (this.size >> 3) - 1;
    this.data = new Int32Array(this.size * 2);
  }

  clear(): void {
    this.data.fill(0);
  }

  /** A new search begins: entries written before it are the first to go. */
  nextAge(): void {
    this.now = (this.now + 1) & 3;
  }

  /** Slot (word offset) of a key if stored, else −1. */
  probe(lo: number, hi: number): number {
    const d = this.data;
    const check = keyCheck(lo, hi);
    const b = (lo & this.mask) << 4;
    for (let i = b; i < b + 2 * WAYS; i += 2) {
      if (d[i] !== check) continue;
      const meta = d[i + 1]!;
      if ((meta & FLAGS) === 0) continue;
      // Written only when it changes (a write dirties the cache line, to be written back when it leaves).
      if (((meta >>> AGE_SHIFT) & 3) !== this.now) d[i + 1] = (meta & ~AGES) | (this.now << AGE_SHIFT);
      return i;
    }
    return -1;
  }

  depth(slot: number): number {
    return this.data[slot + 1]! & DEPTH_MASK;
  }
  flag(slot: number): number {
    return (this.data[slot + 1]! >>> FLAG_SHIFT) & 3;
  }
  move(slot: number): number {
    return (this.data[slot + 1]! >>> MOVE_SHIFT) & 31;
  }
  score(slot: number): number {
    return this.data[slot + 1]! >> SCORE_SHIFT;
  }

  /** Keeps a result: depth clamped to 0–127, score within ±32767 (the search's are within ±30128), move 0–255 (past 31 kept as none). */
  store(lo: number, hi: number, depth: number, flag: number, score: number, move: number): void {
    const d = this.data;
    const check = keyCheck(lo, hi);
    const b = (lo & this.mask) << 4;
    let victim = b,
      worst = 1 << 20;
    if (move > MAX_TT_MOVE) move = 0;
    for (let i = b; i < b + 2 * WAYS; i += 2) {
      const meta = d[i + 1]!;
      if ((meta & FLAGS) === 0) {
        if (worst > -1) {
          victim = i;
          worst = -1;
        }
        continue;
      }
      if (d[i] === check) {
        // The same position: keep a deeper bound unless this one is exact; keep its move if none now.
        if ((meta & DEPTH_MASK) > depth + 2 && flag !== EXACT && ((meta >>> AGE_SHIFT) & 3) === this.now) return;
        if (move === 0) move = (meta >>> MOVE_SHIFT) & 31;
        victim = i;
        break;
      }
      // Older searches' entries go first, then the shallowest.
      const value = (meta & DEPTH_MASK) + (((meta >>> AGE_SHIFT) & 3) === this.now ? 128 : 0);
      if (value < worst) {
        victim = i;
        worst = value;
      }
    }
    const dp = depth > DEPTH_MASK ? DEPTH_MASK : depth < 0 ? 0 : depth;
    d[victim] = check;
    d[victim + 1] = dp | (flag << FLAG_SHIFT) | (this.now << AGE_SHIFT) | (move << MOVE_SHIFT) | (score << SCORE_SHIFT);
  }
}
