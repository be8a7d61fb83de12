// The Crownhead service, as wiring: the log, access control, the engine's
// worker (started on its first search) with the order of its searches, the
// rooms (room.ts: a board's source, session, journal and pages — one for a
// single board, one per board in club mode, each in its own games folder
// named by the board's id, wired together by club.ts), and the HTTP server
// (http.ts routes, in club mode club.ts's in front, listener.ts) with the
// WebSocket gateway (ws.ts). Options come grouped by concern; the CLI
// (src/cli/serve-settings.ts) builds the groups. One teardown, used by close()
// and by a failed start.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import type { EngineRequest, Purpose, Think } from '../engine/port.ts';
import type { EngineClient } from '../engine-host/client.ts';
import type { GameSession } from '../game/index.ts';
import type { GameStore, StorageHealth } from '../storage/index.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import type { BoardSource } from '../sensors/source.ts';
import { Access, isLoopbackBind, type AccessOptions } from './access.ts';
import { EngineJobs, type EngineSeat } from '../engine/jobs.ts';
import { AnalysisPool, analysisLanes } from '../engine-host/pool.ts';
import { EgdbBuilder, type EgdbBuilderOptions } from '../engine-host/egdb-build.ts';
import { egdbRoutes } from './egdb-routes.ts';

import { createApp, securityHeaders } from './http.ts';
import { closeServer, connectionCount, createHttpServer, listen, type HttpTimeouts } from './listener.ts';
import { loadPage, type Page } from './page.ts';
import { Room, type BoardOptions, type GameSettings, type RoomDeps, type StorageOptions } from './room.ts';
import { WsGateway, type WsOptions, type WsRoom, type WsRooms } from './ws.ts';
import type { SpectatorFeed } from './feed.ts';
import type { Director } from './director.ts';
import { Club, NoBoardYet, clubRoom, openClubBoards, type ClubOptions, type RoomBase } from './club.ts';
import { gameIds } from '../game/ids.ts';
import type { OpenedSource } from '../sensors/open.ts';
import express from 'express';
import type { Color } from '../rules/index.ts';
import { FriendSeat } from './seat.ts';
import { seatLink, seatRoutes, type SeatRouteOptions } from './seat-routes.ts';
import { SeatGateway } from './seat-ws.ts';

/** What each option is when it is not given. */
const DEFAULTS = { port: 8080 } as const;

export type { ClubOptions } from './club.ts';
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
  /** the address other devices reach this service by (a friend's seat link is made on it); default: the address a page was loaded from */
  publicUrl?: string;
}

/** A friend who has no board plays the board's player from a browser (seat.ts): their name and side, the board's player's name. */
export interface FriendOptions {
  name: string;
  side?: Color;
  host?: string;
}

export interface EngineOptions {
  /** how long the computer may think per move at full strength, ms (a level uses its share); default 2000 */
  thinkMs?: number;
  /** the after-game analysis' workers (lanes searching at once); default one per core, at most 4 (engine-host/pool.ts) */
  analysisLanes?: number;
  /** building the 5-piece endgame database from the page (engine-host/egdb-build.ts): its cache folder, the child it runs, the memory it sees (tests) */
  egdb?: Omit<EgdbBuilderOptions, 'onBuilt'>;
}

export interface LogOptions {
  logger?: Logger;
  level?: LevelWithSilent;
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
  /** every journal record once the store has it (a station publishes them: src/stations/station.ts) */
  onJournal?: RoomBase['onJournal'];
  /** a friend's seat at the start (a single board): kept as it is when the games folder has one already (the link survives restarts) */
  friend?: FriendOptions;
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
  /** a friend's seat (a single board; null in club mode) */
  seat: FriendSeat | null;
  /** the friend's seat link on the public URL or the service's address (null: no seat) */
  seatLink(): string | null;
  /** club mode: a board joins once the service runs (a station that appeared), with its number if it has one (else the next); its room is returned */
  join: ((board: OpenedSource, number?: number) => Promise<Room>) | null;
  logger: Logger;
  /** the board in words, and why the simulated board is used if a real one was not found */
  board: { description: string; fallback: string | null; identity: BoardIdentity };
  storage(): StorageHealth;
  /** pages connected */
  clients(): number;
  /** one WebSocket heartbeat now (as the timer does every http.ws.heartbeatMs): pages that did not answer the last ping are dropped */
  heartbeat(): void;
  /** open HTTP connections (WebSockets included) */
  connections(): Promise<number>;
  close(): Promise<void>;
}

/** What the friend's seat routes need (seat-routes.ts). */
interface SeatApp {
  seat: FriendSeat;
  log: Logger;
  opts: SeatRouteOptions;
}

/** The engine as the sessions see it: searches in turn by purpose (engine-jobs.ts), the worker started on the first. */
interface EngineLink {
  think: Think;
  stopThinking: (purpose: Purpose) => void;
  /** a new endgame database was built: every started worker loads it afresh */
  forgetEndgame(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The think adapter: a session's search request as the engine worker's
 * think() call. The worker thread starts on the first search (the computer's
 * move, a hint, the bar or an analysis); the computer's move and a hint never
 * wait out an evaluation. An analysis with lanes runs on the analysis
 * workers instead, a lane each (engine-host/pool.ts).
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
  const pool = new AnalysisPool(opts.analysisLanes ?? analysisLanes());
  const think: Think = Object.assign((req: EngineRequest) => (req.lane !== undefined ? pool.think(req) : jobs.think(req)), {
    lanes: pool.lanes,
  });
  const stopThinking = (p: Purpose): void => {
    jobs.cancel(p);
    if (p === 'analysis') pool.stop();
  };
  const forgetEndgame = async () => void (await Promise.all([(engine as EngineClient | null)?.forgetEndgame(), pool.forgetEndgame()]));
  return { think, stopThinking, forgetEndgame, close: async () => void (await Promise.all([engine?.close(), pool.close()])) };
}

/** The address pages use: a wildcard bind is shown as 127.0.0.1, an IPv6 one in brackets. */
function pageUrl(host: string, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}/`;
}

/** The rooms: one as today, or one per board of a club (each in <games>/boards/ID, tagged with its board number). */
async function openRooms(opts: ServiceOptions, deps: RoomDeps): Promise<Room[]> {
  const base: RoomBase = { storage: opts.storage, game: opts.game, pages: opts.http?.ws, onJournal: opts.onJournal };
  if (!opts.club) return [await Room.open({ ...base, board: opts.board }, deps)];
  const boards = await openClubBoards(opts.club);
  if (boards.length === 1 && !opts.club.always) return [await Room.open({ ...base, opened: boards[0]! }, deps)];
  const rooms: Room[] = [];
  try {
    for (const [i, b] of boards.entries()) rooms.push(await clubRoom(base, b, i + 1, deps));
  } catch (e) {
    await Promise.all(rooms.map((r) => r.close()));
    await Promise.all(boards.slice(rooms.length).map((b) => b.source.close().catch(() => undefined)));
    throw e;
  }
  return rooms;
}

/** The HTTP app: the machine's endgame database (/api/egdb), then a club's routes (the board list, each board under /boards/ID/, the broadcast, the tournament) in front of the first board's (none yet: the club's empty answer); a single board's, with its friend's seat. */
function serviceApp(room: Room, access: Access, page: Page, club: Club | null, seat: SeatApp | null, egdb: EgdbBuilder): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use('/api/egdb', securityHeaders);
  egdbRoutes(app, egdb, access);
  // A single board (with a friend's seat: its routes, /play/… and /api/friend, in front of the board's).
  if (!club) {
    if (seat) seatRoutes(app, seat.seat, access, page, seat.log, seat.opts);
    app.use(createApp(room.context(access), page));
    return app;
  }
  club.routes(app);
  app.use(club.firstApp());
  return app;
}

/** The service's handle: the first board's session, source, store and board are read when asked (a club's first board may join later). */
function serviceHandle(
  fixed: Pick<
    Service,
    'url' | 'port' | 'host' | 'token' | 'readToken' | 'rooms' | 'feed' | 'director' | 'join' | 'logger' | 'seat' | 'seatLink'
  >,
  rest: Pick<Service, 'clients' | 'heartbeat' | 'connections' | 'close'>,
): Service {
  const first = (): Room => {
    const r = fixed.rooms[0];
    if (!r?.board) throw new NoBoardYet();
    return r;
  };
  return {
    ...fixed,
    ...rest,
    get session() {
      return first().session;
    },
    get source() {
      return first().board!.source;
    },
    get store() {
      return first().store;
    },
    get board() {
      const b = first().board!;
      return { description: b.description, fallback: b.fallback, identity: b.identity };
    },
    storage: () => first().store.health(),
  };
}

/** A single board's socket: /ws. */
function singleRoom(room: Room, access: Access, logger: Logger): WsRooms {
  const ws: WsRoom = { ctx: room.context(access), pages: room.pages };
  return { room: (path) => (path === '/ws' ? ws : null), all: () => [ws], access, logger };
}

/** The friend's seat of a single board: kept from before a restart, or started now when asked for (a new game with them). */
function friendSeat(room: Room, opts: ServiceOptions): FriendSeat {
  const seat = new FriendSeat(room.session, opts.storage.gamesDir);
  const f = opts.friend;
  if (f && !seat.open) seat.start(f.name, f.side ?? 'white', f.host);
  return seat;
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
  const egdb = new EgdbBuilder({ ...opts.engine?.egdb, onBuilt: () => void engine.forgetEndgame().catch(() => undefined) });
  const club = rooms.length > 1 || opts.club?.always ? new Club(rooms, access, logger, opts.storage.gamesDir, opts.club) : null;
  let server: Server | null = null;
  let gateway: WsGateway | null = null;
  let seatGateway: SeatGateway | null = null;
  const teardown = async () => {
    await club?.close();
    await seatGateway?.close();
    await gateway?.close();
    await closeServer(server);
    await Promise.all(rooms.map((r) => r.close()));
    await egdb.close();
    await engine.close();
  };
  try {
    await club?.director.open();
    const page = await loadPage(logger);
    if (!page.ok) logger.error(`the web page is not available: ${page.message}`);
    club?.setPage(page);
    // (A friend's seat is a single board's own: not in club mode, nor for a station's board mirrored here.)
    const seat = club || !rooms[0]!.games.seats ? null : friendSeat(rooms[0]!, opts);
    const seatApp = seat ? { seat, log: logger, opts: { publicUrl: http.publicUrl, online: () => (seatGateway?.size ?? 0) > 0 } } : null;
    const srv = (server = createHttpServer(serviceApp(rooms[0]!, access, page, club, seatApp, egdb), http.timeouts ?? {}));
    await listen(srv, host, http.port ?? DEFAULTS.port, logger);
    if (seat)
      seatGateway = new SeatGateway(seat, access, logger, {
        heartbeatMs: http.ws?.heartbeatMs,
        commandRates: http.ws?.commandRates,
        now: http.ws?.now,
      });
    const wsRooms = club ? club.wsRooms() : { ...singleRoom(rooms[0]!, access, logger), ...(seatGateway ? { seat: seatGateway } : {}) };
    const gw = (gateway = new WsGateway(srv, wsRooms, http.ws));
    const port = (srv.address() as AddressInfo).port;
    const url = pageUrl(host, port);
    for (const r of rooms) r.store.lockServing(url);
    await club?.scan({ storage: opts.storage, game: opts.game, pages: http.ws }, deps, url);
    if (!isLoopbackBind(host))
      logger.info(`listening on ${host}:${port}; other devices need a token: the control token to play, the watch token to follow`);
    let closing: Promise<void> | null = null;
    const link = () => (seat?.token ? seatLink(seat.token, http.publicUrl ?? url) : null);
    const fixed = { url, port, host, token: access.token, readToken: access.readToken, rooms, logger, seat, seatLink: link };
    return serviceHandle(
      { ...fixed, feed: club?.feed ?? null, director: club?.director ?? null, join: club ? (b, n) => club.join(b, n) : null },
      {
        clients: () => gw.clientCount,
        heartbeat: () => gw.beat(),
        connections: () => connectionCount(srv),
        close: () => (closing ??= teardown().then(() => logger.info('stopped'))),
      },
    );
  } catch (e) {
    await teardown();
    throw e;
  }
}
