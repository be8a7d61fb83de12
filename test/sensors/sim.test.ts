import { describe, expect, it } from 'vitest';
import { BoardPhysics, SimBoard, moveTimeline, type RawFrame } from '../../src/sensors/index.ts';
import { DEFAULT_PHYSICS } from '../../src/sensors/sim/physics.ts';
import { CHOSEN, FRAME_NOISE, countsOf, sensor } from '../../src/sensors/magnet-physics.ts';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function collect(sim: SimBoard): RawFrame[] {
  const frames: RawFrame[] = [];
  sim.onFrame((f) => frames.push(f));
  return frames;
}

describe('physics', () => {
  it('a two-coin stack reads 1.3–1.5× one coin on average (above the empty level)', () => {
    const ratios: number[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const p = new BoardPhysics({ seed, motionMs: 0 });
      for (let sq = 1; sq <= 32; sq++) {
        const empty = p.expected(sq, 0);
        p.setCoins(sq, 1, 0);
        const one = p.expected(sq, 0) - empty;
        p.setCoins(sq, 0, 0);
        p.setCoins(sq, 2, 0);
        ratios.push((p.expected(sq, 0) - empty) / one);
      }
    }
    const m = mean(ratios);
    expect(m).toBeGreaterThan(1.3);
    expect(m).toBeLessThan(1.5);
  });

  it('off-centre placement lowers a coin’s reading, never raises it', () => {
    const centred = new BoardPhysics({ seed: 5, offCentreMm: 0, motionMs: 0 });
    const sloppy = new BoardPhysics({ seed: 5, offCentreMm: 3, motionMs: 0 });
    let lower = 0;
    for (let sq = 1; sq <= 32; sq++) {
      centred.setCoins(sq, 1, 0);
      sloppy.setCoins(sq, 1, 0);
      const c = centred.expected(sq, 0);
      const s = sloppy.expected(sq, 0);
      expect(s).toBeLessThanOrEqual(c);
      if (s < c - 1) lower++;
    }
    expect(lower).toBeGreaterThan(16);
  });

  it('noise is bounded and roughly the σ asked for', () => {
    const p = new BoardPhysics({ seed: 9, noise: 2, drift: 0 });
    const dev: number[] = [];
    for (let k = 0; k < 2000; k++) {
      const r = p.read(0);
      for (let sq = 1; sq <= 32; sq++) dev.push(r[sq - 1] - p.expected(sq, 0));
    }
    expect(Math.max(...dev.map(Math.abs))).toBeLessThanOrEqual(2 * 3.47 + 0.5);
    const sd = Math.sqrt(mean(dev.map((d) => d * d)));
    expect(sd).toBeGreaterThan(1.7);
    expect(sd).toBeLessThan(2.3);
  });

  it('drifts slowly: bounded, and different after minutes', () => {
    const p = new BoardPhysics({ seed: 2, drift: 5, warmUp: null });
    const at = (t: number) => Array.from({ length: 32 }, (_, i) => p.expected(i + 1, t));
    const a = at(0);
    const b = at(10); // one frame later: almost the same
    const c = at(3 * 60_000);
    for (let i = 0; i < 32; i++) {
      expect(Math.abs(b[i] - a[i])).toBeLessThan(0.01);
      expect(Math.abs(c[i] - a[i])).toBeLessThanOrEqual(10);
    }
    expect(mean(a.map((v, i) => Math.abs(c[i] - v)))).toBeGreaterThan(1);
  });

  it('per-square gain and offset differ (seeded)', () => {
    const p = new BoardPhysics({ seed: 4, motionMs: 0 });
    const empties = new Set<number>();
    for (let sq = 1; sq <= 32; sq++) empties.add(Math.round(p.expected(sq, 0)));
    expect(empties.size).toBeGreaterThan(20);
  });

  it('clamps to the 10-bit ADC range', () => {
    const p = new BoardPhysics({
      seed: 1,
      coinDelta: 900,
      baseline: 100,
      offsetSpread: 0,
      motionMs: 0,
      saturation: { knee: 2000, rail: 2100 },
    });
    p.setCoins(1, 2, 0, { offMm: 0 });
    const r = p.read(0);
    expect(r[0]).toBe(1023);
    // The sensor itself saturates first: readings bend over above the knee and never pass the rail.
    const sat = new BoardPhysics({ seed: 1, coinDelta: 900, baseline: 100, offsetSpread: 0, motionMs: 0 });
    sat.setCoins(1, 2, 0);
    expect(sat.read(0)[0]).toBeLessThanOrEqual(sat.options.saturation.rail + 8);
    expect(sat.read(0)[0]).toBeGreaterThan(sat.options.saturation.knee);
    const low = new BoardPhysics({ seed: 1, baseline: -50, saturation: { knee: 2000, rail: 2100 } }).read(0);
    expect(low[5]).toBe(0);
  });

  it("saturates at the fitted sensor's guaranteed span, the emulator model's (SS49E: 1.0–4.0 V, 205–819 counts)", () => {
    const rail = countsOf(sensor(CHOSEN.sensor).outMax),
      floor = countsOf(sensor(CHOSEN.sensor).outMin);
    expect(DEFAULT_PHYSICS.saturation.rail).toBe(rail);
    expect(DEFAULT_PHYSICS.saturation.floor).toBe(floor);
    const noiseBound = 3.47 * FRAME_NOISE.counts + 0.5;
    const high = new BoardPhysics({ seed: 1, coinDelta: 900, motionMs: 0 });
    high.setCoins(1, 2, 0);
    expect(high.expected(1, 0)).toBeLessThanOrEqual(rail);
    expect(high.expected(1, 0)).toBeGreaterThan(rail - 5);
    expect(high.read(0)[0]).toBeLessThanOrEqual(rail + noiseBound);
    const low = new BoardPhysics({ seed: 1, baseline: -50 });
    expect(low.expected(6, 0)).toBeGreaterThan(floor);
    expect(low.read(0)[5]).toBeGreaterThanOrEqual(floor - noiseBound);
  });

  it('warms up after power-on: each zero level moves by its own 0.3–0.5 count/°C (either way) as the board approaches +8 °C', () => {
    const p = new BoardPhysics({ seed: 2, drift: 0 });
    const at = (t: number) => Array.from({ length: 32 }, (_, i) => p.expected(i + 1, t));
    const cold = at(0),
      tenMinutes = at(10 * 60_000),
      warm = at(60 * 60_000);
    const moved = warm.map((v, i) => v - cold[i]);
    for (const d of moved) {
      expect(Math.abs(d)).toBeGreaterThanOrEqual(0.3 * 8 * 0.999);
      expect(Math.abs(d)).toBeLessThanOrEqual(0.5 * 8 * 1.001);
    }
    expect(moved.some((d) => d > 0) && moved.some((d) => d < 0)).toBe(true);
    expect(new Set(moved.map((d) => d.toFixed(3))).size).toBe(32);
    // an exponential approach: most of it within 10 minutes (1 − e^(−10/4) = 92 %)
    tenMinutes.forEach((v, i) => expect((v - cold[i]) / moved[i]).toBeCloseTo(1 - Math.exp(-2.5), 3));
    // none without it
    const off = new BoardPhysics({ seed: 2, drift: 0, warmUp: null });
    expect(off.expected(7, 60 * 60_000)).toBe(off.expected(7, 0));
  });

  it('refuses a third coin and unknown squares', () => {
    const p = new BoardPhysics();
    expect(() => p.setCoins(3, 3, 0)).toThrow(RangeError);
    expect(() => p.setCoins(33, 1, 0)).toThrow(/no square 33/);
  });
});

describe('SimBoard', () => {
  it('emits 100 frames/s on the manual clock, timestamped, through the codec', async () => {
    const sim = new SimBoard({ seed: 1 });
    const frames = collect(sim);
    const id = await sim.open();
    expect(id).toMatchObject({ id: 'SIM', proto: 1, n: 32, rate: 100 });
    expect(sim.advance(1000)).toBe(100);
    expect(frames).toHaveLength(100);
    expect(frames[0]).toMatchObject({ seq: 0, t: 10 });
    expect(frames[99]).toMatchObject({ seq: 99, t: 1000 });
    expect(sim.stats()).toMatchObject({ frames: 100, linesOk: 101, errorTotal: 0, gaps: 0 });
    await sim.close();
    expect(sim.advance(100)).toBe(0);
  });

  it('replays exactly with the same seed, differs with another', async () => {
    const run = async (seed: number) => {
      const sim = new SimBoard({ seed, startPosition: true });
      const frames = collect(sim);
      await sim.open();
      sim.play(moveTimeline('11-15', 100));
      sim.advance(500);
      return frames.map((f) => Array.from(f.readings).join(','));
    };
    expect(await run(7)).toEqual(await run(7));
    expect(await run(7)).not.toEqual(await run(8));
  });

  it('the hand: start position, place, lift, kings; readings follow', async () => {
    const sim = new SimBoard({ seed: 3, startPosition: true });
    await sim.open();
    expect(sim.occupancy()).toEqual([...Array(12).fill(1), ...Array(8).fill(0), ...Array(12).fill(1)]);
    const level = (sq: number) => {
      sim.advance(200);
      return sim.step()!.readings[sq - 1];
    };
    const one = level(11);
    sim.lift(11);
    const empty = level(11);
    sim.place(15);
    sim.place(15);
    expect(sim.coinsAt(15)).toBe(2);
    const king = level(15);
    expect(one - empty).toBeGreaterThan(120);
    expect(king - empty).toBeGreaterThan((one - empty) * 1.1);
    expect(() => sim.place(15)).toThrow(/already holds 2/);
    expect(() => sim.lift(11)).toThrow(RangeError);
    sim.lift(15, 1);
    expect(sim.coinsAt(15)).toBe(1);
    sim.clear();
    expect(sim.occupancy().every((c) => c === 0)).toBe(true);
  });

  it('a reading ramps while the hand moves, then settles', async () => {
    const sim = new SimBoard({ seed: 3, physics: { motionMs: 50, noise: 0, drift: 0 } });
    const frames = collect(sim);
    await sim.open();
    sim.advance(100);
    sim.place(1);
    sim.advance(100);
    const r = frames.slice(9, 17).map((f) => f.readings[0]);
    for (let i = 1; i < r.length; i++) expect(r[i]).toBeGreaterThanOrEqual(r[i - 1]);
    expect(r[2]).toBeGreaterThan(r[0]);
    expect(r[2]).toBeLessThan(r[7]);
  });

  it('plays a scripted game timeline: moves and a capture', async () => {
    const sim = new SimBoard({ seed: 11, startPosition: true });
    await sim.open();
    sim.play([
      ...moveTimeline('11-15', 100),
      ...moveTimeline('23-19', 600),
      ...moveTimeline('8-11', 1100),
      ...moveTimeline('22-18', 1600),
      ...moveTimeline('15x22', 2100), // captures 18
      ...moveTimeline('25x18', 2600), // captures 22
    ]);
    sim.runTimeline(200);
    expect(sim.pendingActions).toBe(0);
    const occ = sim.occupancy();
    const on = (sq: number) => occ[sq - 1];
    expect([on(11), on(15), on(23), on(19), on(8), on(22), on(25), on(18)]).toEqual([1, 0, 0, 1, 0, 0, 0, 1]);
    expect(occ.reduce((a, b) => a + b, 0)).toBe(22);
  });

  it('moveTimeline lists lifts and placements, captured squares included', () => {
    expect(moveTimeline('1x10x19', 0, { gapMs: 10 })).toEqual([
      { at: 0, op: 'lift', square: 1 },
      { at: 10, op: 'set', square: 19, coins: 1 },
      { at: 20, op: 'lift', square: 6 },
      { at: 30, op: 'lift', square: 15 },
    ]);
    expect(() => moveTimeline('1x3', 0)).toThrow(/not a jump/);
    expect(() => moveTimeline('40-44', 0)).toThrow(RangeError);
  });

  it('accepts commands: rate, quiet mode with heartbeats, buzzer and LED recorded', async () => {
    const sim = new SimBoard({ seed: 1, physics: { noise: 1, drift: 0 } });
    const frames = collect(sim);
    expect(await sim.send({ type: 'led', state: 1 })).toBe(false); // not open
    await sim.open();
    await sim.send({ type: 'rate', fps: 20 });
    sim.advance(1000);
    expect(frames).toHaveLength(20);
    await sim.send({ type: 'mode', mode: 'Q' });
    frames.length = 0;
    sim.advance(1000);
    expect(frames.length).toBeLessThanOrEqual(1);
    expect(sim.stats().heartbeats).toBeGreaterThanOrEqual(3);
    sim.place(5);
    sim.advance(200);
    expect(frames.length).toBeGreaterThanOrEqual(1);
    expect(sim.stats().gaps).toBe(0); // heartbeats share the counter
    await sim.send({ type: 'buzz', pattern: 'ILLEGAL' });
    await sim.send({ type: 'led', state: 'BLINK' });
    expect(sim.buzzer).toBe('ILLEGAL');
    expect(sim.led).toBe('BLINK');
    expect(sim.commands.map((c) => c.command.type)).toEqual(['rate', 'mode', 'buzz', 'led']);
    expect(sim.stats().commandsSent).toBe(4);
  });

  it('injected line faults are counted as errors and gaps', async () => {
    const sim = new SimBoard({ seed: 1, faults: { drop: 0.05, corrupt: 0.05 } });
    const frames = collect(sim);
    await sim.open();
    sim.advance(10_000);
    const s = sim.stats();
    expect(frames.length).toBe(s.frames);
    // a corrupted line is an error and also a hole in the sequence
    expect(s.linesMissed).toBeGreaterThanOrEqual(s.errorTotal);
    expect(s.frames + s.linesMissed).toBeLessThanOrEqual(1000);
    expect(s.frames + s.linesMissed).toBeGreaterThan(990); // only trailing losses go unseen
    expect(s.errorTotal).toBeGreaterThan(20);
    expect(s.gaps).toBeGreaterThan(20);
  });

  it('interactive use: hand changes are reported and a snapshot shows the board', async () => {
    const sim = new SimBoard({ seed: 2 });
    const changes: { square: number; coins: number }[] = [];
    sim.onHand(({ square, coins }) => changes.push({ square, coins }));
    await sim.open();
    expect(sim.view().readings).toBeNull();
    sim.place(9);
    sim.place(9);
    sim.lift(9, 1);
    sim.set(9, 1); // no change, no event
    sim.advance(100);
    await sim.send({ type: 'buzz', pattern: 'OK' });
    expect(changes).toEqual([
      { square: 9, coins: 1 },
      { square: 9, coins: 2 },
      { square: 9, coins: 1 },
    ]);
    const snap = sim.view();
    expect(snap).toMatchObject({ t: 100, buzzer: 'OK', led: 0 });
    expect(snap.coins[8]).toBe(1);
    expect(snap.readings![8]).toBeGreaterThan(snap.readings![9] + 100);
  });

  it('runs on the real clock with setInterval', async () => {
    const sim = new SimBoard({ clock: 'real' });
    await sim.open();
    const got = await new Promise<RawFrame>((resolve) => sim.onFrame(resolve));
    expect(got.readings).toHaveLength(32);
    expect(() => sim.advance(10)).toThrow(/manual clock/);
    await sim.close();
  });

  it('on the real clock, coins put down before it opens are read at once, however long the process has run; and after a reopen', async () => {
    // A process that has run for an hour (services started late, a board reopened).
    const late = () => performance.now() + 3_600_000;
    const sim = new SimBoard({ clock: 'real', now: late, startPosition: true });
    const empty = new SimBoard({ clock: 'real', now: late });
    /** The first frame at least `afterMs` of the board's own time after the next one (the hand's ramp over): frames, not a sleep. */
    const frame = (b: SimBoard, afterMs = 0) =>
      new Promise<RawFrame>((resolve) => {
        let from: number | null = null;
        const off = b.onFrame((f) => {
          from ??= f.t;
          if (f.t - from < afterMs) return;
          off();
          resolve(f);
        });
      });
    await sim.open();
    await empty.open();
    // (a coin put down ramps in over the hand's last fraction of a second)
    const [a, e] = await Promise.all([frame(sim, 400), frame(empty, 400)]);
    // Every square of the start position reads a coin: well above the same square empty.
    for (let sq = 1; sq <= 32; sq++)
      if (sq <= 12 || sq >= 21) expect(a.readings[sq - 1], `square ${sq}`).toBeGreaterThan(e.readings[sq - 1] + 60);
    await sim.close();
    sim.lift(1);
    await sim.open();
    const b = await frame(sim, 400);
    expect(b.t).toBeGreaterThan(a.t);
    expect(b.readings[0]).toBeLessThan(e.readings[0] + 30);
    expect(b.readings[1]).toBeGreaterThan(e.readings[1] + 60);
    await sim.close();
    await empty.close();
  });
});
