// The WebSocket side (/ws on the HTTP server): a hello with the server info
// and the full state on connect; session events with the state after them;
// live board occupancy (throttled, always ending on the latest); clock
// ticks; and players' commands with ok/error replies. Robust against bad
// peers: malformed, oversized, binary or unknown messages get an error reply,
// a client that stops reading is cut off once its send buffer passes a limit
// (it cannot stall the others), heartbeats drop dead connections, and a
// page's commands past a rate (rate.ts) are refused, the page kept.
// Reads are guarded like commands: an upgrade from a foreign Origin is
// refused (403); a client that may not watch (no token from another device,
// a wrong token, an unexpected Host) gets an error saying why and is closed
// (1008) before it sees anything.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { SessionEvent } from '../game/index.ts';
import { TOKEN_COOKIE, type Requester } from './access.ts';
import { commandFailure } from './commands.ts';
import type { ServerContext } from './context.ts';
import { CommandRate, type CommandRates } from './rate.ts';
import { MAX_CLIENT_MESSAGE, PROTOCOL_VERSION, parseClientMessage } from './messages.ts';
import type { GameEvent, ServerMessage } from '../protocol/v1.ts';

export interface WsOptions {
  /** a client whose unsent data passes this many bytes is dropped (default 1 MiB) */
  maxBufferedBytes?: number;
  /** ping period; a client that has not answered the previous ping is dropped (default 30 s) */
  heartbeatMs?: number;
  /** least time between two occupancy messages (default 50 ms: at most 20 a second) */
  countsIntervalMs?: number;
  /** commands one page may send (default DEFAULT_COMMAND_RATES); null: no limit */
  commandRates?: CommandRates | null;
  /** the clock of the command rates, ms (tests) */
  now?: () => number;
}

/** Frames up to this size are read and answered with a "too-large" error; larger ones close the connection (1009). */
export const HARD_MAX_PAYLOAD = 4 * MAX_CLIENT_MESSAGE;

interface Client {
  ws: WebSocket;
  requester: Requester;
  canControl: boolean;
  alive: boolean;
  id: number;
  rate: CommandRate | null;
}

export interface WsHub {
  /** Sends a session event (with the state after it) to every page. */
  sessionEvent(e: SessionEvent): void;
  /** Sends an event that is not the session's (storage trouble…) with the state. */
  notice(event: GameEvent): void;
  readonly clientCount: number;
  close(): Promise<void>;
}

export function attachWebSocket(server: Server, ctx: ServerContext, opts: WsOptions = {}): WsHub {
  const maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
  const countsInterval = opts.countsIntervalMs ?? 50;
  const log = ctx.logger.child({ part: 'ws' });
  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_MAX_PAYLOAD, perMessageDeflate: false, clientTracking: false });
  const clients = new Set<Client>();
  let nextId = 1;
  let closed = false;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/ws' || closed) {
      socket.end(`HTTP/1.1 ${closed ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${closed ? 'shutting down' : 'WebSocket endpoint is /ws'}\n`);
      return;
    }
    socket.on('error', () => socket.destroy());
    const requester: Requester = {
      remoteAddress: req.socket.remoteAddress,
      host: req.headers.host,
      origin: req.headers.origin,
      token: url.searchParams.get('token'),
    };
    if (!ctx.access.sameOrigin(requester)) {
      log.info({ from: requester.remoteAddress, origin: requester.origin }, 'WebSocket from a foreign origin refused');
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${ctx.access.readRefusal(requester)}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!ctx.access.canRead(requester)) {
        log.info({ from: requester.remoteAddress, host: requester.host }, 'WebSocket without the right to watch: refused');
        ws.on('error', () => {});
        ws.send(JSON.stringify({ v: 1, type: 'error', code: 'forbidden', message: ctx.access.readRefusal(requester) } satisfies ServerMessage));
        ws.close(1008, 'forbidden');
        setTimeout(() => ws.terminate(), 1000).unref();
        return;
      }
      connected(ws, requester);
    });
  };
  server.on('upgrade', onUpgrade);
  // A page opened with a token gets it as a same-site, script-proof cookie on the API path, so its
  // download links (/api/current.pdn, /api/archive.pdn) work for other devices too.
  wss.on('headers', (headers, req) => {
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
    if (token && (ctx.access.tokenMatches(token) || ctx.access.readTokenMatches(token))) {
      headers.push(`Set-Cookie: ${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/api; HttpOnly; SameSite=Strict`);
    }
  });

  function send(c: Client, data: string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (c.ws.bufferedAmount > maxBuffered) {
      log.warn({ client: c.id, buffered: c.ws.bufferedAmount }, 'client is not reading: dropped');
      drop(c);
      return;
    }
    c.ws.send(data);
  }
  function drop(c: Client): void {
    clients.delete(c);
    c.ws.terminate();
  }
  function broadcast(msg: ServerMessage): void {
    if (clients.size === 0) return;
    const data = JSON.stringify(msg);
    for (const c of clients) send(c, data);
  }
  const reply = (c: Client, msg: ServerMessage) => send(c, JSON.stringify(msg));
  const hello = (c: Client): ServerMessage => ({
    v: 1,
    type: 'hello',
    server: { ...ctx.info(), readOnly: !c.canControl, tokenRequired: ctx.access.token !== null },
    state: ctx.session.snapshot(),
  });

  function connected(ws: WebSocket, requester: Requester): void {
    const c: Client = { ws, requester, canControl: ctx.access.canControl(requester), alive: true, id: nextId++, rate: opts.commandRates === null ? null : new CommandRate(opts.commandRates, opts.now) };
    clients.add(c);
    log.debug({ client: c.id, from: requester.remoteAddress, control: c.canControl }, 'page connected');
    ws.on('pong', () => (c.alive = true));
    ws.on('error', (err) => log.debug({ client: c.id, err: err.message }, 'client connection error'));
    ws.on('close', () => {
      clients.delete(c);
      log.debug({ client: c.id }, 'page disconnected');
    });
    ws.on('message', (data, isBinary) => onMessage(c, data, isBinary));
    reply(c, hello(c));
  }

  function onMessage(c: Client, data: RawData, isBinary: boolean): void {
    c.alive = true;
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    if (isBinary) return reply(c, { v: 1, type: 'error', code: 'binary', message: 'binary messages are not accepted: send JSON text' });
    if (size > MAX_CLIENT_MESSAGE) return reply(c, { v: 1, type: 'error', code: 'too-large', message: `message of ${size} bytes is over the ${MAX_CLIENT_MESSAGE}-byte limit` });
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return reply(c, { v: 1, type: 'error', code: parsed.code, message: parsed.message, ...idOf(text) });
    const msg = parsed.msg;
    switch (msg.type) {
      case 'ping':
        return reply(c, { v: 1, type: 'pong' });
      case 'hello':
        return reply(c, { v: 1, type: 'state', state: ctx.session.snapshot() });
      case 'command': {
        const id = msg.id !== undefined ? { id: msg.id } : {};
        const tooMany = c.rate?.admit(msg.command) ?? null;
        if (tooMany) return reply(c, { v: 1, type: 'error', code: 'rate-limited', message: tooMany, ...id });
        const who = { ...c.requester, token: msg.token ?? c.requester.token };
        if (!c.canControl && !ctx.access.canControl(who)) {
          return reply(c, { v: 1, type: 'error', code: 'forbidden', message: ctx.access.refusal(who), ...id });
        }
        try {
          ctx.command(msg.command);
        } catch (e) {
          const f = commandFailure(e);
          if (f.internal) log.error({ err: e, command: msg.command.name }, 'command failed');
          return reply(c, { v: 1, type: 'error', code: f.code, message: f.message, ...id });
        }
        return reply(c, { v: 1, type: 'ok', ...id });
      }
    }
  }

  // ------------------------------------------------------------ occupancy, throttled
  let countsTimer: ReturnType<typeof setTimeout> | null = null;
  let lastCountsAt = -Infinity;
  function sendCounts(): void {
    countsTimer = null;
    lastCountsAt = performance.now();
    const t = ctx.session.tracker;
    broadcast({ v: 1, type: 'counts', counts: Array.from(t.view.counts), differences: t.differences(), status: t.boardStatus });
  }
  function countsChanged(): void {
    if (countsTimer || clients.size === 0) return;
    const wait = lastCountsAt + countsInterval - performance.now();
    if (wait <= 0) sendCounts();
    else countsTimer = setTimeout(sendCounts, wait);
  }

  // ------------------------------------------------------------ heartbeat
  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        log.info({ client: c.id }, 'page stopped answering: dropped');
        drop(c);
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        drop(c);
      }
    }
  }, opts.heartbeatMs ?? 30_000);
  heartbeat.unref();

  return {
    sessionEvent(e) {
      if (e.type === 'counts') return countsChanged();
      if (e.type === 'clock') return broadcast({ v: 1, type: 'clock', clock: e.clock });
      if (clients.size === 0) return;
      // The calibration's data stays on the server; the page hears that it is done.
      const event: GameEvent = e.type === 'calibrated' ? { type: 'calibrated', say: e.say } : e;
      broadcast({ v: PROTOCOL_VERSION, type: 'event', event, state: ctx.session.snapshot() });
    },
    notice(event) {
      broadcast({ v: PROTOCOL_VERSION, type: 'event', event, state: ctx.session.snapshot() });
    },
    get clientCount() {
      return clients.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      if (countsTimer) clearTimeout(countsTimer);
      server.off('upgrade', onUpgrade);
      const open = [...clients];
      clients.clear();
      await Promise.all(open.map((c) => new Promise<void>((resolve) => {
        if (c.ws.readyState === WebSocket.CLOSED) return resolve();
        const t = setTimeout(() => {
          c.ws.terminate();
          resolve();
        }, 300);
        c.ws.once('close', () => {
          clearTimeout(t);
          resolve();
        });
        c.ws.close(1001, 'server shutting down');
      })));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The id of a command whose message failed validation, so the page can match the error to it. */
function idOf(text: string): { id?: string } {
  const m = /"id"\s*:\s*"([^"\\]{0,64})"/.exec(text.slice(0, 2000));
  return m ? { id: m[1] } : {};
}
