// The WebSocket gateway (/ws on the HTTP server): it admits pages to a room
// (its Broadcast, broadcast.ts) and answers what they send. On connect a hello
// with the server info and the full state; then players' commands with
// ok/error replies. Robust against bad peers: malformed, oversized, binary or
// unknown messages get an error reply, heartbeats drop dead connections, and a
// page's commands past a rate (rate.ts) are refused, the page kept.
// Reads are guarded like commands: an upgrade from a foreign Origin is
// refused (403); a client that may not watch (no token from another device,
// a wrong token, an unexpected Host) gets an error saying why and is closed
// (1008) before it sees anything. A friend's seat socket (/play/<token>/ws)
// is handed to its own gateway (seat-ws.ts). In club mode with a public broadcast, a
// board's own socket (/boards/ID/ws) admits anyone who may watch, read-only
// (what /watch links to); its games folder is not named to them.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { TOKEN_COOKIE, type Access, type Requester } from './access.ts';
import type { SpectatorFeed } from './feed.ts';
import type { Broadcast, BroadcastOptions, PageClient } from './broadcast.ts';
import { commandFailure } from './commands.ts';
import type { ServerContext } from './context.ts';
import { parseClientMessage } from './messages.ts';
import { MAX_CLIENT_MESSAGE, type ClientMessage, type ServerMessage } from '../protocol/v1.ts';
import { CommandRate, type CommandRates } from './rate.ts';
import { SOCKET_DEFAULTS } from './socket-limits.ts';
import { seatTokenOfPath, type SeatGateway } from './seat-ws.ts';

export interface WsOptions extends BroadcastOptions {
  /** ping period; a client that has not answered the previous ping is dropped (default 30 s) */
  heartbeatMs?: number;
  /** commands one page may send (default DEFAULT_COMMAND_RATES); null: no limit */
  commandRates?: CommandRates | null;
  /** the clock of the command rates, ms (tests) */
  now?: () => number;
}

/** Frames up to this size are read and answered with a "too-large" error; larger ones close the connection (1009). */
export const HARD_MAX_PAYLOAD = 4 * MAX_CLIENT_MESSAGE;

/** What the gateway needs of a room: its context (session, access, commands…) and its pages. */
export interface WsRoom {
  ctx: ServerContext;
  pages: Broadcast;
}

/**
 * The rooms the gateway admits pages to: /ws is the first board's (a single
 * board's URL, unchanged in club mode), /boards/ID/ws each board's; and the
 * spectators' socket /watch/ws when there is a broadcast.
 */
export interface WsRooms {
  /** the room a socket path names, or null */
  room(pathname: string): WsRoom | null;
  /** every room (heartbeats, shutdown) */
  all(): readonly WsRoom[];
  /** access control, shared by every room */
  access: Access;
  logger: Logger;
  /** the spectators' socket (/watch/ws), in club mode */
  watch?: SpectatorFeed;
  /** a friend's seat socket (/play/<token>/ws: seat-ws.ts), for a single board */
  seat?: SeatGateway;
}

type CommandMessage = Extract<ClientMessage, { type: 'command' }>;

/** Answers an upgrade that is refused, then destroys the socket (ending it alone would leave it half-open). */
function refuseUpgrade(socket: Duplex, status: string, text: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${text}\n`, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}

export class WsGateway {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: HARD_MAX_PAYLOAD,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly log: Logger;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head);
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly server: Server,
    private readonly rooms: WsRooms,
    private readonly opts: WsOptions = {},
  ) {
    this.log = rooms.logger.child({ part: 'ws' });
    server.on('upgrade', this.onUpgrade);
    // A page opened with a token gets it as a same-site, script-proof cookie on its API path (/api, or
    // /boards/ID/api for a club's board), so its download links (api/current.pdn, api/archive.pdn) work for
    // other devices too.
    this.wss.on('headers', (headers, req) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const token = url.searchParams.get('token');
      const access = this.rooms.access;
      if (token && (access.tokenMatches(token) || access.readTokenMatches(token))) {
        const path = url.pathname.replace(/\/ws$/, '/api');
        headers.push(`Set-Cookie: ${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=${path}; HttpOnly; SameSite=Strict`);
      }
    });
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs ?? SOCKET_DEFAULTS.heartbeatMs);
    this.heartbeat.unref();
  }

  /** pages connected, every room's (spectators not counted) */
  get clientCount(): number {
    return this.rooms.all().reduce((n, r) => n + r.pages.size, 0);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const seatToken = this.rooms.seat && !this.closed ? seatTokenOfPath(url.pathname) : null;
    if (seatToken !== null) return this.rooms.seat!.upgrade(req, socket, head, seatToken);
    const watching = url.pathname === '/watch/ws' && this.rooms.watch ? this.rooms.watch : null;
    const room = watching ? null : this.rooms.room(url.pathname);
    if ((!room && !watching) || this.closed) {
      if (this.closed) refuseUpgrade(socket, '503 Service Unavailable', 'shutting down');
      else refuseUpgrade(socket, '404 Not Found', 'WebSocket endpoints are /ws (the board), /boards/ID/ws and /watch/ws');
      return;
    }
    socket.on('error', () => socket.destroy());
    const requester: Requester = {
      remoteAddress: req.socket.remoteAddress,
      host: req.headers.host,
      origin: req.headers.origin,
      token: url.searchParams.get('token'),
    };
    const access = this.rooms.access;
    if (watching) return this.spectator(watching, req, socket, head, requester);
    if (!access.sameOrigin(requester)) {
      this.log.info({ from: requester.remoteAddress, origin: requester.origin }, 'WebSocket from a foreign origin refused');
      refuseUpgrade(socket, '403 Forbidden', access.readRefusal(requester));
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (access.canRead(requester)) return this.connected(room!, ws, requester, true);
      // A club's public broadcast: its boards' pages too, read-only.
      if (this.rooms.watch && access.canWatch(requester)) return this.connected(room!, ws, requester, false);
      this.log.info({ from: requester.remoteAddress, host: requester.host }, 'WebSocket without the right to watch: refused');
      ws.on('error', () => {});
      ws.send(JSON.stringify({ v: 1, type: 'error', code: 'forbidden', message: access.readRefusal(requester) } satisfies ServerMessage));
      ws.close(1008, 'forbidden');
      setTimeout(() => ws.terminate(), 1000).unref();
    });
  }

  /** A spectator: anyone who may watch (anyone, with a public broadcast), fed by the spectators' feed; never a command. */
  private spectator(feed: SpectatorFeed, req: IncomingMessage, socket: Duplex, head: Buffer, requester: Requester): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => {});
      if (this.rooms.access.canWatch(requester)) return feed.watch(ws);
      ws.send(JSON.stringify({ v: 1, type: 'error', code: 'forbidden', message: this.rooms.access.readRefusal(requester) }));
      ws.close(1008, 'forbidden');
      setTimeout(() => ws.terminate(), 1000).unref();
    });
  }

  /** A page admitted to a room; `reader`: it may read the board's API too (else a public spectator, told nothing of the server's folders). */
  private connected(room: WsRoom, ws: WebSocket, requester: Requester, reader: boolean): void {
    const { ctx, pages } = room;
    const rate = this.opts.commandRates === null ? null : new CommandRate(this.opts.commandRates, this.opts.now);
    const c: PageClient = { ws, requester, canControl: ctx.access.canControl(requester), alive: true, id: this.nextId++, rate };
    pages.add(c);
    this.log.debug({ client: c.id, from: requester.remoteAddress, control: c.canControl }, 'page connected');
    ws.on('pong', () => (c.alive = true));
    ws.on('error', (err) => this.log.debug({ client: c.id, err: err.message }, 'client connection error'));
    ws.on('close', () => {
      pages.remove(c);
      this.log.debug({ client: c.id }, 'page disconnected');
    });
    ws.on('message', (data, isBinary) => this.onMessage(room, c, data, isBinary));
    pages.sendState(c, (state, rev) => ({
      v: 1,
      type: 'hello',
      server: {
        ...ctx.info(),
        ...(reader ? {} : { gamesDir: undefined }),
        readOnly: !c.canControl,
        tokenRequired: ctx.access.token !== null,
      },
      state,
      rev,
    }));
  }

  private onMessage(room: WsRoom, c: PageClient, data: RawData, isBinary: boolean): void {
    const reply = (msg: ServerMessage) => room.pages.send(c, msg);
    c.alive = true;
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    if (isBinary) return reply({ v: 1, type: 'error', code: 'binary', message: 'binary messages are not accepted: send JSON text' });
    if (size > MAX_CLIENT_MESSAGE)
      return reply({
        v: 1,
        type: 'error',
        code: 'too-large',
        message: `message of ${size} bytes is over the ${MAX_CLIENT_MESSAGE}-byte limit`,
      });
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return reply({ v: 1, type: 'error', code: parsed.error.code, message: parsed.error.message, ...idOf(text) });
    const msg = parsed.value;
    switch (msg.type) {
      case 'ping':
        return reply({ v: 1, type: 'pong' });
      case 'hello':
        return room.pages.sendState(c, (state, rev) => ({ v: 1, type: 'state', state, rev }));
      case 'command': {
        const r = this.command(room, c, msg);
        return void (r instanceof Promise ? r.then(reply) : reply(r));
      }
    }
  }

  /** Runs a page's command if it may (rights, rate); the reply to send (once a station has answered, for a station's board). */
  private command(room: WsRoom, c: PageClient, msg: CommandMessage): ServerMessage | Promise<ServerMessage> {
    const { ctx } = room;
    const id = msg.id !== undefined ? { id: msg.id } : {};
    const tooMany = c.rate?.admit(msg.command) ?? null;
    if (tooMany) return { v: 1, type: 'error', code: 'rate-limited', message: tooMany, ...id };
    const who = { ...c.requester, token: msg.token ?? c.requester.token };
    if (!c.canControl && !ctx.access.canControl(who))
      return { v: 1, type: 'error', code: 'forbidden', message: ctx.access.refusal(who), ...id };
    const failed = (e: unknown): ServerMessage => {
      const f = commandFailure(e);
      if (f.internal) this.log.error({ err: e, command: msg.command.name }, 'command failed');
      return { v: 1, type: 'error', code: f.code, message: f.message, ...id };
    };
    try {
      const done = ctx.command(msg.command);
      if (done) return done.then(() => ({ v: 1, type: 'ok', ...id }) as ServerMessage, failed);
    } catch (e) {
      return failed(e);
    }
    return { v: 1, type: 'ok', ...id };
  }

  /** Drops the pages that did not answer the last ping, pings the others. */
  /** One heartbeat now, as the timer runs every heartbeatMs: drops the pages that did not answer the last ping, pings the rest. */
  beat(): void {
    for (const { pages } of this.rooms.all()) this.beatRoom(pages);
  }

  private beatRoom(pages: Broadcast): void {
    for (const c of pages.pages()) {
      if (!c.alive) {
        this.log.info({ client: c.id }, 'page stopped answering: dropped');
        pages.drop(c);
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        pages.drop(c);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.server.off('upgrade', this.onUpgrade);
    await Promise.all(this.rooms.all().map((r) => r.pages.close()));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** The id of a command whose message failed validation, so the page can match the error to it. */
function idOf(text: string): { id?: string } {
  const m = /"id"\s*:\s*"([^"\\]{0,64})"/.exec(text.slice(0, 2000));
  return m ? { id: m[1] } : {};
}
