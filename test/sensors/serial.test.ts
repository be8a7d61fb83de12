import { mulberry32 } from '../../src/common/prng.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import {
  BoardNotFoundError,
  SerialBoardSource,
  checksum,
  findBoard,
  makeBoardLine,
  rankPorts,
  type RawFrame,
  type SourceStatus,
} from '../../src/sensors/index.ts';
import { MockBus, crownheadPeer, frameMsg, until } from '../harness/mock-board.ts';

const fast = { resetDelayMs: 0, timeoutMs: 150, silenceMs: 0, reconnect: { minMs: 5, maxMs: 20 } } as const;
let sources: SerialBoardSource[] = [];
afterEach(async () => {
  await Promise.all(sources.map((s) => s.close()));
  sources = [];
});

function source(bus: MockBus, extra: ConstructorParameters<typeof SerialBoardSource>[0] = {}) {
  let t = 0;
  const s = new SerialBoardSource({ ...fast, binding: bus.binding, clock: () => (t += 10), ...extra });
  sources.push(s);
  const frames: RawFrame[] = [];
  const statuses: SourceStatus[] = [];
  s.onFrame((f) => frames.push(f));
  s.onStatus((st) => statuses.push(st));
  return { s, frames, statuses };
}

describe('auto-detect', () => {
  it('picks the Crownhead port and leaves other devices alone', async () => {
    const bus = new MockBus();
    const chatty = { onOpen: (io: { raw(d: string): void }) => io.raw("Grbl 1.1h ['$' for help]\r\nok\r\n"), onLine: () => {} };
    bus.add('/dev/ttyACM0', chatty, { vendorId: '2341' }); // an Arduino running something else
    bus.add('/dev/ttyACM1', crownheadPeer({ proto: 2 } as never), { vendorId: '2341' }); // future protocol: refused
    bus.add('/dev/ttyUSB0', crownheadPeer({ id: 'kitchen' }), { vendorId: '1a86' });
    bus.add('/dev/ttyS0', crownheadPeer(), {}); // not a USB serial device: never touched
    const { s, statuses } = source(bus);
    const id = await s.open();
    expect(id.id).toBe('kitchen');
    expect(s.path).toBe('/dev/ttyUSB0');
    expect(bus.isOpen('/dev/ttyACM0')).toBe(false);
    expect(bus.isOpen('/dev/ttyACM1')).toBe(false);
    expect(bus.written('/dev/ttyACM0').every((l) => l.startsWith('?'))).toBe(true);
    expect(bus.opens('/dev/ttyS0')).toBe(0);
    expect(statuses.map((x) => x.state)).toEqual(['connecting', 'connected']);
  });

  it('ranks vendor ids first and skips non-USB ports', () => {
    const ranked = rankPorts([
      { path: '/dev/ttyS0' },
      { path: '/dev/ttyUSB3', vendorId: '0403' },
      { path: '/dev/ttyACM9' },
      { path: '/dev/cu.usbmodem1', vendorId: '2341' },
    ] as never);
    expect(ranked.map((p) => p.path)).toEqual(['/dev/cu.usbmodem1', '/dev/ttyUSB3', '/dev/ttyACM9']);
  });

  it('survives SerialPort.list() throwing (no udev) and says no board was found', async () => {
    const broken = { ...new MockBus().binding, list: () => Promise.reject(new Error('spawn udevadm ENOENT')) };
    const err = await findBoard(broken as never, fast).catch((e) => e);
    expect(err).toBeInstanceOf(BoardNotFoundError);
    expect(err.message).toMatch(/no board found: cannot list serial ports \(spawn udevadm ENOENT\)/);
    // and the native binding on this machine: whatever list() does, open() rejects clearly, never crashes
    const native = new SerialBoardSource({ ...fast, binding: SerialPort.binding });
    const e2 = await native.open().catch((e) => e);
    expect(e2).toBeInstanceOf(Error);
    expect(e2.message).toMatch(/no board found/);
  });

  it('reports no board when no port answers', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', {}, { vendorId: '2341' }); // silent
    const { s, statuses } = source(bus);
    await expect(s.open()).rejects.toThrow(/no Crownhead identity within 150 ms/);
    expect(statuses.at(-1)).toMatchObject({ state: 'error' });
    expect(bus.isOpen('/dev/ttyACM0')).toBe(false);
  });

  it('opens an explicit path (serial:…) and accepts the boot identity', async () => {
    const bus = new MockBus();
    bus.add('/dev/board', crownheadPeer({}, { bootIdentity: true }));
    const { s } = source(bus, { path: 'serial:/dev/board' });
    expect((await s.open()).id).toBe('MOCK');
    await expect(new SerialBoardSource({ ...fast, binding: bus.binding, path: '/dev/nothing' }).open()).rejects.toThrow(
      /\/dev\/nothing: cannot open/,
    );
  });
});

describe('streaming', () => {
  it('emits timestamped frames and sends commands with checksums', async () => {
    const bus = new MockBus();
    const peer = crownheadPeer();
    bus.add('/dev/ttyACM0', peer, { vendorId: '2341' });
    const { s, frames } = source(bus);
    await s.open();
    const io = bus.io('/dev/ttyACM0');
    for (let i = 0; i < 5; i++) io.send(frameMsg(i, 100 + i));
    await until(() => frames.length === 5, 'frames');
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(frames[4].readings[31]).toBe(104);
    expect(frames[1].t).toBeGreaterThan(frames[0].t);
    expect(await s.send({ type: 'buzz', pattern: 'GAMEOVER' })).toBe(true);
    expect(await s.send({ type: 'led', state: 'BLINK' })).toBe(true);
    await until(() => peer.commands.length === 3, 'commands');
    expect(bus.written('/dev/ttyACM0').slice(-2)).toEqual([
      `BUZZ GAMEOVER*${checksum('BUZZ GAMEOVER')}`,
      `LED BLINK*${checksum('LED BLINK')}`,
    ]);
    expect(s.stats()).toMatchObject({ frames: 5, commandsSent: 2, errorTotal: 0 });
    expect(await s.send({ type: 'rate', fps: 0 })).toBe(false); // invalid: refused, not thrown
  });

  it('fuzz: random bytes, cut lines, flipped bits, bad checksums, seq jumps — counted, never crashing, recovering', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer(), { vendorId: '2341' });
    const { s, frames, statuses } = source(bus);
    await s.open();
    const io = bus.io('/dev/ttyACM0');
    const rnd = mulberry32(99);
    const expected = { good: 0, checksum: 0, length: 0, garbage: 0, tooLong: 0, missed: 0 };
    let seq = 0;
    for (let round = 0; round < 300; round++) {
      const line = makeBoardLine(frameMsg(seq, Math.floor(rnd() * 1024)));
      const kind = Math.floor(rnd() * 7);
      if (kind === 0) {
        // random binary junk ending in a newline
        const junk = Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 60) }, () => Math.floor(rnd() * 256)).filter((b) => b !== 10));
        io.raw(Buffer.concat([junk, Buffer.from([0x80]), Buffer.from('\n')]));
        expected.garbage++;
      } else if (kind === 1) {
        io.raw(line.slice(Math.floor(1 + rnd() * 100)) + '\n'); // front cut: bytes dropped
        expected.checksum++; // counted as a bad line (checksum, or garbage if the type letter went)
        seq++;
      } else if (kind === 2) {
        const at = 2 + Math.floor(rnd() * 100);
        io.raw(line.slice(0, at) + String.fromCharCode(line.charCodeAt(at) ^ 0x04) + line.slice(at + 1) + '\n');
        expected.checksum++;
        seq++;
      } else if (kind === 3) {
        io.raw(line.slice(0, -2) + (line.slice(-2) === '00' ? '01' : '00') + '\r\n');
        expected.checksum++;
        seq++;
      } else if (kind === 4) {
        seq = (seq + 1 + Math.floor(rnd() * 5)) & 0xffff; // lost lines
        io.send(frameMsg(seq));
        expected.good++;
        seq++;
      } else if (kind === 5) {
        io.raw('F ' + 'A'.repeat(200) + '\n');
        expected.tooLong++;
      } else {
        io.send(frameMsg(seq));
        expected.good++;
        seq++;
      }
    }
    io.send(frameMsg(seq)); // the stream recovers at the next good line
    expected.good++;
    await until(() => frames.length === expected.good, 'all good frames');
    const st = s.stats();
    const bad = st.errors.checksum + st.errors.garbage + st.errors.length + st.errors.syntax;
    expect(st.frames).toBe(expected.good);
    expect(st.errors['too-long']).toBe(expected.tooLong);
    expect(bad).toBe(expected.garbage + expected.checksum);
    expect(st.errors.garbage).toBeGreaterThanOrEqual(expected.garbage);
    expect(st.gaps).toBeGreaterThan(0);
    expect(st.frames + st.linesMissed).toBe(seq + 1 - frames[0].seq); // every seq accounted for
    expect(frames.at(-1)!.seq).toBe(seq);
    expect(statuses.map((z) => z.state)).toEqual(['connecting', 'connected']);
  });
});

describe('endless junk', () => {
  it('bytes that never end a line are dropped in bounded chunks and counted; the next good line gets through', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer(), { vendorId: '2341' });
    const { s, frames } = source(bus);
    await s.open();
    const io = bus.io('/dev/ttyACM0');
    for (let i = 0; i < 20; i++) io.raw('Z'.repeat(500)); // 10 kB, no newline
    io.raw('\n');
    io.send(frameMsg(9));
    await until(() => frames.length === 1, 'the good frame');
    expect(frames[0].seq).toBe(9);
    expect(s.stats().errors['too-long']).toBeGreaterThanOrEqual(5);
  });
});

describe('unplug and replug (mock binding)', () => {
  it('reports lost, reconnects by itself when the board returns, frames resume, nothing thrown', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer(), { vendorId: '2341' });
    const { s, frames, statuses } = source(bus);
    await s.open();
    const io = bus.io('/dev/ttyACM0');
    io.send(frameMsg(0));
    io.send(frameMsg(1));
    await until(() => frames.length === 2, 'frames before unplug');
    bus.unplug('/dev/ttyACM0');
    await until(() => statuses.some((x) => x.state === 'lost'), 'lost');
    expect(statuses.at(-1)).toMatchObject({ state: 'lost', reason: expect.stringMatching(/unplugged/) });
    expect(await s.send({ type: 'led', state: 1 })).toBe(false);
    await new Promise((r) => setTimeout(r, 30)); // a few failed retries
    expect(statuses.at(-1)!.state).toBe('lost');
    bus.plug('/dev/ttyACM0');
    await until(() => statuses.at(-1)!.state === 'reconnected', 'reconnected');
    io.send(frameMsg(500)); // the board rebooted: a new sequence, not a gap
    io.send(frameMsg(501));
    await until(() => frames.length === 4, 'frames after replug');
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 500, 501]);
    expect(s.stats()).toMatchObject({ lost: 1, reconnects: 1, gaps: 0 });
    expect(statuses.map((x) => x.state)).toEqual(['connecting', 'connected', 'lost', 'reconnected']);
  });

  it('treats a silent link as lost', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer(), { vendorId: '2341' });
    const { s, statuses } = source(bus, { silenceMs: 40, reconnect: false });
    await s.open();
    await until(() => statuses.at(-1)!.state === 'lost', 'lost on silence');
    expect(statuses.at(-1)).toMatchObject({ reason: 'no line for 40 ms' });
    expect(bus.isOpen('/dev/ttyACM0')).toBe(false);
  });

  it('close() stops reconnecting and releases the port', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer(), { vendorId: '2341' });
    const { s, statuses } = source(bus);
    await s.open();
    bus.unplug('/dev/ttyACM0');
    await until(() => statuses.at(-1)!.state === 'lost', 'lost');
    await s.close();
    bus.plug('/dev/ttyACM0');
    await new Promise((r) => setTimeout(r, 40));
    expect(statuses.at(-1)!.state).toBe('closed');
    expect(bus.isOpen('/dev/ttyACM0')).toBe(false);
  });
});
