// Each square's frame noise, as the reader measures it: from frame-to-frame
// steps on quiet empty frames (the step from the smoothed reading would count
// its lag after a coin left as noise); a square not yet measured takes the
// board's (the mean over the squares measured), THRESHOLDS.assumedNoise until
// any is. The flip bars keep clear of it (Calibration.flipBar). Pure numbers.

import { SQUARE_COUNT } from './calibration.ts';
import { THRESHOLDS as T } from './thresholds.ts';

/** A measured frame's weight in a square's mean: its own share until noiseMeasuredFrames, then noiseWeight. */
const WEIGHT = Float64Array.from({ length: T.noiseMeasuredFrames + 1 }, (_, n) => Math.max(T.noiseWeight, 1 / n));

export class SquareNoise {
  /** variance per square: half the mean square of a frame-to-frame step */
  private readonly sq = new Float64Array(SQUARE_COUNT).fill(T.assumedNoise ** 2);
  /** quiet empty frames each square was measured on (capped) */
  private readonly frames = new Uint16Array(SQUARE_COUNT);
  private readonly prev = new Float64Array(SQUARE_COUNT);
  private board: number = T.assumedNoise ** 2;
  /** frames since the board's noise was last worked out; a square became measured since */
  private sinceBoard = 0;
  private joined = false;

  /** Square i's raw reading this frame; `measure`: a quiet frame of an empty square that has stood a moment. */
  see(i: number, raw: number, measure: boolean): void {
    const step = raw - this.prev[i];
    this.prev[i] = raw;
    if (!measure) return;
    // (The first frames measured take their own mean, then a slow average follows.)
    let n: number = T.noiseMeasuredFrames;
    if (this.frames[i] < n) {
      n = ++this.frames[i];
      if (n === T.noiseMeasuredFrames) this.joined = true;
    }
    this.sq[i] += WEIGHT[n] * ((step * step) / 2 - this.sq[i]);
  }

  /**
   * After a frame: the board's noise from the squares measured so far — at once when a square
   * joins them, else every THRESHOLDS.noiseBoardFrames frames (a slow average: a frame weighs
   * THRESHOLDS.noiseWeight in each square's).
   */
  endFrame(): void {
    if (++this.sinceBoard < T.noiseBoardFrames && !this.joined) return;
    this.sinceBoard = 0;
    this.joined = false;
    let sum = 0,
      count = 0;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      if (this.frames[i] < T.noiseMeasuredFrames) continue;
      sum += this.sq[i];
      count++;
    }
    if (count) this.board = sum / count;
  }

  /** Square i's noise (σ, counts): its own once measured on enough frames, else the board's. */
  sigma(i: number): number {
    return Math.sqrt(this.variance(i));
  }

  /** σ² of sigma(i) (no square root: a cheap bound). */
  variance(i: number): number {
    return this.frames[i] >= T.noiseMeasuredFrames ? this.sq[i] : this.board;
  }
}
