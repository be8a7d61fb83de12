// The game at the table: the rules Game being played, its record's tags,
// ballot and id, the clocks, draw offers and the result, and the players'
// commands on them (new game, next game, restore from the journal, names,
// resign, draw, takeback, clock). It is the game's one writer: everyone else
// (the tracker, the session, the coach, the views) reads it as a ReadonlyGame;
// a move the tracker decided on the board comes to play(), a takeback to
// undo(), and every change is handed to the journal (the storage's writer
// fsyncs it) before it is made, and so before it is announced. Knows nothing
// of the board, the coach or the network: the session (session.ts) wires it
// to the tracker as its GameWriter and turns its moves into announcements. Pure but for the injected wall clock (Math.random draws a
// random ballot or first player when no `random` is given; gameIds' default
// start reads the real clock).

import {
  BALLOTS,
  findMove,
  Game,
  GameError,
  legalMoves,
  makeFen,
  opposite,
  parseFen,
  sideName,
  type Color,
  type GameOptions,
  type Move,
  type Outcome,
  type Ply,
  type ReadonlyGame,
} from '../rules/index.ts';
import { resultOf, type PdnResult } from '../pdn/index.ts';
import { planCorrection } from './corrections.ts';
import { formatDate } from './ids.ts';
import { GameClock, gameTimeControl, parseTimeControlTag, timeControlTag, type ClockState, type TimeControl } from './clock.ts';
import type { Correction, CorrectionNote, MoveRecord } from '../model/game.ts';
import type { GameEvent, RemoteSetting } from '../protocol/v1.ts';
import { ELEVEN_MAN_COUNT, elevenManPosition } from '../rules/eleven-man.ts';
import type { JournalEntry } from '../model/journal.ts';
import type { ComputerSetting } from './computer.ts';
import { SessionError } from './errors.ts';
import { applyTags, restoredTags } from './tags.ts';
import { nextGameRequest } from './next-game.ts';
import { clockWords, describeOutcome, graceWords, terminationOf, type TableState } from './view.ts';
import { foldRecord, gameOf } from './fold.ts';

/** How often a running clock is journalled, ms (what a restart can give back at most). */
export const CLOCK_SAVE_MS = 5000;

/** What the table announces (the session passes them on to its listeners). */
export type TableEvent = Extract<GameEvent, { type: 'game-over' | 'draw-offer' | 'tags' | 'time' }> | { type: 'clock'; clock: ClockState };

export interface TableOptions {
  /** Wall-clock milliseconds. */
  now: () => number;
  /** Rules variants and automatic draws. */
  rules?: GameOptions;
  /** Tournament mode for games that do not give their own: takebacks refused. */
  tournament: boolean;
  /** The service's time control, e.g. "5m+3s" (a new game may give its own). */
  timeControl?: string;
  /** Tags for new games (already checked). */
  tags: Record<string, string>;
  /** Called with every journal entry before the change is announced. */
  journal: (entry: JournalEntry) => void;
  emit: (e: TableEvent) => void;
  /** A new game's id (unique among this session's games). */
  newId: (ms: number) => string;
}

/** A new game as asked for: its start (start position, FEN, ballot or eleven-man ballot), tags, rules, time control and players. */
export interface NewGameRequest {
  fen?: string;
  ballot?: number | 'random';
  elevenMan?: number | 'random';
  crossboardOnly?: boolean;
  firstPlayer?: Color | 'random';
  tags?: Record<string, string>;
  rules?: GameOptions;
  timeControl?: string;
  /** tournament mode for this game (no hints, no evaluation bar, takebacks only by the arbiter); absent: the service's */
  tournament?: boolean;
  random?: () => number;
  /** The computer as a player ({ side, level }), or null for two players (undefined: the service's default). */
  computer?: ComputerSetting | null;
  /** the side played at another board, and its player's name (null or absent: both are here) */
  remote?: RemoteSetting | null;
}

/** A new game set up by the table: what its announcement needs. */
export interface Started {
  game: ReadonlyGame;
  tags: Record<string, string>;
  ballot: number | null;
  eleven: number | null;
}

export class GameTable implements TableState {
  /** The game being played: the only reference that can change it (see play, undo). */
  private current: Game;
  gameId = '';
  tags: Record<string, string> = {};
  ballot: number | null = null;
  clock: GameClock | null = null;
  drawOffer: Color | null = null;
  timeControl: TimeControl | null = null;
  plyClocks = new WeakMap<Ply, number>();
  records = new WeakMap<Ply, MoveRecord>();
  /** The arbiter's corrections of this game, oldest first. */
  corrections: CorrectionNote[] = [];
  /** The side played at another board (journalled with the game: a restart knows it). */
  remote: RemoteSetting | null = null;
  /** Tournament mode for this game: its own (a tournament's round, journalled with it), else the service's. */
  tournament = false;
  /** Plies the game started with (a ballot's opening moves): the players' moves come after. */
  private opening = 0;
  /** The result written in the record when set by hand or by an ending at the table. */
  private resultOverride: PdnResult | null = null;
  /** The last random ballot draw skipped mail-play ballots (the next game's draw does too). */
  private crossboardOnly = false;
  /** The side "time" was last called on (announced once per move). */
  private timeAnnounced: Color | null = null;
  private lastClockTick = -Infinity;
  /** When the clocks were last journalled. */
  private lastClockSaved = -Infinity;

  constructor(private readonly o: TableOptions) {
    this.current = Game.standard(this.rulesOptions());
    this.tournament = !!o.tournament;
  }

  private rulesOptions(extra: GameOptions = {}): GameOptions {
    return { ...this.o.rules, ...extra };
  }

  private now(): number {
    return this.o.now();
  }

  /** The game being played, read-only: everything else reads it; only the table's own methods change it. */
  get game(): ReadonlyGame {
    return this.current;
  }

  get result(): PdnResult {
    return this.resultOverride ?? resultOf(this.game.outcome);
  }

  /** The players made a move or the game has a result: replaced by a new game it stays in the archive (an untouched one is dropped). */
  get played(): boolean {
    return this.game.plies.length > this.opening || this.result !== '*';
  }

  // ---------------------------------------------------------------- games

  /**
   * Sets up and journals a new game: from the start position, a FEN, or an
   * ACF ballot (number or 'random'). `computer`: the computer's side and
   * name, written as that player's tag.
   */
  newGame(req: NewGameRequest, computer: { side: Color; name: string } | null): Started {
    const rules = this.rulesOptions(req.rules);
    const control = this.controlFor(req.timeControl ?? this.o.timeControl ?? '');
    if (req.crossboardOnly !== undefined) this.crossboardOnly = req.crossboardOnly;
    const { game, ballot, eleven } = this.startFor(req, rules);
    const tags = this.tagsFor(req, ballot, eleven, control, computer);
    const id = this.o.newId(this.now());
    this.o.journal({
      k: 'new',
      id,
      at: this.now(),
      fen: makeFen(game.start),
      options: rules,
      tags,
      ballot,
      moves: game.plies.map((p) => [p.move.from, ...p.move.path]),
      ...(req.remote ? { remote: req.remote } : {}),
      ...(req.tournament !== undefined ? { tournament: req.tournament } : {}),
    });
    this.install(id, game, tags, ballot, req.remote);
    this.tournament = req.tournament ?? !!this.o.tournament;
    return { game, tags, ballot, eleven };
  }

  private controlFor(text: string): TimeControl | null {
    if (!text.trim()) return null;
    const read = parseTimeControlTag(text);
    if (!read.ok) throw new SessionError('bad-time-control', `time control "${text}": ${read.error.message}`);
    return read.value;
  }

  /** The new game's start: an eleven-man ballot, a FEN, an ACF ballot or the start position. */
  private startFor(req: NewGameRequest, rules: GameOptions): { game: Game; ballot: number | null; eleven: number | null } {
    if ([req.fen, req.ballot, req.elevenMan].filter((x) => x !== undefined).length > 1)
      throw new SessionError('bad-request', 'give one of a FEN, a ballot or an eleven-man ballot, not several');
    if (req.elevenMan !== undefined) {
      const n = req.elevenMan === 'random' ? 1 + Math.floor((req.random ?? Math.random)() * ELEVEN_MAN_COUNT) : req.elevenMan;
      if (!Number.isInteger(n) || n < 1 || n > ELEVEN_MAN_COUNT)
        throw new SessionError('bad-ballot', `no eleven-man ballot ${n}: they are numbered 1 to ${ELEVEN_MAN_COUNT}`);
      return { game: new Game(elevenManPosition(n), rules), ballot: null, eleven: n };
    }
    if (req.fen !== undefined) {
      const read = parseFen(req.fen);
      if (!read.ok) throw new SessionError('bad-fen', read.error.message);
      return { game: new Game(read.value, rules), ballot: null, eleven: null };
    }
    if (req.ballot !== undefined) {
      try {
        // A random draw skips barred ballots (and, asked, the mail-play ones).
        const pool = BALLOTS.filter((b) => b.status === 'crossboard' || (b.status === 'mailplay' && !req.crossboardOnly));
        const number = req.ballot === 'random' ? pool[Math.floor((req.random ?? Math.random)() * pool.length)].number : req.ballot;
        const r = Game.fromBallot(number, rules);
        return { game: r.game, ballot: r.ballot.number, eleven: null };
      } catch (e) {
        if (e instanceof GameError) throw new SessionError('bad-ballot', e.message);
        throw e;
      }
    }
    return { game: Game.standard({ ...rules, firstPlayer: req.firstPlayer ?? 'black', random: req.random }), ballot: null, eleven: null };
  }

  /** The new game's tags: the service's, the request's (checked like every change of tags), then the ones the game sets itself. */
  private tagsFor(
    req: NewGameRequest,
    ballot: number | null,
    eleven: number | null,
    control: TimeControl | null,
    computer: { side: Color; name: string } | null,
  ): Record<string, string> {
    applyTags(this.o.tags, req.tags ?? {}); // (throws on a tag no path may set)
    const tags: Record<string, string> = { ...this.o.tags, ...req.tags };
    if (!tags.Date) tags.Date = formatDate(this.now());
    // (The computer is a player: its name in the record, which also brings it back after a restart.)
    if (computer) tags[computer.side === 'black' ? 'Black' : 'White'] = computer.name;
    if (ballot !== null) tags.Ballot = `ACF ${ballot} ${BALLOTS.find((b) => b.number === ballot)?.name ?? ''}`.trim();
    else if (eleven !== null) tags.Ballot = `11-man ${eleven}`;
    else if (req.tags?.Ballot === undefined) delete tags.Ballot;
    // A ballot game is the first of a pair unless the round says otherwise ("1.1", then "1.2" with the sides swapped).
    if ((ballot !== null || eleven !== null) && !tags.Round) tags.Round = '1.1';
    if (control) tags.TimeControl = timeControlTag(control);
    else delete tags.TimeControl;
    return tags;
  }

  /** The next game of this pairing (next-game.ts says how). */
  nextGameRequest(kind: 'other-side' | 'next', random?: () => number): NewGameRequest {
    if (!this.game.outcome && this.result === '*')
      throw new SessionError('not-allowed', 'the game is not over yet: finish it (or start a new game) first');
    const { game, tags, ballot, remote, gameId, crossboardOnly, tournament } = this;
    return nextGameRequest({ game, tags, ballot, remote, gameId, crossboardOnly, tournament }, kind, random);
  }

  /** Makes `game` the game at the table: its record's id, tags, ballot and remote player; clocks from its TimeControl tag. */
  install(id: string, game: Game, tags: Record<string, string>, ballot: number | null, remote?: RemoteSetting | null): void {
    this.remote = remote ?? null;
    this.gameId = id;
    this.current = game;
    this.tags = tags;
    this.ballot = ballot;
    this.opening = game.plies.length;
    this.drawOffer = null;
    this.resultOverride = null;
    this.records = new WeakMap();
    this.plyClocks = new WeakMap();
    this.corrections = [];
    this.timeControl = gameTimeControl(tags.TimeControl, this.o.timeControl);
    this.clock = this.timeControl ? new GameClock(this.timeControl) : null;
  }

  /** Restores a game from its journal (after a restart): same moves, tags, clocks and result. Throws (changing nothing) when it does not replay. */
  restore(entries: readonly JournalEntry[]): void {
    const start = entries.find((e) => e.k === 'new');
    if (!start || start.k !== 'new') throw new SessionError('bad-request', 'journal has no new-game entry');
    const scratch = new GameTable({ ...this.o, journal: () => undefined, emit: () => undefined });
    scratch.install(start.id, gameOf(start), restoredTags(start.tags), start.ballot);
    for (const e of entries.slice(entries.indexOf(start) + 1)) scratch.replay(e);
    this.install(start.id, scratch.current, scratch.tags, scratch.ballot, start.remote);
    this.tournament = start.tournament ?? !!this.o.tournament;
    this.clock = scratch.clock;
    this.plyClocks = scratch.plyClocks;
    this.drawOffer = scratch.drawOffer;
    this.resultOverride = scratch.resultOverride;
    this.opening = scratch.opening;
    this.corrections = scratch.corrections;
  }

  /** One more record of the game's journal, applied to the game as it stands (a new-game record starts a new one). Throws, changing nothing, when it does not apply. */
  apply(e: JournalEntry): void {
    if (e.k === 'new') this.restore([e]);
    else this.replay(e);
  }

  /** One record: its moves folded into the game (fold.ts), the rest of it kept here. */
  private replay(e: JournalEntry): void {
    const folded = foldRecord(this.current, e);
    if (folded.k === 'move') this.drawOffer = null;
    else if (folded.k === 'clock' && this.clock) {
      this.clock.restore(folded.clock);
      this.notePlyClock();
    } else if (e.k === 'tags') this.tags = restoredTags(e.tags);
    else if (e.k === 'result') {
      this.resultOverride = e.result;
      if (e.outcome && !this.game.outcome) this.current.setOutcome(e.outcome);
    } else if (e.k === 'draw-offer') this.drawOffer = e.side;
    else if (e.k === 'correction') this.corrections.push({ at: e.at, by: e.by, reason: e.reason, say: e.say });
  }

  // ---------------------------------------------------------------- moves on the board

  /**
   * A move the board showed (the tracker's decision, or a huff and a move):
   * journalled — the storage's writer fsyncs it — before it is played, so
   * what is played is on disk first. Checked against the rules first: the
   * journal never holds a move that does not replay. Returns the ply (the
   * position after it is what the tracker reads next).
   */
  play(move: Move, huff?: number): Ply {
    const path = [move.from, ...move.path];
    const legal = huff === undefined ? findMove(this.current.legalMoves(), path) !== undefined : this.current.huffable().includes(huff);
    if (!legal || this.current.outcome) throw new SessionError('bad-request', `move ${path.join('-')} is not legal here`);
    this.o.journal({ k: 'move', path, at: this.now(), ...(huff !== undefined ? { huff } : {}) });
    return huff === undefined ? this.current.play(move) : this.current.huffAndPlay(huff, move);
  }

  /** The last move taken back on the board: journalled first, then undone. Returns the ply taken back. */
  undo(): Ply {
    if (!this.current.plies.length) throw new SessionError('nothing-to-undo', 'no move to take back');
    this.o.journal({ k: 'takeback', at: this.now() });
    return this.current.undo();
  }

  /** A move made (or changed) on the board, already journalled and played (play): the draw offer lapses, the clocks go on (the mover's set to `moverMs` if given: the other board's reading). */
  moved(ply: Ply, replaced: boolean, moverMs?: number): void {
    this.drawOffer = null;
    if (this.clock) {
      // The first move starts the clocks; a changed move keeps the clock where it is.
      if (!replaced) this.clock.moved(ply.before.turn, this.now(), this.forcedCapture());
      if (moverMs !== undefined && !replaced) this.clock.adjust(ply.before.turn, moverMs, this.now());
      this.o.journal({ k: 'clock', clock: this.clock.toJSON(), at: this.now() });
      this.notePlyClock();
    }
  }

  /** A move taken back on the board, already journalled and undone (undo): the clock follows the turn. */
  takenBack(): void {
    this.clockFollowsTurn();
  }

  crowned(square: number): void {
    this.o.journal({ k: 'crown', square, at: this.now() });
  }

  /** Notes the clock reading of the last ply's mover (for %clk). */
  private notePlyClock(): void {
    const ply = this.game.plies[this.game.plies.length - 1];
    if (ply && this.clock) this.plyClocks.set(ply, this.clock.remainingOf(ply.before.turn));
  }

  /** The game ended: the result in the record, clocks stopped, announced (`say`: what the players are told, if not the outcome's words). */
  finish(outcome: Outcome, result: PdnResult = resultOf(outcome), say = describeOutcome(outcome)): void {
    this.resultOverride = result;
    this.drawOffer = null;
    this.clock?.pause(this.now());
    this.o.journal({ k: 'result', result, outcome, at: this.now() });
    this.o.emit({ type: 'game-over', result, outcome, say });
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
    this.o.journal({ k: 'clock', clock: c.toJSON(), at: this.now() });
  }

  private saveClock(now: number): void {
    this.lastClockSaved = now;
    this.o.journal({ k: 'clock', clock: this.clock!.toJSON(), at: now });
  }

  /** The clocks as a restart left them: stopped at what was left at the last journalled instant (null: no clock, or the game is over). */
  stoppedByRestart(): string | null {
    const c = this.clock;
    if (!c || this.game.outcome) return null;
    const words = (side: Color) => `${sideName(side)} ${clockWords(c.remainingOf(side))}`;
    return `The clocks stopped with the restart (${words('black')}, ${words('white')} left): press Start clock, or make the next move, to go on.`;
  }

  /** Runs the clocks: "time" called, a flag fallen, and the clock shown once a second. */
  tick(): void {
    if (!this.clock) return;
    const now = this.now();
    const flagged = this.clock.settle(now);
    const called = this.clock.timeCalled;
    if (called !== this.timeAnnounced) {
      this.timeAnnounced = called;
      if (called && !flagged && !this.game.outcome && this.clock.control.kind === 'per-move') {
        const grace = this.clock.control.graceMs;
        this.o.emit({
          type: 'time',
          side: called,
          graceMs: grace,
          say: `Time, ${sideName(called)}. Move within ${graceWords(grace)} or lose on time.`,
        });
        this.o.emit({ type: 'clock', clock: this.clock.state(now) });
      }
    }
    if (flagged && !this.game.outcome) {
      const outcome = this.current.timeForfeit(flagged);
      this.finish(outcome);
    }
    // A running clock is journalled every few seconds, so a restart (or a crash) resumes it at what
    // was left then, not at the last move: thinking time is never refunded by more than this.
    if (this.clock.runningSide && !this.game.outcome && now - this.lastClockSaved >= CLOCK_SAVE_MS) this.saveClock(now);
    if (now - this.lastClockTick >= 1000) {
      this.lastClockTick = now;
      this.o.emit({ type: 'clock', clock: this.clock.state(now) });
    }
  }

  // ---------------------------------------------------------------- players' commands

  setTags(change: Record<string, string>): void {
    this.tags = applyTags(this.tags, change);
    this.o.journal({ k: 'tags', tags: this.tags, at: this.now() });
    this.o.emit({ type: 'tags', say: '' });
  }

  /** `say`: what the players are told, if not the outcome's words (a resignation at the other board). */
  resign(side: Color, say?: string): void {
    this.requireOpen();
    this.finish(this.current.resign(side), undefined, say);
  }

  offerDraw(side: Color): void {
    this.requireOpen();
    if (this.drawOffer === opposite(side)) return this.acceptDraw(side);
    this.drawOffer = side;
    this.o.journal({ k: 'draw-offer', side, at: this.now() });
    this.o.emit({ type: 'draw-offer', side, say: `${sideName(side)} offers a draw.` });
  }

  acceptDraw(side: Color, say?: string): void {
    this.requireOpen();
    if (this.drawOffer !== opposite(side)) throw new SessionError('not-allowed', `${sideName(opposite(side))} has not offered a draw`);
    this.finish(this.current.agreeDraw(), undefined, say);
  }

  declineDraw(): void {
    if (this.drawOffer === null) return;
    const who = this.drawOffer;
    this.drawOffer = null;
    this.o.journal({ k: 'draw-offer', side: null, at: this.now() });
    this.o.emit({ type: 'draw-offer', side: null, say: `${sideName(opposite(who))} declines the draw.` });
  }

  claimDraw(): void {
    this.requireOpen();
    if (!this.game.drawClaim()) throw new SessionError('not-allowed', 'no draw can be claimed now');
    this.finish(this.current.claimDraw());
  }

  /** Throws unless the last move can be taken back from the page. */
  checkTakeback(): void {
    if (this.tournament) throw new SessionError('not-allowed', 'takebacks are not allowed in tournament mode');
    if (this.game.plies.length === 0) throw new SessionError('nothing-to-undo', 'no move to take back');
    const o = this.game.outcome;
    // A game ended at the table (resignation, agreement, time, a claimed draw) is not reopened by a takeback.
    if (
      o &&
      (o.reason === 'resignation' ||
        o.reason === 'agreement' ||
        o.reason === 'time' ||
        (!this.game.options.autoDraw && (o.reason === 'repetition' || o.reason === 'forty-move')))
    ) {
      throw new SessionError('game-over', `the game is over (${terminationOf(o)}): start a new game instead`);
    }
  }

  /** Takes back `plies` moves (1, or 2: the computer's and the player's before it; more for an arbiter's correction); a game the last move ended is open again. */
  takeback(plies: number): void {
    const wasOver = this.game.outcome !== null;
    for (let k = 0; k < plies; k++) this.undo();
    this.clockFollowsTurn();
    if (wasOver) {
      this.resultOverride = null;
      this.o.journal({ k: 'result', result: '*', outcome: null, at: this.now() });
    }
  }

  // ---------------------------------------------------------------- the arbiter

  /**
   * An arbiter's correction (corrections.ts plans it): the note first (who,
   * why, what), then the changes as ordinary journal entries — the moves
   * taken back and played again keep their clock readings; the clocks are
   * not charged. Returns the note.
   */
  correct(c: Correction, by: string, reason: string): CorrectionNote {
    const plan = planCorrection(this.game, c, this.clock ? { flagged: this.clock.state(this.now()).flagged !== null } : null);
    const note: CorrectionNote = { at: this.now(), by, reason, say: plan.say };
    this.o.journal({ k: 'correction', ...note });
    this.corrections.push(note);
    if (plan.kind === 'plies') {
      const kept = this.game.plies.slice(this.game.plies.length - plan.undo).map((p) => this.plyClocks.get(p));
      this.takeback(plan.undo);
      plan.play.forEach((move, i) => {
        const ply = this.play(move);
        if (kept[i] !== undefined) this.plyClocks.set(ply, kept[i]);
      });
    } else if (plan.kind === 'result') {
      const winner = plan.result === '1-0' ? 'black' : plan.result === '0-1' ? 'white' : null;
      const outcome: Outcome | null = plan.result === '*' ? null : { winner, reason: 'arbiter' };
      this.current.setOutcome(outcome);
      this.resultOverride = plan.result === '*' ? null : plan.result;
      if (outcome) this.clock?.pause(this.now());
      this.o.journal({ k: 'result', result: plan.result, outcome, at: this.now() });
      if (outcome) this.o.emit({ type: 'game-over', result: plan.result, outcome, say: describeOutcome(outcome) });
    } else {
      this.clock!.adjust(plan.side, plan.ms, this.now());
      this.o.journal({ k: 'clock', clock: this.clock!.toJSON(), at: this.now() });
      this.o.emit({ type: 'clock', clock: this.clock!.state(this.now()) });
    }
    return note;
  }

  clockStart(): void {
    if (!this.clock) throw new SessionError('not-allowed', 'this game has no time control');
    this.requireOpen();
    this.clock.start(this.game.turn, this.now(), this.forcedCapture());
    this.o.emit({ type: 'clock', clock: this.clock.state(this.now()) });
  }

  clockPause(): void {
    if (!this.clock) throw new SessionError('not-allowed', 'this game has no time control');
    this.clock.pause(this.now(), true);
    this.o.journal({ k: 'clock', clock: this.clock.toJSON(), at: this.now() });
    this.o.emit({ type: 'clock', clock: this.clock.state(this.now()) });
  }

  private requireOpen(): void {
    if (this.game.outcome) throw new SessionError('game-over', 'the game is over');
  }
}
