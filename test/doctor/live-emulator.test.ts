// `crownhead doctor --live` on the real firmware in simavr, through the serial
// driver: a coin put on 5 and a king on 20 show in the grid as the values the
// board sends for them (risen by a coin and a king), and nothing else moves.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EmulatorBoardSource, type RawFrame } from '../../src/sensors/index.ts';
import { runLive } from '../../src/cli/doctor-live.ts';
import { shown } from './live-grid.ts';

const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware', import.meta.url));
beforeAll(() => {
  execFileSync('make', ['-C', FIRMWARE_DIR, 'emulator'], { stdio: 'pipe', timeout: 300_000 });
}, 310_000);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('crownhead doctor --live on the emulated firmware', () => {
  it('shows the readings of the coins put down, square by square', async () => {
    const src = new EmulatorBoardSource({ model: { seed: 3 } });
    await src.open();
    const out: string[] = [];
    const seen: { last: RawFrame | null } = { last: null };
    src.onFrame((f) => (seen.last = f));
    let stop!: () => void;
    const run = runLive({
      source: src,
      io: { out: (l) => out.push(l), err: () => {} },
      stop: new Promise<void>((r) => (stop = r)),
      everyMs: 300,
    });
    try {
      while (!seen.last) await wait(20);
      await wait(500);
      const empty = [...seen.last!.readings];
      await src.place(5);
      await src.set(20, 2);
      await wait(1500);
      const frame = [...seen.last!.readings];
      stop();
      await run;
      expect(Math.abs(shown(out, 5) - frame[4])).toBeLessThanOrEqual(6);
      expect(Math.abs(shown(out, 20) - frame[19])).toBeLessThanOrEqual(6);
      expect(shown(out, 5) - empty[4]).toBeGreaterThan(90);
      expect(shown(out, 20) - empty[19]).toBeGreaterThan(shown(out, 5) - empty[4]);
      expect(out.filter((l) => l.startsWith('moved since the start')).at(-1)).toMatch(/^moved since the start: 5 \+\d+, 20 \+\d+$/);
    } finally {
      await src.close();
    }
  }, 60_000);
});
