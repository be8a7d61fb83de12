// Club mode's wiring: several rooms in one service. Every board is opened
// first (its id names its games folder, <games>/boards/ID), numbered in the
// order given (the PDN Board tag) and given its own room; around them the
// spectators' feed (feed.ts), the tournament director (director.ts), each
// board's app under /boards/ID/ (club-routes.ts) and socket /boards/ID/ws, the
// arbiter's and the spectators' pages (club-pages.ts: /arbiter, /watch); and
// with --board auto a scanner (scanner.ts) that adds boards plugged in later.
// One board found is not a club: the service runs it as a single board. A club
// that is always one (the hub) may start with no board at all: its pages are
// up at once, `/` sends to /watch, and boards join as they come (each with the
// number it is given, a hub's kept across restarts).

import { stationsRoutes, type StationsApi } from './stations-routes.ts';
import { join } from 'node:path';
import express from 'express';
import type { Logger } from 'pino';
import { createApp } from './http.ts';
import type { Access } from './access.ts';
import { SpectatorFeed, type FeedOptions } from './feed.ts';
import { clubRoutes, type ClubRoutesOptions } from './club-routes.ts';
import { Director } from './director.ts';
import { roundPdn, tournamentRoutes } from './tournament-routes.ts';
import { BoardScanner } from './scanner.ts';
import { clubPageRoutes } from './club-pages.ts';
import { Room, type RoomDeps, type RoomOptions } from './room.ts';
import type { Page } from './page.ts';
import type { WsRoom, WsRooms } from './ws.ts';
import { openBoardSources, type OpenedSource, type SerialTuning } from '../sensors/open.ts';
import type { SerialBinding } from '../sensors/line-port.ts';
import type { BoardSource } from '../sensors/source.ts';
import { CrownheadError } from '../common/errors.ts';
import { apiError } from './api-error.ts';
import { securityHeaders } from './http.ts';
import { pageRoutes } from './page.ts';

/** What each option is when it is not given. */
const DEFAULTS = { scanMs: 5000 } as const;

/**
 * Club mode: several boards in one service. Each board is opened first (its id
 * names its games folder, <games>/boards/ID), gets a number (the PDN Board
 * tag) in the order given, and its own room; one board found is a single board.
 */
export interface ClubOptions {
  /** board specs, in order (auto finds every Crownhead board on USB, and later ones as they are plugged in) */
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
  /** with auto: how often the free ports are tried for boards plugged in later (default 5 s; 0: never) */
  scanMs?: number;
  /** club mode even with one board, or none yet (the hub: stations join later, src/stations/hub.ts) */
  always?: boolean;
  /** the hub's stations: listed and forgotten on the API (stations-routes.ts) */
  stations?: StationsApi;
}

/** What every room of a service shares: where games go, the game's settings, the pages' options. */
export type RoomBase = Omit<RoomOptions, 'board' | 'opened' | 'number'>;

/** The specs asked for: given, or auto when nothing else is (simulated boards or sources alone look for nothing). */
function specsOf(club: ClubOptions): string[] {
  return club.specs ?? (club.simBoards || club.sources?.length ? [] : ['auto']);
}

/** Opens the boards of a club, in order: the specs, the simulated boards, then the sources given (none at all: a club that is always one starts empty). */
export function openClubBoards(club: ClubOptions): Promise<OpenedSource[]> {
  const specs = specsOf(club);
  if (club.always && !specs.length && !club.simBoards && !club.sources?.length) return Promise.resolve([]);
  return openBoardSources(specs, { simBoards: club.simBoards, sources: club.sources, binding: club.binding, serial: club.serial });
}

/** A club asked for its first board before any has joined (the hub before its first station pairs). */
export class NoBoardYet extends CrownheadError<'no-board'> {
  override readonly name = 'NoBoardYet';
  constructor() {
    super('no-board', 'no board has joined yet: boards join as their stations pair (GET /api/boards lists them)');
  }
}

/** What a club with no board yet answers where the first board's app would: the page's files, `/` sent on to /watch, else 404 no-board. */
function noBoardApp(page: Page | null): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(securityHeaders);
  app.get(['/', '/index.html'], (req, res) => {
    const q = req.originalUrl.indexOf('?');
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, `/watch${q >= 0 ? req.originalUrl.slice(q) : ''}`);
  });
  if (page) pageRoutes(app, page);
  app.use((_req, res) => apiError(res, 404, 'no-board', new NoBoardYet().message));
  return app;
}

/** A board's room in a club: its own folder by id, its number as the Board tag, its id on every log line. */
export function clubRoom(base: RoomBase, board: OpenedSource, number: number, deps: RoomDeps): Promise<Room> {
  const storage = { ...base.storage, gamesDir: join(base.storage.gamesDir, 'boards', board.identity.id) };
  const game = { ...base.game, tags: { ...base.game?.tags, Board: String(number) } };
  return Room.open({ ...base, storage, game, number, opened: board }, { ...deps, logger: deps.logger.child({ board: board.identity.id }) });
}

export class Club {
  readonly feed: SpectatorFeed;
  readonly director: Director;
  private readonly boardApps = new Map<string, express.Express>();
  private readonly wsList: WsRoom[] = [];
  private readonly wsByPath = new Map<string, WsRoom>();
  private scanner: BoardScanner | null = null;
  private page: Page | null = null;
  private joining: { base: RoomBase; deps: RoomDeps; url: string } | null = null;

  constructor(
    readonly rooms: Room[],
    private readonly access: Access,
    private readonly log: Logger,
    gamesDir: string,
    private readonly opts: ClubOptions = {},
  ) {
    this.feed = new SpectatorFeed(rooms, log.child({ part: 'feed' }), opts.feed);
    this.director = new Director(rooms, gamesDir, log.child({ part: 'tournament' }), Date.now, () => this.feed.touch());
  }

  /** The page every board's app serves; each room's app and socket path wired. */
  setPage(page: Page): void {
    this.page = page;
    for (const r of this.rooms) this.wire(r);
  }

  /** Mounts the club's routes on `app` (before the first board's own routes). */
  routes(app: express.Express): void {
    if (this.page) clubPageRoutes(app, this.page, this.access);
    const roundText = () => {
      const t = this.director.tournament;
      return t?.currentRound() ? roundPdn(this.director, this.rooms, t.currentRound()) : Promise.resolve(null);
    };
    tournamentRoutes(app, this.director, this.rooms, this.access);
    if (this.opts.stations) stationsRoutes(app, this.opts.stations, this.access);
    clubRoutes(app, { feed: this.feed, access: this.access, boardApps: this.boardApps, roundText }, this.opts.feed);
  }

  /** Where the first board's URLs (/, /api/…, /ws) lead: its app once it has joined, until then the club's empty answer. */
  firstApp(): express.RequestHandler {
    let empty: express.Express | null = null;
    return (req, res, next) => {
      const first = this.rooms[0]?.board;
      const app = first ? this.boardApps.get(first.identity.id) : undefined;
      if (app) return app(req, res, next);
      (empty ??= noBoardApp(this.page))(req, res, next);
    };
  }

  /** The gateway's view of the rooms: /ws the first board, /boards/ID/ws each board, /watch/ws the spectators. */
  wsRooms(): WsRooms {
    return {
      room: (path) => this.wsByPath.get(path) ?? null,
      all: () => this.wsList,
      access: this.access,
      logger: this.log,
      watch: this.feed,
    };
  }

  /** A room's app and socket path (at the start, and for a board added later). */
  private wire(room: Room, page = this.page): void {
    const id = room.board!.identity.id;
    const ctx = room.context(this.access);
    if (page) this.boardApps.set(id, createApp(ctx, page));
    const ws = { ctx, pages: room.pages };
    this.wsList.push(ws);
    this.wsByPath.set(`/boards/${id}/ws`, ws);
    if (!this.wsByPath.has('/ws')) this.wsByPath.set('/ws', ws);
  }

  /** With --board auto: boards plugged in later join (a new number, their own folder). */
  async scan(base: RoomBase, deps: RoomDeps, url: string): Promise<void> {
    this.joining = { base, deps, url };
    const every = this.opts.scanMs ?? DEFAULTS.scanMs;
    if (!every || !specsOf(this.opts).includes('auto')) return;
    // (The native driver is loaded only here: a club of simulated boards never loads it.)
    const binding = this.opts.binding ?? (await import('serialport')).SerialPort.binding;
    this.scanner = new BoardScanner({
      binding,
      serial: this.opts.serial,
      everyMs: every,
      held: () => this.rooms.flatMap((r) => (r.board?.source.path ? [r.board.source.path] : [])),
      known: (id) => this.rooms.some((r) => r.board?.identity.id === id),
      add: (board) => this.join(board).then(() => undefined),
      log: this.log,
    });
  }

  /** A board joins the club once it is running (plugged in later, or a station that appeared): its own folder, the number given (else the next free). */
  async join(board: OpenedSource, number?: number): Promise<Room> {
    if (!this.joining) throw new Error('the club is not serving yet');
    const { base, deps, url } = this.joining;
    const taken = (n: number) => this.rooms.some((r) => r.number === n);
    const n = number !== undefined && !taken(number) ? number : Math.max(0, ...this.rooms.map((r) => r.number)) + 1;
    const room = await clubRoom(base, board, n, deps);
    room.store.lockServing(url);
    this.rooms.push(room);
    this.wire(room);
    this.feed.watchRoom(room, true);
    this.director.watchRoom(room);
    return room;
  }

  async close(): Promise<void> {
    await this.scanner?.close();
    this.director.close();
    this.feed.close();
  }
}
