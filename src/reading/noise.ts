// Each square's frame noise, as the reader measures it: from frame-to-frame
// steps on quiet empty frames (the step from the smoothed reading would count
// its lag after a coin left as noise); a square not yet measured takes the
// board's (the mean over the squares measured), THRESHOLDS.assumedNoise until
// any is. The flip bars keep clear of it (Calibration.flipBar). Pure numbers.

import { SQUARE_COUNT } from './calibration.ts';
import { THRESHOLDS as T } from './thresholds.ts';

export class SquareNoise {
  /** variance per square: half the mean square of a frame-to-frame step */
  private readonly sq = new Float64Array(SQUARE_COUNT).fill(T.assumedNoise ** 2);
  /** quiet empty frames each square was measured on (capped) */
  private readonly frames = new Uint16Array(SQUARE_COUNT);
  private readonly prev = new Float64Array(SQUARE_COUNT);
  private board: number = T.assumedNoise ** 2;

  /** Square i's raw reading this frame; `measure`: a quiet frame of an empty square that has stood a moment. */
  see(i: number, raw: number, measure: boolean): void {
    const step = raw - this.prev[i];
    this.prev[i] = raw;
    if (!measure) return;
    // (The first frames measured take their own mean, then a slow average follows.)
    const n = this.frames[i] < T.noiseMeasuredFrames ? ++this.frames[i] : T.noiseMeasuredFrames;
    this.sq[i] += Math.max(T.noiseWeight, 1 / n) * (step ** 2 / 2 - this.sq[i]);
  }

  /** After a frame: the board's noise from the squares measured so far. */
  endFrame(): void {
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
    return Math.sqrt(this.frames[i] >= T.noiseMeasuredFrames ? this.sq[i] : this.board);
  }
}
