// Physical model of the sensor board: what each square's linear Hall sensor
// reads for 0, 1 or 2 coins. Per-square gain and offset (seeded), off-centre
// placement (lowers a coin's reading), a non-linear two-coin stack (~1.3–1.5×
// one coin: the upper magnet sits a coin's thickness further away), slow
// thermal drift, bounded Gaussian-ish noise, hand-motion ramps, 10-bit clamp.

import { SQUARES } from '../protocol.ts';
import { gaussianish, mulberry32, uniform, type Rng } from './prng.ts';

export interface PhysicsOptions {
  seed: number;
  /** reading of an empty square (sensor quiescent output, ~VCC/2) */
  baseline: number;
  /** spread (±) of the per-square offset, counts */
  offsetSpread: number;
  /** rise of the reading for one centred coin at gain 1, counts */
  coinDelta: number;
  /** spread (±, relative) of the per-square gain */
  gainSpread: number;
  /** range of the two-coin stack response relative to one coin */
  stackRatio: [number, number];
  /** σ of how far off-centre a hand drops a coin, mm */
  offCentreMm: number;
  /** distance at which an off-centre coin reads half, mm */
  halfReadingMm: number;
  /** σ of frame noise, counts */
  noise: number;
  /** amplitude of the slow thermal drift, counts */
  drift: number;
  /** period range of the drift, ms */
  driftPeriodMs: [number, number];
  /** how long a hand takes to put down / take away a coin, ms (reading ramps) */
  motionMs: number;
}

export const DEFAULT_PHYSICS: PhysicsOptions = {
  seed: 1,
  baseline: 512,
  offsetSpread: 20,
  coinDelta: 200,
  gainSpread: 0.12,
  stackRatio: [1.34, 1.46],
  offCentreMm: 1.5,
  halfReadingMm: 6,
  noise: 2,
  drift: 5,
  driftPeriodMs: [4 * 60_000, 12 * 60_000],
  motionMs: 50,
};

interface Square {
  offset: number;
  gain: number;
  coins: number;
  /** placement factors (0–1] of the coins standing there, bottom first */
  placement: number[];
  stackRatio: number;
  driftPhase: number;
  driftPeriod: number;
  /** signal (counts above offset) before and after the last change, and when it changed */
  from: number;
  to: number;
  changedAt: number;
}

export class BoardPhysics {
  readonly options: PhysicsOptions;
  private readonly squares: Square[] = [];
  private readonly noiseRng: Rng;
  private readonly handRng: Rng;

  constructor(options: Partial<PhysicsOptions> = {}) {
    this.options = { ...DEFAULT_PHYSICS, ...options };
    const o = this.options;
    const build = mulberry32(o.seed);
    this.noiseRng = mulberry32(o.seed ^ 0x9e3779b9);
    this.handRng = mulberry32(o.seed ^ 0x85ebca6b);
    for (let i = 0; i < SQUARES; i++) {
      this.squares.push({
        offset: uniform(build, -o.offsetSpread, o.offsetSpread),
        gain: uniform(build, 1 - o.gainSpread, 1 + o.gainSpread),
        coins: 0,
        placement: [],
        stackRatio: 1,
        driftPhase: uniform(build, 0, 2 * Math.PI),
        driftPeriod: uniform(build, o.driftPeriodMs[0], o.driftPeriodMs[1]),
        from: 0,
        to: 0,
        changedAt: -Infinity,
      });
    }
  }

  coins(square: number): number {
    return this.sq(square).coins;
  }

  /** Put `coins` (0–2) on a square at time t; new coins land off-centre at random. */
  setCoins(square: number, coins: number, t: number): void {
    if (!Number.isInteger(coins) || coins < 0 || coins > 2) {
      throw new RangeError(`square ${square}: ${coins} coins (a square holds 0, 1 or 2)`);
    }
    const s = this.sq(square);
    if (coins === s.coins) return;
    const o = this.options;
    const now = this.signalAt(s, t);
    while (s.placement.length > coins) s.placement.pop();
    while (s.placement.length < coins) {
      const d = Math.abs(gaussianish(this.handRng)) * o.offCentreMm;
      s.placement.push(1 / (1 + (d / o.halfReadingMm) ** 2));
    }
    if (coins === 2 && s.coins < 2) s.stackRatio = uniform(this.handRng, o.stackRatio[0], o.stackRatio[1]);
    s.coins = coins;
    s.from = now;
    s.to = this.settled(s);
    s.changedAt = t;
  }

  /** Noise-free reading of a square at time t (before ADC rounding). */
  expected(square: number, t: number): number {
    const s = this.sq(square);
    return this.options.baseline + s.offset + this.driftAt(s, t) + this.signalAt(s, t);
  }

  /** One frame at time t: 32 clamped 10-bit readings (index 0 = square 1). */
  read(t: number, out = new Uint16Array(SQUARES)): Uint16Array {
    const o = this.options;
    for (let i = 0; i < SQUARES; i++) {
      const s = this.squares[i];
      const v = o.baseline + s.offset + this.driftAt(s, t) + this.signalAt(s, t) + gaussianish(this.noiseRng) * o.noise;
      out[i] = v <= 0 ? 0 : v >= 1023 ? 1023 : Math.round(v);
    }
    return out;
  }

  private settled(s: Square): number {
    const k = this.options.coinDelta * s.gain;
    if (s.coins === 0) return 0;
    if (s.coins === 1) return k * s.placement[0];
    return k * s.stackRatio * ((s.placement[0] + s.placement[1]) / 2);
  }

  private signalAt(s: Square, t: number): number {
    const m = this.options.motionMs;
    const dt = t - s.changedAt;
    if (m <= 0 || dt >= m) return s.to;
    if (dt <= 0) return s.from;
    return s.from + ((s.to - s.from) * dt) / m;
  }

  private driftAt(s: Square, t: number): number {
    return this.options.drift * Math.sin((2 * Math.PI * t) / s.driftPeriod + s.driftPhase);
  }

  private sq(square: number): Square {
    if (!Number.isInteger(square) || square < 1 || square > SQUARES) {
      throw new RangeError(`no square ${square} (squares are 1–32)`);
    }
    return this.squares[square - 1];
  }
}
