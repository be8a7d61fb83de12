// Shared by tests and benches. Drives the emulated board
// (firmware/build/crownhead-emu + crownhead.elf): builds it, starts it, talks
// to its control stdin, and opens its pty with the real `serialport` package.
// Used by test/firmware/emulator.test.ts and bench/firmware.ts. Has its own
// tiny checksum helper on purpose (the TypeScript codec in src/sensors is
// written separately).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { SerialPort } from 'serialport';
import { ReadlineParser } from '@serialport/parser-readline';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const firmwareDir = resolve(root, 'firmware');
export const emuPath = resolve(firmwareDir, 'build/crownhead-emu');
export const elfPath = resolve(firmwareDir, 'build/crownhead.elf');

/** `make -C firmware emulator` (builds the harness and the ELF). Throws with the output on failure. */
export function buildEmulator(): string {
  const r = spawnSync('make', ['-C', firmwareDir, 'emulator'], { encoding: 'utf8', timeout: 120_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`make -C firmware emulator failed:\n${out}`);
  return out;
}

/** XOR checksum as in firmware/PROTOCOL.md: "<body>*HH". Returns the body or null. */
export function checkedBody(line: string): string | null {
  const m = /^(.*)\*([0-9A-F]{2})$/.exec(line);
  if (!m) return null;
  let x = 0;
  for (const ch of Buffer.from(m[1], 'latin1')) x ^= ch;
  return x === parseInt(m[2], 16) ? m[1] : null;
}

export function withChecksum(cmd: string): string {
  let x = 0;
  for (const ch of Buffer.from(cmd, 'latin1')) x ^= ch;
  return `${cmd}*${x.toString(16).toUpperCase().padStart(2, '0')}`;
}

export interface Frame {
  seq: number;
  values: number[]; // 32 readings, square 1 first
}

export function parseFrame(body: string): Frame | null {
  const m = /^F ([0-9A-F]{4}) ([0-9A-F]{96})$/.exec(body);
  if (!m) return null;
  const values: number[] = [];
  for (let i = 0; i < 32; i++) values.push(parseInt(m[2].slice(3 * i, 3 * i + 3), 16));
  return { seq: parseInt(m[1], 16), values };
}

type Waiter = { pred: (body: string) => boolean; resolve: (b: string) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

export class EmulatedBoard {
  readonly proc: ChildProcessWithoutNullStreams;
  ptyPath = '';
  port: SerialPort | null = null;
  /** Good board lines (checksum verified, body only), in arrival order. */
  readonly lines: string[] = [];
  /** Lines that failed the checksum (the first line after opening may be partial). */
  readonly badLines: string[] = [];
  private ctlQueue: string[] = [];
  private ctlWaiters: ((l: string) => void)[] = [];
  private boardWaiters: Waiter[] = [];
  readonly exited: Promise<number | null>;

  constructor() {
    this.proc = spawn(emuPath, [elfPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.resume();
    this.exited = new Promise((res) => this.proc.on('exit', (code) => res(code)));
    const rl = createInterface({ input: this.proc.stdout });
    rl.on('line', (l) => {
      const w = this.ctlWaiters.shift();
      if (w) w(l);
      else this.ctlQueue.push(l);
    });
  }

  private nextControlLine(timeoutMs = 10_000): Promise<string> {
    const q = this.ctlQueue.shift();
    if (q !== undefined) return Promise.resolve(q);
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error('emulator control: no answer')), timeoutMs);
      this.ctlWaiters.push((l) => {
        clearTimeout(t);
        res(l);
      });
    });
  }

  /** Wait for the first stdout line, "PTY <path>", and return the path. */
  async waitPty(): Promise<string> {
    const first = await this.nextControlLine();
    const m = /^PTY (\/\S+)$/.exec(first);
    if (!m) throw new Error(`emulator said ${JSON.stringify(first)}, expected "PTY <path>"`);
    this.ptyPath = m[1];
    return this.ptyPath;
  }

  /** Wait for "PTY <path>" and open it with serialport at 115200. */
  async start(): Promise<void> {
    await this.waitPty();
    const port = new SerialPort({ path: this.ptyPath, baudRate: 115200, autoOpen: false });
    await new Promise<void>((res, rej) => port.open((err) => (err ? rej(err) : res())));
    this.port = port;
    const parser = port.pipe(new ReadlineParser({ delimiter: '\n' }));
    parser.on('data', (raw: string) => {
      const line = raw.replace(/^\r/, '').replace(/\r$/, '');
      const body = checkedBody(line);
      if (body === null) {
        this.badLines.push(line);
        return;
      }
      this.lines.push(body);
      for (const w of [...this.boardWaiters]) {
        if (w.pred(body)) {
          clearTimeout(w.timer);
          this.boardWaiters.splice(this.boardWaiters.indexOf(w), 1);
          w.resolve(body);
        }
      }
    });
  }

  /** One control command on stdin → its one-line answer. */
  async control(cmd: string): Promise<string> {
    const answer = this.nextControlLine();
    this.proc.stdin.write(`${cmd}\n`);
    return answer;
  }

  async stats(): Promise<Record<string, number>> {
    const s = await this.control('STATS');
    if (!s.startsWith('STATS ')) throw new Error(`bad STATS answer ${s}`);
    return Object.fromEntries(
      s
        .slice(6)
        .split(' ')
        .map((kv) => {
          const [k, v] = kv.split('=');
          return [k, Number(v)];
        }),
    );
  }

  /** Write a command line to the board (serial). */
  send(cmd: string): void {
    this.port!.write(`${cmd}\n`);
  }

  /** Next good board line (arriving from now on) matching pred. */
  waitFor(pred: (body: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.boardWaiters.splice(this.boardWaiters.indexOf(w), 1);
        reject(new Error('timed out waiting for a board line'));
      }, timeoutMs);
      const w: Waiter = { pred, resolve, reject, timer };
      this.boardWaiters.push(w);
    });
  }

  /** Skip `n` frames from now on and return the last one. */
  async frameAfter(n: number): Promise<Frame> {
    let last = '';
    for (let i = 0; i < n; i++) last = await this.waitFor((b) => b.startsWith('F '));
    return parseFrame(last)!;
  }

  async stop(): Promise<number | null> {
    if (this.port?.isOpen) await new Promise<void>((res) => this.port!.close(() => res()));
    this.proc.stdin.end();
    return this.exited;
  }
}
