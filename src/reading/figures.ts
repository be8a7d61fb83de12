// The per-square figures a BoardView shows but the count does not need:
// confidence (distance from the nearest threshold, relative to half a coin)
// and where each reading sits between its levels. The reader records the two
// numbers confidence is made of each frame; both are worked out only when a
// view reads them (the tracker rarely does; a display does a few times a
// second), sparing a division per square per frame. Pure numbers.

import { type Calibration, SQUARE_COUNT } from './calibration.ts';
import { THRESHOLDS as T } from './thresholds.ts';

export class ViewFigures {
  /** each square's distance (counts) from its nearest threshold this frame */
  readonly nearest = new Float64Array(SQUARE_COUNT);
  /** …and its coin step (one − empty, at least 1) */
  readonly spans = new Float64Array(SQUARE_COUNT).fill(1);
  private readonly confidences = new Float32Array(SQUARE_COUNT);
  private readonly coinLevels = new Float32Array(SQUARE_COUNT);
  private readonly stackLevels = new Float32Array(SQUARE_COUNT);
  private readonly signedLevels = new Float32Array(SQUARE_COUNT);

  /** Where square i's smoothed reading sits between its levels: 0 = empty, 1 = one coin (the best-centred seen), and `stack`: 0 = one coin, 1 = two. */
  static level(c: Calibration, smooth: ArrayLike<number>, i: number): { coins: number; stack: number } {
    return {
      coins: (smooth[i] - c.empty[i]) / Math.max(1, c.span(i)),
      stack: (smooth[i] - c.one[i]) / Math.max(1, c.two[i] - c.one[i]),
    };
  }

  /** Confidence per square: 0 on a threshold, 1 half a coin or more from it. */
  confidence(): Float32Array {
    for (let i = 0; i < SQUARE_COUNT; i++) this.confidences[i] = Math.min(1, this.nearest[i] / (T.confidenceScale * this.spans[i]));
    return this.confidences;
  }

  /** Per square: smoothed reading in coin steps from empty (`coins`), raw reading signed (`signed`), and between one coin and two (`stack`). */
  levels(
    c: Calibration,
    raw: ArrayLike<number>,
    smooth: ArrayLike<number>,
  ): { coins: Float32Array; stack: Float32Array; signed: Float32Array } {
    for (let i = 0; i < SQUARE_COUNT; i++) {
      this.signedLevels[i] = (raw[i] - c.empty[i]) / Math.max(1, c.span(i));
      this.coinLevels[i] = (smooth[i] - c.empty[i]) / Math.max(1, c.span(i));
      this.stackLevels[i] = (smooth[i] - c.one[i]) / Math.max(1, c.two[i] - c.one[i]);
    }
    return { coins: this.coinLevels, stack: this.stackLevels, signed: this.signedLevels };
  }
}
