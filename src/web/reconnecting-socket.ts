// The one reconnecting WebSocket both pages use (the game page's socket.ts and
// the club pages' club-socket.ts build on it): every message text handed to
// the caller, reconnection with exponential backoff when the connection
// drops, pings to notice a dead one (a laptop waking up, a phone switching
// networks), a nudge to try again at once, and stop() for good. It can take
// over a socket someone else opened (boot.ts's early one) with what that
// socket heard so far. The WebSocket constructor and the clock are injectable
// so tests can drive them. No protocol here: what is sent is the caller's.

/** What each option is when it is not given. */
const DEFAULTS = { silenceLimit: 35_000, pingEvery: 15_000 } as const;

export interface ReconnectingEvents {
  message(raw: string): void;
  /** `again`: this is a reconnection (the page saw an earlier connection open) */
  open(again: boolean): void;
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

export interface ReconnectingOptions {
  /** makes a WebSocket (default: the browser's) */
  open?: (url: string) => SocketLike;
  random?: () => number;
  /** ms between pings, and the silence after which the connection counts as dead */
  pingEvery?: number;
  silenceLimit?: number;
  now?: () => number;
}

/** What a socket opened elsewhere heard before it was taken over. */
export interface HeardSoFar {
  opened: boolean;
  closed: boolean;
  messages: readonly string[];
}

/** Delay before reconnection attempt n (1-based): 0.5 s doubling to 10 s, with ±20 % jitter. */
export function backoff(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

const OPEN = 1;
const PING = JSON.stringify({ v: 1, type: 'ping' });

export class ReconnectingSocket {
  private ws: SocketLike | null = null;
  private attempt = 0;
  private everOpened = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private readonly make: (url: string) => SocketLike;
  private readonly now: () => number;

  constructor(
    private readonly url: string,
    private readonly on: ReconnectingEvents,
    private readonly opts: ReconnectingOptions = {},
  ) {
    this.make = opts.open ?? ((u) => new WebSocket(u) as unknown as SocketLike); // the browser's WebSocket has every member SocketLike names
    this.now = opts.now ?? Date.now;
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
    this.attach(ws);
  }

  /** Takes over a socket opened elsewhere: our handlers from now on, and what it heard so far replayed in order. */
  adopt(ws: SocketLike, heard: HeardSoFar): void {
    if (this.stopped) return ws.close();
    this.attach(ws);
    if (heard.opened) this.opened();
    for (const data of heard.messages) this.heard(data);
    // Closed before it was taken over (a server restarting): start over as after any lost connection.
    if (heard.closed || ws.readyState > OPEN) this.lost(ws);
  }

  /** Close and stay closed (the server refused the page: trying again would only be refused again). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopPings();
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  /** Reconnect at once (e.g. the page became visible again). */
  nudge(): void {
    if (this.ws || !this.timer || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  get open(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN;
  }

  /** Sends a text if the connection is open; whether it was sent. */
  send(text: string): boolean {
    if (!this.open) return false;
    this.ws!.send(text);
    return true;
  }

  private attach(ws: SocketLike): void {
    this.ws = ws;
    ws.onopen = () => this.opened();
    ws.onmessage = (e) => this.heard(e.data);
    ws.onclose = () => this.lost(ws);
    ws.onerror = () => {
      // onclose follows.
    };
  }

  private opened(): void {
    const again = this.everOpened;
    this.attempt = 0;
    this.everOpened = true;
    this.lastHeard = this.now();
    this.on.open(again);
    this.startPings();
  }

  private heard(data: unknown): void {
    this.lastHeard = this.now();
    if (typeof data === 'string') this.on.message(data);
  }

  private lost(ws: SocketLike): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopPings();
    this.retry();
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
      if (this.now() - this.lastHeard > (this.opts.silenceLimit ?? DEFAULTS.silenceLimit)) {
        // No answer: drop the connection and start over.
        this.ws = null;
        ws.close();
        this.stopPings();
        this.retry();
        return;
      }
      if (ws.readyState === OPEN) ws.send(PING);
    }, this.opts.pingEvery ?? DEFAULTS.pingEvery);
  }

  private stopPings(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }
}
