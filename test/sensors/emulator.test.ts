// End to end: the real firmware on simavr, through a pty, the serial driver
// (real serialport binding), the handshake and the codec.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_BIN, EmulatorBoardSource, FIRMWARE_ELF, type RawFrame, type SourceStatus } from '../../src/sensors/index.ts';

const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware', import.meta.url));

beforeAll(() => {
  // always: make is incremental, and a harness built before a change of its control commands would not do
  execFileSync('make', ['-C', FIRMWARE_DIR, 'emulator'], { stdio: 'pipe', timeout: 300_000 });
  expect(existsSync(EMULATOR_BIN), `${EMULATOR_BIN} built`).toBe(true);
  expect(existsSync(FIRMWARE_ELF), `${FIRMWARE_ELF} built`).toBe(true);
}, 310_000);

/** Frames as they come, and a way to wait for one that satisfies a condition. */
function watch(src: EmulatorBoardSource) {
  let latest: RawFrame | null = null;
  const waiters = new Set<{ pred: (f: RawFrame) => boolean; resolve: (f: RawFrame) => void }>();
  let count = 0;
  src.onFrame((f) => {
    latest = f;
    count++;
    for (const w of waiters) if (w.pred(f)) (waiters.delete(w), w.resolve(f));
  });
  return {
    get count() {
      return count;
    },
    latest: () => latest,
    next(pred: (f: RawFrame) => boolean, what: string, ms = 15_000): Promise<RawFrame> {
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.add(w);
        setTimeout(() => waiters.delete(w) && reject(new Error(`no frame with ${what} within ${ms} ms`)), ms).unref();
      });
    },
  };
}

describe('emulated board (simavr) through the serial driver', () => {
  let src: EmulatorBoardSource;
  let frames: ReturnType<typeof watch>;
  const statuses: SourceStatus[] = [];
  // every sensor is a different part (hall-model.ts): each square is judged against its own empty level
  let base: number[] = [];
  const occupied = (f: RawFrame, sq: number) => f.readings[sq - 1] > base[sq - 1] + 50;
  const empty = (f: RawFrame, sq: number) => f.readings[sq - 1] < base[sq - 1] + 50;

  beforeAll(async () => {
    src = new EmulatorBoardSource();
    src.onStatus((s) => statuses.push(s));
    frames = watch(src);
  });
  afterAll(async () => {
    await src?.close();
  });

  it('handshakes and streams frames', async () => {
    const id = await src.open();
    expect(id).toMatchObject({ proto: 1, n: 32 });
    expect(src.path).toMatch(/^\/dev\/pts\//);
    await frames.next(() => true, 'any frame');
    base = [...(await frames.next(() => true, 'an empty-board frame')).readings];
    expect(Math.max(...base) - Math.min(...base)).toBeGreaterThan(20); // not 32 identical parts
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected']);
  });

  it('shows the start position, then each change of a played game', async () => {
    await src.setupStart();
    const start = (fr: RawFrame) =>
      Array.from({ length: 32 }, (_, i) => i + 1).every((sq) => (sq <= 12 || sq >= 21 ? occupied(fr, sq) : empty(fr, sq)));
    await frames.next(start, 'the start position');

    const move = async (steps: [op: 'lift' | 'place', sq: number][]) => {
      for (const [op, sq] of steps) {
        if (op === 'lift') {
          await src.lift(sq);
          await frames.next((fr) => empty(fr, sq), `square ${sq} emptied`);
        } else {
          await src.place(sq);
          await frames.next((fr) => occupied(fr, sq), `a coin on square ${sq}`);
        }
      }
    };
    await move([
      ['lift', 11],
      ['place', 15],
    ]); // 11-15
    await move([
      ['lift', 22],
      ['place', 18],
    ]); // 22-18
    await move([
      ['lift', 15],
      ['place', 22],
      ['lift', 18],
    ]); // 15x22
    await move([
      ['lift', 25],
      ['place', 18],
      ['lift', 22],
    ]); // 25x18
    const last = frames.latest()!;
    for (const sq of [11, 15, 22, 25]) expect(empty(last, sq)).toBe(true);
    for (const sq of [18, 1, 12, 21, 32]) expect(occupied(last, sq)).toBe(true);
    expect(src.occupancy().reduce((a, b) => a + b, 0)).toBe(22);

    // crowning: a second coin reads higher still
    const one = last.readings[17];
    await src.place(18);
    const king = await frames.next((fr) => fr.readings[17] > one + 0.25 * (one - base[17]), 'a king on 18');
    expect(king.readings[17]).toBeGreaterThan(one);
    expect(src.stats().errors.version).toBe(0);
  });

  it("a coin turned upside down reads more than half a coin step below its square's empty level", async () => {
    const one = frames.latest()!.readings[0]; // square 1 holds a man
    await src.flip(1);
    const f = await frames.next((fr) => fr.readings[0] < base[0] - 20, 'square 1 below empty');
    const step = one - base[0];
    expect(base[0] - f.readings[0]).toBeGreaterThan(0.5 * step);
    await src.flip(1);
    await frames.next((fr) => fr.readings[0] > base[0] + 0.5 * step, 'square 1 back to a man');
  });

  it("the harness runs the host model's first build: its seed, noise figure and each part's warm-up drift", async () => {
    // (SEED, NOISE and WARMUP went to the harness before LEVELS: the board is warming up in its own simulated time)
    const s = await src.control('STATS');
    const warm = Number(/ warmmc=(\d+)/.exec(s)?.[1]);
    expect(warm, s).toBeGreaterThan(0);
    expect(warm, s).toBeLessThan(8000);
    expect(src.model.harnessCommands()).toEqual(['SEED 1', 'NOISE 8600 4900', expect.stringMatching(/^WARMUP 8000 240000( -?\d+){32}$/)]);
    // each part its own coefficient, 0.3–0.5 count/°C (1.46–2.44 mV/°C) either way
    for (const d of src.model.nullDrift) (expect(Math.abs(d)).toBeGreaterThanOrEqual(1.46), expect(Math.abs(d)).toBeLessThanOrEqual(2.45));
    expect(new Set(src.model.nullDrift.map((d) => Math.sign(d))).size).toBe(2);
  });

  it('the codec counted the partial first line (if any) and moved on', async () => {
    const s = src.stats();
    expect(s.frames).toBeGreaterThan(20);
    expect(s.errorTotal).toBeLessThanOrEqual(2);
  });

  it('unplug (harness killed) → lost; a new harness on a new pty → reconnected, frames resume', async () => {
    await src.unplug();
    await until(() => statuses.at(-1)?.state === 'lost', 'lost');
    expect(await src.send({ type: 'led', state: 1 })).toBe(false);
    await src.plugIn();
    expect(src.path).toMatch(/^\/dev\/pts\//); // a new pty (the kernel may reuse the number)
    await until(() => statuses.at(-1)?.state === 'reconnected', 'reconnected');
    const n = frames.count;
    const f = await frames.next(() => frames.count > n + 3, 'frames after the replug');
    expect(occupied(f, 18) && empty(f, 15)).toBe(true); // the coins are where they were
    expect(await src.send({ type: 'buzz', pattern: 'OK' })).toBe(true);
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected', 'lost', 'reconnected']);
  });
});

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
