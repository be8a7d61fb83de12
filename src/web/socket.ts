// The page's WebSocket client: connects to /ws on the page's host, hands every
// message text to the caller, reconnects with exponential backoff (and asks
// for a fresh snapshot with a hello once back), and pings to notice a dead
// connection (a laptop waking up, a phone switching networks). Outgoing
// messages are checked against the protocol (src/protocol/v1.ts) before sent.

import { basePath } from './base.ts';
import { ClientMessage, PROTOCOL_VERSION, type Command } from '../protocol/v1.ts';

export interface SocketEvents {
  message(raw: string): void;
  open(): void;
  closed(retryInMs: number): void;
}

/** Delay before reconnection attempt n (1-based): 0.5 s doubling to 10 s, with ±20 % jitter. */
export function backoff(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

const PING_EVERY = 15_000;
const SILENCE_LIMIT = 35_000;

export class ServerSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private everOpened = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly on: SocketEvents,
    private readonly token: string | null,
    private readonly random: () => number = Math.random,
  ) {}

  /** ws under the page's base (/ws, or /boards/ID/ws in club mode); the control token (if the page has one) goes along so the server grants control. */
  static urlFor(loc: Pick<Location, 'protocol' | 'host'> & { pathname?: string }, token: string | null = null): string {
    const base = basePath(loc.pathname ?? '/');
    return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${base}ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }

  connect(): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const again = this.everOpened;
      this.attempt = 0;
      this.everOpened = true;
      this.lastHeard = Date.now();
      this.on.open();
      // The server greets every new connection; after a reconnect ask again explicitly.
      if (again) this.sendRaw({ v: PROTOCOL_VERSION as 1, type: 'hello' });
      this.startPings();
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
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

  private retry(): void {
    this.attempt++;
    const delay = backoff(this.attempt, this.random);
    this.on.closed(delay);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  /** Reconnect at once (e.g. the page became visible again). */
  nudge(): void {
    if (this.ws || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  private startPings(): void {
    this.stopPings();
    this.pinger = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
        // No answer: drop the connection and start over.
        const ws = this.ws;
        this.ws = null;
        ws.close();
        this.stopPings();
        this.retry();
        return;
      }
      this.sendRaw({ v: 1, type: 'ping' });
    }, PING_EVERY);
  }

  private stopPings(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  get open(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  private sendRaw(msg: ClientMessage): boolean {
    const r = ClientMessage.safeParse(msg);
    if (!r.success) {
      console.error('crownhead: not sending an invalid message', msg, r.error.issues);
      return false;
    }
    if (!this.open) return false;
    this.ws!.send(JSON.stringify(r.data));
    return true;
  }

  /** Sends a command; returns its id, or null if it could not be sent. */
  command(command: Command): string | null {
    const id = `c${this.nextId++}`;
    const msg: ClientMessage = { v: 1, type: 'command', id, command, ...(this.token ? { token: this.token } : {}) };
    return this.sendRaw(msg) ? id : null;
  }
}
