// The Crownhead service: everything composed. A board source (spec string or
// injected) feeds frames to the game session; the session's journal goes to
// the games store (fsynced before any announcement) and its PDN is rewritten
// after every change to the record; the unfinished game is resumed at start.
// Session events sound the board's buzzer and go to every page over
// WebSocket; an HTTP server serves the page and the API. Optional raw-frame
// recording for bug reports. Storage trouble is logged and shown to the
// players while play goes on in memory.

import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { GameSession, GameStore, type SessionEvent, type SessionOptions } from '../game/index.ts';
import type { Color, GameOptions } from '../rules/index.ts';
import { openBoardSource } from '../sensors/open.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import type { BoardSource, SourceStatus } from '../sensors/source.ts';
import { recordEvent, recordFrame, recordingHeader } from '../tracking/recording.ts';
import { Access, isLoopbackBind } from './access.ts';
import { runCommand } from './commands.ts';
import type { ServerContext, ServerInfo, StorageHealth } from './context.ts';
import { createApp, loadPage } from './http.ts';
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
  /** the first game (when no unfinished game is resumed): a FEN, or a ballot, and who moves first */
  fen?: string;
  ballot?: number | 'random';
  firstPlayer?: Color | 'random';
  /** append the raw frame stream (and new games, board lost/back) to this recording file */
  record?: string;
  /** every client needs the control token (by default only non-loopback clients do) */
  requireToken?: boolean;
  /** the control token to use instead of a random one */
  token?: string;
  logger?: Logger;
  logLevel?: LevelWithSilent;
  /** tracker tuning (tests) */
  tracker?: SessionOptions['tracker'];
  /** wall clock for the session (tests) */
  now?: () => number;
  ws?: WsOptions;
  /** session timer period (clocks, flags), default 250 ms */
  tickMs?: number;
}

export interface Service {
  /** the page's address, e.g. http://127.0.0.1:8080/ */
  url: string;
  port: number;
  host: string;
  /** the control token other devices need (null when only this machine can connect) */
  token: string | null;
  session: GameSession;
  source: BoardSource;
  store: GameStore;
  logger: Logger;
  /** the board in words, and why the simulated board is used if a real one was not found */
  board: { description: string; fallback: string | null; identity: BoardIdentity };
  storage(): StorageHealth;
  /** pages connected */
  clients(): number;
  close(): Promise<void>;
}

/** Events after which the game's record (PDN) has changed. */
const RECORD_EVENTS = new Set<SessionEvent['type']>(['new-game', 'move', 'move-replaced', 'takeback', 'tags', 'game-over', 'crowned']);
const BUZZ: Partial<Record<SessionEvent['type'], 'ILLEGAL' | 'OK' | 'GAMEOVER'>> = { alert: 'ILLEGAL', move: 'OK', 'move-replaced': 'OK', 'game-over': 'GAMEOVER' };

export function describeBoard(source: BoardSource, identity: BoardIdentity): string {
  const path = (source as { path?: unknown }).path;
  const on = typeof path === 'string' ? ` on ${path}` : '';
  switch (source.kind) {
    case 'sim':
      return `simulated board ${identity.id}`;
    case 'serial':
      return `Crownhead board ${identity.id} (firmware ${identity.fw})${on}`;
    case 'firmata':
      return `StandardFirmata board${on}`;
    case 'emulator':
      return `emulated Crownhead firmware ${identity.fw}`;
    default:
      return `${source.kind} board ${identity.id}`;
  }
}

function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new Error(`port ${port} on ${host} is already in use (another Crownhead or another program): choose another with --port`);
  if (e.code === 'EACCES') return new Error(`not allowed to listen on port ${port} of ${host}: use a port above 1023`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return new Error(`cannot listen on ${host}: this machine has no such address`);
  return new Error(`cannot listen on ${host}:${port}: ${e.message}`);
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  const host = opts.host ?? '127.0.0.1';
  const logger = opts.logger ?? pino({ level: opts.logLevel ?? 'info' });
  const access = new Access({ host, requireToken: opts.requireToken, token: opts.token });
  let hub: WsHub | null = null;

  // ------------------------------------------------------------ storage
  let storage: StorageHealth = { ok: true, message: `games are saved in ${opts.gamesDir}` };
  const storageNotice = (message: string) => {
    const recovered = message.startsWith('storage works again');
    const failure = message.startsWith('cannot ');
    if (recovered) {
      storage = { ok: true, message: `games are saved in ${opts.gamesDir} again` };
      logger.warn({ dir: opts.gamesDir }, storage.message);
    } else if (failure) {
      storage = { ok: false, message };
      logger.error({ dir: opts.gamesDir }, `STORAGE FAILURE: ${message}`);
    } else logger.warn({ dir: opts.gamesDir }, message);
    hub?.notice({ type: 'storage', ok: storage.ok, say: recovered ? storage.message : message });
  };
  const store = new GameStore(opts.gamesDir, storageNotice);

  // ------------------------------------------------------------ session
  const session = new GameSession({
    now: opts.now,
    rules: opts.rules,
    tournament: opts.tournament,
    timeControl: opts.timeControl,
    tracker: opts.tracker,
    tags: opts.tags,
    journal: (entry) => store.append(entry),
  });

  // The PDN is derived from the (already fsynced) journal, so it is rewritten
  // after the pages hear of the change, once per burst of events.
  let pdnPending = false;
  const writePdn = () => {
    pdnPending = false;
    if (session.gameId) store.writePdn(session.gameId, session.pdn());
  };

  // ------------------------------------------------------------ recording
  let recording: WriteStream | null = null;
  let lastFrameT = 0;
  const record = (line: string) => recording?.write(line);

  let source: BoardSource | null = null;
  const onEvent = (e: SessionEvent) => {
    hub?.sessionEvent(e);
    if (RECORD_EVENTS.has(e.type) && !pdnPending) {
      pdnPending = true;
      setImmediate(writePdn);
    }
    const buzz = BUZZ[e.type];
    if (buzz && source) source.send({ type: 'buzz', pattern: buzz }).catch(() => false);
    if (e.type === 'calibrated') saveCalibration(e.data);
    if (e.type === 'new-game') record(recordEvent(lastFrameT, 'new-game', { fen: session.snapshot().fen, options: session.game.options }));
  };
  const offSession = session.on(onEvent);

  // ------------------------------------------------------------ the game to play
  let found: ReturnType<GameStore['findInProgress']> = null;
  try {
    found = store.findInProgress();
  } catch (e) {
    storageNotice(`cannot read the games directory ${opts.gamesDir}: ${(e as Error).message}`);
  }
  let resumed = false;
  if (found) {
    try {
      session.restore(found.entries);
      store.resume(found.id);
      resumed = true;
      logger.info({ game: found.id, moves: session.game.plies.length, torn: found.torn }, `resumed unfinished game ${found.id} (${session.game.plies.length} moves)${found.torn ? '; its last journal line was cut off by a crash and dropped' : ''}`);
      if (opts.fen !== undefined || opts.ballot !== undefined) logger.warn('an unfinished game was resumed: the start position asked for (FEN/ballot) is not used; start a new game from the page to use it');
    } catch (e) {
      logger.error({ game: found.id, err: (e as Error).message }, `cannot resume game ${found.id}: ${(e as Error).message}; starting a new game (the old journal is kept)`);
    }
  }
  if (!resumed) session.newGame({ fen: opts.fen, ballot: opts.ballot, firstPlayer: opts.firstPlayer });

  // ------------------------------------------------------------ the board
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

  // A board's calibration (from the explicit routine) is kept beside the games, by board id.
  const calibrationFile = join(opts.gamesDir, `calibration-${identity.id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  function saveCalibration(data: unknown): void {
    try {
      mkdirSync(opts.gamesDir, { recursive: true });
      writeFileSync(`${calibrationFile}.tmp`, JSON.stringify(data, null, 1) + '\n');
      renameSync(`${calibrationFile}.tmp`, calibrationFile);
      logger.info({ file: calibrationFile }, 'calibration saved');
    } catch (e) {
      const say = `cannot save the calibration in ${calibrationFile}: ${(e as Error).message}. It is used until the server stops.`;
      logger.error(say);
      hub?.notice({ type: 'storage', ok: storage.ok, say });
    }
  }
  session.boardId = identity.id;
  if (existsSync(calibrationFile)) {
    try {
      session.useCalibration(JSON.parse(readFileSync(calibrationFile, 'utf8')));
      logger.info({ file: calibrationFile }, `using the saved calibration of board ${identity.id}`);
    } catch (e) {
      logger.warn({ file: calibrationFile }, `ignoring the saved calibration: ${(e as Error).message}`);
    }
  }

  if (opts.record) {
    recording = createWriteStream(opts.record, { flags: 'a' });
    recording.on('error', (e) => {
      logger.error({ file: opts.record }, `recording stopped: ${e.message}`);
      recording = null;
    });
    record(recordingHeader({ board: src.kind, id: identity.id, fw: identity.fw, rate: identity.rate, started: new Date().toISOString(), crownhead: VERSION, game: session.gameId }));
    record(recordEvent(0, 'new-game', { fen: session.snapshot().fen, options: session.game.options }));
  }

  const offFrame = src.onFrame((f) => {
    lastFrameT = f.t;
    if (recording) record(recordFrame(f.t, f.seq, f.readings));
    session.pushFrame(f.t, f.readings);
  });
  const offStatus = src.onStatus((s: SourceStatus) => {
    switch (s.state) {
      case 'connected':
      case 'reconnected':
        logger.info(`board ${s.state === 'reconnected' ? 'back' : 'connected'}: ${describeBoard(src, s.identity)}`);
        record(recordEvent(lastFrameT, 'board', { connected: true }));
        session.boardStatus(true, src.kind, describeBoard(src, s.identity));
        break;
      case 'lost':
        logger.warn(`board lost: ${s.reason}`);
        record(recordEvent(lastFrameT, 'board', { connected: false }));
        session.boardStatus(false, src.kind, s.reason);
        break;
      case 'error':
        logger.warn(`board: ${s.message}`);
        break;
      default:
        break;
    }
  });
  session.boardStatus(true, src.kind, description);

  // ------------------------------------------------------------ HTTP + WebSocket
  const info = (): ServerInfo => ({
    name: 'crownhead',
    version: VERSION,
    sim: src.kind === 'sim',
    source: src.kind,
    board: description,
    fallback,
    storage: { ...storage },
    gamesDir: opts.gamesDir,
  });
  const ctx: ServerContext = {
    session,
    source: src,
    store,
    access,
    logger,
    info,
    command: (c) => runCommand(session, src, c),
  };
  const page = await loadPage(logger);
  if (!page.ok) logger.error(`the web page is not available: ${page.reason}`);
  const server: Server = createServer(createApp(ctx, page));
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  const requestedPort = opts.port ?? 8080;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(requestedPort, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    offFrame();
    offStatus();
    await src.close();
    store.closeJournal();
    recording?.end();
    throw listenError(e as NodeJS.ErrnoException, host, requestedPort);
  }
  server.on('error', (e) => logger.error({ err: e }, 'HTTP server error'));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  hub = attachWebSocket(server, ctx, opts.ws);
  if (!storage.ok) hub.notice({ type: 'storage', ok: false, say: storage.message });

  const tick = setInterval(() => session.tick(), opts.tickMs ?? 250);
  tick.unref();

  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/`;
  if (!isLoopbackBind(host)) logger.info(`listening on ${host}:${port}; other devices need the control token`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(tick);
      offFrame();
      offStatus();
      offSession();
      await hub!.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await src.close();
      if (pdnPending) writePdn();
      store.closeJournal();
      if (recording) {
        const r = recording;
        recording = null;
        await new Promise<void>((resolve) => r.end(resolve));
      }
      logger.info('stopped');
    })());

  return {
    url,
    port,
    host,
    token: access.token,
    session,
    source: src,
    store,
    logger,
    board: { description, fallback, identity },
    storage: () => ({ ...storage }),
    clients: () => hub!.clientCount,
    close,
  };
}
