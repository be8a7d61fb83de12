// `node bin/run-ts.js bench/net-train.ts`: trains the evaluation network
// (src/engine/net.ts) on bench/net-data.ts' positions and writes it,
// quantised, to data/engine/net.bin and src/engine/net-data.ts (through
// bench/net-module.ts). Float training with Adam on mini-batches; each
// position is also taken with the colours swapped (the board turned round,
// the other side to move, the result and score negated), so the network
// learns both sides from every game. The target of a position is
//   mix · result + (1 − mix) · σ(scale · score)
// (result 1 / 0.5 / 0 for Black, score the depth-D search's for Black), and
// the network's output o (hundredths of a man, Black's) is fitted by the mean
// squared error of σ(scale · o) to it — Texel's form, as bench/tune.ts fits
// the hand-tuned table. The last --val part of each data file (whole games at
// its end) is held out and its loss printed after every epoch. Deterministic:
// the same data and flags give the same file (seeded start and shuffles,
// single-threaded float32 arithmetic).
//
//   --data FILE,FILE,… (default the two parts of bench/net-data.ts' default run)
//   --take N,N,… (the first N positions of each file, the last N for the rest; default all: the network's
//   source records the counts taken, so a data file that has grown since gives the same network)
//   --hidden H (default 128)  --epochs E (default 12)  --batch B (default 512)  --lr L (default 0.002, halved
//   for each of the last third of the epochs)  --mix M (default 0.3)  --scale K (default 0.0055)  --seed S (default 1)
//   --val F (default 0.05)  --out FILE (default data/engine/net.bin; another path writes that file only)
//
// e.g.  nice -n 19 node bin/run-ts.js bench/net-train.ts --epochs 12

import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileWeights, evaluateCompiled, seededRandom, WEIGHTS } from '../src/engine/index.ts';
import { encodeNet, headOf, NET_HEADS, NET_INPUTS, NetStack, type Net } from '../src/engine/net.ts';
import { NET_DATA_PATH, NET_FILE_PATH, netDataModule } from './net-module.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    take: { type: 'string' },
    hidden: { type: 'string' },
    epochs: { type: 'string' },
    batch: { type: 'string' },
    lr: { type: 'string' },
    mix: { type: 'string' },
    scale: { type: 'string' },
    seed: { type: 'string' },
    val: { type: 'string' },
    out: { type: 'string' },
  },
});
const cache = join(homedir(), '.cache/crownhead-net');
const files = values.data ? values.data.split(',') : [0, 1].map((i) => join(cache, `data-1-20000-8-8.${i}-2.txt`));
/** Lines taken from each file (the last count stands for the rest); the counts used go into the network's source. */
const TAKE = (values.take ?? 'Infinity').split(',').map(Number);
if (TAKE.some((t) => !(t === Infinity || (Number.isInteger(t) && t > 0))))
  throw new Error(`--take must be positive whole numbers of lines, not "${values.take}"`);
const taken: number[] = [];
const H = Number(values.hidden ?? 128);
const EPOCHS = Number(values.epochs ?? 12);
const BATCH = Number(values.batch ?? 512);
const LR = Number(values.lr ?? 0.002);
const MIX = Number(values.mix ?? 0.3);
const K = Number(values.scale ?? 0.0055);
const SEED = Number(values.seed ?? 1);
const VAL = Number(values.val ?? 0.05);
const OUT = values.out ?? NET_FILE_PATH;
const QA = 255,
  QB = 256,
  OUT_SCALE = 100;

// ---- Data: per sample its active inputs (up to 24, padded with −1), head, target; both colourings.
const MAX_ACTIVE = 24;
interface Set_ {
  feats: Int16Array;
  head: Uint8Array;
  target: Float32Array;
  n: number;
}
function newSet(cap: number): Set_ {
  return { feats: new Int16Array(cap * MAX_ACTIVE).fill(-1), head: new Uint8Array(cap), target: new Float32Array(cap), n: 0 };
}
function push(set: Set_, b: number, w: number, k: number, btm: boolean, target: number): void {
  const at = set.n * MAX_ACTIVE;
  let j = 0;
  for (const [bits, plane] of [
    [b & ~k, 0],
    [b & k, 1],
    [w & ~k, 2],
    [w & k, 3],
  ] as const) {
    let x = bits;
    while (x) {
      const sq = 31 - Math.clz32(x & -x);
      x &= x - 1;
      set.feats[at + j++] = plane * 32 + sq;
    }
  }
  set.head[set.n] = headOf(btm, j);
  set.target[set.n++] = target;
}
/** The board turned round: square i ↔ 31 − i. */
const turn = (x: number): number => {
  let r = 0;
  for (let i = 0; i < 32; i++) if (x & (1 << i)) r |= 1 << (31 - i);
  return r;
};
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

const rows: string[][] = [];
let valRows: string[][] = [];
for (const [f, file] of files.entries()) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, TAKE[Math.min(f, TAKE.length - 1)]);
  taken.push(lines.length);
  const cut = Math.floor(lines.length * (1 - VAL));
  rows.push(lines.slice(0, cut));
  valRows.push(lines.slice(cut));
}
function build(groups: string[][]): Set_ {
  const total = groups.reduce((s, g) => s + g.length, 0);
  const set = newSet(2 * total);
  for (const g of groups)
    for (const line of g) {
      const [bs, ws, ks, t, res, sc] = line.split(' ');
      const b = parseInt(bs!, 16) | 0,
        w = parseInt(ws!, 16) | 0,
        k = parseInt(ks!, 16) | 0;
      const target = MIX * Number(res) + (1 - MIX) * sigmoid(K * Number(sc));
      if (!Number.isFinite(target)) throw new Error(`${line}: not a data line (black white kings b|w result score)`);
      push(set, b, w, k, t === 'b', target);
      push(set, turn(w), turn(b), turn(k), t !== 'b', 1 - target);
    }
  return set;
}
const train = build(rows);
const val = build(valRows);
// The yardstick: the hand-tuned evaluation's loss on the same held-out positions (Black's score, as the network's).
const hand = compileWeights(WEIGHTS);
let handLoss = 0;
for (const line of valRows.flat()) {
  const [bs, ws, ks, , res, sc] = line.split(' ');
  const d =
    sigmoid(K * evaluateCompiled(hand, parseInt(bs!, 16) | 0, parseInt(ws!, 16) | 0, parseInt(ks!, 16) | 0)) -
    (MIX * Number(res) + (1 - MIX) * sigmoid(K * Number(sc)));
  handLoss += (d * d) / (val.n / 2);
}
console.log(`the hand-tuned evaluation's held-out loss: ${handLoss.toFixed(6)}`);
valRows = [];
console.log(`${train.n} training samples, ${val.n} held out (both colourings), from ${files.map((f) => basename(f)).join(', ')}`);

// ---- The float network and Adam's moments.
const rnd = seededRandom(SEED);
const gauss = (): number => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const W1 = new Float32Array(NET_INPUTS * H).map(() => gauss() * 0.1);
const B1 = new Float32Array(H).map(() => 0.1 + 0.1 * rnd());
const W2 = new Float32Array(NET_HEADS * H).map(() => gauss() * 0.3);
const B2 = new Float32Array(NET_HEADS);
const params = [W1, B1, W2, B2];
/**
 * Each array's bound: the heads' within what 16 bits hold at QB; the first layer's so that no accumulator can
 * leave 16 bits (24 pieces · 4 · QA + 8 · QA = 26,520), as the engine's SIMD sums need (net.ts parseNet checks it).
 */
const LIMITS = [4, 8, 127, 127];
const grads = params.map((p) => new Float32Array(p.length));
const m1 = params.map((p) => new Float32Array(p.length));
const m2 = params.map((p) => new Float32Array(p.length));
const acc = new Float32Array(H);

/** The network's output for sample i (hundredths of a man); leaves the first layer's sums in `acc`. */
function forward(set: Set_, i: number): number {
  acc.set(B1);
  const at = i * MAX_ACTIVE;
  for (let j = 0; j < MAX_ACTIVE; j++) {
    const f = set.feats[at + j]!;
    if (f < 0) break;
    const o = f * H;
    for (let u = 0; u < H; u++) acc[u]! += W1[o + u]!;
  }
  const wo = set.head[i]! * H;
  let s = B2[set.head[i]!]!;
  for (let u = 0; u < H; u++) {
    const a = acc[u]!;
    s += (a <= 0 ? 0 : a >= 1 ? 1 : a) * W2[wo + u]!;
  }
  return s * OUT_SCALE;
}

function lossOf(set: Set_): number {
  let l = 0;
  for (let i = 0; i < set.n; i++) {
    const d = sigmoid(K * forward(set, i)) - set.target[i]!;
    l += d * d;
  }
  return l / set.n;
}

let step = 0;
/** The first layer's gradient at each unit, of the sample being learnt. */
const unitGrad = new Float32Array(H);
function trainBatch(order: Uint32Array, from: number, to: number, lr: number): void {
  for (const g of grads) g.fill(0);
  const [gW1, gB1, gW2, gB2] = grads as [Float32Array, Float32Array, Float32Array, Float32Array];
  for (let n = from; n < to; n++) {
    const i = order[n]!;
    const p = sigmoid(K * forward(train, i));
    const g = (2 * (p - train.target[i]!) * p * (1 - p) * K * OUT_SCALE) / (to - from);
    const head = train.head[i]!,
      wo = head * H;
    gB2[head]! += g;
    for (let u = 0; u < H; u++) {
      const a = acc[u]!;
      gW2[wo + u]! += a <= 0 ? 0 : a >= 1 ? g : g * a;
      const ug = a > 0 && a < 1 ? g * W2[wo + u]! : 0;
      unitGrad[u] = ug;
      gB1[u]! += ug;
    }
    const at = i * MAX_ACTIVE;
    for (let j = 0; j < MAX_ACTIVE; j++) {
      const f = train.feats[at + j]!;
      if (f < 0) break;
      const o = f * H;
      for (let u = 0; u < H; u++) gW1[o + u]! += unitGrad[u]!;
    }
  }
  step++;
  const b1 = 0.9,
    b2 = 0.999,
    c1 = 1 - b1 ** step,
    c2 = 1 - b2 ** step;
  for (let p = 0; p < params.length; p++) {
    const w = params[p]!,
      g = grads[p]!,
      m = m1[p]!,
      v = m2[p]!,
      lim = LIMITS[p]!;
    for (let j = 0; j < w.length; j++) {
      const gj = g[j]!;
      m[j] = b1 * m[j]! + (1 - b1) * gj;
      v[j] = b2 * v[j]! + (1 - b2) * gj * gj;
      w[j] = Math.max(-lim, Math.min(lim, w[j]! - (lr * (m[j]! / c1)) / (Math.sqrt(v[j]! / c2) + 1e-8)));
    }
  }
}

const order = new Uint32Array(train.n).map((_, i) => i);
const t0 = performance.now();
console.log(`epoch 0: held-out loss ${lossOf(val).toFixed(6)}`);
for (let e = 1; e <= EPOCHS; e++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const lr = e > (2 * EPOCHS) / 3 ? LR / 2 ** (e - Math.floor((2 * EPOCHS) / 3)) : LR;
  for (let s = 0; s < order.length; s += BATCH) trainBatch(order, s, Math.min(order.length, s + BATCH), lr);
  console.log(
    `epoch ${e}: lr ${lr.toExponential(2)}, held-out loss ${lossOf(val).toFixed(6)}, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

// ---- Quantise and write.
/** The held-out loss of the quantised network as the engine computes it (NetStack.evaluate), to set beside the float one. */
function quantisedLoss(net: Net): number {
  const st = new NetStack(net, 1);
  let l = 0;
  for (let i = 0; i < val.n; i++) {
    const at = i * MAX_ACTIVE;
    st.acc.set(net.b1);
    let n = 0;
    for (; n < MAX_ACTIVE && val.feats[at + n]! >= 0; n++) {
      const o = val.feats[at + n]! * H;
      for (let u = 0; u < H; u++) st.acc[u]! += net.w1[o + u]!;
    }
    // (evaluate reads only how many pieces there are from the occupancy: n low bits stand for them.)
    const d = sigmoid(K * st.evaluate(0, val.head[i]! < NET_HEADS / 2, (1 << n) - 1)) - val.target[i]!;
    l += d * d;
  }
  return l / val.n;
}
const q = (x: number, s: number, lim: number): number => Math.max(-lim, Math.min(lim, Math.round(x * s)));
const source =
  `bench/net-train.ts --data ${files.map((f) => f.replace(homedir(), '~')).join(',')}` +
  ` --take ${taken.join(',')} --hidden ${H} --epochs ${EPOCHS} --batch ${BATCH} --lr ${LR} --mix ${MIX}` +
  ` --scale ${K} --seed ${SEED} --val ${VAL} (${train.n} training samples; held-out loss ${lossOf(val).toFixed(6)})`;
const net: Net = {
  source,
  hidden: H,
  qa: QA,
  qb: QB,
  outScale: OUT_SCALE,
  w1: Int16Array.from(W1, (x) => q(x, QA, 32767)),
  b1: Int16Array.from(B1, (x) => q(x, QA, 32767)),
  w2: Int16Array.from(W2, (x) => q(x, QB, 32767)),
  b2: Int32Array.from(B2, (x) => q(x, QA * QB, 2 ** 31 - 1)),
};
console.log(`the quantised network's held-out loss: ${quantisedLoss(net).toFixed(6)}`);
const bin = encodeNet(net);
writeFileSync(OUT, bin);
if (OUT === NET_FILE_PATH) writeFileSync(NET_DATA_PATH, netDataModule(bin));
console.log(`${bin.length} bytes written to ${OUT}${OUT === NET_FILE_PATH ? ` and ${NET_DATA_PATH}` : ''}`);
