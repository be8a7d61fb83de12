// Seeded pseudo-random numbers, the one generator every stage uses so every run
// replays: mulberry32 (32-bit state, fast, statistically good enough for
// physics noise, hand habits, opening variety and Zobrist keys). Pure.

export type Rng = () => number;

/** mulberry32 as raw 32-bit unsigned integers (the same sequence as `mulberry32`, times 2³²). */
export function mulberry32u(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** mulberry32: returns a function giving uniform numbers in [0, 1). */
export function mulberry32(seed: number): Rng {
  const next = mulberry32u(seed);
  return () => next() / 4294967296;
}

/** Gaussian-ish and bounded: sum of 4 uniforms (Irwin–Hall), unit variance, never beyond ±3.47. */
export function gaussianish(rng: Rng): number {
  return (rng() + rng() + rng() + rng() - 2) * Math.sqrt(3);
}

/** uniform in [lo, hi) */
export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}
