// Physical model of the sensor board: what each square's linear Hall sensor
// reads for the coins standing on it, from the same magnet physics the
// emulator's HallModel draws on (magnet-physics.ts: the field of the coins'
// magnet, a parameter, at the sensor against how far off-centre it lies, a
// king's upper magnet a coin higher, a coin upside down with its magnet on
// top and its field reversed). Around that: per-sensor gain (±25 %, the
// SS49E's sensitivity spread) and offset, per-coin magnet strength (±8 %), how
// far off-centre each coin sits (hands drop coins off-centre, nudge them back,
// knock neighbours away), each coin's colour and, on a polarity-coded board,
// White's magnets the other pole down (reading below empty by as much), a
// finger lifting a coin part-way (touching it), crosstalk from the diagonal
// neighbours, slow thermal drift (the room's, and the board's warm-up after
// power-on: each sensor's zero level by its own coefficient, magnet-physics.ts
// WARM_UP), bounded Gaussian-ish noise (magnet-physics.ts FRAME_NOISE, the
// emulator's figure), readings that ramp while a hand moves a coin (a frame
// averages the scans of a moving coin), saturation at both ends of the
// sensor's guaranteed output span (magnet-physics.ts saturationOf) and the
// 10-bit clamp. Seeded: runs replay.

import { SQUARES } from '../protocol.ts';
import { gaussianish, mulberry32, uniform, type Rng } from '../../common/prng.ts';
import {
  CHOSEN,
  FRAME_NOISE,
  GEOMETRY,
  MAGNET_SPREAD,
  MV_PER_COUNT,
  WARM_UP,
  fieldAt,
  fieldTable,
  magnet,
  saturationOf,
  sensor,
  warmth,
  type Geometry,
} from '../magnet-physics.ts';

export interface PhysicsOptions {
  seed: number;
  /** reading of an empty square (sensor quiescent output, ~VCC/2) */
  baseline: number;
  /** spread (±) of the per-square offset, counts */
  offsetSpread: number;
  /**
   * The coins' magnet, "DxT-GRADE" (magnet-physics.ts: the specified
   * 12x1-N35, or any disc a builder substitutes, e.g. "8x1.5-N42").
   */
  magnet: string;
  /** The square's stack-up: tile, gap, coin thickness, how the magnet sits in the coin (magnet-physics.ts). */
  geometry: Geometry;
  /**
   * Rise of the reading for one centred coin at gain 1, counts. Absent: what
   * the magnet's field gives on a typical SS49E (12x1-N35: ≈ 153).
   */
  coinDelta?: number;
  /** spread (±, relative) of the per-square gain (sensor sensitivity) */
  gainSpread: number;
  /** spread (±, relative) of each coin's magnet strength */
  magnetSpread: number;
  /** spread (±, relative) of a king's upper coin's field (how snugly the coins sit, glue, coin thickness) */
  stackSpread: number;
  /** σ of how far off-centre a hand drops a coin, mm */
  offCentreMm: number;
  /** farthest off-centre a coin can lie on its square, mm */
  maxOffCentreMm: number;
  /** fraction of each diagonal neighbour's signal that a sensor also reads */
  crosstalk: number;
  /** σ of frame noise, counts */
  noise: number;
  /** amplitude of the slow thermal drift (the room's), counts */
  drift: number;
  /** period range of the drift, ms */
  driftPeriodMs: [number, number];
  /**
   * The board's warm-up after power-on (t = 0): its temperature rise, °C, and
   * time constant, ms; each sensor's zero level moves by its own coefficient
   * drawn from ±nullDriftPerC counts/°C (either sign). null: none.
   */
  warmUp: { riseC: number; tauMs: number; nullDriftPerC: readonly [number, number] } | null;
  /** how long a hand takes to put down / take away / slide a coin, ms (reading ramps) */
  motionMs: number;
  /**
   * The sensor's output bends over above `knee` counts and cannot pass `rail`
   * (saturation); and below `lowKnee` towards `floor`, where given. By
   * default the SS49E's guaranteed span (saturationOf).
   */
  saturation: { knee: number; rail: number; lowKnee?: number; floor?: number };
  /**
   * How the magnets are glued: 'uniform' — every coin the same pole down (the
   * reading rises for every coin); 'polarity' — Black's coins one pole down,
   * White's the other (Black's raise the reading, White's lower it by as much).
   */
  coding: 'uniform' | 'polarity';
}

export const DEFAULT_PHYSICS: PhysicsOptions = {
  seed: 1,
  baseline: 512,
  offsetSpread: 20,
  magnet: CHOSEN.magnet,
  geometry: GEOMETRY,
  gainSpread: 0.25,
  magnetSpread: MAGNET_SPREAD,
  stackSpread: 0.08,
  offCentreMm: 1.2,
  maxOffCentreMm: 4,
  crosstalk: 0.01,
  noise: FRAME_NOISE.counts,
  drift: 5,
  driftPeriodMs: [4 * 60_000, 12 * 60_000],
  warmUp: WARM_UP,
  motionMs: 50,
  saturation: saturationOf(sensor(CHOSEN.sensor)),
  coding: 'uniform',
};

/** Sideways distances (mm) the coin's field is sampled at: a coin lies at most a few mm off its sensor's axis. */
const OFFSETS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6];

/**
 * The field of one coin of a magnet relative to a lone centred coin's, against
 * how far off-centre it lies: a lone coin (or a king's lower one), a king's
 * upper coin, a coin upside down alone and on top of a man; and the centred
 * coin's rise on a typical SS49E, counts.
 */
export interface CoinProfile {
  lower: number[];
  upper: number[];
  flipped: number[];
  flippedUpper: number[];
  counts: number;
}

export function coinProfile(key: string, g: Geometry = GEOMETRY): CoinProfile {
  const t = fieldTable(magnet(key), OFFSETS, g);
  const b1 = t.lower[0];
  const rel = (ys: number[]) => ys.map((y) => y / b1);
  return {
    lower: rel(t.lower),
    upper: rel(t.upper),
    flipped: rel(t.flipped),
    flippedUpper: rel(t.flippedUpper),
    counts: (b1 * sensor(CHOSEN.sensor).sens) / MV_PER_COUNT,
  };
}

export type CoinColor = 'black' | 'white';

/** One coin standing on a square. */
export interface Coin {
  /** magnet strength relative to the nominal coin */
  strength: number;
  /** distance from the square's centre, mm */
  offMm: number;
  /** magnet the wrong way up: the field, and the reading, go the other way */
  upsideDown: boolean;
  /** whose coin it is (on a polarity-coded board, which pole its magnet has down) */
  color: CoinColor;
}

/** How a hand puts a coin down (anything not given is drawn at random). */
export interface Placement {
  offMm?: number;
  upsideDown?: boolean;
  /**
   * whose coin: if not given, a coin put on a coin is of the same colour (a
   * crown: coins of opposite colours repel on a coded board), otherwise the
   * side's whose piece the hand is moving (hold), otherwise the coin last
   * taken off the board, otherwise Black's
   */
  color?: CoinColor;
  /** its magnet's strength relative to the nominal coin (negative: glued the other way up; 0: none); drawn from magnetSpread if not given */
  strength?: number;
}

interface Square {
  offset: number;
  gain: number;
  /** coins standing there, bottom first */
  coins: Coin[];
  /** the upper coin's field relative to the magnet's nominal (see stackSpread) */
  stackFactor: number;
  /** a finger lifting the coins part-way: 1 = resting, 0.4 = lifted so the reading drops 60 % */
  lift: number;
  driftPhase: number;
  driftPeriod: number;
  /** zero-level drift per °C of warm-up, counts */
  nullDrift: number;
  /** signal (counts above offset) before and after the last change, and when it changed */
  from: number;
  to: number;
  changedAt: number;
}

export class BoardPhysics {
  readonly options: PhysicsOptions;
  /** the coins' field against off-centre distance (see coinProfile) */
  readonly profile: CoinProfile;
  private readonly coinDelta: number;
  private readonly squares: Square[] = [];
  private readonly noiseRng: Rng;
  private readonly handRng: Rng;
  private readonly coinRng: Rng;
  /** diagonal neighbours of each square (index 0 = square 1) */
  private readonly neighbours: number[][] = [];
  /** colours of the coins last taken off the board, newest last (what the hand holds) */
  private readonly inHand: CoinColor[] = [];
  /** whose piece the hand is moving (coins it puts down are that side's unless said otherwise) */
  private holding: CoinColor | null = null;

  /** The hand is moving a piece of this side (null: none); see Placement.color. */
  hold(color: CoinColor | null): void {
    this.holding = color;
  }

  constructor(options: Partial<PhysicsOptions> = {}) {
    this.options = { ...DEFAULT_PHYSICS, ...options };
    const o = this.options;
    this.profile = coinProfile(o.magnet, o.geometry);
    this.coinDelta = o.coinDelta ?? this.profile.counts;
    const build = mulberry32(o.seed);
    // (the warm-up's coefficients from a generator of their own: the parts and coins drawn before it stay the same)
    const warm = mulberry32(o.seed ^ 0x27d4eb2f);
    this.noiseRng = mulberry32(o.seed ^ 0x9e3779b9);
    this.handRng = mulberry32(o.seed ^ 0x85ebca6b);
    this.coinRng = mulberry32(o.seed ^ 0x165667b1);
    for (let i = 0; i < SQUARES; i++) {
      this.squares.push({
        offset: uniform(build, -o.offsetSpread, o.offsetSpread),
        gain: uniform(build, 1 - o.gainSpread, 1 + o.gainSpread),
        coins: [],
        stackFactor: 1,
        lift: 1,
        driftPhase: uniform(build, 0, 2 * Math.PI),
        driftPeriod: uniform(build, o.driftPeriodMs[0], o.driftPeriodMs[1]),
        nullDrift: o.warmUp ? (warm() < 0.5 ? -1 : 1) * uniform(warm, o.warmUp.nullDriftPerC[0], o.warmUp.nullDriftPerC[1]) : 0,
        from: 0,
        to: 0,
        changedAt: -Infinity,
      });
      const r = Math.floor(i / 4),
        c = 2 * (i % 4) + (r % 2 === 0 ? 1 : 0);
      const n: number[] = [];
      for (const [dr, dc] of [
        [-1, -1],
        [-1, 1],
        [1, -1],
        [1, 1],
      ]) {
        const rr = r + dr,
          cc = c + dc;
        if (rr >= 0 && rr < 8 && cc >= 0 && cc < 8) n.push(rr * 4 + Math.floor(cc / 2));
      }
      this.neighbours.push(n);
    }
  }

  coins(square: number): number {
    return this.sq(square).coins.length;
  }

  /** The colour of the coin on top of a square (null: empty). */
  colorAt(square: number): CoinColor | null {
    return this.sq(square).coins.at(-1)?.color ?? null;
  }

  /** The coins on a square, bottom first (copies). */
  coinsOn(square: number): Coin[] {
    return this.sq(square).coins.map((c) => ({ ...c }));
  }

  /**
   * Put `coins` (0–2) on a square at time t. Coins taken away leave from the
   * top; new ones land off-centre at random (or as `how` says), magnet down.
   */
  setCoins(square: number, coins: number, t: number, how: Placement = {}): void {
    if (!Number.isInteger(coins) || coins < 0 || coins > 2) {
      throw new RangeError(`square ${square}: ${coins} coins (a square holds 0, 1 or 2)`);
    }
    const s = this.sq(square);
    if (coins === s.coins.length) return;
    const o = this.options;
    const before = s.coins.length;
    while (s.coins.length > coins) {
      this.inHand.push(s.coins.pop()!.color);
      if (this.inHand.length > 4) this.inHand.shift();
    }
    while (s.coins.length < coins) {
      const color = how.color ?? s.coins.at(-1)?.color ?? this.holding ?? this.inHand.pop() ?? 'black';
      s.coins.push({
        strength: how.strength ?? uniform(this.coinRng, 1 - o.magnetSpread, 1 + o.magnetSpread),
        offMm: how.offMm ?? this.dropMm(),
        upsideDown: how.upsideDown ?? false,
        color,
      });
    }
    // A stack sits as one: a coin put on a coin lands about where that one lies (between it and
    // where the hand aimed), and a stack put down whole keeps its coins together (±0.5 mm).
    if (coins === 2 && before < 2) {
      s.stackFactor = uniform(this.handRng, 1 - o.stackSpread, 1 + o.stackSpread);
      if (how.offMm === undefined) {
        const lower = s.coins[0].offMm;
        s.coins[1].offMm =
          before === 1
            ? Math.min(o.maxOffCentreMm, (lower + s.coins[1].offMm) / 2)
            : Math.max(0, Math.min(o.maxOffCentreMm, lower + uniform(this.handRng, -0.5, 0.5)));
      }
    }
    if (coins === 0) s.lift = 1;
    this.retarget(s, t);
  }

  /** Slide the coins of a square to `offMm` from the centre (a nudge to the centre: ~0; a knock: 2–3 mm). */
  slide(square: number, offMm: number, t: number): void {
    const s = this.sq(square);
    for (const c of s.coins) c.offMm = Math.max(0, Math.min(this.options.maxOffCentreMm, offMm));
    this.retarget(s, t);
  }

  /**
   * A finger lifting the coins part-way (1–3 mm, tilting them): the reading
   * drops to `factor` of its resting value (0.4–0.7); 1 puts them back down.
   */
  touch(square: number, factor: number, t: number): void {
    const s = this.sq(square);
    s.lift = Math.max(0, Math.min(1, factor));
    this.retarget(s, t);
  }

  /** Turn the top coin of a square over (magnet-up ↔ magnet-down). */
  flip(square: number, t: number): void {
    const s = this.sq(square);
    const top = s.coins.at(-1);
    if (!top) throw new RangeError(`square ${square} has no coin to turn over`);
    top.upsideDown = !top.upsideDown;
    this.retarget(s, t);
  }

  /** Noise-free reading of a square at time t (before ADC rounding, after saturation). */
  expected(square: number, t: number): number {
    const i = square - 1;
    this.sq(square);
    return this.saturate(this.raw(i, t));
  }

  /** One frame at time t: 32 clamped 10-bit readings (index 0 = square 1). */
  read(t: number, out = new Uint16Array(SQUARES)): Uint16Array {
    const o = this.options;
    for (let i = 0; i < SQUARES; i++) {
      const v = this.saturate(this.raw(i, t)) + gaussianish(this.noiseRng) * o.noise;
      out[i] = v <= 0 ? 0 : v >= 1023 ? 1023 : Math.round(v);
    }
    return out;
  }

  private raw(i: number, t: number): number {
    const s = this.squares[i];
    let v = this.options.baseline + s.offset + this.driftAt(s, t) + this.signalAt(s, t);
    const xt = this.options.crosstalk;
    if (xt) for (const j of this.neighbours[i]) v += xt * this.signalAt(this.squares[j], t);
    return v;
  }

  private saturate(v: number): number {
    const { knee, rail, lowKnee, floor } = this.options.saturation;
    if (v > knee) {
      const room = rail - knee;
      return knee + room * Math.tanh((v - knee) / room);
    }
    if (lowKnee !== undefined && floor !== undefined && v < lowKnee) {
      const room = lowKnee - floor;
      return lowKnee - room * Math.tanh((lowKnee - v) / room);
    }
    return v;
  }

  private dropMm(): number {
    const o = this.options;
    return Math.min(o.maxOffCentreMm, Math.abs(gaussianish(this.handRng)) * o.offCentreMm);
  }

  private retarget(s: Square, t: number): void {
    s.from = this.signalAt(s, t);
    s.to = this.settled(s);
    s.changedAt = t;
  }

  /** A coin's signal relative to a lone centred coin of nominal strength: its field where it lies (`table` by height), its pole. */
  private coinField(c: Coin, table: readonly number[]): number {
    const pole = this.options.coding === 'polarity' && c.color === 'white' ? -1 : 1;
    return pole * c.strength * fieldAt(OFFSETS, table, c.offMm);
  }

  private settled(s: Square): number {
    const k = this.coinDelta * s.gain * s.lift,
      p = this.profile;
    if (s.coins.length === 0) return 0;
    const [lower, upper] = s.coins;
    // The lower coin's magnet is the nearer; the upper one sits a coin higher (less than half a
    // coin's field); a coin upside down has its magnet on top, its field reversed. Of opposite
    // poles (a coded board's wrong-colour crown), they partly cancel.
    let b = this.coinField(lower, lower.upsideDown ? p.flipped : p.lower);
    if (upper) b += s.stackFactor * this.coinField(upper, upper.upsideDown ? p.flippedUpper : p.upper);
    return k * b;
  }

  private signalAt(s: Square, t: number): number {
    const m = this.options.motionMs;
    const dt = t - s.changedAt;
    if (m <= 0 || dt >= m) return s.to;
    if (dt <= 0) return s.from;
    return s.from + ((s.to - s.from) * dt) / m;
  }

  private driftAt(s: Square, t: number): number {
    const w = this.options.warmUp;
    const room = this.options.drift * Math.sin((2 * Math.PI * t) / s.driftPeriod + s.driftPhase);
    return w ? room + s.nullDrift * warmth(t, w) : room;
  }

  private sq(square: number): Square {
    if (!Number.isInteger(square) || square < 1 || square > SQUARES) {
      throw new RangeError(`no square ${square} (squares are 1–32)`);
    }
    return this.squares[square - 1];
  }
}
