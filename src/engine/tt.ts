// The search's transposition table: buckets of four entries, each holding a
// position's key (both Zobrist halves), the depth searched, the kind of bound
// (exact, lower, upper), the score and the best move (its index in the order
// moves.ts generates them, + 1; 0 for none), and the search it was written in
// (its age). A new entry replaces, in its bucket, the same position if not
// deeper-searched, else an empty slot, else the entry of an older search or
// the shallowest one. One Int32Array, four words an entry, so a bucket is one
// 64-byte cache line; nothing is allocated per probe. The search reads a
// probed entry's words itself (`data`, layout below: a call per accessor cost
// more than the read, as V8 does not inline them into the large search).

export const EXACT = 1,
  LOWER = 2,
  UPPER = 3;

const WAYS = 4;
// Word 3 of an entry: depth + 128 (bits 0–7), flag (8–9; 0 = empty), age (10–17), move (18–25).
export const FLAG_SHIFT = 8,
  AGE_SHIFT = 10,
  MOVE_SHIFT = 18;

export class TranspositionTable {
  /** Entries in all. */
  readonly size: number;
  private readonly mask: number;
  /** Per entry: key lo, key hi, score (word slot + 2), packed depth/flag/age/move (word slot + 3). */
  readonly data: Int32Array;
  private now = 0;

  /** 2^bits entries (in buckets of four). */
  constructor(bits = 20) {
    this.size = 1 << bits;
    this.mask = (this.size >> 2) - 1;
    this.data = new Int32Array(this.size * 4);
  }

  clear(): void {
    this.data.fill(0);
  }

  /** A new search begins: entries written before it are the first to go. */
  nextAge(): void {
    this.now = (this.now + 1) & 255;
  }

  /** Slot (word offset) of a key if stored, else −1. */
  probe(lo: number, hi: number): number {
    const d = this.data;
    const b = (lo & this.mask) * WAYS * 4;
    for (let i = b; i < b + WAYS * 4; i += 4) {
      const meta = d[i + 3]!;
      if ((meta & (3 << FLAG_SHIFT)) !== 0 && d[i] === lo && d[i + 1] === hi) {
        // Written only when it changes (a write dirties the cache line, to be written back when it leaves).
        if (((meta >>> AGE_SHIFT) & 255) !== this.now) d[i + 3] = (meta & ~(255 << AGE_SHIFT)) | (this.now << AGE_SHIFT);
        return i;
      }
    }
    return -1;
  }

  depth(slot: number): number {
    return (this.data[slot + 3]! & 255) - 128;
  }
  flag(slot: number): number {
    return (this.data[slot + 3]! >>> FLAG_SHIFT) & 3;
  }
  move(slot: number): number {
    return (this.data[slot + 3]! >>> MOVE_SHIFT) & 255;
  }
  score(slot: number): number {
    return this.data[slot + 2]!;
  }

  store(lo: number, hi: number, depth: number, flag: number, score: number, move: number): void {
    const d = this.data;
    const b = (lo & this.mask) * WAYS * 4;
    let victim = b,
      worst = 1 << 20;
    for (let i = b; i < b + WAYS * 4; i += 4) {
      const meta = d[i + 3]!;
      if ((meta & (3 << FLAG_SHIFT)) === 0) {
        if (worst > -1) {
          victim = i;
          worst = -1;
        }
        continue;
      }
      if (d[i] === lo && d[i + 1] === hi) {
        // The same position: keep a deeper bound unless this one is exact; keep its move if none now.
        if ((meta & 255) - 128 > depth + 2 && flag !== EXACT && ((meta >>> AGE_SHIFT) & 255) === this.now) return;
        if (move === 0) move = (meta >>> MOVE_SHIFT) & 255;
        victim = i;
        break;
      }
      // Older searches' entries go first, then the shallowest.
      const value = (meta & 255) + (((meta >>> AGE_SHIFT) & 255) === this.now ? 256 : 0);
      if (value < worst) {
        victim = i;
        worst = value;
      }
    }
    const dp = depth > 127 ? 127 : depth < -128 ? -128 : depth;
    d[victim] = lo;
    d[victim + 1] = hi;
    d[victim + 2] = score;
    d[victim + 3] = (dp + 128) | (flag << FLAG_SHIFT) | (this.now << AGE_SHIFT) | ((move & 255) << MOVE_SHIFT);
  }
}
