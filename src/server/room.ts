// One board's game, as a unit the service can make more than once: the games
// store (locked, cleaned) with the session journalling into it (fsynced
// before any announcement) and its PDN rewritten after every change (the text
// kept for the broadcast too: room-record.ts); its summary kept from the
// session's one snapshot of each change; the
// newest unfinished game resumed or a new one started; the board source
// feeding the session (and the optional frame recorder), the buzzer, the
// board's saved calibration; the pages following it (its Broadcast); and the
// session's timer. Storage trouble arrives as typed events (the store's),
// logged and shown to every page while play goes on in memory. Where its
// games are played — here, or on a station (a hub's remote board,
// src/stations/: its session follows the station's records, which the hub's
// mirror writes to the store) — is the room's games (games.ts), given at
// construction: who starts a game, where commands run, whether the clocks
// tick here.

import type { Logger } from 'pino';
import type { Purpose, Think } from '../engine/port.ts';
import { DEFAULT_THINK_MS } from '../engine/levels.ts';
import { GameSession, type SessionEvent, type SessionOptions } from '../game/index.ts';
import type { JournalEntry } from '../storage/journal.ts';
import type { Command, HubLink } from '../protocol/v1.ts';
import { gamesFor, type RoomGames } from './games.ts';
import type { BoardState } from '../protocol/club-v1.ts';
import { GameStore, resumeNewest, type StoreFs } from '../storage/index.ts';
import type { Color } from '../rules/index.ts';
import { openBoardSource } from '../sensors/open.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import type { BoardSource, SourceStatus } from '../sensors/source.ts';
import { VERSION } from '../build-info.ts';
import { Broadcast, type BroadcastOptions } from './broadcast.ts';
import { placePosition } from './commands.ts';
import { SimBoard } from '../sensors/sim/board.ts';
import type { ServerContext, ServerDescription } from './context.ts';
import type { Access } from './access.ts';
import { Recorder } from './recorder.ts';
import { boardSummary, type BoardMeta } from './summary.ts';
import type { BoardSummary } from '../protocol/club-v1.ts';
import type { Snapshot } from '../protocol/v1.ts';
import { RoomRecord } from './room-record.ts';

/** What each option is when it is not given. */
const DEFAULTS = { tickMs: 250 } as const;

export interface BoardOptions {
  /** board spec: auto | sim[:seed] | sim:name[:seed] | serial[:path] | firmata:path | emulator (default auto) */
  spec?: string;
  /** an already made source (tests inject a SimBoard on the manual clock); opened here if it is not */
  source?: BoardSource;
  /** append the raw frame stream (and new games, board lost/back) to this recording file */
  record?: string;
}

export interface StorageOptions {
  /** the games directory (journals and PDN files) */
  gamesDir: string;
  /** file operations of the games store (tests inject disk-full and other failures) */
  fs?: StoreFs;
  /** retry period while writes wait in memory (default 2 s) */
  retryMs?: number;
}

/** The first game (when no unfinished game is resumed): a FEN, or a ballot, and who moves first. */
export interface StartPosition {
  fen?: string;
  ballot?: number | 'random';
  /** an eleven-man ballot (1-2400) */
  elevenMan?: number | 'random';
  /** a random ballot is never a mail-play one */
  crossboardOnly?: boolean;
  firstPlayer?: Color | 'random';
}

/** The game's settings: the session's (tags, time control, rules, tournament, computer; clock and tracker for tests), the first game, the timer. */
export interface GameSettings extends Pick<
  SessionOptions,
  'tags' | 'timeControl' | 'rules' | 'tournament' | 'computer' | 'tracker' | 'now'
> {
  start?: StartPosition;
  /** session timer period (clocks, flags), default 250 ms */
  tickMs?: number;
}

export interface RoomOptions {
  board?: BoardOptions;
  /** a board already opened (club mode opens every board first, to know its id and so its games folder) */
  opened?: { source: BoardSource; identity: BoardIdentity; fallback?: string | null };
  /** the board's number in the room (club mode: the PDN Board tag; 1 alone) */
  number?: number;
  storage: StorageOptions;
  game?: GameSettings;
  pages?: BroadcastOptions;
  /** every journal record once it is handed to the store (a station publishes them: src/stations/station.ts) */
  onJournal?: (entry: JournalEntry) => void;
}

/** What a room borrows from the service: the log, and the engine's searches. */
export interface RoomDeps {
  logger: Logger;
  think: Think;
  stopThinking: (purpose: Purpose) => void;
  /** the engine's time per search at full strength, ms (a computer's level uses its share) */
  thinkMs?: number;
  /** new games' ids: one generator for every room of a service, so no two boards' games ever share an id */
  newGameId?: (ms: number) => string;
}

/** Events after which the game's record (PDN) has changed (the room rewrites its PDN; the feed moves its ETag on). */
export const RECORD_EVENTS = new Set<SessionEvent['type']>([
  'new-game',
  'move',
  'move-replaced',
  'takeback',
  'tags',
  'game-over',
  'crowned',
  'corrected',
]);
const BUZZ: Partial<Record<SessionEvent['type'], 'ILLEGAL' | 'OK' | 'GAMEOVER' | 'YOURMOVE'>> = {
  alert: 'ILLEGAL',
  time: 'ILLEGAL',
  move: 'OK',
  'move-replaced': 'OK',
  'game-over': 'GAMEOVER',
  'computer-move': 'YOURMOVE',
  'remote-move': 'YOURMOVE',
};

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
    case 'station':
      return `board ${identity.id} on a station`;
  }
}

/** The board as opened: the source, its identity, its description, and why the simulated board is used if a real one was not found. */
export interface OpenedBoard {
  source: BoardSource;
  identity: BoardIdentity;
  description: string;
  fallback: string | null;
}

export class Room {
  readonly session: GameSession;
  /** where its games are played: here, or on a station (games.ts) */
  readonly games: RoomGames;
  readonly store: GameStore;
  readonly pages: Broadcast;
  /** set once the board is open */
  board: OpenedBoard | null = null;
  private readonly pdn: RoomRecord;
  /** the summary as the session's last change left it (summary()) */
  private kept: { from: Snapshot; board: OpenedBoard | null; summary: BoardSummary } | null = null;
  private readonly log: Logger;
  private recorder: Recorder | null = null;
  private stopClocks: (() => void) | null = null;
  private readonly offs: (() => void)[] = [];
  private closing: Promise<void> | null = null;
  /** the game was resumed from the journal (not started anew) */
  private resumed = false;
  /** a station's own word on its board (its state and sentence), shown in place of what the mirror can tell */
  remoteState: { state: BoardState; say: string } | null = null;
  /** a station's board: its own link to the broker it reports to, shown on its pages (set by the station) */
  hubLink: (() => HubLink) | null = null;
  /** a station's board in a game between two boards: its game and the far board's it is linked to, as its station says */
  farGame: { gameId: string; far: { board: string; gameId?: string } } | null = null;

  /** Opens a room: its store and game, then its board. Throws (with everything it opened closed again) when it cannot. */
  static async open(opts: RoomOptions, deps: RoomDeps): Promise<Room> {
    const room = new Room(opts, deps);
    try {
      room.chooseGame();
      await room.openBoard();
    } catch (e) {
      await room.close();
      throw e;
    }
    return room;
  }

  private constructor(
    private readonly opts: RoomOptions,
    private readonly deps: RoomDeps,
  ) {
    this.log = deps.logger;
    const dir = opts.storage.gamesDir;
    let pages: Broadcast | null = null;
    this.store = new GameStore(dir, {
      fs: opts.storage.fs,
      retryMs: opts.storage.retryMs,
      onEvent: (e) => {
        if (e.type === 'storage-note') return void this.log.warn({ dir }, e.say);
        if (e.ok) this.log.warn({ dir }, e.say);
        else this.log.error({ dir, problem: e.problem, unsaved: e.storage.unsaved }, `STORAGE: ${e.say}`);
        pages?.notice(e);
      },
    });
    this.store.lock(); // throws GamesFolderLocked, naming the process that holds the folder
    this.store.cleanTemp();
    const journal = (entry: JournalEntry) => {
      this.store.append(entry);
      opts.onJournal?.(entry);
    };
    this.games = gamesFor(opts.opened?.source, this.sessionOptions(deps), journal);
    this.session = this.games.session;
    this.pages = pages = new Broadcast(this.session, this.log.child({ part: 'ws' }), opts.pages);
    this.pdn = new RoomRecord(this.session, this.store);
    this.offs.push(this.session.on((e) => this.onSessionEvent(e)));
  }

  /** The session's options (a probe session for resuming gets the same, without the journal). */
  private sessionOptions(deps: RoomDeps): SessionOptions {
    const g = this.opts.game ?? {};
    return {
      now: g.now,
      rules: g.rules,
      tournament: g.tournament,
      timeControl: g.timeControl,
      tracker: g.tracker,
      tags: g.tags,
      computer: g.computer ?? null,
      think: deps.think,
      stopThinking: deps.stopThinking,
      thinkMs: deps.thinkMs ?? DEFAULT_THINK_MS,
      ...(deps.newGameId ? { newGameId: deps.newGameId } : {}),
    };
  }

  private onSessionEvent(e: SessionEvent): void {
    this.pages.sessionEvent(e);
    if (RECORD_EVENTS.has(e.type)) this.pdn.changed();
    const buzz = BUZZ[e.type];
    if (buzz && this.board) this.board.source.send({ type: 'buzz', pattern: buzz }).catch(() => false);
    if (e.type === 'calibrated') this.saveCalibration(e.data);
    if (e.type === 'new-game') this.recorder?.newGame({ fen: this.session.changeSnapshot().fen, options: this.session.game.options });
  }

  /** A board's calibration (from the explicit routine) is kept beside the games, by board id. */
  private saveCalibration(data: unknown): void {
    const file = this.store.saveCalibration(this.session.boardId, data);
    this.log.info({ file }, this.store.flushed ? 'calibration saved' : 'calibration kept in memory until it can be saved');
  }

  /** The game to play: the newest unfinished one, or a new one. */
  private chooseGame(): void {
    const start = this.opts.game?.start ?? {};
    const resumed = resumeNewest(this.store, this.session, () => new GameSession(this.sessionOptions(this.deps)));
    this.resumed = resumed.resumed;
    if (resumed.resumed) {
      this.log.info(
        { game: resumed.id, moves: resumed.moves, torn: resumed.torn },
        `resumed unfinished game ${resumed.id} (${resumed.moves} moves)${resumed.torn ? '; its last journal line was cut off by a crash and dropped' : ''}`,
      );
      if (start.fen !== undefined || start.ballot !== undefined || start.elevenMan !== undefined)
        this.log.warn(
          'an unfinished game was resumed: the start position asked for (FEN/ballot) is not used; start a new game from the page to use it',
        );
    } else this.games.firstGame({ ...start });
  }

  private async openBoard(): Promise<void> {
    const b = this.opts.board ?? {};
    let source: BoardSource;
    let identity: BoardIdentity;
    let fallback: string | null = null;
    if (this.opts.opened) {
      ({ source, identity } = this.opts.opened);
      fallback = this.opts.opened.fallback ?? null;
    } else if (b.source) {
      source = b.source;
      identity = await source.open();
    } else {
      const opened = await openBoardSource(b.spec ?? 'auto');
      ({ source, identity } = opened);
      fallback = opened.fallback ?? null;
    }
    this.board = { source, identity, description: describeBoard(source, identity), fallback };
    this.session.boardId = identity.id;
    // The simulated board stands for a real one, whose pieces stay where the resumed game left them while the program restarts.
    if (this.resumed && !b.source && source instanceof SimBoard) placePosition(source, this.session.game.position);
    this.loadCalibration(identity.id);
    if (b.record) {
      this.recorder = new Recorder(
        b.record,
        {
          board: source.kind,
          id: identity.id,
          fw: identity.fw,
          rate: identity.rate,
          started: new Date().toISOString(),
          crownhead: VERSION,
          game: this.session.gameId,
          tournament: this.session.options.tournament,
        },
        this.log,
      );
      this.recorder.newGame({ fen: this.session.snapshot().fen, options: this.session.game.options });
    }
    this.offs.push(this.wireBoard(source));
    this.session.boardStatus(true, source.kind, this.board.description);
    this.stopClocks = this.games.runClocks(this.opts.game?.tickMs ?? DEFAULTS.tickMs);
  }

  private loadCalibration(id: string): void {
    try {
      const saved = this.store.loadCalibration(id);
      if (saved) {
        this.session.useCalibration(saved.data);
        this.log.info({ file: saved.file }, `using the saved calibration of board ${id}`);
      }
    } catch (e) {
      this.log.warn(`ignoring the saved calibration of board ${id}: ${(e as Error).message}`);
    }
  }

  /** Frames to the session (and the recorder); board lost/back to the session and the log. Returns the unsubscribe. */
  private wireBoard(src: BoardSource): () => void {
    const offFrame = src.onFrame((f) => {
      this.recorder?.frame(f.t, f.seq, f.readings);
      this.session.pushFrame(f.t, f.readings);
    });
    const offStatus = src.onStatus((s: SourceStatus) => this.boardStatus(src, s));
    return () => {
      offFrame();
      offStatus();
    };
  }

  private boardStatus(src: BoardSource, s: SourceStatus): void {
    switch (s.state) {
      case 'connected':
      case 'reconnected':
        this.log.info(`board ${s.state === 'reconnected' ? 'back' : 'connected'}: ${describeBoard(src, s.identity)}`);
        this.recorder?.board(true);
        this.session.boardStatus(true, src.kind, describeBoard(src, s.identity));
        break;
      case 'lost':
        this.log.warn(`board lost: ${s.reason}`);
        this.recorder?.board(false);
        this.session.boardStatus(false, src.kind, s.reason);
        break;
      case 'error':
        this.log.warn(`board: ${s.message}`);
        break;
      default:
        break;
    }
  }

  /**
   * The board at a glance (GET /api/boards, the arbiter's grid, /watch, a station's status): made from the session's one
   * snapshot of its last change (changeSnapshot), at most once per change and not at all while nobody reads; a running
   * clock as it stands now, a station's own word on its board as it last said.
   */
  summary(): BoardSummary {
    const board = this.board;
    const snap = this.session.changeSnapshot();
    if (this.kept?.from !== snap || this.kept.board !== board) {
      const meta: BoardMeta = {
        id: board?.identity.id ?? this.session.boardId,
        number: this.number,
        description: board?.description ?? '',
        source: board?.source.kind ?? '',
      };
      this.kept = { from: snap, board, summary: boardSummary(meta, snap) };
    }
    const clock = this.session.clock;
    const now = clock?.runningSide ? { clock: clock.state((this.session.options.now ?? Date.now)()) } : {};
    return { ...this.kept.summary, ...now, ...this.remoteState };
  }

  /** The game as the broadcast lists it at board `at` (a station's with the service's tags it lacks): made at most once per change (room-record.ts). */
  broadcastText(at: Room = this): string {
    return this.pdn.broadcast(this.games, at.serviceTags);
  }

  /** The tags the service gives this board's games (club mode: its Board number, the service's Event, Round…); a station's own games may lack them. */
  get serviceTags(): Readonly<Record<string, string>> {
    return this.opts.game?.tags ?? {};
  }

  /** its number in the room (the Board tag in club mode) */
  get number(): number {
    return this.opts.number ?? 1;
  }

  /** The room as the HTTP and WebSocket layers see it (the board must be open). */
  context(access: Access): ServerContext {
    const board = this.board;
    if (!board) throw new Error('the room has no board yet');
    const info = (): ServerDescription => ({
      name: 'crownhead',
      version: VERSION,
      sim: board.source.kind === 'sim',
      source: board.source.kind,
      board: board.description,
      fallback: board.fallback,
      storage: this.store.health(),
      gamesDir: this.opts.storage.gamesDir,
      ...(this.hubLink ? { hub: this.hubLink() } : {}),
    });
    return {
      session: this.session,
      source: board.source,
      store: this.store,
      access,
      logger: this.log,
      info,
      command: (c) => this.command(c),
    };
  }

  /** Runs a command on this board's game: here, or on its station (settled when the station answers). */
  command(c: Command): void | Promise<void> {
    return this.games.command(c, this.board!.source);
  }

  /** Stops the timer and the board, writes what is pending, releases the folder. Its pages are closed by the gateway first. */
  close(): Promise<void> {
    return (this.closing ??= this.shut());
  }

  private async shut(): Promise<void> {
    this.stopClocks?.();
    for (const off of this.offs.splice(0)) off();
    await this.pages.close();
    await this.board?.source.close();
    this.pdn.flush();
    this.store.close();
    if (!this.store.flushed)
      this.log.error(
        { unsaved: this.store.unsaved() },
        `stopping with ${this.store.unsaved()} change(s) not written to ${this.opts.storage.gamesDir}: they are lost`,
      );
    await this.recorder?.close();
  }
}
