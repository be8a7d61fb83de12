// Board source for the simavr-emulated firmware: the real firmware ELF on an
// emulated ATmega328P (firmware/emulator/, built by `make -C firmware
// emulator`). Owns the harness process: spawns `crownhead-emu <elf>`, reads
// `PTY <path>`, then reaches the board through the ordinary serial driver on
// that pty (real serialport binding, identity handshake, line codec) — the
// whole host path is exercised. The hand API (same as the sim's) goes over the
// harness's stdin control channel, one reply line per command. unplug()
// kills the harness; plugIn() starts a new one (new pty path: the serial
// driver's path provider follows it) and puts the coins back where they were.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { SerialBoardSource, type SerialSourceOptions } from './serial.ts';
import { SQUARES, type BoardIdentity, type HostCommand } from './protocol.ts';
import { SourceBase, type Clock, type SourceStats } from './source.ts';
import { START_POSITION, type BoardHand } from './sim/hand.ts';

export const EMULATOR_BIN = fileURLToPath(new URL('../../firmware/build/crownhead-emu', import.meta.url));
export const FIRMWARE_ELF = fileURLToPath(new URL('../../firmware/build/crownhead.elf', import.meta.url));

export interface EmulatorOptions {
  bin?: string;
  elf?: string;
  clock?: Clock;
  /** ms to wait for the harness's `PTY` line (default 10 s) */
  startTimeoutMs?: number;
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

  constructor(private readonly proc: ChildProcessWithoutNullStreams, timeoutMs: number) {
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
  private readonly coins = new Array<number>(SQUARES).fill(0);
  private readonly opts: EmulatorOptions;

  constructor(options: EmulatorOptions = {}) {
    super(options.clock);
    this.opts = options;
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
    for (let sq = 1; sq <= SQUARES; sq++) if (this.coins[sq - 1]) await this.control(`SET ${sq} ${this.coins[sq - 1]}`);
  }

  // ------------------------------------------------------------- the hand

  async place(square: number): Promise<void> {
    const n = this.coinsAt(square);
    if (n >= 2) throw new RangeError(`square ${square} already holds 2 coins (a king)`);
    await this.control(`PLACE ${square}`);
    this.coins[square - 1] = n + 1;
  }
  async lift(square: number, coins?: number): Promise<void> {
    const n = this.coinsAt(square);
    const k = coins ?? n;
    if (n === 0 || k < 1 || k > n) throw new RangeError(`cannot lift ${coins ?? 'the piece'} from square ${square}: it holds ${n} coin(s)`);
    await this.set(square, n - k);
  }
  async set(square: number, coins: number): Promise<void> {
    this.coinsAt(square);
    if (!Number.isInteger(coins) || coins < 0 || coins > 2) throw new RangeError(`square ${square}: ${coins} coins (a square holds 0, 1 or 2)`);
    await this.control(`SET ${square} ${coins}`);
    this.coins[square - 1] = coins;
  }
  async setupStart(): Promise<void> {
    await this.control('START');
    START_POSITION.forEach((c, i) => (this.coins[i] = c));
  }
  async clear(): Promise<void> {
    await this.control('CLEAR');
    this.coins.fill(0);
  }
  coinsAt(square: number): number {
    if (!Number.isInteger(square) || square < 1 || square > SQUARES) throw new RangeError(`no square ${square} (squares are 1–32)`);
    return this.coins[square - 1];
  }
  occupancy(): number[] {
    return [...this.coins];
  }

  private async startHarness(): Promise<void> {
    if (this.harness?.alive) return;
    const bin = this.opts.bin ?? EMULATOR_BIN;
    const elf = this.opts.elf ?? FIRMWARE_ELF;
    const proc = spawn(bin, [elf], { stdio: ['pipe', 'pipe', 'pipe'] });
    const h = new Harness(proc, this.opts.startTimeoutMs ?? 10_000);
    this.harness = h;
    this.ptyPath = undefined;
    try {
      this.ptyPath = await h.pty;
    } catch (err) {
      await h.kill();
      throw new Error(`${(err as Error).message} (run \`make -C firmware emulator\` first?)`);
    }
  }
}
