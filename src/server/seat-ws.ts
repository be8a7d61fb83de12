// The friend's seat socket (/play/<token>/ws): the WebSocket of the page of a
// player with no board (seat.ts). Only the seat's token opens it (a watch or
// control token does not; a foreign Origin is refused as on /ws); it is sent
// the seat and the game's snapshot on connect, every game event with the
// snapshot after it and the clocks; what it sends is parsed with the seat
// protocol (src/protocol/play-v1.ts), malformed or oversized messages
// answered with a named error and the game left as it was, its actions
// limited like a page's commands (rate.ts). A dead connection is dropped by a
// heartbeat; the board's player is told when the friend's page goes or comes
// back (the session's remote link).

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Logger } from 'pino';
import type { SessionEvent } from '../game/index.ts';
import { MAX_CLIENT_MESSAGE, type GameEvent } from '../protocol/v1.ts';
import { SeatClientMessage, type SeatServerMessage } from '../protocol/play-v1.ts';
import type { Access } from './access.ts';
import { commandFailure } from './commands.ts';
import { describeIssue, type Issue } from './messages.ts';
import { CommandRate, type CommandRates } from './rate.ts';
import { SOCKET_DEFAULTS } from './socket-limits.ts';
import type { FriendSeat } from './seat.ts';

interface SeatClient {
  ws: WebSocket;
  alive: boolean;
  rate: CommandRate | null;
}

/** The socket path of a seat: /play/<token>/ws → the token (else null). */
export function seatTokenOfPath(pathname: string): string | null {
  const m = /^\/play\/([A-Za-z0-9_-]{1,100})\/ws$/.exec(pathname);
  return m ? m[1]! : null;
}

export class SeatGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_CLIENT_MESSAGE, perMessageDeflate: false });
  private readonly clients = new Set<SeatClient>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly off: () => void;
  private readonly offEnd: () => void;

  constructor(
    private readonly seat: FriendSeat,
    private readonly access: Access,
    private readonly log: Logger,
    private readonly opts: { heartbeatMs?: number; commandRates?: CommandRates | null; now?: () => number } = {},
  ) {
    this.off = seat.session.on((e) => this.sessionEvent(e));
    this.offEnd = seat.onEnd(() => this.letGo());
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs ?? SOCKET_DEFAULTS.heartbeatMs);
    this.heartbeat.unref();
  }

  /** seat pages connected */
  get size(): number {
    return this.clients.size;
  }

  /** An upgrade to /play/<token>/ws: admitted with the seat's token, from no foreign page. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, token: string): void {
    const requester = { remoteAddress: req.socket.remoteAddress, host: req.headers.host, origin: req.headers.origin };
    const refuse = (status: string, text: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${text}\n`, () => socket.destroy());
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    if (!this.access.sameOrigin(requester)) return refuse('403 Forbidden', 'this seat answers only its own page');
    if (!this.seat.matches(token)) return refuse('403 Forbidden', 'this seat link is not valid (any more): ask for a new one');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
    const rate = this.opts.commandRates === null ? null : new CommandRate(this.opts.commandRates, this.opts.now);
    const c: SeatClient = { ws, alive: true, rate };
    this.clients.add(c);
    if (this.clients.size === 1) this.link('online');
    ws.on('pong', () => (c.alive = true));
    ws.on('error', () => {});
    ws.on('close', () => {
      this.clients.delete(c);
      if (this.clients.size === 0) this.link('offline');
    });
    ws.on('message', (data, binary) => this.onMessage(c, data, binary));
    this.send(c, { v: 1, type: 'seat', seat: this.seat.info(), state: this.seat.session.snapshot() });
  }

  /** The board's page shows whether the friend's page is there (said when it changes). */
  private link(state: 'online' | 'offline'): void {
    if (this.seat.side()) this.seat.session.remoteLink({ state, since: Date.now() });
  }

  private send(c: SeatClient, msg: SeatServerMessage | string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.ws.bufferedAmount > 1024 * 1024) return void c.ws.terminate();
    c.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  private sessionEvent(e: SessionEvent): void {
    if (this.clients.size === 0 || e.type === 'counts') return;
    let msg: SeatServerMessage;
    if (e.type === 'clock') msg = { v: 1, type: 'clock', clock: e.clock };
    else {
      const event: GameEvent = e.type === 'calibrated' ? { type: 'calibrated', say: e.say } : e;
      // (The state as this event left it: the session's one snapshot of the change, shared with the board's pages.)
      msg = { v: 1, type: 'event', event, seat: this.seat.info(), state: this.seat.session.changeSnapshot() };
    }
    const text = JSON.stringify(msg);
    for (const c of this.clients) this.send(c, text);
  }

  private onMessage(c: SeatClient, data: RawData, binary: boolean): void {
    c.alive = true;
    const reply = (m: SeatServerMessage) => this.send(c, m);
    const error = (code: string, message: string, id?: string) => reply({ v: 1, type: 'error', code, message, ...(id ? { id } : {}) });
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    if (binary) return error('binary', 'binary messages are not accepted: send JSON text');
    if (buf.byteLength > MAX_CLIENT_MESSAGE) return error('too-large', `message of ${buf.byteLength} bytes is over the limit`);
    let json: unknown;
    try {
      json = JSON.parse(buf.toString('utf8'));
    } catch {
      return error('bad-json', 'the message is not valid JSON');
    }
    const p = SeatClientMessage.safeParse(json);
    const id = typeof (json as { id?: unknown })?.id === 'string' ? String((json as { id: string }).id).slice(0, 64) : undefined;
    if (!p.success) return error('bad-message', `seat message: ${describeIssue(p.error.issues[0] as Issue, json)}`, id);
    const msg = p.data;
    if (msg.type === 'ping') return reply({ v: 1, type: 'pong' });
    if (msg.type === 'hello') return reply({ v: 1, type: 'seat', seat: this.seat.info(), state: this.seat.session.snapshot() });
    const tooMany = c.rate?.admitNamed(msg.act.name) ?? null;
    if (tooMany) return error('rate-limited', tooMany, id);
    try {
      this.seat.act(msg.act);
    } catch (e) {
      const f = commandFailure(e);
      if (f.internal) this.log.error({ err: e, act: msg.act.name }, 'seat action failed');
      return error(f.code, f.message, id);
    }
    reply({ v: 1, type: 'ok', ...(id ? { id } : {}) });
  }

  /** The seat ended (closed, or a new pairing): its pages are told so and let go (their link no longer opens it). */
  private letGo(): void {
    const text = JSON.stringify({
      v: 1,
      type: 'error',
      code: 'seat-closed',
      message: 'this link is no longer a seat: ask the player at the board for a new one',
    } satisfies SeatServerMessage);
    for (const c of this.clients) {
      this.send(c, text);
      c.ws.close(1008, 'seat closed');
    }
    this.clients.clear();
  }

  /** Drops the seat pages that did not answer the last ping, pings the others. */
  beat(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        this.clients.delete(c);
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        c.ws.terminate();
      }
    }
  }

  /** Closes the seat pages (1001) and stops following the session. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.off();
    this.offEnd();
    for (const c of this.clients) c.ws.close(1001, 'server shutting down');
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
