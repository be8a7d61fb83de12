// Endgame database by our own retrograde solver: every position with up to N
// pieces (N = 4 by default: both colours, men and kings, either side to move)
// is solved exactly — win or loss in d plies with best play, or a draw.
//
// Values: one number per index of egdb-layout.ts (material slices, dense
// inside a slice), 0 for a draw, d + 1 for a result in d plies (odd d: the
// side to move wins, even d: it loses), UNUSED where pieces would overlap. In
// memory 16 bits each (the longest result is known only once solved: 109
// plies with 4 pieces, 162 with 5; a byte holds 253); the 4-piece cache
// file keeps one byte each, the 5-piece one is compressed (egdb-pack.ts).
//
// Solving: slices in dependency order (fewer pieces first, then fewer men, as
// captures and crownings only lead to slices already solved). Inside a slice
// every position's moves are generated once; moves that stay inside the slice
// become a successor table, reversed into a predecessor table; values are then
// backed up in order of distance from the positions that have no move (or
// whose outside successors decide them), the standard retrograde analysis.
// Every slice is checked against its successors as soon as it is solved. A
// bigger database can start from a smaller one's values (seed): its layout
// begins with the smaller one's.
//
// The 40-move rule and repetitions are not part of the value (a draw means
// neither side can force a win); the distances let the search check the rule.
// Serialized with a CRC-32: bytes whose header or checksum does not match are
// refused, never trusted. Pure: the disk cache (where, when to build) lives in
// src/engine-host/egdb-cache.ts.

import { crc32 } from 'node:zlib';
import { legalMoves, playMove, popcount, type Position } from '../rules/index.ts';
import { BM_SHIFT, combos, EgdbLayout, sliceName, WM_SHIFT, type Slice } from './egdb-layout.ts';

/** Value of a position for the side to move: > 0 win in (WIN_BASE − v) plies, < 0 loss in (WIN_BASE + v), 0 draw. */
export const WIN_BASE = 1000;
/** The number of pieces the engine's database holds by default (built on first use: about half a minute, 15 MB). */
export const EGDB_PIECES = 4;

/** What the search needs of an endgame database (the solved one here, or the compressed one of egdb-pack.ts). */
export interface EndgameProbe {
  readonly maxPieces: number;
  /** Exact value for the side to move (see WIN_BASE), or null when the position is not in the database. */
  probe(p: Position): number | null;
}

/** A value: 0 draw, d + 1 a result in d plies; these two mark an index where pieces overlap, and one not solved yet. */
export const UNUSED = 0xffff;
const UNSOLVED = 0xfffe;
const MAGIC = 'CHEGDB02';
const HEADER = 32;

/** Progress of a build: slices solved so far, of how many, the last one's name. */
export type SliceProgress = (done: number, total: number, name: string) => void;

export class Egdb implements EndgameProbe {
  readonly layout: EgdbLayout;
  private readonly slices: readonly Slice[];
  /** One value per index (see the header). */
  data: Uint16Array;
  /** Slices solved (or adopted) so far, in order. */
  private solved = 0;
  buildMs = 0;

  constructor(readonly maxPieces: number = EGDB_PIECES) {
    this.layout = new EgdbLayout(maxPieces);
    this.slices = this.layout.slices;
    this.data = new Uint16Array(this.layout.size).fill(UNSOLVED);
  }

  /** Number of indices (including the unused ones where pieces would overlap). */
  get size(): number {
    return this.data.length;
  }

  /** Number of slices, and how many are solved. */
  get sliceCount(): number {
    return this.slices.length;
  }
  get slicesSolved(): number {
    return this.solved;
  }

  /** Number of real positions (indices in use). */
  get positions(): number {
    let n = 0;
    for (let i = 0; i < this.data.length; i++) if (this.data[i]! < UNSOLVED) n++;
    return n;
  }

  /** The largest value (the longest result + 1). */
  get maxValue(): number {
    let m = 0;
    for (let i = 0; i < this.data.length; i++) if (this.data[i]! < UNSOLVED && this.data[i]! > m) m = this.data[i]!;
    return m;
  }

  indexOf(p: Position): number {
    return this.layout.indexOf(p);
  }

  /** Starts from a solved smaller database: its slices are this one's first ones, index for index. */
  seed(smaller: Egdb): void {
    if (smaller.maxPieces >= this.maxPieces || smaller.solved !== smaller.slices.length)
      throw new RangeError('seed from a solved database of fewer pieces');
    this.data.set(smaller.data);
    this.solved = smaller.slices.length;
  }

  /** The values of slice number k (a view; solved when k < slicesSolved), and its name. */
  sliceValues(k: number): { values: Uint16Array; name: string } {
    const s = this.slices[k]!;
    return { values: this.data.subarray(s.offset, s.offset + s.size), name: sliceName(s) };
  }

  /** Takes the solved values of the next slice to solve (a build resumed from its checkpoints); false when they do not fit. */
  adoptSlice(k: number, values: Uint16Array): boolean {
    const s = this.slices[k];
    if (k !== this.solved || !s || values.length !== s.size) return false;
    for (const v of values) if (v === UNSOLVED || (v > 32_000 && v !== UNUSED)) return false;
    this.data.set(values, s.offset);
    this.solved++;
    return true;
  }

  /** Exact value for the side to move (see WIN_BASE), or null when the position has too many pieces. */
  probe(p: Position): number | null {
    if (!(p.turn === 'black' ? p.black : p.white)) return -WIN_BASE; // no pieces left: lost
    if (!(p.turn === 'black' ? p.white : p.black)) return null; // the game ended a move ago
    const i = this.indexOf(p);
    if (i < 0) return null;
    const v = this.data[i]!;
    return v >= UNSOLVED ? null : decode(v);
  }

  /** Every position in the database (or in its slice number `only`) with its index (for tests and statistics). */
  *entries(only?: number): Generator<[number, Position]> {
    for (const s of only === undefined ? this.slices : [this.slices[only]!]) {
      let i = s.offset;
      for (const bm of combos(28, s.bm, BM_SHIFT))
        for (const wm of combos(28, s.wm, WM_SHIFT))
          for (const bk of combos(32, s.bk, 0))
            for (const wk of combos(32, s.wk, 0)) {
              for (const turn of ['black', 'white'] as const) {
                if (this.data[i]! < UNSOLVED) yield [i, { black: bm | bk, white: wm | wk, kings: bk | wk, turn }];
                i++;
              }
            }
    }
  }

  /** Value at an index (see WIN_BASE); null for an unused index. */
  valueAt(i: number): number | null {
    const b = this.data[i]!;
    return b >= UNSOLVED ? null : decode(b);
  }

  /**
   * Solves the slices not solved yet, in order (up to `upTo` slices in all:
   * a test solves a few); throws if a slice disagrees with its successors.
   */
  solve(onSlice?: SliceProgress, upTo: number = this.slices.length): void {
    const t0 = performance.now();
    for (; this.solved < Math.min(upTo, this.slices.length); this.solved++) {
      const s = this.slices[this.solved]!;
      const bad = this.solveSlice(s);
      if (bad.length) throw new Error(`endgame database: slice ${sliceName(s)} is inconsistent: ${bad.join('; ')}`);
      onSlice?.(this.solved + 1, this.slices.length, sliceName(s));
    }
    this.buildMs = performance.now() - t0;
  }

  private solveSlice(s: Slice): string[] {
    const { offset, size } = s;
    const data = this.data;
    // Pass 1: every position's moves. Inside moves → successor table; outside ones are summarised.
    const start = new Int32Array(size + 1);
    let edges = new Int32Array(Math.max(1024, size * 4));
    let ne = 0;
    const extWin = new Int16Array(size).fill(-1); // shortest win through an outside successor (plies), −1 none
    const extMaxWin = new Int16Array(size).fill(-1); // longest outside win of the opponent
    const extDraw = new Uint8Array(size); // an outside successor is a draw or a win for us: not every move loses
    const moveCount = new Int32Array(size);
    let i = 0;
    for (const bm of combos(28, s.bm, BM_SHIFT))
      for (const wm of combos(28, s.wm, WM_SHIFT))
        for (const bk of combos(32, s.bk, 0))
          for (const wk of combos(32, s.wk, 0)) {
            const overlap = popcount(bm | wm | bk | wk) !== s.bm + s.wm + s.bk + s.wk;
            for (let side = 0; side < 2; side++, i++) {
              start[i] = ne;
              if (overlap) {
                data[offset + i] = UNUSED;
                continue;
              }
              const p: Position = { black: bm | bk, white: wm | wk, kings: bk | wk, turn: side === 0 ? 'black' : 'white' };
              const moves = legalMoves(p);
              moveCount[i] = moves.length;
              for (const m of moves) {
                const c = playMove(p, m);
                let v: number; // child's byte, or −1 for inside
                if (!(c.black && c.white))
                  v = 1; // the mover took the last piece: the child has lost in 0
                else {
                  const j = this.indexOf(c);
                  if (j >= offset && j < offset + size) {
                    if (ne === edges.length) {
                      const e2 = new Int32Array(edges.length * 2);
                      e2.set(edges);
                      edges = e2;
                    }
                    edges[ne++] = j - offset;
                    continue;
                  }
                  v = data[j]!;
                  if (j < 0 || v >= UNSOLVED) throw new Error(`endgame database: successor of slice ${sliceName(s)} not solved`);
                }
                if (v === 0) extDraw[i] = 1;
                else if ((v - 1) % 2 === 0) {
                  // child loses in v−1: we win in v
                  extDraw[i] = 1;
                  if (extWin[i] < 0 || v < extWin[i]!) extWin[i] = v;
                } else if (v - 1 > extMaxWin[i]!) extMaxWin[i] = v - 1;
              }
            }
          }
    start[size] = ne;
    // Predecessor table.
    const rstart = new Int32Array(size + 1);
    for (let e = 0; e < ne; e++) rstart[edges[e]! + 1]!++;
    for (let k = 0; k < size; k++) rstart[k + 1]! += rstart[k]!;
    const rev = new Int32Array(ne);
    const fill = rstart.slice(0, size);
    for (let k = 0; k < size; k++) for (let e = start[k]!; e < start[k + 1]!; e++) rev[fill[edges[e]!]!++] = k;
    // Retrograde by distance buckets.
    const buckets: number[][] = [];
    const push = (d: number, k: number): void => {
      (buckets[d] ??= []).push(k);
    };
    const left = new Int32Array(size); // inside successors not yet known to win for the opponent
    const maxWin = new Int16Array(size);
    const done = new Uint8Array(size);
    for (let k = 0; k < size; k++) {
      if (data[offset + k] === UNUSED) {
        done[k] = 1;
        continue;
      }
      left[k] = start[k + 1]! - start[k]!;
      maxWin[k] = extMaxWin[k]!;
      if (moveCount[k] === 0) push(0, k);
      else if (extWin[k]! >= 0) push(extWin[k]!, k);
      else if (left[k] === 0 && !extDraw[k]) push(maxWin[k]! + 1, k);
    }
    for (let d = 0; d < buckets.length; d++) {
      const b = buckets[d];
      if (!b) continue;
      if (d + 1 >= Math.min(UNSOLVED, 32_000)) throw new Error(`endgame database: a distance of ${d} plies is beyond the format`);
      for (const k of b) {
        if (done[k]) continue;
        done[k] = 1;
        data[offset + k] = d + 1;
        for (let e = rstart[k]!; e < rstart[k + 1]!; e++) {
          const q = rev[e]!;
          if (done[q]) continue;
          if (d % 2 === 0)
            push(d + 1, q); // k loses: q wins by moving there
          else {
            if (d > maxWin[q]!) maxWin[q] = d;
            if (--left[q]! === 0 && !extDraw[q] && extWin[q]! < 0) push(maxWin[q]! + 1, q);
          }
        }
      }
    }
    for (let k = 0; k < size; k++) if (!done[k]) data[offset + k] = 0; // no forced result: a draw
    // Check: every value is the one its successors give (inside from the table, outside from the summary).
    const bad: string[] = [];
    for (let k = 0; k < size && bad.length < 5; k++) {
      const got = data[offset + k]!;
      if (got === UNUSED) continue;
      let minLoss = extWin[k]! >= 0 ? extWin[k]! - 1 : Infinity,
        maxW = extMaxWin[k]!,
        other = extDraw[k] === 1 && extWin[k]! < 0;
      for (let e = start[k]!; e < start[k + 1]!; e++) {
        const v = data[offset + edges[e]!]!;
        if (v === 0) other = true;
        else if ((v - 1) % 2 === 0) minLoss = Math.min(minLoss, v - 1);
        else maxW = Math.max(maxW, v - 1);
      }
      const want = moveCount[k] === 0 ? 1 : minLoss < Infinity ? minLoss + 2 : other ? 0 : maxW + 2;
      if (want !== got) bad.push(`index ${offset + k}: byte ${got}, successors say ${want}`);
    }
    return bad;
  }

  /**
   * Every value against its successors, generating the moves afresh (the
   * slow, independent check; `solve` already checks each slice as it goes).
   * `every` > 1 checks one position in so many; `only` checks one slice.
   * Returns the disagreements.
   */
  verify(every = 1, only?: number): string[] {
    const bad: string[] = [];
    let n = 0;
    for (const [i, p] of this.entries(only)) {
      if (n++ % every !== 0) continue;
      const kids = legalMoves(p).map((m) => this.probe(playMove(p, m))!);
      const val = decode(this.data[i]!);
      let want: number;
      if (kids.length === 0) want = -WIN_BASE;
      else {
        const losses = kids.filter((c) => c < 0);
        if (losses.length) want = WIN_BASE - (1 + Math.min(...losses.map((c) => WIN_BASE + c)));
        else if (kids.every((c) => c > 0)) want = -(WIN_BASE - (1 + Math.max(...kids.map((c) => WIN_BASE - c))));
        else want = 0;
      }
      if (want !== val) bad.push(`position ${i}: value ${val}, successors say ${want}`);
      if (bad.length >= 10) break;
    }
    return bad;
  }

  /** The cache file's bytes: a header (magic, piece count, size, CRC-32 of the data) and the data, one byte a value. */
  serialize(): Buffer {
    const body = Buffer.alloc(this.data.length);
    for (let i = 0; i < this.data.length; i++) {
      const v = this.data[i]!;
      if (v >= UNSOLVED && v !== UNUSED) throw new Error('endgame database: serializing before it is solved');
      if (v >= 255 && v !== UNUSED) throw new Error(`endgame database: a distance of ${v - 1} plies does not fit a byte`);
      body[i] = v === UNUSED ? 255 : v;
    }
    const head = Buffer.alloc(HEADER);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(this.maxPieces, 8);
    head.writeUInt32LE(this.data.length, 12);
    head.writeUInt32LE(crc32(body), 16);
    return Buffer.concat([head, body]);
  }

  /**
   * Takes its values from a cache file's bytes (see serialize) when their
   * header, size and checksum match; otherwise says why they cannot be
   * trusted, and keeps none of them (then solve()).
   */
  adopt(bytes: Uint8Array): string | null {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== MAGIC) return 'not an endgame database file of this version';
    if (buf.readUInt32LE(8) !== this.maxPieces || buf.readUInt32LE(12) !== this.data.length) return 'made for another piece count';
    if (buf.length !== HEADER + this.data.length) return `truncated or padded (${buf.length} bytes, ${HEADER + this.data.length} expected)`;
    const data = buf.subarray(HEADER);
    if (crc32(data) !== buf.readUInt32LE(16)) return 'checksum mismatch';
    for (let i = 0; i < data.length; i++) this.data[i] = data[i] === 255 ? UNUSED : data[i]!;
    this.solved = this.slices.length;
    return null;
  }
}

export const decode = (b: number): number => (b === 0 ? 0 : (b - 1) % 2 === 1 ? WIN_BASE - (b - 1) : -(WIN_BASE - (b - 1)));
