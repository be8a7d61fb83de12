// One room's pages: the WebSocket clients following one board's game, and
// what they are all sent: session events with the state after them (as what
// changed since the state each page was last sent: src/protocol/state-patch.ts;
// the whole snapshot only on hello and when asked; a session event's state is
// the session's one snapshot of that change, changeSnapshot), notices
// (storage trouble…), clock ticks, and the live board occupancy (throttled,
// always ending on the latest). A page that stops reading is dropped once its
// send buffer passes a limit, so it cannot stall the others.

import { WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { GameSession, SessionEvent } from '../game/index.ts';
import { PROTOCOL_VERSION, type GameEvent, type ServerMessage, type Snapshot } from '../protocol/v1.ts';
import { diffState, sentOf, type Sent } from '../protocol/state-patch.ts';
import type { Requester } from './access.ts';
import type { CommandRate } from './rate.ts';
import { SOCKET_DEFAULTS } from './socket-limits.ts';

/** What each option is when it is not given (and SOCKET_DEFAULTS). */
const DEFAULTS = { countsIntervalMs: 50 } as const;

export interface BroadcastOptions {
  /** a client whose unsent data passes this many bytes is dropped (default 1 MiB) */
  maxBufferedBytes?: number;
  /** least time between two occupancy messages (default 50 ms: at most 20 a second) */
  countsIntervalMs?: number;
}

/** A connected page. */
export interface PageClient {
  ws: WebSocket;
  requester: Requester;
  canControl: boolean;
  /** answered since the last heartbeat */
  alive: boolean;
  id: number;
  /** its allowance of commands (null: no limit) */
  rate: CommandRate | null;
  /** the state it was last sent and its revision (an event's patch is worked out against it) */
  sent?: { state: Sent; rev: number };
}

export class Broadcast {
  private readonly clients = new Set<PageClient>();
  private readonly maxBuffered: number;
  private readonly countsInterval: number;
  private countsTimer: ReturnType<typeof setTimeout> | null = null;
  private lastCountsAt = -Infinity;
  /** the revision of the last state sent to any page */
  private rev = 0;

  constructor(
    private readonly session: GameSession,
    private readonly log: Logger,
    opts: BroadcastOptions = {},
  ) {
    this.maxBuffered = opts.maxBufferedBytes ?? SOCKET_DEFAULTS.maxBufferedBytes;
    this.countsInterval = opts.countsIntervalMs ?? DEFAULTS.countsIntervalMs;
  }

  get size(): number {
    return this.clients.size;
  }

  add(c: PageClient): void {
    this.clients.add(c);
  }

  remove(c: PageClient): void {
    this.clients.delete(c);
  }

  /** The pages, to look at in turn (the heartbeat); a copy, so they may be dropped meanwhile. */
  pages(): PageClient[] {
    return [...this.clients];
  }

  /** Sends to one page, dropping it if it has stopped reading. */
  send(c: PageClient, msg: ServerMessage | string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.ws.bufferedAmount > this.maxBuffered) {
      this.log.warn({ client: c.id, buffered: c.ws.bufferedAmount }, 'client is not reading: dropped');
      this.drop(c);
      return;
    }
    c.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  drop(c: PageClient): void {
    this.clients.delete(c);
    c.ws.terminate();
  }

  private broadcast(msg: ServerMessage): void {
    if (this.clients.size === 0) return;
    const data = JSON.stringify(msg);
    for (const c of this.clients) this.send(c, data);
  }

  /** A session event (with the state after it), a clock tick, or occupancy (throttled). */
  sessionEvent(e: SessionEvent): void {
    if (e.type === 'counts') return this.countsChanged();
    if (e.type === 'clock') return this.broadcast({ v: 1, type: 'clock', clock: e.clock });
    // The calibration's data stays on the server; the page hears that it is done.
    if (this.clients.size === 0) return;
    this.notice(e.type === 'calibrated' ? { type: 'calibrated', say: e.say } : e, this.session.changeSnapshot());
  }

  /** The whole state to one page (a hello, or the state it asked for): what its next patch is worked out against. */
  sendState(c: PageClient, message: (state: Snapshot, rev: number) => ServerMessage): void {
    const state = this.session.snapshot();
    const rev = ++this.rev;
    c.sent = { state: sentOf(state), rev };
    this.send(c, message(state, rev));
  }

  /**
   * An event with the state after it, to every page: what changed since the
   * state each was last sent (pages sent the same state share one message),
   * the whole snapshot to a page that has none yet. A session event's state is
   * the one taken of its change; a notice from elsewhere (storage, the hub's
   * link) is sent with the state now.
   */
  notice(event: GameEvent, state?: Snapshot): void {
    if (this.clients.size === 0) return;
    state ??= this.session.snapshot();
    const after = sentOf(state);
    const rev = ++this.rev;
    const texts = new Map<Sent | null, string>();
    for (const c of [...this.clients]) {
      const before = c.sent?.state ?? null;
      let text = texts.get(before);
      if (text === undefined) {
        const msg: ServerMessage = before
          ? { v: PROTOCOL_VERSION, type: 'event', event, patch: { ...diffState(before, after, state), base: c.sent!.rev, rev } }
          : { v: PROTOCOL_VERSION, type: 'event', event, state, rev };
        text = JSON.stringify(msg);
        texts.set(before, text);
      }
      c.sent = { state: after, rev };
      this.send(c, text);
    }
  }

  private sendCounts(): void {
    this.countsTimer = null;
    this.lastCountsAt = performance.now();
    const t = this.session.tracker;
    this.broadcast({ v: 1, type: 'counts', counts: Array.from(t.view.counts), differences: t.differences(), status: t.boardStatus });
  }

  private countsChanged(): void {
    if (this.countsTimer || this.clients.size === 0) return;
    const wait = this.lastCountsAt + this.countsInterval - performance.now();
    if (wait <= 0) this.sendCounts();
    else this.countsTimer = setTimeout(() => this.sendCounts(), wait);
  }

  /** Closes every page (1001), waiting a little for each to say goodbye. */
  async close(): Promise<void> {
    if (this.countsTimer) clearTimeout(this.countsTimer);
    this.countsTimer = null;
    const open = [...this.clients];
    this.clients.clear();
    await Promise.all(open.map((c) => closePage(c.ws)));
  }
}

function closePage(ws: WebSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    const t = setTimeout(() => {
      ws.terminate();
      resolve();
    }, 300);
    ws.once('close', () => {
      clearTimeout(t);
      resolve();
    });
    ws.close(1001, 'server shutting down');
  });
}
