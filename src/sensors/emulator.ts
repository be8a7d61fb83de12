// Board source for the simavr-emulated firmware: the real firmware ELF on an
// emulated ATmega328P (firmware/emulator/, built by `make -C firmware
// emulator`). Owns the harness process: spawns `crownhead-emu <elf>`, reads
// `PTY <path>`, then reaches the board through the ordinary serial driver on
// that pty (real serialport binding, identity handshake, line codec) — the
// whole host path is exercised. The hand API (same as the sim's) goes over the
// harness's stdin control channel, one reply line per command. What the
// sensors read comes from the realistic model in hall-model.ts (32 different
// SS49E parts, coins off-centre, kings, upside-down coins, crosstalk,
// clipping, each coin's own magnet): after every hand action the 32
// noise-free outputs go to the harness (LEVELS); at start the model's seed,
// noise figure and each part's warm-up drift (SEED, NOISE, WARMUP), from which
// the harness adds noise per channel visit and per conversion, the settling
// ghost the firmware's discarded conversion removes and the zero levels'
// drift as the board warms up (in the board's own simulated time). A hand action changes the
// model first: coins put on an unplugged board are there when it comes back. unplug() kills the harness;
// plugIn() starts a new one (new pty path: the serial driver's path provider
// follows it) and puts the coins back where they were.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { SerialBoardSource, type SerialSourceOptions } from './serial.ts';
import { SQUARES, type BoardIdentity, type HostCommand } from './protocol.ts';
import { SourceBase, type TimeSource, type SourceStats } from './source.ts';
import { START_POSITION, type BoardHand } from './sim/hand.ts';
import { HallModel, type HallModelOptions } from './hall-model.ts';

/** What each option is when it is not given. */
const DEFAULTS = { startTimeoutMs: 10_000 } as const;

export const EMULATOR_BIN = fileURLToPath(new URL('../../firmware/build/crownhead-emu', import.meta.url));
export const FIRMWARE_ELF = fileURLToPath(new URL('../../firmware/build/crownhead.elf', import.meta.url));

export interface EmulatorOptions {
  bin?: string;
  elf?: string;
  clock?: TimeSource;
  /** ms to wait for the harness's `PTY` line (default 10 s) */
  startTimeoutMs?: number;
  /** the sensor model: seed (which parts, which hand), how far off-centre coins land */
  model?: Partial<HallModelOptions>;
  /** passed to the serial driver (handshake timeout, reconnect backoff, silence) */
  serial?: Omit<SerialSourceOptions, 'path' | 'binding' | 'clock'>;
}

/** One running harness process and its control channel. */
class Harness {
  readonly pty: Promise<string>;
  readonly exited: Promise<number | null>;
  private readonly waiting: { resolve(l: string): void; reject(e: Error): void }[] = [];
  private stderrTail: string[] = [];
  private gone = false;

  constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    timeoutMs: number,
  ) {
    const lines = createInterface({ input: proc.stdout });
    proc.stderr.on('data', (d: Buffer) => {
      this.stderrTail = [...this.stderrTail, ...d.toString().split('\n').filter(Boolean)].slice(-5);
    });
    let ptyResolve!: (p: string) => void;
    let ptyReject!: (e: Error) => void;
    this.pty = new Promise((res, rej) => ((ptyResolve = res), (ptyReject = rej)));
    this.pty.catch(() => {});
    const timer = setTimeout(() => ptyReject(new Error(`emulator printed no PTY line within ${timeoutMs} ms`)), timeoutMs);
    let first = true;
    lines.on('line', (line) => {
      if (first) {
        first = false;
        clearTimeout(timer);
        const m = /^PTY (\S+)$/.exec(line);
        if (m) ptyResolve(m[1]);
        else ptyReject(new Error(`emulator said "${line}", expected "PTY <path>"`));
        return;
      }
      const w = this.waiting.shift();
      if (!w) return;
      if (line.startsWith('ERR')) w.reject(new Error(`emulator: ${line}`));
      else w.resolve(line);
    });
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, why: string) => {
        if (this.gone) return;
        this.gone = true;
        clearTimeout(timer);
        const err = new Error(`emulator ${why}${this.stderrTail.length ? ': ' + this.stderrTail.join(' | ') : ''}`);
        ptyReject(err);
        for (const w of this.waiting.splice(0)) w.reject(err);
        resolve(code);
      };
      proc.on('exit', (code, signal) => done(code, signal ? `killed (${signal})` : `exited (${code})`));
      proc.on('error', (e) => done(null, `failed to start (${e.message})`));
    });
    proc.stdin.on('error', () => {}); // EPIPE after exit: reported through `exited`
  }

  get alive(): boolean {
    return !this.gone;
  }

  /** Send one control command; resolves with its reply line, rejects on ERR or exit. */
  command(line: string): Promise<string> {
    if (this.gone) return Promise.reject(new Error('emulator is not running'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.proc.stdin.write(line + '\n');
    });
  }

  kill(): Promise<number | null> {
    if (!this.gone) this.proc.kill('SIGKILL');
    return this.exited;
  }

  async quit(): Promise<void> {
    if (this.gone) return;
    this.proc.stdin.end('QUIT\n');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    await this.exited;
    clearTimeout(t);
  }
}

export class EmulatorBoardSource extends SourceBase implements BoardHand {
  readonly kind = 'emulator';
  readonly serial: SerialBoardSource;
  private harness: Harness | null = null;
  private ptyPath: string | undefined;
  /** the sensors and the coins on them */
  readonly model: HallModel;
  private readonly opts: EmulatorOptions;

  constructor(options: EmulatorOptions = {}) {
    super(options.clock);
    this.opts = options;
    this.model = new HallModel(options.model);
    this.serial = new SerialBoardSource({
      resetDelayMs: 0, // the emulated AVR does not reset when the pty opens
      timeoutMs: 3000,
      reconnect: { minMs: 100, maxMs: 1000 },
      ...options.serial,
      clock: options.clock,
      path: () => (this.harness?.alive ? this.ptyPath : undefined),
    });
    this.serial.onFrame((f) => this.events.emit('frame', f));
    this.serial.onStatus((s) => this.setStatus(s));
  }

  /** the pty the current harness bridges the board's UART to */
  get path(): string | undefined {
    return this.ptyPath;
  }

  async open(): Promise<BoardIdentity> {
    await this.startHarness();
    try {
      return await this.serial.open();
    } catch (err) {
      await this.harness?.quit();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.serial.close();
    await this.harness?.quit();
    this.harness = null;
  }

  send(command: HostCommand): Promise<boolean> {
    return this.serial.send(command);
  }

  override stats(): SourceStats {
    return this.serial.stats();
  }

  /** Raw control command (e.g. "STATS"); resolves with the reply line. */
  control(line: string): Promise<string> {
    if (!this.harness) return Promise.reject(new Error('emulator is not running'));
    return this.harness.command(line);
  }

  /** Pull the plug: kill the harness (the pty goes away; the driver reports 'lost'). */
  async unplug(): Promise<void> {
    await this.harness?.kill();
  }

  /** Plug back in: a new harness (new pty), coins restored; the driver reconnects by itself. */
  async plugIn(): Promise<void> {
    await this.startHarness();
  }

  /** Sends the model's 32 sensor outputs to the harness. */
  private async levels(): Promise<void> {
    await this.control(`LEVELS ${this.model.levels().join(' ')}`);
  }

  // ------------------------------------------------------------- the hand

  async place(square: number, color?: 'black' | 'white'): Promise<void> {
    const n = this.coinsAt(square);
    if (n >= 2) throw new RangeError(`square ${square} already holds 2 coins (a king)`);
    this.model.place(square, undefined, color);
    await this.levels();
  }
  /** Coin `coin` of the set (the model's coinSet gives its strength) on a square: the doctor's coin check. */
  async placeCoin(square: number, coin: number): Promise<void> {
    if (this.coinsAt(square) >= 2) throw new RangeError(`square ${square} already holds 2 coins (a king)`);
    this.model.placeCoin(square, coin);
    await this.levels();
  }
  /** The hand is moving a piece of this side: coins it puts down are that side's (null: none). */
  hold(color: 'black' | 'white' | null): void {
    this.model.holding = color;
  }
  async lift(square: number, coins?: number): Promise<void> {
    const n = this.coinsAt(square);
    const k = coins ?? n;
    if (n === 0 || k < 1 || k > n) throw new RangeError(`cannot lift ${coins ?? 'the piece'} from square ${square}: it holds ${n} coin(s)`);
    await this.set(square, n - k);
  }
  async set(square: number, coins: number, color?: 'black' | 'white'): Promise<void> {
    this.coinsAt(square);
    if (!Number.isInteger(coins) || coins < 0 || coins > 2)
      throw new RangeError(`square ${square}: ${coins} coins (a square holds 0, 1 or 2)`);
    this.model.set(square, coins, color);
    await this.levels();
  }
  /** Turn the lone coin on a square upside down (or back): it then reads below empty. */
  async flip(square: number): Promise<void> {
    this.model.flip(square);
    await this.levels();
  }
  async setupStart(): Promise<void> {
    for (let sq = 1; sq <= SQUARES; sq++) this.model.set(sq, 0);
    START_POSITION.forEach((c, i) => this.model.set(i + 1, c, i < 16 ? 'black' : 'white'));
    await this.levels();
  }
  async clear(): Promise<void> {
    for (let sq = 1; sq <= SQUARES; sq++) this.model.set(sq, 0);
    await this.levels();
  }
  coinsAt(square: number): number {
    if (!Number.isInteger(square) || square < 1 || square > SQUARES) throw new RangeError(`no square ${square} (squares are 1–32)`);
    return this.model.coins(square);
  }
  occupancy(): number[] {
    return Array.from({ length: SQUARES }, (_, i) => this.model.coins(i + 1));
  }

  private async startHarness(): Promise<void> {
    if (this.harness?.alive) return;
    const bin = this.opts.bin ?? EMULATOR_BIN;
    const elf = this.opts.elf ?? FIRMWARE_ELF;
    const proc = spawn(bin, [elf], { stdio: ['pipe', 'pipe', 'pipe'] });
    const h = new Harness(proc, this.opts.startTimeoutMs ?? DEFAULTS.startTimeoutMs);
    this.harness = h;
    this.ptyPath = undefined;
    try {
      this.ptyPath = await h.pty;
    } catch (err) {
      await h.kill();
      throw new Error(`${(err as Error).message} (run \`make -C firmware emulator\` first?)`);
    }
    for (const c of this.model.harnessCommands()) await this.control(c);
    await this.levels(); // the sensors read the model (and the coins where they were) from the start
  }
}
