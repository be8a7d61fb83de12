// The Crownhead service, as wiring: the log, access control, the engine's
// worker (started on its first search) with the order of its searches, one
// room (room.ts: a board's source, session, journal and pages; club mode will
// make several), and the HTTP server (http.ts routes, listener.ts) with the
// WebSocket gateway (ws.ts). Options come grouped by concern; the CLI
// (src/cli/serve-settings.ts) builds the groups. One teardown, used by close()
// and by a failed start.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import type { Purpose, Think } from '../engine/port.ts';
import type { EngineClient } from '../engine-host/client.ts';
import type { GameSession } from '../game/index.ts';
import type { GameStore, StorageHealth } from '../storage/index.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import type { BoardSource } from '../sensors/source.ts';
import { Access, isLoopbackBind, type AccessOptions } from './access.ts';
import { EngineJobs, type EngineSeat } from '../engine/jobs.ts';
import { createApp } from './http.ts';
import { closeServer, connectionCount, createHttpServer, listen, type HttpTimeouts } from './listener.ts';
import { loadPage } from './page.ts';
import { Room, type BoardOptions, type GameSettings, type StorageOptions } from './room.ts';
import { WsGateway, type WsOptions } from './ws.ts';

export { describeBoard, type BoardOptions, type GameSettings, type StartPosition, type StorageOptions } from './room.ts';
export type { HttpTimeouts } from './listener.ts';

export interface HttpOptions extends Omit<AccessOptions, 'host'> {
  /** address to listen on (default 127.0.0.1) */
  host?: string;
  /** port (default 8080; 0 = any free port) */
  port?: number;
  /** the WebSocket side: buffers, heartbeat, command rates */
  ws?: WsOptions;
  /** HTTP time limits (tests shorten them) */
  timeouts?: HttpTimeouts;
}

export interface EngineOptions {
  /** how long the computer may think per move at full strength, ms (a level uses its share); default 2000 */
  thinkMs?: number;
}

export interface LogOptions {
  logger?: Logger;
  level?: LevelWithSilent;
}

/** The service's options, by concern. */
export interface ServiceOptions {
  board?: BoardOptions;
  storage: StorageOptions;
  game?: GameSettings;
  engine?: EngineOptions;
  http?: HttpOptions;
  log?: LogOptions;
}

export interface Service {
  /** the page's address, e.g. http://127.0.0.1:8080/ */
  url: string;
  port: number;
  host: string;
  /** the control token other devices need (null when only this machine can connect) */
  token: string | null;
  /** the read-only token other devices need to watch (null when only this machine can connect) */
  readToken: string | null;
  session: GameSession;
  source: BoardSource;
  store: GameStore;
  logger: Logger;
  /** the board in words, and why the simulated board is used if a real one was not found */
  board: { description: string; fallback: string | null; identity: BoardIdentity };
  storage(): StorageHealth;
  /** pages connected */
  clients(): number;
  /** open HTTP connections (WebSockets included) */
  connections(): Promise<number>;
  close(): Promise<void>;
}

/** The engine as the sessions see it: searches in turn by purpose (engine-jobs.ts), the worker started on the first. */
interface EngineLink {
  think: Think;
  stopThinking: (purpose: Purpose) => void;
  close(): Promise<void>;
}

/**
 * The think adapter: a session's search request as the engine worker's
 * think() call. The worker thread starts on the first search (the computer's
 * move, a hint, the bar or an analysis); the computer's move and a hint never
 * wait out an evaluation.
 */
function engineLink(opts: EngineOptions): EngineLink {
  let engine: EngineClient | null = null;
  const seat = async (): Promise<EngineSeat> => {
    if (!engine) engine = new (await import('../engine-host/client.ts')).EngineClient();
    const e = engine;
    // The session's requests are the engine's port (engine/port.ts) all the way to the worker: no translation here.
    return { run: (req) => e.think(req), stop: () => e.stop() };
  };
  const jobs = new EngineJobs(seat);
  return { think: (req) => jobs.think(req), stopThinking: (p) => jobs.cancel(p), close: async () => engine?.close() };
}

/** The address pages use: a wildcard bind is shown as 127.0.0.1, an IPv6 one in brackets. */
function pageUrl(host: string, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}/`;
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  const http = opts.http ?? {};
  const host = http.host ?? '127.0.0.1';
  const logger = opts.log?.logger ?? pino({ level: opts.log?.level ?? 'info' });
  const access = new Access({ host, requireToken: http.requireToken, token: http.token, readToken: http.readToken });
  const engine = engineLink(opts.engine ?? {});
  const room = await Room.open(
    { board: opts.board, storage: opts.storage, game: opts.game, pages: http.ws },
    { logger, think: engine.think, stopThinking: engine.stopThinking, thinkMs: opts.engine?.thinkMs },
  ).catch(async (e) => {
    await engine.close();
    throw e;
  });
  let server: Server | null = null;
  let gateway: WsGateway | null = null;
  const teardown = async () => {
    await gateway?.close();
    await closeServer(server);
    await room.close();
    await engine.close();
  };
  try {
    const ctx = room.context(access);
    const page = await loadPage(logger);
    if (!page.ok) logger.error(`the web page is not available: ${page.message}`);
    const srv = (server = createHttpServer(createApp(ctx, page), http.timeouts ?? {}));
    await listen(srv, host, http.port ?? 8080, logger);
    const gw = (gateway = new WsGateway(srv, { ctx, pages: room.pages }, http.ws));
    const port = (srv.address() as AddressInfo).port;
    const url = pageUrl(host, port);
    room.store.lockServing(url);
    if (!isLoopbackBind(host))
      logger.info(`listening on ${host}:${port}; other devices need a token: the control token to play, the watch token to follow`);
    let closing: Promise<void> | null = null;
    const board = room.board!;
    return {
      url,
      port,
      host,
      token: access.token,
      readToken: access.readToken,
      session: room.session,
      source: board.source,
      store: room.store,
      logger,
      board: { description: board.description, fallback: board.fallback, identity: board.identity },
      storage: () => room.store.health(),
      clients: () => gw.clientCount,
      connections: () => connectionCount(srv),
      close: () => (closing ??= teardown().then(() => logger.info('stopped'))),
    };
  } catch (e) {
    await teardown();
    throw e;
  }
}
