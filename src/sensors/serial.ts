// The real driver: a Crownhead board on USB serial (firmware/, PROTOCOL.md).
// Owns the connection's life: find or open the port (detect.ts), stream
// parsed frames with timestamps from the injected clock, count bad lines
// (never crash: the stream resumes at the next good line), and when the board
// is unplugged or falls silent report 'lost', retry with backoff until it is
// back (re-handshake), then report 'reconnected'. Nothing is thrown into the
// layers above after open().
//
// Where the board is: `path` = a fixed path ("serial:/dev/ttyACM0" → "/dev/ttyACM0"),
// a path provider (the emulator's pty changes on every start), or nothing (auto-detect).

import { SerialPort } from 'serialport';
import { BoardNotFoundError, findBoard, handshake, type HandshakeOptions } from './detect.ts';
import type { LinePort, SerialBinding } from './line-port.ts';
import { makeHostCommand, parseBoardLine, type BoardIdentity, type HostCommand } from './protocol.ts';
import { SourceBase, type TimeSource } from './source.ts';

/** What each option is when it is not given. */
const DEFAULTS = { silenceMs: 3000, minMs: 250, maxMs: 5000, factor: 2 } as const;

export type PathProvider = () => string | undefined | Promise<string | undefined>;

export interface SerialSourceOptions extends HandshakeOptions {
  /** a port path, "serial:<path>", a path provider, or undefined to auto-detect */
  path?: string | PathProvider;
  /** serialport binding (default: the native one); tests pass SerialPortMock.binding */
  binding?: SerialBinding;
  clock?: TimeSource;
  /** reconnect backoff (ms): first retry, cap, factor. false: report 'lost' and stay down */
  reconnect?: { minMs?: number; maxMs?: number; factor?: number } | false;
  /** no line at all for this long means the link is dead (default 3000 ms; 0 = never) */
  silenceMs?: number;
  /**
   * Club mode: this source is one board, known by its id. Reconnecting, it
   * looks for that board on any free port (its old port first), so a board
   * plugged back into another socket keeps its game, and it never takes over
   * another board.
   */
  sameBoard?: boolean;
  /** a port already handshaken (findBoards found every board at once): open() takes it as it is */
  opened?: { port: LinePort; identity: BoardIdentity };
}

/** The ports this process's serial sources hold: never handshaken by another of them. */
const HELD = new Set<string>();

export class SerialBoardSource extends SourceBase {
  readonly kind = 'serial';
  private readonly binding: SerialBinding;
  private readonly opts: SerialSourceOptions;
  private port: LinePort | null = null;
  private ident: BoardIdentity | null = null;
  private lastPath: string | null = null;
  private closing = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private backoff = 0;

  constructor(options: SerialSourceOptions = {}) {
    super(options.clock);
    this.opts = options;
    this.binding = options.binding ?? SerialPort.binding;
  }

  /** the connected board's identity, or null while lost/closed */
  get identity(): BoardIdentity | null {
    return this.port ? this.ident : null;
  }
  /** the port in use (or last used) */
  get path(): string | null {
    return this.lastPath;
  }

  async open(): Promise<BoardIdentity> {
    if (this.port && this.ident) return this.ident;
    this.closing = false;
    this.setStatus({ state: 'connecting', detail: this.describeTarget() });
    try {
      const { port, identity } = await this.connect();
      this.attach(port, identity);
      this.setStatus({ state: 'connected', identity });
      return identity;
    } catch (err) {
      const message = (err as Error).message;
      this.setStatus({ state: 'error', message });
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.clearTimers();
    const port = this.port;
    this.port = null;
    if (this.lastPath) HELD.delete(this.lastPath);
    if (port) await port.close();
    this.setStatus({ state: 'closed' });
  }

  async send(command: HostCommand): Promise<boolean> {
    let line: string;
    try {
      line = makeHostCommand(command);
    } catch (err) {
      this.setStatus({ state: 'error', message: `command not sent: ${(err as Error).message}` });
      return false;
    }
    if (!this.port) return false;
    const ok = await this.port.write(line);
    if (ok) this.counters.commandsSent++;
    return ok;
  }

  private describeTarget(): string {
    const p = this.opts.path;
    if (typeof p === 'string') return `opening ${stripScheme(p)}`;
    if (typeof p === 'function') return 'opening the provided port';
    return 'looking for a Crownhead board';
  }

  private async connect(): Promise<{ port: LinePort; identity: BoardIdentity }> {
    const given = this.opts.opened;
    if (given) {
      this.opts.opened = undefined;
      return given;
    }
    const p = this.opts.path;
    const others = () => [...HELD].filter((h) => h !== this.lastPath);
    const wanted = this.opts.sameBoard && this.ident ? this.ident.id : undefined;
    const find = () => findBoard(this.binding, { ...this.opts, prefer: this.lastPath ?? undefined, id: wanted, skip: others });
    if (p === undefined) return find();
    const path = typeof p === 'string' ? stripScheme(p) : await p();
    if (!path) throw new BoardNotFoundError(['the port provider has no port yet']);
    try {
      const found = await handshake(this.binding, path, this.opts);
      if (wanted === undefined || found.identity.id === wanted) return found;
      await found.port.close();
      throw new BoardNotFoundError([`${path}: board ${found.identity.id} is there, not board ${wanted}`]);
    } catch (err) {
      // Its port is gone or holds another board: the board itself may be on another port now.
      if (wanted === undefined) throw err;
      return find();
    }
  }

  private attach(port: LinePort, identity: BoardIdentity): void {
    if (this.lastPath) HELD.delete(this.lastPath);
    HELD.add(port.path);
    this.port = port;
    this.ident = identity;
    this.lastPath = port.path;
    this.backoff = 0;
    this.lines.resetSequence();
    port.onClose((reason) => this.onLost(port, reason));
    port.onLine((line) => this.onLine(line));
    this.armSilence();
  }

  private onLine(line: string): void {
    this.armSilence();
    const t = this.clock();
    const r = parseBoardLine(line);
    this.lines.record(r);
    if (!r.ok) return;
    if (r.value.type === 'frame') this.emitFrame(r.value.seq, r.value.readings, t);
    else if (r.value.type === 'identity') this.ident = r.value;
  }

  private armSilence(): void {
    const ms = this.opts.silenceMs ?? DEFAULTS.silenceMs;
    if (!ms) return;
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    const port = this.port;
    this.silenceTimer = setTimeout(() => {
      if (!port || port !== this.port) return;
      this.onLost(port, `no line for ${ms} ms`);
      void port.close();
    }, ms);
    this.silenceTimer.unref?.();
  }

  private onLost(port: LinePort, reason: string): void {
    if (port !== this.port || this.closing) return;
    this.port = null;
    if (this.lastPath) HELD.delete(this.lastPath);
    this.clearTimers();
    this.setStatus({ state: 'lost', reason });
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    const rc = this.opts.reconnect;
    if (rc === false || this.closing) return;
    const min = rc?.minMs ?? DEFAULTS.minMs;
    const max = rc?.maxMs ?? DEFAULTS.maxMs;
    const factor = rc?.factor ?? DEFAULTS.factor;
    const wait = this.backoff === 0 ? min : Math.min(max, this.backoff * factor);
    this.backoff = wait;
    this.retryTimer = setTimeout(() => void this.retry(), wait);
  }

  private async retry(): Promise<void> {
    this.retryTimer = null;
    if (this.closing) return;
    let found: { port: LinePort; identity: BoardIdentity };
    try {
      found = await this.connect();
    } catch {
      this.scheduleRetry();
      return;
    }
    if (this.closing) {
      await found.port.close();
      return;
    }
    this.attach(found.port, found.identity);
    this.setStatus({ state: 'reconnected', identity: found.identity });
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.retryTimer = this.silenceTimer = null;
  }
}

/** "serial:/dev/ttyACM0" → "/dev/ttyACM0" */
export function stripScheme(spec: string): string {
  return spec.startsWith('serial:') ? spec.slice('serial:'.length) : spec;
}
