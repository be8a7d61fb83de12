// The game page's WebSocket client: the reconnecting socket
// (reconnecting-socket.ts) to /ws under the page's base, speaking the page's
// protocol: after a reconnect it asks for a fresh snapshot with a hello, and
// outgoing messages are checked against the protocol (src/protocol/v1.ts)
// before sent. The first connection is the one boot.ts opened early, when
// there is one: taken over with what it heard so far, replayed in order.

import { EARLY_SOCKET, socketUrl, type EarlySocket } from './base.ts';
import { ReconnectingSocket, type SocketLike } from './reconnecting-socket.ts';
import { ClientMessage, PROTOCOL_VERSION, type Command } from '../protocol/v1.ts';

export { backoff } from './reconnecting-socket.ts';

export interface SocketEvents {
  message(raw: string): void;
  open(): void;
  closed(retryInMs: number): void;
}

export class ServerSocket {
  private readonly conn: ReconnectingSocket;
  private nextId = 1;

  constructor(
    private readonly url: string,
    on: SocketEvents,
    private readonly token: string | null,
    random: () => number = Math.random,
  ) {
    const events = {
      message: (raw: string) => on.message(raw),
      open: (again: boolean) => {
        on.open();
        // The server greets every new connection; after a reconnect ask again explicitly.
        if (again) this.sendRaw({ v: PROTOCOL_VERSION as 1, type: 'hello' });
      },
      closed: (retryInMs: number) => on.closed(retryInMs),
    };
    this.conn = new ReconnectingSocket(url, events, { random });
  }

  /** ws under the page's base (/ws, or /boards/ID/ws in club mode); the control token (if the page has one) goes along so the server grants control. */
  static urlFor(loc: Pick<Location, 'protocol' | 'host'> & { pathname?: string }, token: string | null = null): string {
    return socketUrl(loc, token);
  }

  connect(): void {
    const early = takeEarlySocket(this.url);
    // browser edge: the browser's WebSocket has every member SocketLike names
    if (early) this.conn.adopt(early.ws as unknown as SocketLike, early);
    else this.conn.connect();
  }

  /** Close and stay closed (the server refused the page: trying again would only be refused again). */
  stop(): void {
    this.conn.stop();
  }

  /** Ask for the whole state again (an event's patch did not fit the state held). */
  askState(): void {
    this.sendRaw({ v: PROTOCOL_VERSION as 1, type: 'hello' });
  }

  /** Reconnect at once (e.g. the page became visible again). */
  nudge(): void {
    this.conn.nudge();
  }

  get open(): boolean {
    return this.conn.open;
  }

  private sendRaw(msg: ClientMessage): boolean {
    const r = ClientMessage.safeParse(msg);
    if (!r.success) {
      console.error('crownhead: not sending an invalid message', msg, r.error.issues);
      return false;
    }
    return this.conn.send(JSON.stringify(r.data));
  }

  /** Sends a command; returns its id, or null if it could not be sent. */
  command(command: Command): string | null {
    const id = `c${this.nextId++}`;
    const msg: ClientMessage = { v: 1, type: 'command', id, command, ...(this.token ? { token: this.token } : {}) };
    return this.sendRaw(msg) ? id : null;
  }
}

/** boot.ts's socket to the same address, once; null marks it taken (or too late: boot.ts opens none after this). */
function takeEarlySocket(url: string): EarlySocket | null {
  // browser edge: boot.ts leaves its socket as a property of the page's global object
  const g = globalThis as unknown as Record<string, EarlySocket | null | undefined>;
  const early = g[EARLY_SOCKET];
  g[EARLY_SOCKET] = null;
  if (!early) return null;
  if (early.url === url) return early;
  early.ws.close();
  return null;
}
