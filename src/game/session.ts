// The game at the table: a rules Game fed by the move tracker, the record's
// tags, the clocks, draw offers and the result, and the commands players give
// (new game, names, resign, draw, takeback, clock). Every change is handed to
// the journal before it is announced, so a crash never loses a move. The
// snapshot and events it produces are the protocol's types (src/protocol/v1.ts);
// move records are derived from the rules game's plies, never kept apart.
// Playing the computer (computer.ts) and the coach's hints ask an injected
// engine (`think`). Pure but for the injected wall clock and that promise;
// board I/O, storage, the engine worker and the network are wired on by the
// service.

import {
  BALLOTS, FenError, Game, GameError, START, legalMoves, makeFen, moveText, opposite, parseFen, sameBoard, sideName,
  type Color, type GameOptions, type Move, type Outcome, type Ply, type Position,
} from '../rules/index.ts';
import { makePdn, pdnFromGame, resultOf, type PdnResult } from '../pdn/index.ts';
import type { TrackerEvent, TrackerOptions } from '../tracking/tracker.ts';
import { BoardTracking } from '../tracking/board-tracking.ts';
import { GameClock, TimeControlError, parseTimeControl, parseTimeControlTag, timeControlTag, type ClockState, type TimeControl } from './clock.ts';
import type { GameEvent, MoveRecord as MoveRecordV1, Piece, Snapshot } from '../protocol/v1.ts';
import { fixesSentence, joinWords, piecesSentence } from '../words/index.ts';
import { ELEVEN_MAN_COUNT, elevenManPosition } from '../rules/eleven-man.ts';
import type { JournalEntry } from './journal.ts';
import { scoreText } from '../engine/analyse.ts';
import { WIN } from '../engine/search.ts';
import { ComputerPlayer, analyseGame, computerFromTags, computerName, type AnalysisMark, type ComputerSetting, type Think, type ThinkPurpose } from './computer.ts';
import { Calibration, type CalibrationData } from '../reading/calibration.ts';

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
  /** Tags for new games (Event, Site, Black, White…). */
  tags?: Record<string, string>;
  /** Called with every journal entry before the change is announced. */
  journal?: (entry: JournalEntry) => void;
  /** Play the computer in new games by default (side and level); a new-game request may change it. */
  computer?: ComputerSetting | null;
  /** How the computer thinks (the engine worker, wired by the service). Without it no game can have a computer player. */
  think?: Think;
  /** Ends the engine's searches for a purpose whose answer is no longer wanted (the computer's, after a takeback or a new game). */
  stopThinking?: (purpose: ThinkPurpose) => void;
}

export type SessionErrorCode = 'bad-fen' | 'bad-ballot' | 'bad-time-control' | 'game-over' | 'not-allowed' | 'bad-request' | 'nothing-to-undo';

export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(readonly code: SessionErrorCode, message: string) {
    super(message);
  }
}

export type MoveRecord = MoveRecordV1;
/** The snapshot is the protocol's (src/protocol/v1.ts). */
export type SessionSnapshot = Snapshot;

/**
 * What the session announces: the protocol's game events (storage notices
 * come from the service), the calibration result with its data (the hub
 * sends it without), and the two high-rate signals that go out as their own
 * messages (counts, clock).
 */
export type SessionEvent =
  | Exclude<GameEvent, { type: 'calibrated' } | { type: 'storage' }>
  | { type: 'calibrated'; data: CalibrationData; say: string }
  | { type: 'counts' }
  | { type: 'clock'; clock: ClockState };


export function describeOutcome(o: Outcome): string {
  const w = o.winner ? sideName(o.winner) : null;
  switch (o.reason) {
    case 'no-moves': return `${w} wins: ${sideName(opposite(o.winner!))} has no legal move.`;
    case 'resignation': return `${w} wins: ${sideName(opposite(o.winner!))} resigned.`;
    case 'time': return `${w} wins on time.`;
    case 'agreement': return 'Draw by agreement.';
    case 'repetition': return 'Draw by threefold repetition.';
    case 'forty-move': return 'Draw by the 40-move rule.';
  }
}

/** The PDN Termination value for an outcome (how the game ended). */
export function terminationOf(o: Outcome): string {
  switch (o.reason) {
    case 'no-moves': return `${sideName(opposite(o.winner!))} has no legal move`;
    case 'resignation': return `${sideName(opposite(o.winner!))} resigned`;
    case 'time': return `${sideName(opposite(o.winner!))} lost on time`;
    case 'agreement': return 'draw by agreement';
    case 'repetition': return 'draw by threefold repetition';
    case 'forty-move': return 'draw by the 40-move rule';
  }
}

/** Time kept back on the computer's clock for the player to carry its move out on the board, ms. */
export const CARRY_OUT_MS = 3000;

const graceWords = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s % 60 === 0 ? (s === 60 ? 'a minute' : `${s / 60} minutes`) : `${s} seconds`;
};

/** An eleven-man ballot's set-up from the start position: which coins come off, which go on. */
export function elevenManSetup(p: Position): string {
  const off = (side: Color, start: number, now: number) => {
    const sq: number[] = [];
    for (let i = 0; i < 32; i++) if ((start >>> i) & 1 && !((now >>> i) & 1)) sq.push(i + 1);
    return sq.length ? `${sideName(side)}'s ${sq.length === 1 ? 'man' : 'men'} off ${joinWords(sq.map(String))}` : '';
  };
  const on: string[] = [];
  for (let i = 0; i < 32; i++) {
    if ((p.black >>> i) & 1 && !((START.black >>> i) & 1)) on.push(`a black man on ${i + 1}`);
    if ((p.white >>> i) & 1 && !((START.white >>> i) & 1)) on.push(`a white man on ${i + 1}`);
  }
  const take = [off('black', START.black, p.black), off('white', START.white, p.white)].filter(Boolean);
  return `from the start position take ${joinWords(take)}${on.length ? `, and put ${joinWords(on)}` : ''}.`;
}

/** "0:04:57" for %clk. */
export function clkText(ms: number): string {
  const t = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(t / 3600)}:${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
}

/** How a move is spoken: "Black, 11 to 15", "White takes, 22 jumps to 15". */
export function speakMove(m: MoveRecord): string {
  const route = m.captures.length ? `${m.from} takes ${m.path.join(', then ')}` : `${m.from} to ${m.to}`;
  return `${sideName(m.side)}, ${route}${m.crowned ? ', crowned' : ''}.`;
}

let idCounter = 0;

export class GameSession {
  readonly options: Required<Pick<SessionOptions, 'tournament'>> & SessionOptions;
  game: Game;
  readonly tracker: BoardTracking;
  gameId = '';
  tags: Record<string, string> = {};
  ballot: number | null = null;
  clock: GameClock | null = null;
  drawOffer: Color | null = null;
  /** The result written in the record (an outcome, or a result set by hand). */
  private resultOverride: PdnResult | null = null;
  /** Move records by ply (derived once per ply object; a replaced or taken-back ply simply drops out). */
  private records = new WeakMap<Ply, MoveRecord>();
  /** The mover's time left after each ply, with a time control. */
  private plyClocks = new WeakMap<Ply, number>();
  /** This game's time control (from the new-game request, the service's default, or the record's tag). */
  private timeControl: TimeControl | null = null;
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  /** Playing the computer (null: two players). */
  computer: ComputerPlayer | null = null;
  /** The evaluation bar: on, and the score of the position it was worked out for (Black's view). */
  private evaluation: { on: boolean; score: number | null; text: string; key: string } = { on: false, score: null, text: '', key: '' };
  /** The analysis of the finished game (null: none asked for this game). */
  private analysis: { running: boolean; marks: AnalysisMark[] } | null = null;
  private connected = false;
  private source = 'none';
  private sourceDetail = '';
  private lastClockTick = -Infinity;

  constructor(options: SessionOptions = {}) {
    this.options = { tournament: false, ...options };
    this.game = Game.standard(this.rulesOptions());
    // Tournament mode: no takebacks, and the retraction rule enforced (a correction with another piece is illegal).
    this.tracker = new BoardTracking(this.game, { ...options.tracker, takebacks: !this.options.tournament, retraction: this.options.tournament ? 'enforce' : 'notice' });
  }

  private rulesOptions(extra: GameOptions = {}): GameOptions {
    return { ...this.options.rules, ...extra };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  on(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: SessionEvent): void {
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

  // ---------------------------------------------------------------- games

  /**
   * Starts a new game: from the start position, a FEN, or an ACF ballot
   * (number or 'random'). The board must then be set up to match.
   */
  newGame(req: {
    fen?: string; ballot?: number | 'random'; elevenMan?: number | 'random'; crossboardOnly?: boolean; firstPlayer?: Color | 'random';
    tags?: Record<string, string>; rules?: GameOptions; timeControl?: string; random?: () => number; computer?: ComputerSetting | null;
  } = {}): void {
    const rules = this.rulesOptions(req.rules);
    const computer = req.computer === undefined ? this.options.computer ?? null : req.computer;
    if (computer && !this.options.think) throw new SessionError('not-allowed', 'this service has no engine to play the computer');
    let control: TimeControl | null = null;
    const tcText = req.timeControl ?? this.options.timeControl ?? '';
    try {
      control = tcText.trim() ? parseTimeControlTag(tcText) : null;
    } catch (e) {
      if (e instanceof TimeControlError) throw new SessionError('bad-time-control', `time control "${tcText}": ${e.message}`);
      throw e;
    }
    let game: Game;
    let ballot: number | null = null;
    let eleven: number | null = null;
    if (req.crossboardOnly !== undefined) this.crossboardOnly = req.crossboardOnly;
    if ([req.fen, req.ballot, req.elevenMan].filter((x) => x !== undefined).length > 1) throw new SessionError('bad-request', 'give one of a FEN, a ballot or an eleven-man ballot, not several');
    if (req.elevenMan !== undefined) {
      const n = req.elevenMan === 'random' ? 1 + Math.floor((req.random ?? Math.random)() * ELEVEN_MAN_COUNT) : req.elevenMan;
      if (!Number.isInteger(n) || n < 1 || n > ELEVEN_MAN_COUNT) throw new SessionError('bad-ballot', `no eleven-man ballot ${n}: they are numbered 1 to ${ELEVEN_MAN_COUNT}`);
      eleven = n;
      game = new Game(elevenManPosition(n), rules);
    } else if (req.fen !== undefined) {
      try {
        game = new Game(parseFen(req.fen), rules);
      } catch (e) {
        if (e instanceof FenError) throw new SessionError('bad-fen', e.message);
        throw e;
      }
    } else if (req.ballot !== undefined) {
      try {
        // A random draw skips barred ballots (and, asked, the mail-play ones).
        const pool = BALLOTS.filter((b) => b.status === 'crossboard' || (b.status === 'mailplay' && !req.crossboardOnly));
        const number = req.ballot === 'random' ? pool[Math.floor((req.random ?? Math.random)() * pool.length)].number : req.ballot;
        const r = Game.fromBallot(number, rules);
        game = r.game;
        ballot = r.ballot.number;
      } catch (e) {
        if (e instanceof GameError) throw new SessionError('bad-ballot', e.message);
        throw e;
      }
    } else {
      game = Game.standard({ ...rules, firstPlayer: req.firstPlayer ?? 'black', random: req.random });
    }
    const tags: Record<string, string> = { ...this.options.tags, ...req.tags };
    if (!tags.Date) tags.Date = formatDate(this.now());
    // (The computer is a player: its name in the record, which also brings it back after a restart.)
    if (computer) tags[computer.side === 'black' ? 'Black' : 'White'] = computerName(computer.level);
    if (ballot !== null) tags.Ballot = `ACF ${ballot} ${BALLOTS.find((b) => b.number === ballot)?.name ?? ''}`.trim();
    else if (eleven !== null) tags.Ballot = `11-man ${eleven}`;
    else if (req.tags?.Ballot === undefined) delete tags.Ballot;
    // A ballot game is the first of a pair unless the round says otherwise ("1.1", then "1.2" with the sides swapped).
    if ((ballot !== null || eleven !== null) && !tags.Round) tags.Round = '1.1';
    if (control) tags.TimeControl = timeControlTag(control);
    else delete tags.TimeControl;
    const id = newGameId(this.now());
    this.journal({ k: 'new', id, at: this.now(), fen: makeFen(game.start), options: rules, tags, ballot, moves: game.plies.map((p) => [p.move.from, ...p.move.path]) });
    this.install(id, game, tags, ballot);
    const opening = ballot !== null ? `Ballot ${tags.Ballot!.replace(/^ACF /, '')}. ` : eleven !== null ? `Eleven-man ballot ${eleven}: ${elevenManSetup(game.start)} ` : '';
    this.emit({ type: 'new-game', say: `New game. ${opening}${this.computer ? `${this.computer.describe()} ` : ''}${this.setupSentence()}` });
    this.afterTracker(this.tracker.setGame(this.game));
  }

  /**
   * After a game: `other-side` plays the same ballot again with the sides
   * (and names) swapped — the second game of a ballot pair; `next` starts the
   * next game with the first player alternating: a new ballot of the same
   * kind (drawn at random) for ballot games, the start position otherwise.
   * The PDN Round says where it stands: "pair.game" ("3.1", "3.2") for
   * ballot pairs, the game number otherwise. Time control and rules are kept.
   */
  nextGame(kind: 'other-side' | 'next', random?: () => number): void {
    if (!this.game.outcome && this.result === '*') throw new SessionError('not-allowed', 'the game is not over yet: finish it (or start a new game) first');
    const t = this.tags;
    const eleven = /^11-man (\d+)$/.exec(t.Ballot ?? '');
    const isBallot = this.ballot !== null || eleven !== null;
    if (kind === 'other-side' && !isBallot) throw new SessionError('not-allowed', 'this game was not played from a ballot: there is no other side to play');
    const round = /^(\d+)(?:\.(\d+))?$/.exec((t.Round ?? '').trim());
    const pair = round ? Number(round[1]) : 1;
    const inPair = round?.[2] !== undefined ? Number(round[2]) : 1;
    const tags: Record<string, string> = {};
    for (const k of ['Event', 'Site']) if (t[k] !== undefined) tags[k] = t[k];
    const swap = () => {
      if (t.White !== undefined) tags.Black = t.White;
      if (t.Black !== undefined) tags.White = t.Black;
    };
    const keep = () => {
      if (t.Black !== undefined) tags.Black = t.Black;
      if (t.White !== undefined) tags.White = t.White;
    };
    const base = { timeControl: t.TimeControl ?? '', rules: { huffing: this.game.options.huffing, crownContinue: this.game.options.crownContinue }, random };
    if (kind === 'other-side') {
      swap();
      tags.Round = `${pair}.2`;
      if (eleven) this.newGame({ ...base, elevenMan: Number(eleven[1]), tags });
      else this.newGame({ ...base, ballot: this.ballot!, tags });
      return;
    }
    // Next game: whoever moved first in the first game of this pair (or in this game) moves second.
    if (isBallot && inPair === 2) keep();
    else swap();
    if (isBallot) {
      tags.Round = `${pair + 1}.1`;
      if (eleven) this.newGame({ ...base, elevenMan: 'random', tags });
      else this.newGame({ ...base, ballot: 'random', crossboardOnly: this.crossboardOnly, tags });
    } else {
      tags.Round = String(pair + 1);
      this.newGame({ ...base, tags });
    }
  }

  /** The last random ballot draw skipped mail-play ballots (the next game's draw does too). */
  private crossboardOnly = false;

  private install(id: string, game: Game, tags: Record<string, string>, ballot: number | null): void {
    this.gameId = id;
    this.game = game;
    this.tags = tags;
    this.ballot = ballot;
    this.drawOffer = null;
    this.resultOverride = null;
    this.records = new WeakMap();
    this.plyClocks = new WeakMap();
    // The game's time control is its TimeControl tag (older records: the service's option).
    let control: TimeControl | null = null;
    try {
      control = tags.TimeControl !== undefined ? parseTimeControlTag(tags.TimeControl) : this.options.timeControl ? parseTimeControl(this.options.timeControl) : null;
    } catch {
      control = this.options.timeControl ? parseTimeControl(this.options.timeControl) : null;
    }
    this.timeControl = control;
    this.clock = control ? new GameClock(control) : null;
    // Playing the computer: the record's player tag says so (a new game sets it; a resumed game keeps it).
    this.analysis = null;
    this.computer?.cancel();
    const setting = this.options.think ? computerFromTags(tags) : null;
    this.computer = setting && this.options.think ? new ComputerPlayer(setting, this.options.think, () => this.options.stopThinking?.('computer')) : null;
  }

  private setupSentence(): string {
    return sameBoard(this.game.position, START) ? 'Set up the pieces.' : 'Set up the position shown.';
  }

  /** The record of ply `index` of the game (derived from the ply; cached per ply). */
  private recordAt(index: number): MoveRecord {
    const ply = this.game.plies[index];
    let rec = this.records.get(ply);
    if (!rec) {
      rec = moveRecord(ply.move, ply.before, index, this.game.start.turn, this.game.options, ply.huff ?? null);
      this.records.set(ply, rec);
    }
    const clock = this.plyClocks.get(ply);
    return clock === undefined ? rec : { ...rec, clock };
  }

  /** Every move of the game, in order. */
  moveRecords(): MoveRecord[] {
    return this.game.plies.map((_, k) => this.recordAt(k));
  }

  /** Restores a game from its journal (after a restart): same moves, tags, clocks and result. */
  restore(entries: readonly JournalEntry[]): void {
    const start = entries.find((e) => e.k === 'new');
    if (!start || start.k !== 'new') throw new SessionError('bad-request', 'journal has no new-game entry');
    const game = new Game(parseFen(start.fen, { allowUncrownedMen: true }), start.options);
    this.install(start.id, game, { ...start.tags }, start.ballot);
    const playPath = (path: number[], huff?: number) => {
      const legal = huff !== undefined ? [] : this.game.legalMoves();
      const match = (m: Move) => m.from === path[0] && m.path.length === path.length - 1 && m.path.every((p, i) => p === path[i + 1]);
      if (huff !== undefined) {
        // huffAndPlay finds the legal move by its start and path.
        this.game.huffAndPlay(huff, { from: path[0], to: path[path.length - 1], path: path.slice(1), captures: [], crowned: false });
        return;
      }
      const move = legal.find(match);
      if (!move) throw new SessionError('bad-request', `journal move ${path.join('-')} is not legal`);
      this.game.play(move);
    };
    for (const path of start.moves) playPath(path);
    for (const e of entries.slice(entries.indexOf(start) + 1)) {
      switch (e.k) {
        case 'move':
          playPath(e.path, e.huff);
          this.drawOffer = null;
          break;
        case 'takeback':
          this.game.undo();
          break;
        case 'tags':
          this.tags = { ...e.tags };
          break;
        case 'result':
          this.resultOverride = e.result;
          if (e.outcome && !this.game.outcome) this.game.setOutcome(e.outcome);
          break;
        case 'draw-offer':
          this.drawOffer = e.side;
          break;
        case 'clock':
          this.clock?.restore(e.clock);
          this.notePlyClock();
          break;
        default:
          break;
      }
    }
    this.emit({ type: 'new-game', say: 'Game resumed. Check the board against the position shown.' });
    this.afterTracker(this.tracker.setGame(this.game));
  }

  // ---------------------------------------------------------------- board

  /** A frame from the board source. */
  pushFrame(t: number, readings: ArrayLike<number>): void {
    if (this.tracker.calibrating) return this.pushCalibration(t, readings);
    const before = this.tracker.view.lastChange;
    const events = this.tracker.push(t, readings);
    if (events.length) this.afterTracker(events);
    // (A reminder — captured coins still on, a coin upside down — rides on the status the counts message carries.)
    if (this.tracker.view.lastChange !== before || events.some((e) => e.type === 'reminder' || e.type === 'reminder-cleared')) this.emit({ type: 'counts' });
    this.tickClock();
  }

  /** The board source connected, was lost, or came back. */
  boardStatus(connected: boolean, source: string, detail: string): void {
    const was = this.connected;
    this.connected = connected;
    this.source = source;
    this.sourceDetail = detail;
    if (connected && !was) {
      // After a (re)connect the board is compared with the game before play goes on.
      this.emit({ type: 'board', connected, say: `Board connected. ${detail}` });
      this.afterTracker(this.tracker.setGame(this.game));
    } else if (!connected && was) {
      this.emit({ type: 'board', connected, say: `Board lost: ${detail}. The game is kept; reconnect the board to go on.` });
    }
  }

  private afterTracker(events: TrackerEvent[]): void {
    for (const e of events) {
      switch (e.type) {
        case 'move':
        case 'move-replaced': {
          const entry: JournalEntry = { k: 'move', path: [e.ply.move.from, ...e.ply.move.path], at: this.now(), ...(e.ply.huff !== undefined ? { huff: e.ply.huff } : {}) };
          if (e.type === 'move-replaced') this.journal({ k: 'takeback', at: this.now() });
          this.journal(entry);
          this.drawOffer = null;
          if (this.clock) {
            // The first move starts the clocks; a changed move keeps the clock where it is.
            if (e.type === 'move') this.clock.moved(e.ply.before.turn, this.now(), this.forcedCapture());
            this.journal({ k: 'clock', clock: this.clock.toJSON(), at: this.now() });
            this.notePlyClock();
          }
          if (this.computer && e.ply.before.turn === this.computer.setting.side) this.computer.played();
          else if (this.computer && e.type === 'move-replaced') this.computer.cancel();
          const index = this.game.plies.lastIndexOf(e.ply);
          const rec = this.recordAt(index >= 0 ? index : this.game.plies.length - 1);
          this.emit({ type: e.type, move: rec, say: (e.type === 'move-replaced' ? 'Changed: ' : '') + speakMove(rec) });
          break;
        }
        case 'takeback':
          this.journal({ k: 'takeback', at: this.now() });
          this.computer?.cancel();
          this.clockFollowsTurn();
          this.emit({ type: 'takeback', say: 'Move taken back.' });
          break;
        case 'crown-awaited':
          this.emit({ type: 'crown-awaited', square: e.square, say: `Crown the king on ${e.square}.` });
          break;
        case 'crowned':
          this.journal({ k: 'crown', square: e.square, at: this.now() });
          this.emit({ type: 'crowned', square: e.square, say: `King on ${e.square}.` });
          break;
        case 'alert':
          this.emit({ type: 'alert', alert: e.alert, say: e.alert.message });
          break;
        case 'alert-cleared':
          this.emit({ type: 'alert-cleared', say: 'Board in order.' });
          break;
        case 'setup':
          // One grouped sentence ("Put a black man on 1–12; take the coin off 13."), not one per square.
          this.emit({ type: 'setup', fixes: e.fixes, say: e.fixes.length ? fixesSentence(e.fixes) : e.message });
          break;
        case 'ready':
          // Clocks start with the first move, not here. A set-up position on a set that cannot show
          // colours (glued the old way): ask for a check, and say once why.
          if (!this.tracker.view.coded && !this.saidNoColours) {
            this.saidNoColours = true;
            this.emit({ type: 'notice', level: 'info', squares: [], say: 'This set\'s magnets are all glued the same way up, so the board cannot see colours: colour checks are off.' });
          }
          this.emit({ type: 'ready', say: this.game.outcome ? 'Board matches the finished game.' : `Board ready. ${this.colourCheck()}${sideName(this.game.turn)} to move.` });
          break;
        case 'game-over':
          this.finish(this.game.outcome!);
          break;
        case 'reminder':
          // Quiet: spoken politely and shown softly on the page, never the buzzer.
          this.emit({ type: 'notice', level: 'reminder', squares: e.reminder.squares, say: e.reminder.message });
          break;
        case 'retraction-notice':
          // Outside tournament mode the retraction rule is advice: the move stands, and the players are told.
          this.emit({ type: 'notice', level: 'info', squares: e.squares, say: e.message });
          break;
        case 'reminder-cleared':
        case 'status':
          break;
      }
    }
    this.considerComputer();
    this.considerEvaluation();
  }

  /** Playing the computer and it is its turn on a board in play: it thinks, and its move goes to the player to carry out. */
  private considerComputer(): void {
    const c = this.computer;
    if (!c) return;
    const ready = this.tracker.phase === 'play' && this.tracker.crownSquare === null && !this.tracker.calibrating;
    // With a time control the computer keeps within its clock, leaving the time it takes the
    // player to carry its move out on the board (that counts on the computer's clock too).
    const mc = this.clock?.moverClock(c.setting.side);
    const clock = mc ? { ...mc, remainingMs: Math.max(0, mc.remainingMs - CARRY_OUT_MS) } : undefined;
    c.consider(this.game, ready, (move, text) => {
      const events = this.tracker.expectMove(move);
      const route = move.captures.length ? `${move.from} takes ${move.path.join(', then ')}` : `${move.from} to ${move.to}`;
      this.emit({ type: 'computer-move', text, from: move.from, path: [...move.path], captures: [...move.captures], say: `The computer plays ${route}${move.crowned ? ', crowned' : ''}: carry it out on the board.` });
      this.emit({ type: 'counts' });
      if (events.length) this.afterTracker(events);
    }, (e) => {
      this.emit({ type: 'notice', level: 'info', squares: [], say: `The computer could not move: ${e.message}` });
    }, clock);
  }

  /** For a set-up position before its first move: "Check the colours: black men on …; white … ". */
  /** The "colour checks are off" notice was given (once per service). */
  private saidNoColours = false;

  private colourCheck(): string {
    // (A polarity-coded set had every coin's colour checked before it was ready.)
    if (this.tracker.view.coded || this.game.plies.length > 0 || sameBoard(this.game.start, START)) return '';
    const pieces = piecesOf(this.game.position);
    return `Check the colours: ${piecesSentence(pieces, 'black')}; ${piecesSentence(pieces, 'white')}. `;
  }

  /** Notes the clock reading of the last ply's mover (for %clk). */
  private notePlyClock(): void {
    const ply = this.game.plies[this.game.plies.length - 1];
    if (ply && this.clock) this.plyClocks.set(ply, this.clock.remainingOf(ply.before.turn));
  }

  private finish(outcome: Outcome, result: PdnResult = resultOf(outcome)): void {
    this.resultOverride = result;
    this.drawOffer = null;
    this.clock?.pause(this.now());
    this.journal({ k: 'result', result, outcome, at: this.now() });
    this.emit({ type: 'game-over', result, outcome, say: describeOutcome(outcome) });
  }

  /** ACF time per move: the side to move has exactly one legal capture (the short limit). */
  private forcedCapture(): boolean {
    if (this.clock?.control.kind !== 'per-move' || this.game.outcome) return false;
    return legalMoves(this.game.position, this.game.options).filter((m) => m.captures.length > 0).length === 1;
  }

  /** Time per move, after a takeback: the move taken back is to be made again, with a fresh limit (the clock was running for the other side). */
  private clockFollowsTurn(): void {
    const c = this.clock;
    if (c?.control.kind !== 'per-move' || !c.state(this.now()).running) return;
    c.start(this.game.turn, this.now(), this.forcedCapture());
    this.journal({ k: 'clock', clock: c.toJSON(), at: this.now() });
  }

  /** The side "time" was last called on (announced once per move). */
  private timeAnnounced: Color | null = null;

  private tickClock(): void {
    if (!this.clock) return;
    const now = this.now();
    const flagged = this.clock.settle(now);
    const called = this.clock.timeCalled;
    if (called !== this.timeAnnounced) {
      this.timeAnnounced = called;
      if (called && !flagged && !this.game.outcome && this.clock.control.kind === 'per-move') {
        const grace = this.clock.control.graceMs;
        this.emit({ type: 'time', side: called, graceMs: grace, say: `Time, ${sideName(called)}. Move within ${graceWords(grace)} or lose on time.` });
        this.emit({ type: 'clock', clock: this.clock.state(now) });
      }
    }
    if (flagged && !this.game.outcome) {
      const outcome = this.game.timeForfeit(flagged);
      this.finish(outcome);
    }
    if (now - this.lastClockTick >= 1000) {
      this.lastClockTick = now;
      this.emit({ type: 'clock', clock: this.clock.state(now) });
    }
  }

  /** Called by the service's timer so clocks run (and flags fall) even when no frames arrive. */
  tick(): void {
    this.tickClock();
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
    this.emit({ type: 'calibrated', data: step.calibration.toJSON(this.boardId, new Date(this.now()).toISOString()), say: 'Calibration done and saved. Set up the position shown.' });
    this.afterTracker(step.events);
  }

  /** Uses a saved calibration (from an earlier routine on this board). */
  useCalibration(data: unknown): void {
    this.tracker.useCalibration(Calibration.fromJSON(data));
  }

  // ---------------------------------------------------------------- commands

  setTags(tags: Record<string, string>): void {
    for (const [k, v] of Object.entries(tags)) {
      if (!/^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(k)) throw new SessionError('bad-request', `"${k}" is not a tag name`);
      if (['result', 'fen', 'setup', 'gametype'].includes(k.toLowerCase())) throw new SessionError('bad-request', `tag ${k} is set by the game itself`);
      if (typeof v !== 'string' || v.length > 200) throw new SessionError('bad-request', `tag ${k}: value must be text of at most 200 characters`);
    }
    this.tags = { ...this.tags, ...tags };
    for (const [k, v] of Object.entries(this.tags)) if (v === '') delete this.tags[k];
    this.journal({ k: 'tags', tags: this.tags, at: this.now() });
    this.emit({ type: 'tags', say: '' });
  }

  resign(side: Color): void {
    this.requireOpen();
    const outcome = this.game.resign(side);
    this.finish(outcome);
  }

  offerDraw(side: Color): void {
    this.requireOpen();
    if (this.drawOffer === opposite(side)) return this.acceptDraw(side);
    this.drawOffer = side;
    this.journal({ k: 'draw-offer', side, at: this.now() });
    this.emit({ type: 'draw-offer', side, say: `${sideName(side)} offers a draw.` });
  }

  acceptDraw(side: Color): void {
    this.requireOpen();
    if (this.drawOffer !== opposite(side)) throw new SessionError('not-allowed', `${sideName(opposite(side))} has not offered a draw`);
    const outcome = this.game.agreeDraw();
    this.finish(outcome);
  }

  declineDraw(): void {
    if (this.drawOffer === null) return;
    const who = this.drawOffer;
    this.drawOffer = null;
    this.journal({ k: 'draw-offer', side: null, at: this.now() });
    this.emit({ type: 'draw-offer', side: null, say: `${sideName(opposite(who))} declines the draw.` });
  }

  claimDraw(): void {
    this.requireOpen();
    if (!this.game.drawClaim()) throw new SessionError('not-allowed', 'no draw can be claimed now');
    const outcome = this.game.claimDraw();
    this.finish(outcome);
  }

  /** Takes back the last move from the page (the board must then be put back to match). */
  takeback(): void {
    if (this.options.tournament) throw new SessionError('not-allowed', 'takebacks are not allowed in tournament mode');
    if (this.game.plies.length === 0) throw new SessionError('nothing-to-undo', 'no move to take back');
    const o = this.game.outcome;
    // A game ended at the table (resignation, agreement, time, a claimed draw) is not reopened by a takeback.
    if (o && (o.reason === 'resignation' || o.reason === 'agreement' || o.reason === 'time' || (!this.game.options.autoDraw && (o.reason === 'repetition' || o.reason === 'forty-move')))) {
      throw new SessionError('game-over', `the game is over (${terminationOf(o)}): start a new game instead`);
    }
    const wasOver = o !== null;
    // Against the computer, on the player's turn: the computer's move and the player's before it.
    const pair = this.computer !== null && this.game.turn !== this.computer.setting.side && this.game.plies.length >= 2;
    this.computer?.cancel();
    this.tracker.expectMove(null);
    this.game.undo();
    this.journal({ k: 'takeback', at: this.now() });
    if (pair) {
      this.game.undo();
      this.journal({ k: 'takeback', at: this.now() });
    }
    this.clockFollowsTurn();
    if (wasOver) {
      this.resultOverride = null;
      this.journal({ k: 'result', result: '*', outcome: null, at: this.now() });
    }
    this.emit({ type: 'takeback', say: `${pair ? 'Two moves' : 'Move'} taken back. Put the pieces back as shown.` });
    this.afterTracker(this.tracker.setGame(this.game));
  }

  /**
   * The coach: the engine's move for the side to move, said quietly (a notice
   * with its squares) when it comes. Not in tournament mode, not for the
   * computer's own turn, not without an engine.
   */
  hint(): void {
    if (this.options.tournament) throw new SessionError('not-allowed', 'no hints in tournament mode');
    if (!this.options.think) throw new SessionError('not-allowed', 'this service has no engine to give hints');
    if (this.game.outcome) throw new SessionError('game-over', 'the game is over');
    if (this.computer && this.game.turn === this.computer.setting.side) throw new SessionError('not-allowed', "it is the computer's turn");
    const game = this.game, plies = game.plies.length, hash = game.hash;
    this.options.think({ position: game.position, level: 10, history: game.plies.slice(0, -1).map((p) => p.hash), quietPlies: game.quietPlies, seed: plies + 1, purpose: 'hint' }).then((r) => {
      const m = r?.move;
      if (!m || this.game !== game || game.plies.length !== plies || game.hash !== hash) return;
      const text = moveText(m, legalMoves(game.position, game.options));
      this.emit({ type: 'notice', level: 'info', squares: [m.from, ...m.path], say: `Hint for ${sideName(game.turn)}: ${text}.` });
    }, (e: unknown) => {
      this.emit({ type: 'notice', level: 'info', squares: [], say: `No hint: ${(e as Error)?.message ?? String(e)}` });
    });
  }

  /**
   * After the game: the engine searches every position (in its worker) and
   * marks the mistakes (?) and blunders (??) with the better move; shown in
   * review and written into the PDN on request (pdn({ annotated: true })).
   */
  analyse(): void {
    if (!this.options.think) throw new SessionError('not-allowed', 'this service has no engine to analyse with');
    if (!this.game.outcome && this.result === '*') throw new SessionError('not-allowed', 'the analysis is for a finished game');
    if (this.analysis?.running) return;
    if (!this.game.plies.length) throw new SessionError('nothing-to-undo', 'the game has no moves to analyse');
    const game = this.game;
    this.analysis = { running: true, marks: [] };
    this.emit({ type: 'counts' });
    analyseGame(game.start, game.plies.map((p) => p.move), this.options.think).then((marks) => {
      if (this.game !== game) return;
      this.analysis = { running: false, marks };
      const blunders = marks.filter((m) => m.mark === '??').length, mistakes = marks.length - blunders;
      const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      this.emit({ type: 'analysis', say: marks.length ? `Analysis done: ${count(mistakes, 'mistake')} and ${count(blunders, 'blunder')}, marked in the move list.` : 'Analysis done: no mistakes found.' });
    }, (e: unknown) => {
      if (this.game !== game) return;
      this.analysis = null;
      this.emit({ type: 'notice', level: 'info', squares: [], say: `The analysis failed: ${(e as Error)?.message ?? String(e)}` });
    });
  }

  /** The evaluation bar on or off (not in tournament mode: it would be advice). */
  setEvaluation(on: boolean): void {
    if (on && this.options.tournament) throw new SessionError('not-allowed', 'no evaluation bar in tournament mode');
    if (on && !this.options.think) throw new SessionError('not-allowed', 'this service has no engine to evaluate with');
    this.evaluation = { on, score: null, text: '', key: '' };
    this.emit({ type: 'evaluation', say: '' });
    this.considerEvaluation();
  }

  /** With the bar on: the engine's score of the position on the board, once per position (in the worker). */
  private considerEvaluation(): void {
    const ev = this.evaluation;
    if (!ev.on || !this.options.think) return;
    const game = this.game;
    const key = `${this.gameId}:${game.plies.length}:${game.hash}`;
    if (ev.key === key) return;
    ev.key = key;
    ev.score = null;
    if (game.outcome) {
      ev.score = game.outcome.winner === 'black' ? WIN : game.outcome.winner === 'white' ? -WIN : 0;
      ev.text = game.outcome.winner ? `${sideName(game.outcome.winner)} won` : 'Drawn';
      this.emit({ type: 'evaluation', say: '' });
      return;
    }
    this.options.think({ position: game.position, level: 10, history: game.plies.slice(0, -1).map((p) => p.hash), quietPlies: game.quietPlies, seed: 1, purpose: 'evaluation' }).then((r) => {
      if (!r || this.evaluation !== ev || ev.key !== key) return;
      const black = game.turn === 'black' ? r.score : -r.score;
      ev.score = black;
      ev.text = evaluationText(black);
      this.emit({ type: 'evaluation', say: '' });
    }, () => undefined);
  }

  clockStart(): void {
    if (!this.clock) throw new SessionError('not-allowed', 'this game has no time control');
    this.requireOpen();
    this.clock.start(this.game.turn, this.now(), this.forcedCapture());
    this.emit({ type: 'clock', clock: this.clock.state(this.now()) });
  }

  clockPause(): void {
    if (!this.clock) throw new SessionError('not-allowed', 'this game has no time control');
    this.clock.pause(this.now(), true);
    this.journal({ k: 'clock', clock: this.clock.toJSON(), at: this.now() });
    this.emit({ type: 'clock', clock: this.clock.state(this.now()) });
  }

  private requireOpen(): void {
    if (this.game.outcome) throw new SessionError('game-over', 'the game is over');
  }

  // ---------------------------------------------------------------- views

  get result(): PdnResult {
    return this.resultOverride ?? resultOf(this.game.outcome);
  }

  /** The game as PDN; `annotated`: with the analysis' ?/?? and better moves as comments (if the game was analysed). */
  pdn(opts: { annotated?: boolean } = {}): string {
    const order = ['Event', 'Site', 'Date', 'Round', 'Black', 'White'];
    const tags: [string, string][] = Object.entries(this.tags).sort(([a], [b]) => {
      const ia = order.indexOf(a), ib = order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
    if (this.timeControl) {
      const k = tags.findIndex(([n]) => n === 'TimeControl');
      const v = timeControlTag(this.timeControl);
      if (k >= 0) tags[k] = ['TimeControl', v];
      else tags.push(['TimeControl', v]);
    }
    const o = this.game.outcome;
    if (o && !tags.some(([n]) => n === 'Termination')) {
      const perMove = o.reason === 'time' && this.timeControl?.kind === 'per-move' ? this.timeControl : null;
      tags.push(['Termination', terminationOf(o) + (perMove ? ` (no move within ${graceWords(perMove.graceMs)} of "time")` : '')]);
    }
    // Per-move clock times, as electronic boards record them: {[%clk 0:04:57]} after each move.
    const comments = new Map<number, string[]>();
    this.game.plies.forEach((ply, k) => {
      const ms = this.plyClocks.get(ply);
      if (ms !== undefined) comments.set(k, [`[%clk ${clkText(ms)}]`]);
    });
    const record = pdnFromGame(this.game, { tags, result: this.result, comments });
    if (opts.annotated && this.analysis && !this.analysis.running) {
      for (const m of this.analysis.marks) {
        const node = record.moves[m.ply];
        if (node) record.moves[m.ply] = { ...node, strength: m.mark, after: [...node.after, m.comment] };
      }
    }
    return makePdn(record);
  }

  snapshot(): SessionSnapshot {
    const pos = this.game.position;
    const r = this.tracker.view;
    return {
      version: 1,
      gameId: this.gameId,
      tags: { ...this.tags },
      options: {
        huffing: !!this.game.options.huffing,
        crownContinue: !!this.game.options.crownContinue,
        autoDraw: !!this.game.options.autoDraw,
        tournament: !!this.options.tournament,
        firstPlayer: this.game.start.turn,
      },
      ballot: this.ballot,
      startFen: makeFen(this.game.start),
      start: piecesOf(this.game.start),
      fen: makeFen(pos),
      pieces: piecesOf(pos),
      turn: pos.turn,
      moves: this.moveRecords(),
      status: this.tracker.boardStatus,
      board: {
        counts: Array.from(r.counts),
        confidence: Array.from(r.confidence, (c) => Math.round(c * 100) / 100),
        calibrated: r.calibrated,
        differences: this.tracker.differences(),
        connected: this.connected,
        source: this.source,
        detail: this.sourceDetail,
      },
      result: this.result,
      outcome: this.game.outcome,
      drawOffer: this.drawOffer,
      drawClaim: this.game.outcome ? null : this.game.drawClaim(),
      clock: this.clock ? this.clock.state(this.now()) : null,
      calibration: this.tracker.calibration,
      computer: this.computer ? this.computer.state() : null,
      analysis: this.analysis ? { running: this.analysis.running, marks: [...this.analysis.marks] } : null,
      evaluation: this.evaluation.on ? { score: this.evaluation.score, text: this.evaluation.score === null ? 'thinking…' : this.evaluation.text } : null,
    };
  }
}

/** The pieces of a position, by square. */
export function piecesOf(pos: Position): Piece[] {
  const pieces: Piece[] = [];
  for (let s = 1; s <= 32; s++) {
    const b = 1 << (s - 1);
    if ((pos.black | pos.white) & b) pieces.push({ square: s, color: pos.black & b ? 'black' : 'white', king: (pos.kings & b) !== 0 });
  }
  return pieces;
}

/** The record of one move: number from its ply index and who moved first (one numbering for every list). */
export function moveRecord(move: Move, before: Position, ply: number, firstTurn: Color, options: GameOptions, huff: number | null): MoveRecord {
  return {
    ply,
    number: Math.floor((ply + (firstTurn === 'white' ? 1 : 0)) / 2) + 1,
    side: before.turn,
    text: moveText(move, legalMoves(before, options)),
    from: move.from,
    to: move.to,
    path: [...move.path],
    captures: [...move.captures],
    crowned: move.crowned,
    huff,
    clock: null,
  };
}

function formatDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}`;
}

function newGameId(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  idCounter = (idCounter + 1) % 1000;
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}-${p(idCounter, 3)}`;
}

/** A score from Black's view in words: "Black +0.35", "level", "Black: win in 7" (plies). */
export function evaluationText(black: number): string {
  if (Math.abs(black) < 10) return 'level';
  const side = black > 0 ? 'Black' : 'White';
  const t = scoreText(Math.abs(black));
  return t.startsWith('win') ? `${side}: ${t}` : `${side} ${t}`;
}
