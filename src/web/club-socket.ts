// The club pages' socket: the spectators' socket /watch/ws on the page's host
// (the arbiter's page sends its token along), every message text handed to
// the caller, pings to notice a dead connection, and reconnection with the
// one-board page's backoff (socket.ts) when it drops — except after the
// server refused the page (forbidden), when trying again would only be
// refused again. The WebSocket constructor is injected so tests can drive it.

import { backoff } from './socket.ts';

export interface ClubSocketEvents {
  message(raw: string): void;
  open(): void;
  closed(retryInMs: number): void;
}

/** What the socket needs of a WebSocket (the browser's, or a test's). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface ClubSocketOptions {
  /** makes a WebSocket (default: the browser's) */
  open?: (url: string) => SocketLike;
  random?: () => number;
  /** ms between pings, and the silence after which the connection counts as dead */
  pingEvery?: number;
  silenceLimit?: number;
  now?: () => number;
}

const OPEN = 1;

export class ClubSocket {
  private ws: SocketLike | null = null;
  private attempt = 0;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private readonly make: (url: string) => SocketLike;
  private readonly now: () => number;

  constructor(
    private readonly url: string,
    private readonly on: ClubSocketEvents,
    private readonly opts: ClubSocketOptions = {},
  ) {
    this.make = opts.open ?? ((u) => new WebSocket(u) as unknown as SocketLike); // the browser's WebSocket has every member SocketLike names
    this.now = opts.now ?? Date.now;
  }

  /** /watch/ws on the page's host; a token (the arbiter's) goes along as ?token=. */
  static urlFor(loc: Pick<Location, 'protocol' | 'host'>, token: string | null = null): string {
    return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/watch/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }

  connect(): void {
    if (this.stopped) return;
    let ws: SocketLike;
    try {
      ws = this.make(this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.lastHeard = this.now();
      this.on.open();
      this.startPings();
    };
    ws.onmessage = (e) => {
      this.lastHeard = this.now();
      if (typeof e.data === 'string') this.on.message(e.data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPings();
      this.retry();
    };
    ws.onerror = () => {
      // onclose follows.
    };
  }

  /** The server refused the page: close and stay closed. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopPings();
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  /** Reconnect at once (the page became visible again). */
  nudge(): void {
    if (this.ws || !this.timer || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  private retry(): void {
    if (this.stopped) return;
    this.attempt++;
    const delay = backoff(this.attempt, this.opts.random);
    this.on.closed(delay);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  private startPings(): void {
    this.stopPings();
    this.pinger = setInterval(() => {
      const ws = this.ws;
      if (!ws) return;
      if (this.now() - this.lastHeard > (this.opts.silenceLimit ?? 35_000)) {
        // No answer: drop the connection and start over.
        this.ws = null;
        ws.close();
        this.stopPings();
        this.retry();
        return;
      }
      if (ws.readyState === OPEN) ws.send(JSON.stringify({ v: 1, type: 'ping' }));
    }, this.opts.pingEvery ?? 15_000);
  }

  private stopPings(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }
}
