// Board source for builders who flash StandardFirmata instead of our firmware.
// The host does the scanning: for each of the 16 mux channels it sets the
// four shared select pins (hardware/pinmap.json muxSelectPins), waits until
// the board has surely applied them (a REPORT_VERSION round trip: Firmata
// handles input in order), then takes the next analog report of each mux
// signal pin (muxSignalAnalog) — two squares per step, 32 per frame.
// johnny-five and firmata-io are loaded lazily (dynamic import), so the core
// never depends on them; johnny-five always gets `io:` (its own port
// auto-detection does not work with serialport 13): a firmata-io Firmata
// bound to our own serialport instance.
//
// Frame rate: each frame costs 16 × (command round trip + wait for the next
// analog sample). firmata-io clamps setSamplingInterval to ≥ 10 ms, so we
// send SAMPLING_INTERVAL ourselves (default 4 ms; 2 analog pins × 3 bytes per
// sample fit 57600 baud easily). Measured against the scripted StandardFirmata
// peer over SerialPortMock (zero link latency), 2 s runs:
//   sampling 2 ms → 29 frames/s, 4 ms → 15, 10 ms → 6.5, 19 ms (Firmata default) → 3.5.
// A real Uno adds ~3–4 ms per step (USB latency + 57600-baud transfer of the
// select write, sync query and samples): expect ≈ 8 frames/s at 4 ms, ≈ 11 at
// 2 ms — against 100 frames/s with the Crownhead firmware.

import { ok } from '../common/result.ts';
import { readFileSync } from 'node:fs';
import { SerialPort } from 'serialport';
import type { SerialBinding } from './line-port.ts';
import { PROTOCOL_VERSION, SQUARES, type BoardIdentity, type BuzzPattern, type HostCommand } from './protocol.ts';
import { SourceBase, type TimeSource } from './source.ts';

/** What each option is when it is not given. */
const DEFAULTS = { baudRate: 57600, readyTimeoutMs: 10_000, samplingIntervalMs: 4, stepTimeoutMs: 500 } as const;

/** Dynamic import the type checker does not follow: these optional libraries ship no types. */
const importLazily = (specifier: string): Promise<unknown> => import(specifier);

export interface PinMap {
  muxSelectPins: number[];
  muxSignalAnalog: number[];
  buzzerPin: number;
  ledPin: number;
  squares: { square: number; mux: number; channel: number }[];
}

export function loadPinMap(): PinMap {
  return JSON.parse(readFileSync(new URL('../../hardware/pinmap.json', import.meta.url), 'utf8')) as PinMap;
}

export interface FirmataSourceOptions {
  /** port path, "firmata:/dev/ttyACM0" or "/dev/ttyACM0" */
  path: string;
  binding?: SerialBinding;
  /** StandardFirmata's baud rate (57600) */
  baudRate?: number;
  pinmap?: PinMap;
  /** analog sampling interval asked of the board, ms (1–100, default 4) */
  samplingIntervalMs?: number;
  /** give up if the Firmata handshake is not done by then (default 10 s) */
  readyTimeoutMs?: number;
  /** give up a scan step if no analog sample arrives by then (default 500 ms) */
  stepTimeoutMs?: number;
  clock?: TimeSource;
}

/** The subset of firmata-io's Firmata class this driver uses. */
interface FirmataIO {
  MODES: Record<string, number>;
  analogPins: number[];
  isReady: boolean;
  firmware: { name?: string; version?: { major: number; minor: number } };
  on(event: string, fn: (v: number) => void): unknown;
  once(event: string, fn: (...a: unknown[]) => void): unknown;
  removeListener(event: string, fn: (...a: never[]) => void): unknown;
  removeAllListeners(event?: string): unknown;
  pinMode(pin: number, mode: number): void;
  digitalWrite(pin: number, value: number, enqueue?: boolean): void;
  flushDigitalPorts(): void;
  reportAnalogPin(pin: number, value: 0 | 1): void;
  reportVersion(cb: () => void): void;
  sysexCommand(msg: number[]): void;
}
type FirmataCtor = new (port: unknown, options?: Record<string, unknown>) => FirmataIO;

const BUZZ: Record<Exclude<BuzzPattern, 'OFF'>, number[]> = {
  // alternating on/off durations, ms (an active buzzer on the buzzer pin)
  ILLEGAL: [120, 80, 120, 80, 120],
  OK: [30],
  GAMEOVER: [150, 60, 150, 60, 350],
  YOURMOVE: [90, 60, 140],
};

export class FirmataBoardSource extends SourceBase {
  readonly kind = 'firmata';
  private readonly opts: FirmataSourceOptions;
  private readonly pins: PinMap;
  private readonly squareAt: number[][]; // [mux][channel] → square index 0–31
  private port: SerialPort | null = null;
  private io: FirmataIO | null = null;
  private board: { on(e: string, f: (...a: unknown[]) => void): unknown } | null = null;
  private led: { on(): unknown; off(): unknown; blink(ms: number): unknown; stop(): unknown } | null = null;
  private running = false;
  private seq = 0;
  private minFrameMs = 0;
  private buzzTimers: ReturnType<typeof setTimeout>[] = [];
  private ident: BoardIdentity | null = null;
  private scanLoop: Promise<void> | null = null;

  constructor(options: FirmataSourceOptions) {
    super(options.clock);
    this.opts = options;
    this.pins = options.pinmap ?? loadPinMap();
    this.squareAt = this.pins.muxSignalAnalog.map(() => new Array<number>(16).fill(-1));
    for (const s of this.pins.squares) this.squareAt[s.mux][s.channel] = s.square - 1;
  }

  async open(): Promise<BoardIdentity> {
    if (this.ident && this.running) return this.ident;
    const path = this.opts.path.replace(/^firmata:/, '');
    this.setStatus({ state: 'connecting', detail: `opening ${path} (StandardFirmata)` });
    try {
      this.ident = await this.connect(path);
    } catch (err) {
      await this.release();
      const message = `${path}: ${(err as Error).message}`;
      this.setStatus({ state: 'error', message });
      throw new Error(message);
    }
    this.running = true;
    this.scanLoop = this.scan();
    this.setStatus({ state: 'connected', identity: this.ident });
    return this.ident;
  }

  async close(): Promise<void> {
    this.running = false;
    await this.scanLoop?.catch(() => {});
    this.scanLoop = null;
    await this.release();
    this.setStatus({ state: 'closed' });
  }

  async send(command: HostCommand): Promise<boolean> {
    const io = this.io;
    if (!io || !this.running) return false;
    this.counters.commandsSent++;
    switch (command.type) {
      case 'buzz':
        this.buzz(command.pattern);
        break;
      case 'led':
        if (command.state === 'BLINK') this.led?.blink(250);
        else {
          this.led?.stop();
          if (command.state) this.led?.on();
          else this.led?.off();
        }
        break;
      case 'rate':
        this.minFrameMs = 1000 / command.fps; // we scan as fast as Firmata allows, capped at this
        break;
      case 'id':
        if (this.ident) this.ident = { ...this.ident, id: command.id };
        break;
      case 'mode': // always streams
      case 'identify':
        break;
    }
    return true;
  }

  // ------------------------------------------------------------ connect

  private async connect(path: string): Promise<BoardIdentity> {
    const port = new SerialPort({
      path,
      baudRate: this.opts.baudRate ?? DEFAULTS.baudRate,
      autoOpen: false,
      ...({ binding: this.opts.binding ?? SerialPort.binding } as object),
    } as ConstructorParameters<typeof SerialPort>[0]);
    this.port = port;
    // library edge: firmata-io and johnny-five ship no types; these are the parts used.
    const firmataMod = (await importLazily('firmata-io')) as unknown as { default: { Firmata: FirmataCtor } };
    // library edge: johnny-five ships no types; the two classes used.
    const five = (await importLazily('johnny-five')) as unknown as {
      default: {
        Board: new (o: Record<string, unknown>) => { on(e: string, f: (...a: unknown[]) => void): unknown };
        Led: new (o: Record<string, unknown>) => NonNullable<FirmataBoardSource['led']>;
      };
    };
    const io = new firmataMod.default.Firmata(port, { reportVersionTimeout: 500 });
    this.io = io;
    const board = new five.default.Board({
      io,
      repl: false,
      debug: false,
      sigint: false,
      timeout: this.opts.readyTimeoutMs ?? DEFAULTS.readyTimeoutMs,
    });
    this.board = board;
    // open only now: johnny-five wants the io's "connect" (the port's "open") before "ready"
    await new Promise<void>((res, rej) => port.open((e) => (e ? rej(new Error(`cannot open: ${e.message}`)) : res())));
    const readyMs = this.opts.readyTimeoutMs ?? DEFAULTS.readyTimeoutMs;
    await new Promise<void>((resolve, reject) => {
      const fail = () => reject(new Error(`no Firmata handshake within ${readyMs} ms (is StandardFirmata flashed?)`));
      const timer = setTimeout(fail, readyMs);
      board.on('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      board.on('error', (e) => {
        clearTimeout(timer);
        const message = e instanceof Error ? e.message : String((e as { message?: unknown })?.message ?? e);
        if (/timeout/i.test(message))
          fail(); // johnny-five's own connect timer
        else reject(new Error(message));
      });
    });

    const { muxSelectPins, muxSignalAnalog, buzzerPin, ledPin } = this.pins;
    for (const p of [...muxSelectPins, buzzerPin]) io.pinMode(p, io.MODES.OUTPUT);
    for (const a of muxSignalAnalog) {
      if (io.analogPins[a] === undefined) throw new Error(`the board has no analog pin A${a}`);
      io.pinMode(a, io.MODES.ANALOG);
      io.reportAnalogPin(a, 1);
    }
    const interval = Math.max(1, Math.min(100, Math.round(this.opts.samplingIntervalMs ?? DEFAULTS.samplingIntervalMs)));
    io.sysexCommand([0x7a, interval & 0x7f, (interval >> 7) & 0x7f]); // SAMPLING_INTERVAL, below firmata-io's 10 ms floor
    this.led = new five.default.Led({ pin: ledPin, board });
    this.led.off();
    port.on('close', (err?: { disconnected?: boolean; message?: string }) =>
      this.onLost(err?.disconnected ? `unplugged (${err.message})` : 'port closed'),
    );
    port.on('error', (err: Error) => this.onLost(`port error: ${err.message}`));

    const fw = io.firmware;
    const name = (fw.name ?? 'Firmata').replace(/\.ino$/, '').replace(/[^A-Za-z0-9_.-]/g, '');
    return {
      type: 'identity',
      proto: PROTOCOL_VERSION,
      fw: `${name}-${fw.version?.major ?? 0}.${fw.version?.minor ?? 0}`,
      id: 'FIRMATA',
      n: SQUARES,
      scan: 0,
      rate: 0,
      mode: 'S',
      extra: { transport: 'firmata', sampling: String(interval) },
    };
  }

  private onLost(reason: string): void {
    if (!this.running) return;
    this.running = false;
    this.setStatus({ state: 'lost', reason });
  }

  private async release(): Promise<void> {
    this.buzzTimers.forEach(clearTimeout);
    this.buzzTimers = [];
    this.led?.stop();
    this.led = null;
    this.io?.removeAllListeners();
    this.io = null;
    this.board = null;
    const port = this.port;
    this.port = null;
    if (port?.isOpen) await new Promise<void>((r) => port.close(() => r()));
  }

  // --------------------------------------------------------------- scan

  private async scan(): Promise<void> {
    const readings = new Uint16Array(SQUARES);
    let failures = 0;
    while (this.running) {
      const start = this.clock();
      try {
        for (let ch = 0; ch < 16 && this.running; ch++) {
          const values = await this.readChannel(ch);
          for (let mux = 0; mux < values.length; mux++) {
            const sq = this.squareAt[mux][ch];
            if (sq >= 0) readings[sq] = values[mux];
          }
        }
        failures = 0;
      } catch (err) {
        if (++failures >= 3) this.onLost(`board stopped answering (${(err as Error).message})`);
        else if (this.running) this.setStatus({ state: 'error', message: `scan: ${(err as Error).message}` });
        continue;
      }
      if (!this.running) break;
      const t = this.clock();
      this.lines.record(ok({ type: 'frame', seq: this.seq, readings }));
      this.emitFrame(this.seq, Uint16Array.from(readings), t);
      this.seq = (this.seq + 1) & 0xffff;
      const wait = this.minFrameMs - (this.clock() - start);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Select channel `ch` on both muxes, sync, and read each mux signal pin's next sample. */
  private readChannel(ch: number): Promise<number[]> {
    const io = this.io!;
    const { muxSelectPins, muxSignalAnalog } = this.pins;
    muxSelectPins.forEach((pin, bit) => io.digitalWrite(pin, (ch >> bit) & 1, true));
    io.flushDigitalPorts();
    return new Promise((resolve, reject) => {
      const values: number[] = new Array(muxSignalAnalog.length).fill(-1);
      let synced = false;
      const listeners = muxSignalAnalog.map((a, k) => {
        const fn = (v: number) => {
          if (!synced || values[k] >= 0) return;
          values[k] = v;
          if (values.every((x) => x >= 0)) finish(null);
        };
        io.on(`analog-read-${a}`, fn);
        return [a, fn] as const;
      });
      const timer = setTimeout(
        () => finish(new Error(`no analog sample for channel ${ch}`)),
        this.opts.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs,
      );
      const finish = (err: Error | null) => {
        clearTimeout(timer);
        for (const [a, fn] of listeners) io.removeListener(`analog-read-${a}`, fn);
        if (err) reject(err);
        else resolve(values);
      };
      io.reportVersion(() => (synced = true)); // Firmata answers in order: later samples see the new channel
    });
  }

  private buzz(pattern: BuzzPattern): void {
    const io = this.io;
    if (!io) return;
    this.buzzTimers.forEach(clearTimeout);
    this.buzzTimers = [];
    io.digitalWrite(this.pins.buzzerPin, 0);
    if (pattern === 'OFF') return;
    let t = 0;
    BUZZ[pattern].forEach((ms, i) => {
      const on = i % 2 === 0 ? 1 : 0;
      this.buzzTimers.push(setTimeout(() => this.io?.digitalWrite(this.pins.buzzerPin, on), t));
      t += ms;
    });
    this.buzzTimers.push(setTimeout(() => this.io?.digitalWrite(this.pins.buzzerPin, 0), t));
  }
}
