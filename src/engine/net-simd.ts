// The evaluation network's arithmetic in WebAssembly SIMD (Node 20 has it):
// a small module, assembled here from its bytes, with four loops over
// 16-bit lanes, eight at a time — the accumulator after a move (a copy minus
// the piece's old square plus its new one, minus a capture), a row added or
// taken away, and the output head's dot product of the clipped accumulator.
// net.ts's NetStack keeps its weights and accumulators in the module's memory
// and calls these; simdKernel() is null where WebAssembly SIMD is missing
// (NetStack then does the same sums in typed arrays).

/** Unsigned LEB128. */
const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];

const I32 = 0x7f,
  V128 = 0x7b;
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const tee = (i: number): number[] => [0x22, i];
const simd = (op: number): number[] => [0xfd, ...leb(op)];
const load = (local: number): number[] => [...get(local), ...simd(0x00), 4, 0]; // v128.load align 16, offset 0
const ADD16 = simd(0x8e),
  SUB16 = simd(0x91),
  MIN16 = simd(0x96),
  MAX16 = simd(0x98),
  ADD32 = simd(0xae),
  DOT = simd(0xba),
  STORE = [...simd(0x0b), 4, 0];
/** local += 16 for each of `locals`. */
const step = (...locals: number[]): number[] => locals.flatMap((l) => [...get(l), 0x41, 16, 0x6a, ...set(l)]);
/** The loop around `body`: `n` (a local) counts the vectors down to 0. */
const loop = (n: number, body: number[]): number[] => [0x03, 0x40, ...body, ...get(n), 0x41, 1, 0x6b, ...tee(n), 0x0d, 0, 0x0b];

// (src, dst, from, to, n): dst = src − from + to, n vectors.
const moveBody = loop(4, [...get(1), ...load(0), ...load(2), ...SUB16, ...load(3), ...ADD16, ...STORE, ...step(0, 1, 2, 3)]);
// (src, dst, from, to, cap, n): dst = src − from + to − cap.
const moveCapBody = loop(5, [
  ...get(1),
  ...load(0),
  ...load(2),
  ...SUB16,
  ...load(3),
  ...ADD16,
  ...load(4),
  ...SUB16,
  ...STORE,
  ...step(0, 1, 2, 3, 4),
]);
// (dst, row, n): dst += row; and dst −= row.
const rowBody = (op: number[]): number[] => loop(2, [...get(0), ...load(0), ...load(1), ...op, ...STORE, ...step(0, 1)]);
// (acc, w, n, qa) → i32: Σ clamp(acc, 0, qa) · w. Locals 4 (the sum, i32x4), 5 (qa in every lane), 6 (zero).
const evalBody = [
  ...get(3),
  ...simd(0x10), // i16x8.splat
  ...set(5),
  ...loop(2, [...get(4), ...load(0), ...get(6), ...MAX16, ...get(5), ...MIN16, ...load(1), ...DOT, ...ADD32, ...set(4), ...step(0, 1)]),
  ...[0, 1, 2, 3].flatMap((lane, i) => [...get(4), ...simd(0x1b), lane, ...(i ? [0x6a] : [])]), // i32x4.extract_lane, i32.add
];

function moduleBytes(pages: number): Uint8Array<ArrayBuffer> {
  const types = [
    [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0], // move
    [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0], // moveCap
    [0x60, ...vec([[I32], [I32], [I32]]), 0], // add, sub
    [0x60, ...vec([[I32], [I32], [I32], [I32]]), 1, I32], // eval
  ];
  const code = (locals: number[][], body: number[]): number[] => {
    const f = [...vec(locals), ...body, 0x0b];
    return [...leb(f.length), ...f];
  };
  const name = (s: string): number[] => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(3, vec([[0], [1], [2], [2], [3]])),
    ...section(5, vec([[0x00, ...leb(pages)]])),
    ...section(
      7,
      vec([
        [...name('move'), 0, 0],
        [...name('moveCap'), 0, 1],
        [...name('add'), 0, 2],
        [...name('sub'), 0, 3],
        [...name('eval'), 0, 4],
        [...name('memory'), 2, 0],
      ]),
    ),
    ...section(
      10,
      vec([code([], moveBody), code([], moveCapBody), code([], rowBody(ADD16)), code([], rowBody(SUB16)), code([[3, V128]], evalBody)]),
    ),
  ];
  return new Uint8Array(bytes);
}

/** The module's functions (byte offsets into its memory; `n` counts 16-byte vectors, at least 1). */
export interface SimdKernel {
  readonly memory: WebAssembly.Memory;
  readonly move: (src: number, dst: number, from: number, to: number, n: number) => void;
  readonly moveCap: (src: number, dst: number, from: number, to: number, cap: number, n: number) => void;
  readonly add: (dst: number, row: number, n: number) => void;
  readonly sub: (dst: number, row: number, n: number) => void;
  readonly eval: (acc: number, w: number, n: number, qa: number) => number;
}

/** The compiled module for each memory size (compiling is the slow part; an instance is cheap). */
const compiled = new Map<number, WebAssembly.Module | null>();

/** A fresh instance with `bytes` of memory (rounded up to 64 KiB pages), or null where WebAssembly SIMD is missing. */
export function simdKernel(bytes: number): SimdKernel | null {
  if (typeof WebAssembly === 'undefined') return null;
  const pages = Math.ceil(bytes / 65536);
  let mod = compiled.get(pages);
  if (mod === undefined) {
    const bin = moduleBytes(pages);
    compiled.set(pages, (mod = WebAssembly.validate(bin) ? new WebAssembly.Module(bin) : null));
  }
  return mod && (new WebAssembly.Instance(mod).exports as unknown as SimdKernel); // the exports are untyped: the module above defines them
}
