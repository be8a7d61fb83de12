// The Crownhead service, as wiring: the games store (locked, cleaned, the
// newest game resumed), the game session journalling into it (fsynced before
// any announcement) with its PDN rewritten after every change, the board
// source feeding the session, the buzzer, the optional frame recorder, and
// the HTTP + WebSocket servers, and the engine's worker (started on its first
// search) with the order of its searches. Storage trouble arrives as typed events
// (src/game/store.ts) that are logged and shown to every page while play
// goes on in memory. One teardown, used by close() and by a failed start.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import type { ComputerSetting, Think, ThinkPurpose } from '../game/computer.ts';
import type { EngineClient } from '../engine/client.ts';
import { GameSession, GameStore, resumeNewest, type SessionEvent, type SessionOptions, type StorageHealth, type StoreFs } from '../game/index.ts';
import type { Color, GameOptions } from '../rules/index.ts';
import { openBoardSource } from '../sensors/open.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import type { BoardSource, SourceStatus } from '../sensors/source.ts';
import { Access, isLoopbackBind } from './access.ts';
import { runCommand } from './commands.ts';
import { EngineJobs, type EngineSeat } from './engine-jobs.ts';
import type { ServerContext, ServerDescription } from './context.ts';
import { createApp } from './http.ts';
import { loadPage } from './page.ts';
import { Recorder } from './recorder.ts';
import { attachWebSocket, type WsHub, type WsOptions } from './ws.ts';

export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export interface ServiceOptions {
  /** board spec: auto | sim[:seed] | serial[:path] | firmata:path | emulator (default auto) */
  board?: string;
  /** an already made source (tests inject a SimBoard on the manual clock); opened here if it is not */
  source?: BoardSource;
  /** address to listen on (default 127.0.0.1) */
  host?: string;
  /** port (default 8080; 0 = any free port) */
  port?: number;
  /** the games directory (journals and PDN files) */
  gamesDir: string;
  /** tags for new games: Event, Site, Round, Black, White… */
  tags?: Record<string, string>;
  /** e.g. "5m+3s", "40/90m,30m" */
  timeControl?: string;
  /** rules variants and automatic draws */
  rules?: GameOptions;
  /** tournament mode: no takebacks */
  tournament?: boolean;
  /** play the computer in new games (side and level 1–10) */
  computer?: ComputerSetting | null;
  /** how long the computer may think per move at full strength, ms (a level uses its share); default 2000 */
  computerThinkMs?: number;
  /** the first game (when no unfinished game is resumed): a FEN, or a ballot, and who moves first */
  fen?: string;
  ballot?: number | 'random';
  /** an eleven-man ballot (1-2400) */
  elevenMan?: number | 'random';
  /** a random ballot is never a mail-play one */
  crossboardOnly?: boolean;
  firstPlayer?: Color | 'random';
  /** append the raw frame stream (and new games, board lost/back) to this recording file */
  record?: string;
  /** every client needs the control token (by default only non-loopback clients do) */
  requireToken?: boolean;
  /** the control token to use instead of a random one */
  token?: string;
  /** the read-only (watch) token to use instead of a random one */
  readToken?: string;
  /** file operations of the games store (tests inject disk-full and other failures) */
  storeFs?: StoreFs;
  /** retry period while writes wait in memory (default 2 s) */
  storeRetryMs?: number;
  logger?: Logger;
  logLevel?: LevelWithSilent;
  /** tracker tuning (tests) */
  tracker?: SessionOptions['tracker'];
  /** wall clock for the session (tests) */
  now?: () => number;
  ws?: WsOptions;
  /** session timer period (clocks, flags), default 250 ms */
  tickMs?: number;
  /** HTTP time limits (tests shorten them) */
  timeouts?: HttpTimeouts;
}

export interface HttpTimeouts {
  /** a client must have sent a request's headers within this (default 20 s) */
  headersMs?: number;
  /** …and the whole request within this (default 30 s) */
  requestMs?: number;
  /** how often connections are checked against those limits (default 5 s) */
  checkEveryMs?: number;
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

/** Events after which the game's record (PDN) has changed. */
const RECORD_EVENTS = new Set<SessionEvent['type']>(['new-game', 'move', 'move-replaced', 'takeback', 'tags', 'game-over', 'crowned']);
const BUZZ: Partial<Record<SessionEvent['type'], 'ILLEGAL' | 'OK' | 'GAMEOVER' | 'YOURMOVE'>> = { alert: 'ILLEGAL', time: 'ILLEGAL', move: 'OK', 'move-replaced': 'OK', 'game-over': 'GAMEOVER', 'computer-move': 'YOURMOVE' };

export function describeBoard(source: BoardSource, identity: BoardIdentity): string {
  const on = source.path ? ` on ${source.path}` : '';
  switch (source.kind) {
    case 'sim':
      return `simulated board ${identity.id}`;
    case 'serial':
      return `Crownhead board ${identity.id} (firmware ${identity.fw})${on}`;
    case 'firmata':
      return `StandardFirmata board${on}`;
    case 'emulator':
      return `emulated Crownhead firmware ${identity.fw}`;
  }
}

function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new Error(`port ${port} on ${host} is already in use (another Crownhead or another program): choose another with --port (a second Crownhead also needs its own --games folder)`);
  if (e.code === 'EACCES') return new Error(`not allowed to listen on port ${port} of ${host}: use a port above 1023`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return new Error(`cannot listen on ${host}: this machine has no such address`);
  return new Error(`cannot listen on ${host}:${port}: ${e.message}`);
}

/**
 * The PDN is derived from the (already fsynced) journal: rewritten after the
 * pages hear of a change, once per burst of events. The text is taken at each
 * change, so a new game started in the same tick as the last change of the
 * previous one still gets that game's final rewrite.
 */
class PdnRecord {
  private pending: { id: string; text: string } | null = null;
  constructor(private readonly session: GameSession, private readonly store: GameStore) {}
  changed(): void {
    const id = this.session.gameId;
    if (!id) return;
    if (this.pending && this.pending.id !== id) this.flush();
    const first = this.pending === null;
    this.pending = { id, text: this.session.pdn() };
    if (first) setImmediate(() => this.flush());
  }
  flush(): void {
    if (!this.pending) return;
    const { id, text } = this.pending;
    this.pending = null;
    this.store.writePdn(id, text);
  }
}

/** Frames to the session (and the recorder); board lost/back to the session and the log. Returns the unsubscribe. */
function wireBoard(src: BoardSource, session: GameSession, logger: Logger, recorder: Recorder | null): () => void {
  const offFrame = src.onFrame((f) => {
    recorder?.frame(f.t, f.seq, f.readings);
    session.pushFrame(f.t, f.readings);
  });
  const offStatus = src.onStatus((s: SourceStatus) => {
    switch (s.state) {
      case 'connected':
      case 'reconnected':
        logger.info(`board ${s.state === 'reconnected' ? 'back' : 'connected'}: ${describeBoard(src, s.identity)}`);
        recorder?.board(true);
        session.boardStatus(true, src.kind, describeBoard(src, s.identity));
        break;
      case 'lost':
        logger.warn(`board lost: ${s.reason}`);
        recorder?.board(false);
        session.boardStatus(false, src.kind, s.reason);
        break;
      case 'error':
        logger.warn(`board: ${s.message}`);
        break;
      default:
        break;
    }
  });
  return () => {
    offFrame();
    offStatus();
  };
}

/**
 * A request that is malformed or too slow (headers or body past their time
 * limit): say so, then destroy the socket. Ending it only half-closes it, and a
 * client that never closes its side would keep the descriptor for good.
 */
function refuseBadClient(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`, () => socket.destroy());
  // A client that does not read even that reply must not hold the socket either.
  setTimeout(() => socket.destroy(), 1000).unref();
}

function listen(srv: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () => {
      srv.off('error', reject);
      resolve();
    });
  }).catch((e) => {
    throw listenError(e as NodeJS.ErrnoException, host, port);
  });
}

function closeServer(srv: Server | null): Promise<void> {
  if (!srv?.listening) return Promise.resolve();
  return new Promise<void>((resolve) => {
    srv.close(() => resolve());
    srv.closeAllConnections();
  });
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  const host = opts.host ?? '127.0.0.1';
  const logger = opts.logger ?? pino({ level: opts.logLevel ?? 'info' });
  const access = new Access({ host, requireToken: opts.requireToken, token: opts.token, readToken: opts.readToken });
  let hub: WsHub | null = null;
  let source: BoardSource | null = null;
  let recorder: Recorder | null = null;

  // ------------------------------------------------------------ storage
  const store = new GameStore(opts.gamesDir, {
    fs: opts.storeFs,
    retryMs: opts.storeRetryMs,
    onEvent: (e) => {
      if (e.type === 'storage-note') return void logger.warn({ dir: opts.gamesDir }, e.say);
      if (e.ok) logger.warn({ dir: opts.gamesDir }, e.say);
      else logger.error({ dir: opts.gamesDir, problem: e.problem, unsaved: e.storage.unsaved }, `STORAGE: ${e.say}`);
      hub?.notice(e);
    },
  });
  store.lock(); // throws GamesFolderLocked, naming the process that holds the folder
  store.cleanTemp();

  // ------------------------------------------------------------ session
  // The engine runs in its own worker thread, started on its first search (the computer's move, a hint, the bar or an analysis).
  // Its searches take turns by purpose (engine-jobs.ts): the computer's move and a hint never wait out an evaluation.
  let engine: EngineClient | null = null;
  const seat = async (): Promise<EngineSeat> => {
    if (!engine) engine = new (await import('../engine/client.ts')).EngineClient();
    const e = engine;
    return {
      run: async (req) => {
        const result = await e.think(req.position, { level: req.level, timeMs: opts.computerThinkMs ?? 2000, ...(req.clock ? { clock: req.clock } : {}), seed: req.seed, history: req.history, quietPlies: req.quietPlies, book: req.book ? 'random' : 'off' });
        return { move: result.move ?? null, score: result.score };
      },
      stop: () => e.stop(),
    };
  };
  const jobs = new EngineJobs(seat);
  const think: Think = (req) => jobs.think(req);
  const sessionOptions = { now: opts.now, rules: opts.rules, tournament: opts.tournament, timeControl: opts.timeControl, tracker: opts.tracker, tags: opts.tags, computer: opts.computer ?? null, think, stopThinking: (p: ThinkPurpose) => jobs.cancel(p) };
  const session = new GameSession({ ...sessionOptions, journal: (entry) => store.append(entry) });

  const pdn = new PdnRecord(session, store);
  const offSession = session.on((e: SessionEvent) => {
    hub?.sessionEvent(e);
    if (RECORD_EVENTS.has(e.type)) pdn.changed();
    const buzz = BUZZ[e.type];
    if (buzz && source) source.send({ type: 'buzz', pattern: buzz }).catch(() => false);
    if (e.type === 'calibrated') saveCalibration(e.data);
    if (e.type === 'new-game') recorder?.newGame({ fen: session.snapshot().fen, options: session.game.options });
  });

  // A board's calibration (from the explicit routine) is kept beside the games, by board id.
  function saveCalibration(data: unknown): void {
    const file = store.saveCalibration(session.boardId, data);
    logger.info({ file }, store.flushed ? 'calibration saved' : 'calibration kept in memory until it can be saved');
  }

  // ------------------------------------------------------------ the game to play: the newest, or a new one
  try {
    const resumed = resumeNewest(store, session, () => new GameSession(sessionOptions));
    if (resumed.resumed) {
      logger.info({ game: resumed.id, moves: resumed.moves, torn: resumed.torn }, `resumed unfinished game ${resumed.id} (${resumed.moves} moves)${resumed.torn ? '; its last journal line was cut off by a crash and dropped' : ''}`);
      if (opts.fen !== undefined || opts.ballot !== undefined || opts.elevenMan !== undefined) logger.warn('an unfinished game was resumed: the start position asked for (FEN/ballot) is not used; start a new game from the page to use it');
    } else session.newGame({ fen: opts.fen, ballot: opts.ballot, elevenMan: opts.elevenMan, crossboardOnly: opts.crossboardOnly, firstPlayer: opts.firstPlayer });
  } catch (e) {
    offSession();
    store.close(); // releases the folder
    throw e;
  }

  // ------------------------------------------------------------ teardown (one, for close and for a failed start)
  let server: Server | null = null;
  let tick: ReturnType<typeof setInterval> | null = null;
  const offs: (() => void)[] = [offSession];
  const teardown = async () => {
    if (tick) clearInterval(tick);
    for (const off of offs.splice(0)) off();
    await hub?.close();
    await closeServer(server);
    await source?.close();
    pdn.flush();
    store.close();
    if (!store.flushed) logger.error({ unsaved: store.unsaved() }, `stopping with ${store.unsaved()} change(s) not written to ${opts.gamesDir}: they are lost`);
    await recorder?.close();
    await engine?.close();
  };

  try {
    // ---------------------------------------------------------- the board
    let identity: BoardIdentity;
    let fallback: string | null = null;
    if (opts.source) {
      source = opts.source;
      identity = await source.open();
    } else {
      const opened = await openBoardSource(opts.board ?? 'auto');
      source = opened.source;
      identity = opened.identity;
      fallback = opened.fallback ?? null;
    }
    const src = source;
    const description = describeBoard(src, identity);

    session.boardId = identity.id;
    try {
      const saved = store.loadCalibration(identity.id);
      if (saved) {
        session.useCalibration(saved.data);
        logger.info({ file: saved.file }, `using the saved calibration of board ${identity.id}`);
      }
    } catch (e) {
      logger.warn(`ignoring the saved calibration of board ${identity.id}: ${(e as Error).message}`);
    }

    if (opts.record) {
      recorder = new Recorder(opts.record, { board: src.kind, id: identity.id, fw: identity.fw, rate: identity.rate, started: new Date().toISOString(), crownhead: VERSION, game: session.gameId, tournament: session.options.tournament }, logger);
      recorder.newGame({ fen: session.snapshot().fen, options: session.game.options });
    }

    offs.push(wireBoard(src, session, logger, recorder));
    session.boardStatus(true, src.kind, description);

    // ---------------------------------------------------------- HTTP + WebSocket
    const info = (): ServerDescription => ({
      name: 'crownhead',
      version: VERSION,
      sim: src.kind === 'sim',
      source: src.kind,
      board: description,
      fallback,
      storage: store.health(),
      gamesDir: opts.gamesDir,
    });
    const ctx: ServerContext = { session, source: src, store, access, logger, info, command: (c) => runCommand(session, src, c) };
    const page = await loadPage(logger);
    if (!page.ok) logger.error(`the web page is not available: ${page.message}`);
    const t = opts.timeouts ?? {};
    const srv: Server = createServer({ headersTimeout: t.headersMs ?? 20_000, requestTimeout: t.requestMs ?? 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: t.checkEveryMs ?? 5_000 }, createApp(ctx, page));
    server = srv;
    await listen(srv, host, opts.port ?? 8080);
    srv.on('error', (e) => logger.error({ err: e }, 'HTTP server error'));
    srv.on('clientError', refuseBadClient);
    hub = attachWebSocket(srv, ctx, opts.ws);

    tick = setInterval(() => session.tick(), opts.tickMs ?? 250);
    tick.unref();

    const port = (srv.address() as AddressInfo).port;
    const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    const url = `http://${shownHost}:${port}/`;
    store.lockServing(url);
    if (!isLoopbackBind(host)) logger.info(`listening on ${host}:${port}; other devices need a token: the control token to play, the watch token to follow`);

    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= teardown().then(() => {
        logger.info('stopped');
      }));

    return {
      url,
      port,
      host,
      token: access.token,
      readToken: access.readToken,
      session,
      source: src,
      store,
      logger,
      board: { description, fallback, identity },
      storage: () => store.health(),
      clients: () => hub!.clientCount,
      connections: () => new Promise<number>((resolve, reject) => srv.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
      close,
    };
  } catch (e) {
    await teardown();
    throw e;
  }
}
