// The board-source interface every driver implements (serial, Firmata,
// simulated, emulated): it turns hardware, or a model of it, into a stream of
// timestamped raw frames and carries buzzer/LED/rate commands back. Small on
// purpose; everything else (calibration, occupancy, moves) lives above.

import { Emitter } from './emitter.ts';
import { LineStats, type LineFigures } from './linestats.ts';
import type { BoardIdentity, HostCommand } from './protocol.ts';
import { CrownheadError } from '../common/errors.ts';

export type { BoardIdentity, HostCommand } from './protocol.ts';

/** No Crownhead board answered; `tried` says what was tried and why each failed. */
export class BoardNotFoundError extends CrownheadError<'board-not-found'> {
  override readonly name = 'BoardNotFoundError';
  constructor(readonly tried: readonly string[]) {
    super('board-not-found', `no board found${tried.length ? ': ' + tried.join('; ') : ''}`);
  }
}

/** One raw frame: 32 10-bit readings (index 0 = square 1), stamped by the source's clock. */
export interface RawFrame {
  seq: number;
  /** milliseconds, from the injected clock */
  t: number;
  readings: Uint16Array;
}

export type SourceStatus =
  | { state: 'connecting'; detail: string }
  | { state: 'connected'; identity: BoardIdentity }
  | { state: 'lost'; reason: string }
  | { state: 'reconnected'; identity: BoardIdentity }
  | { state: 'error'; message: string }
  | { state: 'closed' };

export interface SourceStats extends LineFigures {
  /** times the board was lost / came back */
  lost: number;
  reconnects: number;
  commandsSent: number;
}

/** Milliseconds; monotonic in production (performance.now), virtual in tests. */
export type TimeSource = () => number;
export const defaultTimeSource: TimeSource = () => performance.now();

/** What drives a board source. */
export type BoardKind = 'serial' | 'firmata' | 'sim' | 'emulator' | 'station';

export interface BoardSource {
  /** what drives it */
  readonly kind: BoardKind;
  /** the port it is on, when it has one (for messages) */
  readonly path?: string | null;
  /** Connect (handshake included) and start streaming. Rejects with a clear Error if no board can be opened. */
  open(): Promise<BoardIdentity>;
  /** Stop streaming and release the hardware. Never rejects. */
  close(): Promise<void>;
  /** Subscribe to frames; returns the unsubscribe function. */
  onFrame(listener: (frame: RawFrame) => void): () => void;
  /** Subscribe to status changes; returns the unsubscribe function. */
  onStatus(listener: (status: SourceStatus) => void): () => void;
  /** Send a command (buzzer, LED, rate…). Resolves true once handed to the board, false if no board is connected. Never rejects. */
  send(command: HostCommand): Promise<boolean>;
  stats(): SourceStats;
}

interface SourceEvents extends Record<string, unknown> {
  frame: RawFrame;
  status: SourceStatus;
}

/** Shared plumbing for drivers: listeners, clock, line statistics. */
export abstract class SourceBase implements BoardSource {
  abstract readonly kind: BoardKind;
  protected readonly events = new Emitter<SourceEvents>();
  protected readonly lines = new LineStats();
  protected readonly clock: TimeSource;
  protected counters = { lost: 0, reconnects: 0, commandsSent: 0 };
  private lastStatus: SourceStatus = { state: 'closed' };

  constructor(clock: TimeSource = defaultTimeSource) {
    this.clock = clock;
  }

  abstract open(): Promise<BoardIdentity>;
  abstract close(): Promise<void>;
  abstract send(command: HostCommand): Promise<boolean>;

  onFrame(listener: (frame: RawFrame) => void): () => void {
    return this.events.on('frame', listener);
  }
  onStatus(listener: (status: SourceStatus) => void): () => void {
    return this.events.on('status', listener);
  }
  /** the last status reported */
  status(): SourceStatus {
    return this.lastStatus;
  }
  stats(): SourceStats {
    return { ...this.lines.figures(), ...this.counters };
  }

  protected setStatus(s: SourceStatus): void {
    this.lastStatus = s;
    if (s.state === 'lost') this.counters.lost++;
    if (s.state === 'reconnected') this.counters.reconnects++;
    this.events.emit('status', s);
  }
  protected emitFrame(seq: number, readings: Uint16Array, t = this.clock()): void {
    this.events.emit('frame', { seq, t, readings });
  }
}
