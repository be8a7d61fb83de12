// The spectators' side of club mode: every board's game as one live PDN
// (GET /broadcast.pdn: ETag, and long polling with If-None-Match, as lichess
// relays follow a broadcast; the games as broadcast-pdn.ts lists them) and the spectators' socket (/watch/ws: every
// board's summary on connect, then each board as it changes, at most one
// message per board per `summaryMs`; the summary each room keeps of its last
// change). Spectators cost the boards nothing but one serialisation per change
// (a change on one board makes that board's PDN text and summary alone, kept by
// its room: room.ts, room-record.ts): a page that stops reading is dropped once its
// buffer passes a limit, and nothing a spectator can send reaches a game.

import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { SessionEvent } from '../game/index.ts';
import type { ClockState } from '../protocol/v1.ts';
import type { BoardSummary, WatchMessage } from '../protocol/club-v1.ts';
import { RECORD_EVENTS, type Room } from './room.ts';
import { parseClientMessage } from './messages.ts';
import { broadcastPdn } from './broadcast-pdn.ts';
import { SOCKET_DEFAULTS } from './socket-limits.ts';

/** What each option is when it is not given (and SOCKET_DEFAULTS). */
const DEFAULTS = { summaryMs: 50 } as const;

export interface FeedOptions {
  /** least time between two summaries of one board (default 50 ms) */
  summaryMs?: number;
  /** a spectator whose unsent data passes this many bytes is dropped (default 1 MiB) */
  maxBufferedBytes?: number;
  /** ping period; a spectator that has not answered the previous ping is dropped (default 30 s) */
  heartbeatMs?: number;
}

interface Waiter {
  resolve: (changed: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class SpectatorFeed {
  private version = 0;
  private readonly epoch = Date.now().toString(36);
  private pdnCache: { version: number; text: string } | null = null;
  private readonly waiters = new Set<Waiter>();
  private readonly watchers = new Set<WebSocket>();
  /** spectators that answered since the last ping */
  private readonly alive = new WeakSet<WebSocket>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly pending = new Map<Room, ReturnType<typeof setTimeout>>();
  /** each room's clock as last forwarded: running side, flag, started */
  private readonly clockKeys = new Map<Room, string>();
  private readonly offs: (() => void)[] = [];
  private readonly summaryMs: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly rooms: readonly Room[],
    private readonly log: Logger,
    opts: FeedOptions = {},
  ) {
    this.summaryMs = opts.summaryMs ?? DEFAULTS.summaryMs;
    this.maxBuffered = opts.maxBufferedBytes ?? SOCKET_DEFAULTS.maxBufferedBytes;
    for (const room of rooms) this.watchRoom(room);
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs ?? SOCKET_DEFAULTS.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Drops the spectators that did not answer the last ping (a phone gone to sleep), pings the others. */
  private beat(): void {
    for (const ws of this.watchers) {
      if (!this.alive.has(ws)) {
        this.watchers.delete(ws);
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }

  /** Follows a room's game (each room of the list at the start; a board added later when it joins the list: shown and broadcast at once). */
  watchRoom(room: Room, joined = false): void {
    this.offs.push(room.session.on((e) => this.changed(room, e)));
    if (!joined) return;
    this.touch();
    this.summarise(room);
  }

  /** Every board at a glance, by number. */
  summaries(): BoardSummary[] {
    return this.rooms.map((r) => r.summary()).sort((a, b) => a.number - b.number);
  }

  /** The feed's current entity tag (a new one after every change to any game's record). */
  get etag(): string {
    return `"b${this.epoch}-${this.version}"`;
  }

  /**
   * Every board's game as one PDN, by board number (each game keeps its own tags, Board among them; a hub's as club mode's:
   * broadcast-pdn.ts): joined again once per change, of the texts the rooms keep (each made once per change of its own record).
   */
  pdn(): string {
    if (this.pdnCache?.version !== this.version) this.pdnCache = { version: this.version, text: broadcastPdn(this.rooms) };
    return this.pdnCache.text;
  }

  /** A game's record changed outside its session (a saved game corrected): the broadcast moves on, long polls wake. */
  touch(): void {
    this.version++;
    for (const w of [...this.waiters]) w.resolve(true);
  }

  /** Resolves true as soon as the feed moves past `etag` (at once if it already has), false after `ms`. */
  waitPast(etag: string, ms: number): Promise<boolean> {
    if (etag !== this.etag) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const w: Waiter = {
        resolve: (changed) => {
          clearTimeout(w.timer);
          this.waiters.delete(w);
          resolve(changed);
        },
        timer: setTimeout(() => w.resolve(false), ms),
      };
      this.waiters.add(w);
    });
  }

  /** A spectator's socket: all boards now, then each change. */
  watch(ws: WebSocket): void {
    this.watchers.add(ws);
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('close', () => this.watchers.delete(ws));
    ws.on('error', () => this.watchers.delete(ws));
    ws.on('message', (data) => {
      this.alive.add(ws);
      // A spectator may only ping: a malformed message is named as the pages' socket names it; anything else is answered, never acted on.
      const parsed = parseClientMessage(String(data));
      const reply: WatchMessage = !parsed.ok
        ? { v: 1, type: 'error', code: parsed.error.code, message: parsed.error.message }
        : parsed.value.type === 'ping'
          ? { v: 1, type: 'pong' }
          : { v: 1, type: 'error', code: 'read-only', message: "the spectators' socket only sends: it takes no commands" };
      this.send(ws, JSON.stringify(reply));
    });
    this.send(ws, JSON.stringify({ v: 1, type: 'boards', boards: this.summaries() } satisfies WatchMessage));
  }

  get spectators(): number {
    return this.watchers.size;
  }

  private changed(room: Room, e: SessionEvent): void {
    if (RECORD_EVENTS.has(e.type)) this.touch();
    if (e.type === 'clock' && !this.clockTurned(room, e.clock)) return;
    this.summarise(room);
  }

  /** The board's summary to every spectator, once per `summaryMs` at most. */
  private summarise(room: Room): void {
    if (this.watchers.size === 0 || this.pending.has(room)) return;
    const timer = setTimeout(() => {
      this.pending.delete(room);
      const text = JSON.stringify({ v: 1, type: 'board', board: room.summary() } satisfies WatchMessage);
      for (const ws of this.watchers) this.send(ws, text);
    }, this.summaryMs);
    this.pending.set(room, timer);
  }

  /**
   * A clock message matters to spectators only when a clock starts, stops or
   * falls: between those their pages count down themselves (the session's
   * once-a-second clock ticks would otherwise cost a summary per board per second).
   */
  private clockTurned(room: Room, c: ClockState): boolean {
    const key = `${c.running}/${c.flagged}/${c.started}`;
    if (this.clockKeys.get(room) === key) return false;
    this.clockKeys.set(room, key);
    return true;
  }

  private send(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.maxBuffered) {
      this.log.info('a spectator stopped reading: dropped');
      this.watchers.delete(ws);
      ws.terminate();
      return;
    }
    ws.send(text);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const off of this.offs.splice(0)) off();
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    for (const w of [...this.waiters]) w.resolve(false);
    for (const ws of this.watchers) ws.close(1001, 'shutting down');
    this.watchers.clear();
  }
}
