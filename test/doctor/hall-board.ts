// A board for the doctor's tests on a virtual clock, whose sensors read
// through the emulator's sensor model (src/sensors/hall-model.ts: 32 SS49E
// parts, coins off-centre, kings, upside-down coins, crosstalk, clipping, and
// the build faults) plus a frame's noise (the one figure, magnet-physics.ts FRAME_NOISE) — the emulator's readings
// without the emulator's real-time process, so every fault runs in a moment.
import { HallModel, type HallModelOptions } from '../../src/sensors/hall-model.ts';
import type { RawFrame } from '../../src/sensors/source.ts';
import { gaussianish, mulberry32 } from '../../src/common/prng.ts';
import { FRAME_NOISE } from '../../src/sensors/magnet-physics.ts';

export class HallBoard {
  readonly model: HallModel;
  private t = 0;
  private readonly listeners = new Set<(f: RawFrame) => void>();
  private readonly noise = mulberry32(4242);

  constructor(options: Partial<HallModelOptions> = {}) {
    // The bring-up moves one coin (and one king's second coin) from square to square, so its readings see one
    // magnet, a nominal one here; the set's spread (±8 % a coin) is the coin check's (coinSet) and the game's.
    this.model = new HallModel({ magnetSpread: 0, ...options });
  }

  onFrame(l: (f: RawFrame) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Frames every 10 ms (the firmware's 100 per second). */
  advance(ms: number): void {
    for (let k = 0; k < ms / 10; k++) {
      this.t += 10;
      const mv = this.model.levels();
      const readings = mv.map((v) =>
        Math.max(0, Math.min(1023, HallModel.counts(v) + Math.round(FRAME_NOISE.counts * gaussianish(this.noise)))),
      );
      const frame: RawFrame = { t: this.t, seq: 0, readings: Uint16Array.from(readings) };
      for (const l of this.listeners) l(frame);
    }
  }

  place(square: number): void {
    this.model.place(square);
  }
  placeCoin(square: number, coin: number): void {
    this.model.placeCoin(square, coin);
  }
  lift(square: number, coins?: number): void {
    this.model.lift(square, coins);
  }
  flip(square: number): void {
    this.model.flip(square);
  }
  clear(): void {
    for (let s = 1; s <= 32; s++) this.model.set(s, 0);
  }
  coinsAt(square: number): number {
    return this.model.coins(square);
  }
}
