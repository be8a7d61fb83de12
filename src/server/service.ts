// The Crownhead service, as wiring: the log, access control, the engine's
// worker (started on its first search) with the order of its searches, the
// rooms (room.ts: a board's source, session, journal and pages — one for a
// single board, one per board in club mode, each in its own games folder
// named by the board's id), the spectators' feed (feed.ts) in club mode, and
// the HTTP server (http.ts routes, club-routes.ts, the club pages' club-pages.ts, listener.ts) with the
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
import { loadPage, type Page } from './page.ts';
import { Room, type BoardOptions, type GameSettings, type RoomDeps, type StorageOptions } from './room.ts';
import { WsGateway, type WsOptions, type WsRoom } from './ws.ts';
import { SpectatorFeed, type FeedOptions } from './feed.ts';
import { clubRoutes, type ClubRoutesOptions } from './club-routes.ts';
import { clubPageRoutes } from './club-pages.ts';
import { Director } from './director.ts';
import { gameIds } from '../game/ids.ts';
import { roundPdn, tournamentRoutes } from './tourney-routes.ts';
import { openBoardSources, type OpenedSource, type SerialTuning } from '../sensors/open.ts';
import type { SerialBinding } from '../sensors/line-port.ts';
import express from 'express';
import { join } from 'node:path';

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
  /** club mode: /watch and /broadcast.pdn open to anyone who can reach the server (no token) */
  publicWatch?: boolean;
}

export interface EngineOptions {
  /** how long the computer may think per move at full strength, ms (a level uses its share); default 2000 */
  thinkMs?: number;
}

export interface LogOptions {
  logger?: Logger;
  level?: LevelWithSilent;
}

/**
 * Club mode: several boards in one service. Each board is opened first (its id
 * names its games folder, <games>/boards/ID), gets a number (the PDN Board
 * tag) in the order given, and its own room; one board found is a single board.
 */
export interface ClubOptions {
  /** board specs, in order (auto finds every Crownhead board on USB) */
  specs?: string[];
  /** simulated boards after the specs (SIM-1, SIM-2 …) */
  simBoards?: number;
  /** already made sources (tests: simulated boards on the manual clock), after the specs */
  sources?: BoardSource[];
  /** serialport binding and the serial links' timings (tests: the mock bus, short timings) */
  binding?: SerialBinding;
  serial?: SerialTuning;
  /** the spectators' feed and the broadcast's long polling */
  feed?: FeedOptions & ClubRoutesOptions;
}

/** The service's options, by concern. */
export interface ServiceOptions {
  board?: BoardOptions;
  /** several boards (club mode); `board` is then not used */
  club?: ClubOptions;
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
  /** the first board's (the only one's, for a single board) */
  session: GameSession;
  source: BoardSource;
  store: GameStore;
  /** every board's room, by number (one for a single board) */
  rooms: readonly Room[];
  /** the spectators' feed (club mode) */
  feed: SpectatorFeed | null;
  /** the tournament director (club mode) */
  director: Director | null;
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

/** Every board of a club, opened, in order: the specs, the simulated boards, then the sources given. */
function openClubBoards(club: ClubOptions): Promise<OpenedSource[]> {
  const specs = club.specs ?? (club.simBoards || club.sources?.length ? [] : ['auto']);
  return openBoardSources(specs, { simBoards: club.simBoards, sources: club.sources, binding: club.binding, serial: club.serial });
}

/** The rooms: one as today, or one per board of a club (each in <games>/boards/ID, tagged with its board number). */
async function openRooms(opts: ServiceOptions, deps: RoomDeps): Promise<Room[]> {
  const room = { storage: opts.storage, game: opts.game, pages: opts.http?.ws };
  if (!opts.club) return [await Room.open({ ...room, board: opts.board }, deps)];
  const boards = await openClubBoards(opts.club);
  if (boards.length === 1) return [await Room.open({ ...room, opened: boards[0]! }, deps)];
  const rooms: Room[] = [];
  try {
    for (const [i, b] of boards.entries()) {
      const number = i + 1;
      const storage = { ...opts.storage, gamesDir: join(opts.storage.gamesDir, 'boards', b.identity.id) };
      const game = { ...opts.game, tags: { ...opts.game?.tags, Board: String(number) } };
      const log = deps.logger.child({ board: b.identity.id });
      rooms.push(await Room.open({ ...room, storage, game, number, opened: b }, { ...deps, logger: log }));
    }
  } catch (e) {
    await Promise.all(rooms.map((r) => r.close()));
    await Promise.all(boards.slice(rooms.length).map((b) => b.source.close().catch(() => undefined)));
    throw e;
  }
  return rooms;
}

/** The HTTP app: club routes (the board list, each board under /boards/ID/, the broadcast, the tournament) in front of the first board's. */
function serviceApp(
  rooms: readonly Room[],
  access: Access,
  club: { feed: SpectatorFeed; director: Director } | null,
  page: Page,
  opts?: ClubOptions,
): express.Express {
  const first = createApp(rooms[0]!.context(access), page);
  if (!club) return first;
  const { feed, director } = club;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const boardApps = new Map(rooms.map((r) => [r.board!.identity.id, createApp(r.context(access), page)]));
  const roundText = () =>
    director.tournament?.currentRound() ? roundPdn(director, rooms, director.tournament.currentRound()) : Promise.resolve(null);
  clubPageRoutes(app, page, access);
  tournamentRoutes(app, director, rooms, access);
  clubRoutes(app, { feed, access, boardApps, roundText }, opts?.feed);
  app.use(first);
  return app;
}

/** The gateway's view of the rooms: /ws the first board, /boards/ID/ws each board. */
function wsRooms(rooms: readonly Room[], access: Access, logger: Logger, feed: SpectatorFeed | null) {
  const ws: WsRoom[] = rooms.map((r) => ({ ctx: r.context(access), pages: r.pages }));
  const byPath = new Map<string, WsRoom>(rooms.map((r, i) => [`/boards/${r.board!.identity.id}/ws`, ws[i]!]));
  byPath.set('/ws', ws[0]!);
  return { room: (path: string) => byPath.get(path) ?? null, all: () => ws, access, logger, watch: feed ?? undefined };
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  const http = opts.http ?? {};
  const host = http.host ?? '127.0.0.1';
  const logger = opts.log?.logger ?? pino({ level: opts.log?.level ?? 'info' });
  const access = new Access({
    host,
    requireToken: http.requireToken,
    token: http.token,
    readToken: http.readToken,
    publicWatch: http.publicWatch,
  });
  const engine = engineLink(opts.engine ?? {});
  // One game-id generator for every board: two boards never mint the same id (a tournament refuses a duplicate).
  const deps = { logger, think: engine.think, stopThinking: engine.stopThinking, thinkMs: opts.engine?.thinkMs, newGameId: gameIds() };
  const rooms = await openRooms(opts, deps).catch(async (e) => {
    await engine.close();
    throw e;
  });
  const room = rooms[0]!;
  const feed = rooms.length > 1 ? new SpectatorFeed(rooms, logger.child({ part: 'feed' }), opts.club?.feed) : null;
  const director = feed ? new Director(rooms, opts.storage.gamesDir, logger.child({ part: 'tournament' })) : null;
  let server: Server | null = null;
  let gateway: WsGateway | null = null;
  const teardown = async () => {
    director?.close();
    feed?.close();
    await gateway?.close();
    await closeServer(server);
    await Promise.all(rooms.map((r) => r.close()));
    await engine.close();
  };
  try {
    await director?.open();
    const page = await loadPage(logger);
    if (!page.ok) logger.error(`the web page is not available: ${page.message}`);
    const srv = (server = createHttpServer(
      serviceApp(rooms, access, feed && director ? { feed, director } : null, page, opts.club),
      http.timeouts ?? {},
    ));
    await listen(srv, host, http.port ?? 8080, logger);
    const gw = (gateway = new WsGateway(srv, wsRooms(rooms, access, logger, feed), http.ws));
    const port = (srv.address() as AddressInfo).port;
    const url = pageUrl(host, port);
    for (const r of rooms) r.store.lockServing(url);
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
      rooms,
      feed,
      director,
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
