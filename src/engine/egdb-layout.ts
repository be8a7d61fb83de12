// The endgame database's index: how a position of up to N pieces maps to one
// number, shared by the solver (egdb.ts) and the compressed reader
// (egdb-pack.ts). Material slices (black men, black kings, white men, white
// kings) in dependency order — fewer pieces first, then fewer men, as captures
// and crownings only lead to slices already solved; the N-piece layout begins
// with the (N−1)-piece one, index for index. Inside a slice the index is dense:
// the rank of each piece group's squares as a combination (black men on
// squares 1–28, white men on 5–32, kings anywhere), then the side to move; an
// index whose groups overlap is unused.

import { popcount, type Position } from '../rules/index.ts';

const C: number[][] = Array.from({ length: 33 }, () => {
  const row = new Array<number>(6).fill(0);
  row[0] = 1;
  return row;
});
for (let n = 1; n <= 32; n++) for (let k = 1; k <= 5; k++) C[n]![k] = C[n - 1]![k - 1]! + C[n - 1]![k]!;

/** Rank of a set of squares (bits, shifted down by `shift`) among all sets of its size, colex order. */
function rank(bits: number, shift: number): number {
  let r = 0,
    i = 1;
  while (bits) {
    const b = 31 - Math.clz32(bits & -bits);
    bits &= bits - 1;
    r += C[b - shift]![i++]!;
  }
  return r;
}

const comboMemo = new Map<string, number[]>();

/** All k-subsets of `n` squares starting at bit `shift`, as bitboards in rank order. */
export function combos(n: number, k: number, shift: number): number[] {
  const key = `${n}/${k}/${shift}`;
  const known = comboMemo.get(key);
  if (known) return known;
  const out: number[] = [];
  const rec = (from: number, left: number, acc: number): void => {
    if (left === 0) {
      out.push(acc);
      return;
    }
    for (let i = from; i < n; i++) rec(i + 1, left - 1, acc | (1 << (i + shift)));
  };
  rec(0, k, 0);
  // colex order = sort by rank
  out.sort((a, b) => rank(a, shift) - rank(b, shift));
  comboMemo.set(key, out);
  return out;
}

export interface Slice {
  readonly bm: number;
  readonly bk: number;
  readonly wm: number;
  readonly wk: number;
  readonly offset: number;
  readonly size: number;
  /** Group sizes: black men, white men, black kings, white kings combinations. */
  readonly n: readonly [number, number, number, number];
}

export const BM_SHIFT = 0,
  WM_SHIFT = 4; // black men on bits 0–27, white men on bits 4–31
/** A man on its own crowning row (black on 29–32, white on 1–4): no game reaches it, but a set-up (a problem's FEN) can. */
const BM_OUTSIDE = 0xf0000000 | 0,
  WM_OUTSIDE = 0x0000000f;

export const sliceName = (s: Slice): string => `${s.bm}bm${s.bk}bk-${s.wm}wm${s.wk}wk`;

/** The slices of the database of up to maxPieces pieces, and the index of a position in it. */
export class EgdbLayout {
  readonly slices: Slice[] = [];
  private readonly sliceOf = new Int16Array(6 * 6 * 6 * 6).fill(-1);
  /** Number of indices (including the unused ones where pieces would overlap). */
  readonly size: number;

  constructor(readonly maxPieces: number) {
    if (!Number.isInteger(maxPieces) || maxPieces < 2 || maxPieces > 5)
      throw new RangeError(`this database holds 2 to 5 pieces, not ${maxPieces}`);
    let offset = 0;
    const mats: [number, number, number, number][] = [];
    for (let bm = 0; bm <= maxPieces; bm++)
      for (let bk = 0; bk + bm <= maxPieces; bk++)
        for (let wm = 0; wm + bk + bm <= maxPieces; wm++)
          for (let wk = 0; wk + wm + bk + bm <= maxPieces; wk++) if (bm + bk > 0 && wm + wk > 0) mats.push([bm, bk, wm, wk]);
    // (A stable sort: the slices of fewer pieces come in the same order whatever maxPieces is.)
    mats.sort((a, b) => a[0] + a[1] + a[2] + a[3] - (b[0] + b[1] + b[2] + b[3]) || a[0] + a[2] - (b[0] + b[2]) || 0);
    for (const [bm, bk, wm, wk] of mats) {
      const n: [number, number, number, number] = [C[28]![bm]!, C[28]![wm]!, C[32]![bk]!, C[32]![wk]!];
      const size = n[0] * n[1] * n[2] * n[3] * 2;
      this.sliceOf[bm + 6 * bk + 36 * wm + 216 * wk] = this.slices.length;
      this.slices.push({ bm, bk, wm, wk, offset, size, n });
      offset += size;
    }
    this.size = offset;
  }

  /**
   * Index of a position, or −1 when it is not in the database: more pieces
   * than it holds, a side with none, or a man standing uncrowned on its
   * crowning row (only a set-up can put one there; the index has no room
   * for it, and the search goes on without the database).
   */
  indexOf(p: Position): number {
    const men = ~p.kings;
    const bmB = p.black & men,
      bkB = p.black & p.kings,
      wmB = p.white & men,
      wkB = p.white & p.kings;
    const bm = popcount(bmB),
      bk = popcount(bkB),
      wm = popcount(wmB),
      wk = popcount(wkB);
    if (bm + bk + wm + wk > this.maxPieces || bm + bk === 0 || wm + wk === 0) return -1;
    if (bmB & BM_OUTSIDE || wmB & WM_OUTSIDE) return -1;
    const s = this.slices[this.sliceOf[bm + 6 * bk + 36 * wm + 216 * wk]!]!;
    const [, nWM, nBK, nWK] = s.n;
    return (
      s.offset +
      ((((rank(bmB, BM_SHIFT) * nWM + rank(wmB, WM_SHIFT)) * nBK + rank(bkB, 0)) * nWK + rank(wkB, 0)) * 2 + (p.turn === 'black' ? 0 : 1))
    );
  }
}
