// The learned evaluation network (#39): its file format (parseNet, encodeNet),
// the shipped network (NET, from net-data.ts, generated from
// data/engine/net.bin by bench/net-module.ts), and its inference on a stack of
// accumulators kept incrementally by the search (NetStack). The network: 128
// inputs (a black man, black king, white man, white king on each of the 32
// squares: feature plane·32 + square − 1) → `hidden` units (clipped ReLU,
// 0…QA) → one of 8 output heads, chosen by the side to move and the pieces
// left (HEAD_BUCKETS); the answer is Black's score in hundredths of a man,
// as eval.ts gives. Weights are 16-bit integers: the first layer's and its
// biases scaled by QA, the heads' by QB (their biases, 32-bit, by QA·QB).
// Accumulators are 32-bit sums, so no order of adds can overflow.
// bench/net-train.ts trains the network and writes the file.

import { CrownheadError } from '../common/errors.ts';
import { attempt, unwrap, type Result } from '../common/result.ts';
import { popcount } from '../rules/index.ts';
import { NET_DATA } from './net-data.ts';
import { simdKernel, type SimdKernel } from './net-simd.ts';

/** Inputs: 4 planes (black man, black king, white man, white king) × 32 squares. */
export const NET_INPUTS = 128;
/** Output heads: side to move (black 0–3, white 4–7) × HEAD_BUCKETS by pieces left. */
export const NET_HEADS = 8;
const HEAD_BUCKETS = 4;
const MAGIC = 'CHN1';

/** The pieces-left bucket of a head: 1–6, 7–12, 13–18, 19–24 pieces. */
export const headOf = (blackToMove: boolean, pieces: number): number =>
  (blackToMove ? 0 : HEAD_BUCKETS) + Math.min(HEAD_BUCKETS - 1, ((pieces - 1) / 6) | 0);

export interface Net {
  /** How the network was made (the training script's flags and data), kept in the file. */
  readonly source: string;
  readonly hidden: number;
  /** The first layer's scale (and the clipped ReLU's top), and the heads'. */
  readonly qa: number;
  readonly qb: number;
  /** Hundredths of a man per unit of the heads' float output. */
  readonly outScale: number;
  /** The first layer, input-major: input f's weights at f·hidden…; its biases. */
  readonly w1: Int16Array;
  readonly b1: Int16Array;
  /** The heads, head-major; their biases. */
  readonly w2: Int16Array;
  readonly b2: Int32Array;
}

/** A network file that cannot be read: what is wrong with it. */
export class NetFileError extends CrownheadError<'bad-net'> {
  override readonly name = 'NetFileError';
  constructor(message: string) {
    super('bad-net', message);
  }
}

/** MAGIC, six u16 (inputs, hidden, heads, qa, qb, outScale), the source's length (u32). */
const HEADER = 4 + 6 * 2 + 4;

/** The file's bytes, little-endian: the header (HEADER), the source text (UTF-8), w1, b1, w2 (int16), b2 (int32). */
export function encodeNet(net: Net): Uint8Array {
  const src = new TextEncoder().encode(net.source);
  const h = net.hidden;
  const size = HEADER + src.length + 2 * (NET_INPUTS * h + h + NET_HEADS * h) + 4 * NET_HEADS;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  let o = 0;
  for (const c of MAGIC) out[o++] = c.charCodeAt(0);
  for (const x of [NET_INPUTS, h, NET_HEADS, net.qa, net.qb, net.outScale]) (v.setUint16(o, x, true), (o += 2));
  v.setUint32(o, src.length, true);
  out.set(src, (o += 4));
  o += src.length;
  for (const arr of [net.w1, net.b1, net.w2]) for (const x of arr) (v.setInt16(o, x, true), (o += 2));
  for (const x of net.b2) (v.setInt32(o, x, true), (o += 4));
  return out;
}

function readNet(bytes: Uint8Array): Net {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER || String.fromCharCode(...bytes.subarray(0, 4)) !== MAGIC)
    throw new NetFileError(`not a network file (it must start with "${MAGIC}")`);
  const [inputs, hidden, heads, qa, qb, outScale] = [0, 1, 2, 3, 4, 5].map((i) => v.getUint16(4 + 2 * i, true)) as number[];
  if (inputs !== NET_INPUTS || heads !== NET_HEADS)
    throw new NetFileError(`a network of ${inputs} inputs and ${heads} heads: this engine reads ${NET_INPUTS} and ${NET_HEADS}`);
  if (!hidden || !qa || !qb || !outScale) throw new NetFileError('hidden, qa, qb and the output scale must be positive');
  const srcLen = v.getUint32(16, true);
  const size = HEADER + srcLen + 2 * (inputs! * hidden! + hidden! + heads! * hidden!) + 4 * heads!;
  if (bytes.length !== size) throw new NetFileError(`a network of ${hidden} hidden units is ${size} bytes, not ${bytes.length}`);
  let o = HEADER;
  const source = new TextDecoder().decode(bytes.subarray(o, o + srcLen));
  o += srcLen;
  const int16s = (n: number): Int16Array => {
    const a = new Int16Array(n);
    for (let i = 0; i < n; i++, o += 2) a[i] = v.getInt16(o, true);
    return a;
  };
  const w1 = int16s(inputs! * hidden!),
    b1 = int16s(hidden!),
    w2 = int16s(heads! * hidden!);
  const b2 = new Int32Array(heads!);
  for (let i = 0; i < heads!; i++, o += 4) b2[i] = v.getInt32(o, true);
  // The largest an accumulator can reach (its bias and its 24 largest rows, in size): within 16 bits (NetStack).
  for (let u = 0; u < hidden!; u++) {
    const rows = Array.from({ length: inputs! }, (_, f) => Math.abs(w1[f * hidden! + u]!)).sort((x, y) => y - x);
    const most = Math.abs(b1[u]!) + rows.slice(0, 24).reduce((x, y) => x + y, 0);
    if (most > 32767) throw new NetFileError(`hidden unit ${u} can reach ${most}: more than a 16-bit accumulator holds`);
  }
  return { source, hidden: hidden!, qa: qa!, qb: qb!, outScale: outScale!, w1, b1, w2, b2 };
}

/** A network from its file's bytes (encodeNet's form), or the NetFileError saying why not. */
export const parseNet = (bytes: Uint8Array): Result<Net, NetFileError> => attempt(NetFileError, () => readNet(bytes));

/** The shipped network (data/engine/net.bin, through net-data.ts). */
export const NET: Net = unwrap(parseNet(Buffer.from(NET_DATA, 'base64')));

/**
 * The accumulators of a line of play, one per ply: refresh(ply) sets one from
 * the position, play(ply, …) sets ply + 1's from ply's and a move (its
 * piece's from and to squares, its captures), and evaluate(ply) reads it.
 * The sums run in WebAssembly SIMD (net-simd.ts) on 16-bit lanes where there
 * is one — parseNet refuses a network whose sums could leave 16 bits — and in
 * typed arrays otherwise (`simd` false, or a hidden layer not a multiple of 8).
 */
export class NetStack {
  /** The accumulators, ply-major (16-bit in the SIMD module's memory, else 32-bit). */
  readonly acc: Int16Array | Int32Array;
  private readonly h: number;
  private readonly w1: Int16Array;
  private readonly w2: Int16Array;
  private readonly b2: Int32Array;
  private readonly qa: number;
  private readonly unit: number;
  private readonly k: SimdKernel | null;
  /** In the module's memory (bytes): the heads' weights, the accumulators; its vectors per accumulator. */
  private readonly w2At: number;
  private readonly accAt: number;
  private readonly n: number;

  constructor(
    readonly net: Net,
    plies: number,
    simd = true,
  ) {
    const h = (this.h = net.hidden);
    this.w1 = net.w1;
    this.w2 = net.w2;
    this.b2 = net.b2;
    this.qa = net.qa;
    this.unit = net.outScale / (net.qa * net.qb);
    this.n = h >> 3;
    this.w2At = 2 * NET_INPUTS * h;
    this.accAt = this.w2At + 2 * NET_HEADS * h;
    this.k = simd && h % 8 === 0 ? simdKernel(this.accAt + 2 * plies * h) : null;
    if (this.k) {
      const mem = new Int16Array(this.k.memory.buffer);
      mem.set(net.w1, 0);
      mem.set(net.w2, this.w2At >> 1);
      this.acc = mem.subarray(this.accAt >> 1, (this.accAt >> 1) + plies * h);
    } else this.acc = new Int32Array(plies * h);
  }

  /** Accumulator `ply` from the position itself (Black's men and kings, White's). */
  refresh(ply: number, b: number, w: number, k: number): void {
    const h = this.h,
      acc = this.acc,
      w1 = this.w1,
      at = ply * h;
    acc.set(this.net.b1, at);
    for (const [set, plane] of [
      [b & ~k, 0],
      [b & k, 1],
      [w & ~k, 2],
      [w & k, 3],
    ] as const) {
      let x = set;
      while (x) {
        const sq = 31 - Math.clz32(x & -x);
        x &= x - 1;
        const f = (plane * 32 + sq) * h;
        if (this.k) this.k.add(this.accAt + 2 * at, 2 * f, this.n);
        else for (let i = 0; i < h; i++) acc[at + i]! += w1[f + i]!;
      }
    }
  }

  /**
   * Accumulator ply + 1 from ply's and a move of the side to move (black when
   * `btm`): its piece from `from` to `to` (squares 0–31), a king before or
   * crowned by it, the captured pieces `cap` (a bitboard), `k` the kings before it.
   */
  play(ply: number, btm: boolean, from: number, to: number, wasKing: boolean, crowned: boolean, cap: number, k: number): void {
    const h = this.h;
    const side = btm ? 0 : 64;
    const f = (side + (wasKing ? 32 : 0) + from) * h,
      t = (side + (wasKing || crowned ? 32 : 0) + to) * h;
    const opp = btm ? 64 : 0;
    const kernel = this.k;
    if (kernel) {
      const src = this.accAt + 2 * ply * h,
        dst = src + 2 * h;
      if (cap === 0) return kernel.move(src, dst, 2 * f, 2 * t, this.n);
      let sq = 31 - Math.clz32(cap & -cap);
      kernel.moveCap(src, dst, 2 * f, 2 * t, 2 * (opp + ((k >>> sq) & 1) * 32 + sq) * h, this.n);
      for (let c = cap & (cap - 1); c; c &= c - 1) {
        sq = 31 - Math.clz32(c & -c);
        kernel.sub(dst, 2 * (opp + ((k >>> sq) & 1) * 32 + sq) * h, this.n);
      }
      return;
    }
    const acc = this.acc,
      w1 = this.w1;
    const src = ply * h,
      dst = src + h;
    for (let i = 0; i < h; i++) acc[dst + i] = acc[src + i]! - w1[f + i]! + w1[t + i]!;
    for (let c = cap; c; c &= c - 1) {
      const sq = 31 - Math.clz32(c & -c);
      const x = (opp + ((k >>> sq) & 1) * 32 + sq) * h;
      for (let i = 0; i < h; i++) acc[dst + i]! -= w1[x + i]!;
    }
  }

  /** Black's score (hundredths of a man) of the position of accumulator `ply`, `occupied` its pieces. */
  evaluate(ply: number, btm: boolean, occupied: number): number {
    const h = this.h,
      head = headOf(btm, popcount(occupied));
    let s: number;
    if (this.k) s = this.k.eval(this.accAt + 2 * ply * h, this.w2At + 2 * head * h, this.n, this.qa);
    else {
      const acc = this.acc,
        w2 = this.w2,
        qa = this.qa,
        at = ply * h,
        wo = head * h;
      s = 0;
      for (let i = 0; i < h; i++) {
        const a = acc[at + i]!;
        if (a > 0) s += (a < qa ? a : qa) * w2[wo + i]!;
      }
    }
    return Math.trunc((s + this.b2[head]!) * this.unit);
  }
}

/** One accumulator per network for netEvaluate. */
const scratch = new WeakMap<Net, NetStack>();

/** Black's score of a position by the network, computed from scratch. */
export function netEvaluate(net: Net, b: number, w: number, k: number, blackToMove: boolean): number {
  let st = scratch.get(net);
  if (!st) scratch.set(net, (st = new NetStack(net, 1)));
  st.refresh(0, b, w, k);
  return st.evaluate(0, blackToMove, b | w);
}
