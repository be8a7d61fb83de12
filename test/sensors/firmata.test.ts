import { afterEach, describe, expect, it } from 'vitest';
import { FirmataBoardSource, type RawFrame, type SourceStatus } from '../../src/sensors/index.ts';
import { MockBus, until } from '../harness/mock-board.ts';
import { addFirmataBoard } from './helpers/firmata.ts';

let src: FirmataBoardSource | null = null;
afterEach(async () => {
  await src?.close();
  src = null;
});

// each square reads a value of its own, so the mux mapping is checked exactly
const tag = (square: number) => 100 + square * 25;

describe('Firmata driver against a scripted StandardFirmata peer', () => {
  it('handshakes through johnny-five and builds full 32-square frames from host-stepped mux channels', async () => {
    const bus = new MockBus();
    const board = addFirmataBoard(bus, '/dev/ttyACM0', tag);
    src = new FirmataBoardSource({ path: 'firmata:/dev/ttyACM0', binding: bus.binding, samplingIntervalMs: 4 });
    const frames: RawFrame[] = [];
    const statuses: SourceStatus[] = [];
    src.onFrame((f) => frames.push(f));
    src.onStatus((s) => statuses.push(s));
    const id = await src.open();
    expect(id).toMatchObject({ proto: 1, n: 32, id: 'FIRMATA', fw: 'StandardFirmata-2.5', extra: { transport: 'firmata' } });
    const peer = board.peer()!;
    await until(() => peer.samplingInterval === 4, 'sampling interval set');
    expect([2, 3, 4, 5, 9].map((p) => peer.modes.get(p))).toEqual([1, 1, 1, 1, 1]); // select + buzzer: OUTPUT
    const t0 = performance.now();
    await until(() => frames.length >= 5, 'five frames');
    const rate = (frames.length / (performance.now() - t0)) * 1000;
    console.log(`firmata frame rate (mock link, 4 ms sampling): ${rate.toFixed(1)} frames/s`);
    for (const f of frames) {
      expect(Array.from(f.readings)).toEqual(Array.from({ length: 32 }, (_, i) => tag(i + 1)));
    }
    expect(frames.map((f) => f.seq).slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(src.stats()).toMatchObject({ gaps: 0, errorTotal: 0 });
    expect(statuses.map((s) => s.state)).toEqual(['connecting', 'connected']);
  });

  it('follows the board: a coin placed shows up in the next frames', async () => {
    const bus = new MockBus();
    const coins = new Set<number>();
    addFirmataBoard(bus, '/dev/ttyACM0', (sq) => (coins.has(sq) ? 720 : 512));
    src = new FirmataBoardSource({ path: '/dev/ttyACM0', binding: bus.binding });
    const frames: RawFrame[] = [];
    src.onFrame((f) => frames.push(f));
    await src.open();
    await until(() => frames.length >= 1, 'a frame');
    coins.add(15);
    coins.add(32);
    const n = frames.length;
    await until(() => frames.length >= n + 2, 'frames after the coin');
    const last = frames.at(-1)!.readings;
    expect(last[14]).toBe(720);
    expect(last[31]).toBe(720);
    expect(last[13]).toBe(512);
  });

  it('drives the buzzer pattern and the LED through the pins of pinmap.json', async () => {
    const bus = new MockBus();
    const board = addFirmataBoard(bus, '/dev/ttyACM0', tag);
    src = new FirmataBoardSource({ path: '/dev/ttyACM0', binding: bus.binding });
    await src.open();
    const peer = board.peer()!;
    expect(await src.send({ type: 'led', state: 1 })).toBe(true);
    await until(() => peer.level(13) === 1, 'LED on');
    await src.send({ type: 'led', state: 0 });
    await until(() => peer.level(13) === 0, 'LED off');
    await src.send({ type: 'buzz', pattern: 'OK' });
    await until(() => peer.pinLog.filter((e) => e.pin === 9).length >= 2, 'one click');
    expect(peer.pinLog.filter((e) => e.pin === 9).map((e) => e.level)).toEqual([1, 0]);
    expect(peer.level(9)).toBe(0);
  });

  it('reports lost on unplug, never throws, and rejects clearly when no Firmata answers', async () => {
    const bus = new MockBus();
    addFirmataBoard(bus, '/dev/ttyACM0', tag);
    src = new FirmataBoardSource({ path: '/dev/ttyACM0', binding: bus.binding });
    const statuses: SourceStatus[] = [];
    src.onStatus((s) => statuses.push(s));
    await src.open();
    bus.unplug('/dev/ttyACM0');
    await until(() => statuses.at(-1)!.state === 'lost', 'lost');
    expect(await src.send({ type: 'led', state: 1 })).toBe(false);

    bus.add('/dev/silent', {}, { vendorId: '2341' });
    const silent = new FirmataBoardSource({ path: '/dev/silent', binding: bus.binding, readyTimeoutMs: 200 });
    await expect(silent.open()).rejects.toThrow(/\/dev\/silent: no Firmata handshake within 200 ms/);
    expect(bus.isOpen('/dev/silent')).toBe(false);
  });
});
