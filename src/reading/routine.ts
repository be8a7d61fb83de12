// The explicit calibration routine, for a board whose readings are off or a
// new board: (1) clear the board — every square's empty level; (2) set up the
// start position — the one-coin level of squares 1–12 and 21–32; (3) walk a
// stack of two coins over every square, 1 to 32 in turn — each square's
// two-coin level (and, for 13–20, the one-coin level from the stack ratio
// seen elsewhere). A piecepack has only 24 coins, so no step needs more.
// A polarity-coded set (White's coins read below empty) is recognised at step
// 2: levels are then measured as distances from empty either way.
// Pure: fed frames, it reports progress and finally a Calibration.

import { Calibration, SQUARE_COUNT, median } from './calibration.ts';

export type RoutineStep = 'clear' | 'start' | 'stack' | 'done';

export interface RoutineProgress {
  step: RoutineStep;
  /** the square the stack should go on next (stack step) */
  square: number | null;
  /** squares measured in this step */
  done: number;
  total: number;
  message: string;
}

export interface RoutineOptions {
  /** readings must hold within this many counts… */
  steadyCounts: number;
  /** …for this long (ms) before a level is taken */
  steadyMs: number;
  /** smallest rise a coin must cause (counts) */
  minCoinDelta: number;
}

const DEFAULTS: RoutineOptions = { steadyCounts: 6, steadyMs: 600, minCoinDelta: 40 };

export class CalibrationRoutine {
  readonly options: RoutineOptions;
  private step: RoutineStep = 'clear';
  private readonly empty = new Float64Array(SQUARE_COUNT);
  private readonly one = new Float64Array(SQUARE_COUNT);
  private readonly two = new Float64Array(SQUARE_COUNT);
  private stackSquare = 1;
  /** the set is polarity-coded (seen at the start position) */
  private coded = false;
  /** the stack must leave a square (reading back near empty) before the next counts */
  private waitingForLift = false;
  private readonly ref = new Float64Array(SQUARE_COUNT);
  private steadySince = -Infinity;

  constructor(options: Partial<RoutineOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  progress(): RoutineProgress {
    switch (this.step) {
      case 'clear':
        return {
          step: 'clear',
          square: null,
          done: 0,
          total: 1,
          message: 'Calibration 1/3: take every coin off the board, then keep still.',
        };
      case 'start':
        return {
          step: 'start',
          square: null,
          done: 0,
          total: 1,
          message: 'Calibration 2/3: set up the start position (one coin on squares 1–12 and 21–32).',
        };
      case 'stack':
        return {
          step: 'stack',
          square: this.stackSquare,
          done: this.stackSquare - 1,
          total: SQUARE_COUNT,
          message: this.waitingForLift
            ? `Calibration 3/3: take the stack off square ${this.stackSquare - 1}.`
            : `Calibration 3/3: put a stack of two coins${this.coded ? ' of one colour' : ''} on square ${this.stackSquare}${this.stackSquare === 1 ? ' (clear the board first)' : ''}.`,
        };
      case 'done':
        return { step: 'done', square: null, done: SQUARE_COUNT, total: SQUARE_COUNT, message: 'Calibration done and saved.' };
    }
  }

  /** Feeds a frame; returns the new progress when the routine moved on, else null. */
  push(t: number, readings: ArrayLike<number>): RoutineProgress | null {
    if (this.step === 'done') return null;
    // Steadiness: every reading within steadyCounts of the reference for steadyMs.
    let steady = true;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      if (Math.abs(readings[i] - this.ref[i]) > this.options.steadyCounts) {
        steady = false;
        break;
      }
    }
    if (!steady) {
      for (let i = 0; i < SQUARE_COUNT; i++) this.ref[i] = readings[i];
      this.steadySince = t;
      return null;
    }
    if (t - this.steadySince < this.options.steadyMs) return null;
    return this.advance(readings);
  }

  private advance(r: ArrayLike<number>): RoutineProgress | null {
    const min = this.options.minCoinDelta;
    switch (this.step) {
      case 'clear': {
        // An empty board reads alike everywhere (no square stands out by a coin's rise).
        const med = median(Array.from(r));
        for (let i = 0; i < SQUARE_COUNT; i++) if (r[i] - med > min) return null;
        for (let i = 0; i < SQUARE_COUNT; i++) this.empty[i] = r[i];
        this.step = 'start';
        return this.progress();
      }
      case 'start': {
        // White's coins reading below empty (at least four of them, by a coin's rise): a coded set.
        let below = 0;
        for (let i = 20; i < SQUARE_COUNT; i++) if (this.empty[i] - r[i] >= min) below++;
        const coded = below >= 4;
        for (let i = 0; i < SQUARE_COUNT; i++) {
          const coin = i < 12 || i >= 20;
          // (On a coded set each side's coins on its own side: Black's up, White's down.)
          const rise = coded && i >= 20 ? this.empty[i] - r[i] : r[i] - this.empty[i];
          if (coin ? rise < min : Math.abs(r[i] - this.empty[i]) > min / 2) return null;
        }
        this.coded = coded;
        for (let i = 0; i < SQUARE_COUNT; i++) this.one[i] = this.fold(i, r[i]);
        this.step = 'stack';
        this.stackSquare = 1;
        return this.progress();
      }
      case 'stack': {
        const i = this.stackSquare - 1;
        if (this.waitingForLift) {
          const prev = i - 1;
          if (Math.abs(r[prev] - this.empty[prev]) > min / 2) return null;
          this.waitingForLift = false;
          return this.progress();
        }
        // Exactly this square raised, by more than one coin's worth where that is known.
        for (let k = 0; k < SQUARE_COUNT; k++) {
          if (k === i) continue;
          if (Math.abs(r[k] - this.empty[k]) > min / 2) return null;
        }
        const rise = this.fold(i, r[i]) - this.empty[i];
        const oneRise = i < 12 || i >= 20 ? this.one[i] - this.empty[i] : min;
        if (rise < oneRise * 1.1) return null;
        this.two[i] = this.fold(i, r[i]);
        this.stackSquare++;
        if (this.stackSquare > SQUARE_COUNT) {
          this.step = 'done';
        } else this.waitingForLift = true;
        return this.progress();
      }
      default:
        return null;
    }
  }

  /** A reading as a distance from the square's empty level, upwards (either way on a coded set). */
  private fold(i: number, v: number): number {
    return this.coded ? this.empty[i] + Math.abs(v - this.empty[i]) : v;
  }

  get finished(): boolean {
    return this.step === 'done';
  }

  /** The measured calibration (after the routine is done). */
  result(): Calibration {
    if (this.step !== 'done') throw new Error('calibration routine not finished');
    const ratios: number[] = [];
    for (let i = 0; i < SQUARE_COUNT; i++) {
      if (i < 12 || i >= 20) ratios.push((this.two[i] - this.empty[i]) / (this.one[i] - this.empty[i]));
    }
    const ratio = median(ratios);
    const c = new Calibration();
    c.stackRatio = ratio;
    c.coded = this.coded;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      c.empty[i] = this.empty[i];
      c.two[i] = this.two[i];
      c.one[i] = i < 12 || i >= 20 ? this.one[i] : this.empty[i] + (this.two[i] - this.empty[i]) / ratio;
      c.emptyKnown[i] = c.oneKnown[i] = c.twoKnown[i] = 1;
      c.markMeasured(i);
    }
    return c;
  }
}
