// Per-square calibration: the reading of each square empty, with one coin and
// with a stack of two. Learnt for free from a known set-up (the start
// position: calibrationFromSetup, which also tells a polarity-coded set from
// one glued the old way), refined during play, or measured by the explicit
// routine; saved as JSON and reused. On a polarity-coded set the levels are
// distances from empty either way (the reader folds White's readings up).
// Pure data and arithmetic, no I/O.

import { THRESHOLDS } from './thresholds.ts';
import { CrownheadError } from '../common/errors.ts';

export const SQUARE_COUNT = 32;

/** Smallest one-coin delta accepted for a square, as a fraction of the board's median. */
export const ONE_FLOOR = 0.85;

/** A two-coin stack reads at least this many times one coin (centred; the hardware README: 1.3–1.5). */
export const MIN_STACK_RATIO = 1.3;

/** What an uncalibrated board is assumed to read (linear Hall sensor at VCC/2, ~200 counts a coin). */
export const NOMINAL = { empty: 512, coinDelta: 200, stackRatio: 1.4 } as const;

export interface CalibrationData {
  version: 1;
  boardId?: string;
  /** ISO time of the last change */
  savedAt?: string;
  empty: number[];
  one: number[];
  /** null where no stack has been measured yet */
  two: (number | null)[];
  /**
   * 'polarity': a polarity-coded set (White's coins read below empty); the
   * levels are then distances from empty, folded upwards. Absent: glued the
   * old way.
   */
  coding?: 'uniform' | 'polarity';
}

/** A calibration that cannot be used (a saved file or data with a missing or impossible level); the message says which. */
export class CalibrationError extends CrownheadError<'bad-calibration'> {
  override readonly name = 'CalibrationError';
  constructor(message: string) {
    super('bad-calibration', message);
  }
}

export class Calibration {
  readonly empty = new Float64Array(SQUARE_COUNT);
  readonly one = new Float64Array(SQUARE_COUNT);
  readonly two = new Float64Array(SQUARE_COUNT);
  /** 1 where the level was measured on this square (not estimated from the others) */
  readonly emptyKnown = new Uint8Array(SQUARE_COUNT);
  readonly oneKnown = new Uint8Array(SQUARE_COUNT);
  readonly twoKnown = new Uint8Array(SQUARE_COUNT);
  /**
   * 1 where the one- and two-coin levels were measured deliberately (the
   * calibration routine, or a saved calibration), not learnt from play, where
   * an off-centre coin or king may have set them low.
   */
  readonly measured = new Uint8Array(SQUARE_COUNT);
  /** the same as a bitboard (bit i−1 for square i), kept by markMeasured */
  measuredBits = 0;
  /** where measured: the one-to-two gap as measured (the one-coin level learnt in play stays well below two) */
  readonly measuredGap = new Float64Array(SQUARE_COUNT);
  /** Observed two-coin / one-coin ratio used for squares with no stack measured. */
  stackRatio: number = NOMINAL.stackRatio;

  static nominal(): Calibration {
    const c = new Calibration();
    c.empty.fill(NOMINAL.empty);
    c.one.fill(NOMINAL.empty + NOMINAL.coinDelta);
    c.two.fill(NOMINAL.empty + NOMINAL.coinDelta * NOMINAL.stackRatio);
    return c;
  }

  /**
   * From readings of a board whose occupancy is known (counts 0/1/2 per
   * square), e.g. the start position. Levels not seen on a square are
   * estimated from the others (median offset and median coin delta), but an
   * occupied square's empty level is its own where it was seen (`ownEmpty`,
   * at least `minGap` below its reading).
   */
  static fromKnown(readings: ArrayLike<number>, counts: ArrayLike<number>, ownEmpty?: ArrayLike<number>, minGap = Infinity): Calibration {
    const c = new Calibration();
    const empties: number[] = [],
      deltas: number[] = [],
      ratios: number[] = [];
    for (let i = 0; i < SQUARE_COUNT; i++) {
      if (counts[i] === 0) {
        c.empty[i] = readings[i];
        c.emptyKnown[i] = 1;
        empties.push(readings[i]);
      } else if (counts[i] === 1) {
        c.one[i] = readings[i];
        c.oneKnown[i] = 1;
      } else {
        c.two[i] = readings[i];
        c.twoKnown[i] = 1;
      }
    }
    const baseline = empties.length ? median(empties) : NOMINAL.empty;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      if (c.emptyKnown[i]) continue;
      // An occupied square seen empty before (a coin lifted, the board set up from empty): its own level.
      const own = ownEmpty ? ownEmpty[i] : Infinity;
      if (Number.isFinite(own) && readings[i] - own >= minGap) {
        c.empty[i] = own;
        c.emptyKnown[i] = 1;
      } else c.empty[i] = baseline;
    }
    for (let i = 0; i < SQUARE_COUNT; i++) if (c.oneKnown[i]) deltas.push(c.one[i] - c.empty[i]);
    const delta = deltas.length ? median(deltas) : NOMINAL.coinDelta;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      // One coin placed far off-centre reads low; a square's one-coin level is taken as at
      // least ONE_FLOOR of the board's typical coin (sensor gains differ by only ~10 %).
      if (c.oneKnown[i]) c.one[i] = Math.max(c.one[i], c.empty[i] + ONE_FLOOR * delta);
      if (!c.oneKnown[i])
        c.one[i] = c.empty[i] + (c.twoKnown[i] ? Math.max((c.two[i] - c.empty[i]) / NOMINAL.stackRatio, ONE_FLOOR * delta) : delta);
      // A king reading lower than a stack on this square should is an off-centre stack: its
      // reading is no two-coin level (estimated from the one-coin level instead).
      if (c.twoKnown[i] && c.two[i] < c.empty[i] + NOMINAL.stackRatio * (c.one[i] - c.empty[i]) - 1) c.twoKnown[i] = 0;
      if (c.twoKnown[i]) ratios.push((c.two[i] - c.empty[i]) / Math.max(1, c.one[i] - c.empty[i]));
    }
    if (ratios.length) c.stackRatio = median(ratios);
    for (let i = 0; i < SQUARE_COUNT; i++) if (!c.twoKnown[i]) c.two[i] = c.empty[i] + c.stackRatio * (c.one[i] - c.empty[i]);
    return c;
  }

  /** The square's one- and two-coin levels were measured deliberately (the routine, or a saved calibration). */
  markMeasured(i: number): void {
    this.measured[i] = 1;
    this.measuredBits |= 1 << i;
    this.measuredGap[i] = this.two[i] - this.one[i];
  }

  /** The set is polarity-coded: levels are distances from empty either way (BoardReader folds readings). */
  coded = false;

  /**
   * How far below its own empty level, in coin steps, a reading on square i
   * holds a coin lying magnet-up, for a square whose noise is `noise` (σ,
   * counts). From the square's own stack increment (two − one where a stack
   * was seen there, else at most THRESHOLDS.flipUnseenStack): a flipped coin's magnet sits nearly a coin
   * higher with its field reversed, so it reads at least THRESHOLDS.flipPerStack
   * increments below empty, however off-centre; the bar sits flipFraction of
   * the way there, but never within the square's noise (and drift) of empty.
   * Where the square's empty level was only guessed from the others, the
   * fixed fallback (THRESHOLDS.upsideDown).
   */
  flipBar(i: number, noise: number): number {
    const T = THRESHOLDS;
    if (!this.emptyKnown[i]) return T.upsideDown;
    const span = Math.max(1, this.span(i));
    // (Where no stack was ever seen on the square, its two-coin level is the board's ratio or the
    // nominal one: the increment is taken no larger than the smallest a working board gives.)
    const stack = this.stackStep(i);
    return Math.max((T.flipNoiseSigmas * noise) / span + T.flipDriftMargin, T.flipFraction * T.flipPerStack * stack);
  }

  /**
   * Could a reading `low` on square i reach its flip bar less `slack` coin steps (the hysteresis)? A
   * cheap bound, no square root, for the many frames an empty square reads a count or two below its
   * level: the bar is at least flipNoiseSigmas σ (`variance` = σ²) + flipDriftMargin. True where in
   * doubt (rounding), and where the empty level is only guessed (the bar is then fixed).
   */
  mayReachFlipBar(i: number, low: number, variance: number, slack: number): boolean {
    if (!this.emptyKnown[i]) return true;
    const span = Math.max(1, this.span(i));
    const depth = this.empty[i] - low - (THRESHOLDS.flipDriftMargin - slack) * span + 1e-6 * span;
    return depth > 0 && depth * depth >= THRESHOLDS.flipNoiseSigmas ** 2 * variance * (1 - 1e-9);
  }

  /**
   * How far below the man's own plateau, in coin steps, a reading on square
   * i (where a crown is awaited) holds the crown lying magnet-up on it:
   * THRESHOLDS.crownFlipPerStack of the stack increment, clear of the
   * square's noise (a step between two plateaus a moment apart: no drift).
   */
  crownFlipBar(i: number, noise: number): number {
    const T = THRESHOLDS;
    return Math.max((T.flipNoiseSigmas * noise) / Math.max(1, this.span(i)), T.flipFraction * T.crownFlipPerStack * this.stackStep(i));
  }

  /** The square's stack increment in coin steps, no larger than THRESHOLDS.flipUnseenStack where no stack was seen on it. */
  private stackStep(i: number): number {
    return this.twoKnown[i]
      ? (this.two[i] - this.one[i]) / Math.max(1, this.span(i))
      : Math.min(this.stackRatio - 1, THRESHOLDS.flipUnseenStack);
  }

  /** Coin delta (one − empty) of a square. */
  span(i: number): number {
    return this.one[i] - this.empty[i];
  }

  /** Moves a level towards an observation (alpha 1 = take it); updates estimates that depend on it. */
  learn(i: number, count: 0 | 1 | 2, value: number, alpha: number): void {
    // Never learn a level that would break the order empty < one < two.
    const minGap = 0.1 * Math.max(this.one[i] - this.empty[i], 1);
    if (count === 0 && value > this.one[i] - 2 * minGap) return;
    // (On measured levels a man may read above the routine's one-coin level — better centred, a
    // stronger magnet — but never into the upper part of the measured one-to-two gap: a reading
    // there is a stack, and learning it as a man would blind the square to stacks.)
    if (
      count === 1 &&
      (value < this.empty[i] + 2 * minGap ||
        (this.measured[i] && value > this.two[i] - THRESHOLDS.measuredOneHeadroom * this.measuredGap[i]))
    )
      return;
    // A man the game confirmed reading above a two-coin level learnt in play: that level came from
    // an off-centre king; it is estimated again from the one-coin level.
    if (count === 1 && this.twoKnown[i] && !this.measured[i] && value > this.two[i] - minGap) this.twoKnown[i] = 0;
    if (count === 2 && value < this.one[i] + minGap) return;
    const known = count === 0 ? this.emptyKnown : count === 1 ? this.oneKnown : this.twoKnown;
    if (count === 0) {
      // Drift: the empty level moves; estimated levels above it move with it (span kept).
      const before = this.empty[i];
      this.empty[i] += (known[i] ? alpha : 1) * (value - before);
      if (!this.oneKnown[i]) this.one[i] += this.empty[i] - before;
    } else if (count === 1) {
      // A coin off-centre only reads lower, so the one-coin level follows the best-centred
      // coins seen: up at once, down slowly.
      if (value > this.one[i]) this.one[i] = value;
      else this.one[i] += (known[i] ? 0.1 * alpha : 0.5) * (value - this.one[i]);
    } else {
      // Like one coin: an off-centre stack only reads lower, so the level follows the best-centred
      // stacks seen (up at once, down slowly), and never sits closer to one coin than a stack can.
      if (value > this.two[i] || !known[i]) this.two[i] = value;
      else this.two[i] += 0.1 * alpha * (value - this.two[i]);
      if (!this.oneKnown[i]) this.one[i] = this.empty[i] + (this.two[i] - this.empty[i]) / this.stackRatio;
    }
    known[i] = 1;
    if (!this.twoKnown[i]) this.two[i] = this.empty[i] + this.stackRatio * (this.one[i] - this.empty[i]);
    else if (!this.measured[i]) this.two[i] = Math.max(this.two[i], this.empty[i] + MIN_STACK_RATIO * (this.one[i] - this.empty[i]));
  }

  toJSON(boardId?: string, savedAt?: string): CalibrationData {
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      version: 1,
      ...(boardId ? { boardId } : {}),
      ...(savedAt ? { savedAt } : {}),
      empty: Array.from(this.empty, round),
      one: Array.from(this.one, round),
      two: Array.from(this.two, (v, i) => (this.twoKnown[i] ? round(v) : null)),
      ...(this.coded ? { coding: 'polarity' as const } : {}),
    };
  }

  static fromJSON(data: unknown): Calibration {
    const fail = (msg: string): never => {
      throw new CalibrationError(`bad calibration data: ${msg}`);
    };
    if (typeof data !== 'object' || data === null) fail('not an object');
    const d = data as Record<string, unknown>;
    if (d.version !== 1) fail(`unknown version ${JSON.stringify(d.version)} (expected 1)`);
    const list = (name: string, nullable: boolean): (number | null)[] => {
      const v = d[name];
      if (!Array.isArray(v) || v.length !== SQUARE_COUNT) fail(`"${name}" must be a list of ${SQUARE_COUNT} readings`);
      for (const [k, x] of (v as unknown[]).entries()) {
        if (x === null && nullable) continue;
        if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1023)
          fail(`"${name}" square ${k + 1}: ${JSON.stringify(x)} is not a reading 0-1023`);
      }
      return v as (number | null)[];
    };
    const empty = list('empty', false),
      one = list('one', false),
      two = list('two', true);
    if (d.coding !== undefined && d.coding !== 'uniform' && d.coding !== 'polarity')
      fail(`"coding" must be "uniform" or "polarity", not ${JSON.stringify(d.coding)}`);
    const c = new Calibration();
    c.coded = d.coding === 'polarity';
    const ratios: number[] = [];
    for (let i = 0; i < SQUARE_COUNT; i++) {
      c.empty[i] = empty[i]!;
      c.one[i] = one[i]!;
      if (c.one[i] - c.empty[i] < 10) fail(`square ${i + 1}: one coin (${c.one[i]}) must read above empty (${c.empty[i]})`);
      c.emptyKnown[i] = c.oneKnown[i] = 1;
      if (two[i] !== null) {
        c.two[i] = two[i]!;
        c.twoKnown[i] = 1;
        c.markMeasured(i);
        if (c.two[i] <= c.one[i]) fail(`square ${i + 1}: two coins (${c.two[i]}) must read above one (${c.one[i]})`);
        ratios.push((c.two[i] - c.empty[i]) / (c.one[i] - c.empty[i]));
      }
    }
    if (ratios.length) c.stackRatio = median(ratios);
    for (let i = 0; i < SQUARE_COUNT; i++) if (!c.twoKnown[i]) c.two[i] = c.empty[i] + c.stackRatio * (c.one[i] - c.empty[i]);
    return c;
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Does a board's readings agree with a known occupancy clearly enough to
 * calibrate from it? Sorted readings must split into the expected numbers of
 * empty, one-coin and two-coin squares, on exactly the expected squares, with
 * a clear gap between the groups.
 */
export function agreesWithOccupancy(
  readings: ArrayLike<number>,
  counts: ArrayLike<number>,
  minGap: number,
  ownEmpty?: ArrayLike<number>,
): boolean {
  return occupancyConflicts(readings, counts, minGap, ownEmpty).length === 0;
}

/**
 * The squares where readings and a known occupancy disagree, or cannot be
 * told apart: an occupied square whose reading stands less than `minGap`
 * above both its own empty level (where one was seen: `ownEmpty`, the lowest
 * steady reading of the square, Infinity where never seen empty) and the
 * highest empty square's reading; an empty square reading a coin above its
 * own empty level. Sensors' zero levels differ (by more than a coin on
 * datasheet-limit parts), so a square's own empty level is the better
 * evidence wherever it was seen. One coin or two is not asked of the
 * readings: an off-centre king reads like a centred man, and the known
 * occupancy (the game) says which squares hold kings.
 */
export function occupancyConflicts(
  readings: ArrayLike<number>,
  counts: ArrayLike<number>,
  minGap: number,
  ownEmpty?: ArrayLike<number>,
): number[] {
  let maxEmpty = -Infinity;
  for (let i = 0; i < SQUARE_COUNT; i++) if (counts[i] === 0) maxEmpty = Math.max(maxEmpty, readings[i]);
  // With no empty square to compare against, the coins must stand clear of the nominal empty level.
  const floor = maxEmpty === -Infinity ? NOMINAL.empty : maxEmpty;
  const out: number[] = [];
  for (let i = 0; i < SQUARE_COUNT; i++) {
    const own = ownEmpty ? ownEmpty[i] : Infinity;
    const aboveOwn = Number.isFinite(own) && readings[i] - own >= minGap;
    if (counts[i] === 0 ? aboveOwn : !(aboveOwn || readings[i] - floor >= minGap)) out.push(i + 1);
  }
  return out;
}

/**
 * A calibration from a board standing at rest in a known occupancy (e.g. the
 * start position): `raw` its smoothed readings, `lowSeen`/`highSeen` the
 * lowest and highest steady reading of each square so far (its own empty
 * level, where it was seen empty), `gap` the smallest coin step accepted.
 * Tells a polarity-coded set from one glued the old way. Null where the
 * readings do not agree with the occupancy clearly (occupancyConflicts);
 * `folded`: the readings as counted (on a coded set folded about each
 * square's empty level); `unclear`: squares that should hold a coin but read
 * like an empty one, never seen at two levels a coin apart (see
 * BoardView.unclear).
 */
export function calibrationFromSetup(
  raw: ArrayLike<number>,
  lowSeen: ArrayLike<number>,
  highSeen: ArrayLike<number>,
  counts: ArrayLike<number>,
  gap: number,
): { calibration: Calibration | null; folded: Float64Array; unclear: number } {
  // Which kind of board: on a polarity-coded one White's coins read below the empty squares (on
  // one glued the old way only a coin upside down does, and never four of them at a set-up).
  const empties: number[] = [];
  for (let i = 0; i < SQUARE_COUNT; i++) if (counts[i] === 0) empties.push(raw[i]);
  const baseline = empties.length ? median(empties) : NOMINAL.empty;
  let below = 0;
  for (let i = 0; i < SQUARE_COUNT; i++) if (counts[i] > 0 && raw[i] < baseline - gap) below++;
  const coded = below >= THRESHOLDS.codedMinCoins;
  // Each square's own empty level where it was seen (the extreme of its readings on the empty
  // side, a coin step away), and the readings as counted: folded about it on a coded board.
  const own = new Float64Array(SQUARE_COUNT).fill(Infinity);
  const folded = new Float64Array(SQUARE_COUNT);
  for (let i = 0; i < SQUARE_COUNT; i++) {
    const down = coded && raw[i] < baseline;
    const seen = down ? highSeen[i] : lowSeen[i];
    // (Under a king, only a level nearer the empty squares' than half the way to the king's: a
    // square that only ever held a man, then the king put together on it, has its lowest reading
    // a man's, a coin above empty — taken for empty, the king's square read empty as magnet-up.)
    const plausible = counts[i] < 2 || Math.abs(seen - baseline) < Math.abs(raw[i] - seen) / 2;
    if (counts[i] > 0 && Math.abs(raw[i] - seen) >= gap && plausible) own[i] = seen;
    // (An empty square reading a coin above its own lowest level holds a coin: checked on an old board.)
    if (counts[i] === 0 && !coded) own[i] = lowSeen[i];
    const e = Number.isFinite(own[i]) ? own[i] : counts[i] === 0 ? raw[i] : baseline;
    folded[i] = coded ? e + Math.abs(raw[i] - e) : raw[i];
  }
  const conflicts = occupancyConflicts(folded, counts, gap, own);
  // (Unclear: a square that should hold a coin and was never seen at two levels a coin apart — one
  // that was, and reads its low level now, is simply empty: a coin missing, not a weak one.
  // And it must read somewhat away from the empty squares: a coin on a weak sensor still moves
  // its reading; one reading like any empty square is most likely just missing.)
  let lowestEmpty = Infinity;
  for (let i = 0; i < SQUARE_COUNT; i++) if (counts[i] === 0) lowestEmpty = Math.min(lowestEmpty, folded[i]);
  let unclear = 0;
  for (const sq of conflicts) {
    const i = sq - 1;
    if (counts[i] > 0 && !(highSeen[i] - lowSeen[i] >= gap) && !(folded[i] - lowestEmpty < gap / 2)) unclear |= 1 << i;
  }
  if (conflicts.length) return { calibration: null, folded, unclear };
  const calibration = Calibration.fromKnown(folded, counts, own, gap);
  calibration.coded = coded;
  return { calibration, folded, unclear };
}
