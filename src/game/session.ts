// The session: one board's game, wired. It composes the game at the table (table.ts: the rules Game, tags, clocks,
// draws, results and the players' commands), the board tracker that feeds it moves, the coach (the computer opponent,
// hints, the evaluation bar and the analysis through the engine's port: coach.ts) and the journal, and announces every
// change to its listeners; what pages and the PDN are given comes from the view (view.ts), the state as an event left it
// taken once for all that event's listeners (changeSnapshot). Game changes (new game, next game, restore, takeback:
// between two players with the other side's consent, takeback.ts) are applied one at a time: one asked for while another
// change is being applied and announced waits for it. No module-level state: a service may hold many sessions. Pure but
// for the injected wall clock and the engine's promise; board I/O, storage, the engine worker and the network are wired
// on by the service.

import type { Correction, MoveRecord as MoveRecordV1 } from '../model/game.ts';
import { sideName, type Color, type GameOptions } from '../rules/index.ts';
import { makePdn, type PdnResult } from '../pdn/index.ts';
import type { TrackerEvent, TrackerOptions } from '../tracking/tracker.ts';
import { BoardTracking } from '../tracking/board-tracking.ts';
import type { ClockState } from './clock.ts';
import type { GameEvent, RemoteLink, Snapshot } from '../protocol/v1.ts';
import type { JournalEntry } from '../model/journal.ts';
import { computerName, withoutComputerNames, type ComputerPlayer, type ComputerSetting } from './computer.ts';
import { Coach } from './coach.ts';
import { announce, type Announcing } from './announce.ts';
import { RemoteOpponent, farRecord, remoteMoveEvent, type RemotePly } from './remote.ts';
import { TakebackOffers, type TakebackKey } from './takeback.ts';
import type { Purpose, Think } from '../engine/port.ts';
import { Calibration, type CalibrationData } from '../reading/calibration.ts';
import { SessionError } from './errors.ts';
import { applyTags } from './tags.ts';
import { GameTable, type NewGameRequest } from './table.ts';
import { gameIds } from './ids.ts';
import { annotated, colourCheck, moveRecords, openingWords, pdnRecord, setupSentence, tableSnapshot } from './view.ts';

export { SessionError, type SessionErrorCode } from './errors.ts';
// (The view's words and records, where importers of the session found them before the split.)
export { clkText, describeOutcome, elevenManSetup, moveRecord, piecesOf, speakMove, terminationOf } from './view.ts';

export interface SessionOptions {
  /** Wall-clock milliseconds (Date.now in production, a fake in tests). */
  now?: () => number;
  /** Rules variants and automatic draws. */
  rules?: GameOptions;
  /** Tournament mode: takebacks refused (on the board and from the page). */
  tournament?: boolean;
  /** Time control, e.g. "5m+3s" or "40/90m,30m". */
  timeControl?: string;
  tracker?: Partial<Omit<TrackerOptions, 'takebacks' | 'retraction'>>;
  /** Tags for new games (Event, Site, Black, White…); checked like every change of tags. */
  tags?: Record<string, string>;
  /** Called with every journal entry before the change is announced. */
  journal?: (entry: JournalEntry) => void;
  /** Play the computer in new games by default (side and level); a new-game request may change it. */
  computer?: ComputerSetting | null;
  /** How the computer thinks (the engine worker, wired by the service). Without it no game can have a computer player. */
  think?: Think;
  /** Ends the engine's searches for a purpose whose answer is no longer wanted (the computer's, after a takeback or a new game). */
  stopThinking?: (purpose: Purpose) => void;
  /** The engine's time per search at full strength, ms (a computer's level uses its share); default 2000. */
  thinkMs?: number;
  /**
   * Called with the id of a game nobody played (no move, no result) when a new game replaces it, after the new game's
   * journal record and before it is announced: such a game is dropped, not archived.
   */
  dropped?: (gameId: string) => void;
  /** Makes a new game's id from the time (default: time and a count of this session's games). */
  newGameId?: (ms: number) => string;
}

export type MoveRecord = MoveRecordV1;
/** The snapshot is the protocol's (src/protocol/v1.ts). */
export type SessionSnapshot = Snapshot;

/**
 * What the session announces: the protocol's game events (storage notices come from the service), the calibration result
 * with its data (the hub sends it without), and the two high-rate signals that go out as their own messages (counts, clock).
 */
export type SessionEvent =
  | Exclude<GameEvent, { type: 'calibrated' } | { type: 'storage' } | { type: 'hub-link' }>
  | { type: 'calibrated'; data: CalibrationData; say: string }
  | { type: 'counts' }
  | { type: 'clock'; clock: ClockState };

/** Time kept back on the computer's clock for the player to carry its move out on the board, ms. */
export const CARRY_OUT_MS = 3000;

export class GameSession {
  readonly options: Required<Pick<SessionOptions, 'tournament'>> & SessionOptions;
  /** The game at the table. */
  readonly table: GameTable;
  readonly tracker: BoardTracking;
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  /** The state as the last event left it (changeSnapshot): dropped as each event is emitted, taken again at the first ask after it. */
  private atChange: SessionSnapshot | null = null;
  /** The computer opponent, hints, the evaluation bar and the analysis (coach.ts). */
  private readonly coach: Coach;
  private readonly takebacks = new TakebackOffers(); // a takeback one of two players asked for
  /** Playing the computer (null: two players). */
  get computer(): ComputerPlayer | null {
    return this.coach.computer;
  }
  /** Playing someone at another board (null: both players are here); set with each game from the table's record. */
  remote: RemoteOpponent | null = null;
  private connected = false;
  private source = 'none';
  private sourceDetail = '';
  /** Changes being applied and announced (nested); game changes asked for meanwhile wait in `waiting`. */
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: SessionOptions = {}) {
    this.options = { tournament: false, ...options };
    this.coach = new Coach({ think: options.think, stopThinking: options.stopThinking, thinkMs: options.thinkMs }, (e) => this.emit(e));
    const tags = applyTags({}, options.tags ?? {});
    this.table = new GameTable({
      now: () => this.now(),
      rules: options.rules,
      tournament: this.options.tournament,
      timeControl: options.timeControl,
      tags,
      journal: (entry) => this.journal(entry),
      emit: (e) => this.emit(e),
      newId: options.newGameId ?? gameIds(),
    });
    // Tournament mode: no takebacks, and the retraction rule enforced (a correction with another piece is illegal).
    this.tracker = new BoardTracking(this.game, this.table, {
      ...options.tracker,
      takebacks: !this.options.tournament,
      retraction: this.options.tournament ? 'enforce' : 'notice',
    });
  }

  // (The table's state, read where the session's users and the coach always found it.)
  get game() {
    return this.table.game;
  }
  get gameId(): string {
    return this.table.gameId;
  }
  get tags(): Record<string, string> {
    return this.table.tags;
  }
  get ballot(): number | null {
    return this.table.ballot;
  }
  get clock() {
    return this.table.clock;
  }
  get drawOffer(): Color | null {
    return this.table.drawOffer;
  }
  get result(): PdnResult {
    return this.table.result;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  on(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Announces a change to the listeners (public: a game followed from another board's records, mirror.ts, announces through it). */
  emit(e: SessionEvent): void {
    this.atChange = null;
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        console.error('session listener failed:', err);
      }
    }
  }

  private journal(entry: JournalEntry): void {
    this.options.journal?.(entry);
  }

  /** Applies and announces a change; a game change asked for meanwhile (by a listener) waits until it is done. */
  private serial(apply: () => void): void {
    this.busy++;
    try {
      apply();
    } finally {
      this.busy--;
      if (this.busy === 0) this.runWaiting();
    }
  }

  /** A game change (new game, next game, restore, takeback): now, or after the change being announced. */
  private change(apply: () => void): void {
    if (this.busy > 0) this.waiting.push(apply);
    else this.serial(apply);
  }

  private runWaiting(): void {
    while (this.busy === 0 && this.waiting.length) {
      const apply = this.waiting.shift()!;
      try {
        this.serial(apply);
      } catch (e) {
        // (Asked for by a listener, which has already returned: the players hear why it was not done.)
        this.emit({ type: 'notice', level: 'info', squares: [], say: `Not done: ${(e as Error)?.message ?? String(e)}` });
      }
    }
  }

  // ---------------------------------------------------------------- games

  /** Starts a new game: from the start position, a FEN, or an ACF ballot (number or 'random'). The board must then be set up to match. */
  newGame(req: NewGameRequest = {}): void {
    this.change(() => this.startGame(req));
  }

  /**
   * After a game: `other-side` plays the same ballot again with the sides swapped; `next` starts the next game with the
   * first player alternating (GameTable.nextGameRequest says how).
   */
  nextGame(kind: 'other-side' | 'next', random?: () => number): void {
    this.change(() => this.startGame(this.table.nextGameRequest(kind, random)));
  }

  private startGame(req: NewGameRequest): void {
    const computer = req.remote ? null : req.computer === undefined ? (this.options.computer ?? null) : req.computer;
    if (computer && !this.options.think) throw new SessionError('not-allowed', 'this service has no engine to play the computer');
    const replaced = this.table.gameId && !this.table.played ? this.table.gameId : null;
    const side = req.remote ? (req.remote.side === 'black' ? 'Black' : 'White') : null;
    const named = side && !req.tags?.[side] ? { ...req.tags, [side]: req.remote!.name } : req.tags;
    const tags = named && !computer ? withoutComputerNames(named) : named;
    const started = this.table.newGame(
      { ...req, ...(tags ? { tags } : {}) },
      computer ? { side: computer.side, name: computerName(computer.level) } : null,
    );
    this.install(started.tags, computer);
    if (replaced) this.options.dropped?.(replaced);
    const opening = openingWords(started.game, started.tags, started.ballot, started.eleven);
    this.emit({
      type: 'new-game',
      say: `New game. ${opening}${this.computer ? `${this.computer.describe()} ` : ''}${this.remote ? `${this.remote.describe()} ` : ''}${setupSentence(this.game)}`,
    });
    this.afterTracker(this.tracker.setGame(this.game));
  }

  /** The coach follows the game at the table. */
  private install(tags: Record<string, string>, computer?: ComputerSetting | null): void {
    // Playing the computer: a new game says so; a resumed game's player tag says so.
    this.coach.newGame(tags, computer);
    this.remote = this.table.remote ? new RemoteOpponent(this.table.remote) : null;
    this.tracker.playedElsewhere(this.remote?.side ?? null, this.remote?.setting.name);
    // The game's own rules: a tournament's game turns the evaluation bar off and takebacks at the board with it.
    this.tracker.tournamentRules(this.table.tournament);
    if (this.table.tournament && this.coach.state().evaluation) this.coach.setEvaluation(false, this.game, this.gameId);
  }

  /** Every move of the game, in order. */
  moveRecords(): MoveRecord[] {
    return moveRecords(this.table);
  }

  /** Restores a game from its journal (after a restart): same moves, tags, clocks and result. */
  restore(entries: readonly JournalEntry[]): void {
    this.change(() => {
      this.table.restore(entries);
      this.install(this.tags);
      this.emit({ type: 'new-game', say: 'Game resumed. Check the board against the position shown.' });
      const clocks = this.table.stoppedByRestart();
      if (clocks) this.emit({ type: 'notice', level: 'info', squares: [], say: clocks });
      this.afterTracker(this.tracker.setGame(this.game));
    });
  }

  // ---------------------------------------------------------------- board

  /** A frame from the board source. */
  pushFrame(t: number, readings: ArrayLike<number>): void {
    if (this.tracker.calibrating) return this.pushCalibration(t, readings);
    this.serial(() => {
      const before = this.tracker.view.lastChange;
      const events = this.tracker.push(t, readings);
      if (events.length) this.afterTracker(events);
      // (A reminder — captured coins still on, a coin upside down — rides on the status the counts message carries.)
      if (this.tracker.view.lastChange !== before || events.some((e) => e.type === 'reminder' || e.type === 'reminder-cleared'))
        this.emit({ type: 'counts' });
      this.table.tick();
    });
  }

  /** The board source connected, was lost, or came back. */
  boardStatus(connected: boolean, source: string, detail: string): void {
    const was = this.connected;
    this.connected = connected;
    this.source = source;
    this.sourceDetail = detail;
    this.atChange = null; // (a new source or detail with no change of connection is no event, but the state shows it)
    if (connected && !was) {
      // After a (re)connect the board is compared with the game before play goes on.
      this.emit({ type: 'board', connected, say: `Board connected. ${detail}` });
      this.afterTracker(this.tracker.setGame(this.game));
    } else if (!connected && was) {
      this.emit({ type: 'board', connected, say: `Board lost: ${detail}. The game is kept; reconnect the board to go on.` });
    }
  }

  private afterTracker(events: TrackerEvent[]): void {
    this.serial(() => {
      for (const e of events) announce(this.announcing, e);
      this.considerComputer();
      this.coach.follow(this.game, this.gameId);
    });
  }

  /** What announce.ts needs of the session (read afresh for each event). */
  private get announcing(): Announcing {
    return {
      table: this.table,
      game: this.game,
      computer: this.computer,
      remote: this.remote,
      emit: (e) => this.emit(e),
      ready: () => this.ready(),
    };
  }

  /** The board matches the game: play on. */
  private ready(): void {
    // Clocks start with the first move, not here. A set-up position on a set that cannot show
    // colours (glued the old way): ask for a check, and say once why.
    if (!this.tracker.view.coded && !this.saidNoColours) {
      this.saidNoColours = true;
      this.emit({
        type: 'notice',
        level: 'info',
        squares: [],
        say: "This set's magnets are all glued the same way up, so the board cannot see colours: colour checks are off.",
      });
    }
    this.emit({
      type: 'ready',
      say: this.game.outcome
        ? 'Board matches the finished game.'
        : `Board ready. ${colourCheck(this.game, this.tracker.view.coded)}${sideName(this.game.turn)} to move.`,
    });
  }

  /** The "colour checks are off" notice was given (once per session). */
  private saidNoColours = false;

  /** Playing the computer and it is its turn on a board in play: it thinks, and its move goes to the player to carry out. */
  private considerComputer(): void {
    const c = this.computer;
    if (!c) return;
    const ready = this.tracker.phase === 'play' && this.tracker.crownSquare === null && !this.tracker.calibrating;
    // With a time control the computer keeps within its clock, leaving the time it takes the
    // player to carry its move out on the board (that counts on the computer's clock too).
    const mc = this.clock?.moverClock(c.setting.side);
    const clock = mc ? { ...mc, remainingMs: Math.max(0, mc.remainingMs - CARRY_OUT_MS) } : undefined;
    c.consider(
      this.game,
      ready,
      (move, text) => {
        const events = this.tracker.expectMove(move);
        const route = move.captures.length ? `${move.from} takes ${move.path.join(', then ')}` : `${move.from} to ${move.to}`;
        this.emit({
          type: 'computer-move',
          text,
          from: move.from,
          path: [...move.path],
          captures: [...move.captures],
          say: `The computer plays ${route}${move.crowned ? ', crowned' : ''}: carry it out on the board.`,
        });
        this.emit({ type: 'counts' });
        if (events.length) this.afterTracker(events);
      },
      (e) => {
        this.emit({ type: 'notice', level: 'info', squares: [], say: `The computer could not move: ${e.message}` });
      },
      clock,
    );
  }

  /**
   * The move of the player at the other board (from its station): the player here carries it out, and the board is checked
   * against exactly it. A copy of a move already here is dropped; anything else wrong is refused, named.
   */
  remoteMove(p: RemotePly): void {
    const r = this.remote;
    if (!r) throw new SessionError('not-allowed', 'this game has no player at another board');
    this.serial(() => {
      const move = r.receive(this.game, p);
      if (!move) return;
      const events = this.tracker.expectMove(move, undefined, r.setting.name);
      this.emit(remoteMoveEvent(r));
      this.emit({ type: 'counts' });
      if (events.length) this.afterTracker(events);
    });
  }

  /** Called by the service's timer so clocks run (and flags fall) even when no frames arrive. */
  tick(): void {
    this.serial(() => this.table.tick());
  }

  // ---------------------------------------------------------------- calibration

  /** Board id the calibration belongs to (for saving). */
  boardId = '';

  /** Starts the explicit calibration routine (run by the tracking); play waits until it is done or cancelled. */
  startCalibration(): void {
    const progress = this.tracker.startCalibration();
    this.emit({ type: 'calibration', progress, say: progress.message });
  }

  cancelCalibration(): void {
    const events = this.tracker.cancelCalibration();
    if (!events) return;
    this.emit({ type: 'alert-cleared', say: 'Calibration cancelled.' });
    this.afterTracker(events);
  }

  private pushCalibration(t: number, readings: ArrayLike<number>): void {
    const step = this.tracker.pushCalibration(t, readings);
    if (!step) return;
    if (step.kind === 'progress') return this.emit({ type: 'calibration', progress: step.progress, say: step.progress.message });
    this.emit({
      type: 'calibrated',
      data: step.calibration.toJSON(this.boardId, new Date(this.now()).toISOString()),
      say: 'Calibration done and saved. Set up the position shown.',
    });
    this.afterTracker(step.events);
  }

  /** Uses a saved calibration (from an earlier routine on this board). */
  useCalibration(data: unknown): void {
    this.tracker.useCalibration(Calibration.fromJSON(data));
  }

  // ---------------------------------------------------------------- commands

  setTags(tags: Record<string, string>): void {
    this.table.setTags(tags);
  }

  resign(side: Color): void {
    this.remote?.onlyTheirs(side, 'resign');
    this.table.resign(side);
  }

  offerDraw(side: Color): void {
    this.remote?.onlyTheirs(side, 'offer a draw');
    this.table.offerDraw(side);
  }

  acceptDraw(side: Color): void {
    this.remote?.onlyTheirs(side, 'accept a draw');
    this.table.acceptDraw(side);
  }

  declineDraw(): void {
    this.table.declineDraw();
  }

  claimDraw(): void {
    this.table.claimDraw();
  }

  /** Takes back the last move (the board is then put back to match); two players: `side` asks, the other answers (takeback.ts). */
  takeback(side?: Color): void {
    this.remote?.onlyTheirs(side, 'ask for a takeback');
    if (side && !this.computer) this.table.checkTakeback();
    if (side && !this.computer && !this.takebacks.ask(side, this.takebackKey(), this.offered)) return;
    this.takebacks.clear(this.takebackKey());
    this.change(() => {
      this.table.checkTakeback();
      // Against the computer, on the player's turn: the computer's move and the player's before it.
      const pair = this.computer !== null && this.game.turn !== this.computer.setting.side && this.game.plies.length >= 2;
      this.computer?.cancel();
      this.remote?.cancel();
      this.tracker.expectMove(null);
      this.table.takeback(pair ? 2 : 1);
      this.emit({ type: 'takeback', say: `${pair ? 'Two moves' : 'Move'} taken back. Put the pieces back as shown.` });
      this.afterTracker(this.tracker.setGame(this.game));
    });
  }

  /** The way to the other board changed (their station, the broker): shown, and said when it is news. */
  remoteLink(link: RemoteLink): void {
    if (this.remote?.setLink(link)) this.emit({ type: 'remote-link', say: this.remote.linkSentence() });
  }

  /** The other side's answer to a takeback asked for: accepted, the move is taken back (one this board's player asked of the far player is theirs to answer). */
  takebackAnswer(accept: boolean): void {
    this.remote?.answers(this.takebacks.pending(this.takebackKey()));
    if (this.takebacks.answer(accept, this.takebackKey(), this.offered)) this.takeback();
  }
  /** A takeback asked or declined here, announced; with a player at another board journalled first (their board shows it). */
  private readonly offered = (e: Extract<SessionEvent, { type: 'takeback-offer' }>): void => {
    if (this.remote) this.journal({ k: 'takeback-offer', side: e.side, at: this.now() });
    this.emit(e);
  };
  /** A record of the far board's linked game, with its ply count there (far-game.ts): what their player did, applied as theirs (remote.ts). */
  remoteRecord(e: JournalEntry, plies: number): void {
    const { table, takebacks } = this;
    const hands = { table, takebacks, emit: (x: SessionEvent) => this.emit(x), takeBack: () => this.takeback() };
    if (this.remote) this.serial(() => farRecord(this.remote!, hands, e, plies));
  }
  private readonly takebackKey = (): TakebackKey => ({ gameId: this.gameId, plies: this.game.plies.length });

  /**
   * An arbiter's correction (the command needs the control token): planned and journalled by the table; the board must
   * then be put to match a changed position, as after a takeback.
   */
  correct(c: Correction, by = 'arbiter', reason = ''): void {
    this.change(() => {
      const moves = c.kind === 'replace-move' || c.kind === 'delete-moves';
      if (moves) {
        this.computer?.cancel();
        this.remote?.cancel();
        this.tracker.expectMove(null);
      }
      const note = this.table.correct(c, by, reason);
      this.emit({ type: 'corrected', correction: note, say: `Arbiter: ${note.say}.${moves ? ' Put the pieces as shown.' : ''}` });
      if (moves) this.afterTracker(this.tracker.setGame(this.game));
    });
  }

  /**
   * The coach: the engine's move for the side to move, said quietly (a notice with its squares) when it comes. Not in
   * tournament mode, not for the computer's own turn, not without an engine.
   */
  hint(): void {
    if (this.table.tournament) throw new SessionError('not-allowed', 'no hints in tournament mode');
    if (!this.options.think) throw new SessionError('not-allowed', 'this service has no engine to give hints');
    if (this.game.outcome) throw new SessionError('game-over', 'the game is over');
    if (this.computer && this.game.turn === this.computer.setting.side) throw new SessionError('not-allowed', "it is the computer's turn");
    this.coach.hint(this.game, this.gameId);
  }

  /**
   * After the game: the engine searches every position (in its worker) and marks the mistakes (?) and blunders (??) with
   * the better move; shown in review and written into the PDN on request (pdn({ annotated: true })).
   */
  analyse(): void {
    if (!this.options.think) throw new SessionError('not-allowed', 'this service has no engine to analyse with');
    if (!this.game.outcome && this.result === '*') throw new SessionError('not-allowed', 'the analysis is for a finished game');
    if (this.coach.analysing) return;
    if (!this.game.plies.length) throw new SessionError('nothing-to-undo', 'the game has no moves to analyse');
    this.coach.analyse(this.game);
  }

  /** The page no longer wants the analysis or the hint it asked for: the engine stops it (nothing to cancel: nothing happens). */
  cancel(what: 'analysis' | 'hint'): void {
    if (what === 'analysis') this.coach.cancelAnalysis();
    else this.coach.cancelHint();
  }

  /** The evaluation bar on or off (not in tournament mode: it would be advice). */
  setEvaluation(on: boolean): void {
    if (on && this.table.tournament) throw new SessionError('not-allowed', 'no evaluation bar in tournament mode');
    if (on && !this.options.think) throw new SessionError('not-allowed', 'this service has no engine to evaluate with');
    this.coach.setEvaluation(on, this.game, this.gameId);
  }

  clockStart(): void {
    this.table.clockStart();
  }

  clockPause(): void {
    this.table.clockPause();
  }

  // ---------------------------------------------------------------- views

  /** The game as PDN; `annotated`: with the analysis' ?/?? and better moves as comments (if the game was analysed). */
  pdn(opts: { annotated?: boolean } = {}): string {
    return makePdn(annotated(pdnRecord(this.table), opts.annotated ? this.coach.marks() : null));
  }

  /**
   * The state as the last event left it, for that event's listeners (the pages' patch, the seat's page, the board's summary):
   * taken once however many of them ask, and again only after the next event. snapshot() is the state now (a hello, a GET).
   */
  changeSnapshot(): SessionSnapshot {
    return (this.atChange ??= this.snapshot());
  }

  snapshot(): SessionSnapshot {
    return {
      ...tableSnapshot(
        this.table,
        { tracker: this.tracker, connected: this.connected, source: this.source, detail: this.sourceDetail },
        this.table.tournament,
        this.now(),
      ),
      calibration: this.tracker.calibration,
      ...this.coach.state(),
      remote: this.remote?.state() ?? null,
      takebackOffer: this.takebacks.pending(this.takebackKey()),
    };
  }
}
