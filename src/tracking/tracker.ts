// Move tracking: the small state machine around classify (classify.ts). It
// owns a BoardReader (readings → coin counts, reading/) and tells it, as the
// game allows, where a second coin is plausible or expected; it reads each
// settled board both ways where one coin or two is soft, asks classify which
// case it is, and acts: in sync; a legal result (commit at once); part-way
// through one (wait; a quiet reminder if it looks finished and stands); a
// change of mind or a takeback; a fast reply (commit both); a crown awaited or
// missing; anything else, once it has stood for the grace period, illegal and
// diagnosed (diagnose.ts). What the game settled goes back to the reader
// (correct, confirm). Set-up/resync (kings recognised without lifting them),
// crowning however the crown arrives, coins lying magnet-up (a reminder) and
// huffing are handled here too. Its phase is derived from the game. Pure:
// time comes from the frames; the Game is the only outside state it changes.

import { Game, JUMP_LAND, NEIGHBOUR, legalMoves, moveText, type Move, type Ply, type Position } from '../rules/index.ts';
import { BoardReader, type BoardView, type ReaderOptions } from '../reading/reader.ts';
import type { Calibration } from '../reading/calibration.ts';
import { countsOf, diffSquares, outcomes, sameCounts, type Counts, type Outcome } from './boards.ts';
import { classify, crownWaitBoard, withCrown, type Situation, type Verdict } from './classify.ts';
import { describeFixes, diagnose, fixesTo, otherPieceCorrection, retractSentence, type Alert, type AlertCategory, type Fix, type Retract } from './diagnose.ts';

export interface TrackerOptions {
  /** Takebacks (the position before the last move on the board) are accepted. Tournament mode refuses them. */
  takebacks: boolean;
  /** A board that matches nothing must stay so this long (ms) before it is called illegal. */
  graceMs: number;
  /** A board part-way through a move that looks finished but wrong (a capture not removed, a jump stopped early) waits this long. */
  patienceMs: number;
  /** Huffing: jumps are optional, so a legal result must stand this long before it is committed. */
  settleMs: number;
  /** Two moves seen at once (a fast reply) must stand this long before both are committed. */
  fastReplyMs: number;
  /** The retraction rule: a correction made with another piece than the one moved illegally is refused ('enforce', tournament mode) or played with a notice. */
  retraction: 'enforce' | 'notice';
  reader?: Partial<ReaderOptions>;
}

export const DEFAULT_TRACKER: TrackerOptions = {
  takebacks: true,
  graceMs: 800,
  patienceMs: 2500,
  settleMs: 1200,
  fastReplyMs: 150,
  retraction: 'notice',
};

export type Phase = 'setup' | 'play' | 'over';

/**
 * Quiet feedback, no buzzer: a board part-way through a legal move that has
 * stood a while (captured coins still on, a jump not finished), or a coin
 * lying magnet-up.
 */
export interface Reminder {
  category: AlertCategory | 'upside-down';
  message: string;
  squares: number[];
  t: number;
}

/** How the board stands against the game, at a glance. */
export type BoardStatus =
  | { kind: 'setup'; fixes: Fix[]; message: string }
  | { kind: 'in-sync'; reminder?: Reminder }
  | { kind: 'moving'; reminder?: Reminder }
  | { kind: 'awaiting-crown'; square: number }
  | { kind: 'illegal'; alert: Alert };

export type TrackerEvent =
  | { type: 'setup'; t: number; fixes: Fix[]; message: string }
  | { type: 'ready'; t: number; calibrated: boolean }
  | { type: 'move'; t: number; ply: Ply; text: string; number: number }
  | { type: 'move-replaced'; t: number; previous: Move; ply: Ply; text: string }
  | { type: 'takeback'; t: number; move: Move }
  | { type: 'crown-awaited'; t: number; square: number }
  | { type: 'crowned'; t: number; square: number }
  | { type: 'status'; t: number; status: BoardStatus }
  | { type: 'alert'; t: number; alert: Alert }
  | { type: 'alert-cleared'; t: number }
  | { type: 'reminder'; t: number; reminder: Reminder }
  | { type: 'reminder-cleared'; t: number }
  /** the retraction rule outside tournament mode: a correction was made with another piece (played, but said) */
  | { type: 'retraction-notice'; t: number; message: string; squares: number[] }
  | { type: 'game-over'; t: number; game: Game };

interface LastCommit {
  /** Index of the ply in game.plies. */
  index: number;
  /** The opponent has started to move since: no more change of mind. */
  opponentStarted: boolean;
}

export class MoveTracker {
  readonly options: TrackerOptions;
  readonly reader: BoardReader;
  /** Board and game not yet compared (a new or loaded game, a reconnect): set-up first. */
  private settingUp = true;
  private game: Game;
  private status: BoardStatus = { kind: 'setup', fixes: [], message: '' };
  private alert: Alert | null = null;
  private awaitingCrown: number | null = null;
  private last: LastCommit | null = null;
  /** Squares where a piece was put down since the last commit, in order (tells multi-jump routes apart). */
  private placements: number[] = [];
  private prevBoard = new Uint8Array(32);
  private candidateSince = -Infinity;
  private events: TrackerEvent[] = [];
  // Cached per position.
  private cachePly = -1;
  private cache: { counts: Counts; outs: Outcome[]; before: Position | null; beforeCounts: Counts | null; beforeOuts: Outcome[] } | null = null;

  constructor(game: Game, options: Partial<TrackerOptions> = {}, reader?: BoardReader) {
    this.options = { ...DEFAULT_TRACKER, ...options };
    this.reader = reader ?? new BoardReader(this.options.reader);
    this.game = game;
    this.updatePrior();
  }

  /** Set-up until board and game agree; then play, or over once the game has an outcome (however it came). */
  get phase(): Phase {
    return this.settingUp ? 'setup' : this.game.outcome ? 'over' : 'play';
  }

  /** What the reader makes of the board (counts, confidence, soft squares), for displays. */
  get view(): BoardView {
    return this.reader.view();
  }

  /** Uses a saved or routine-made calibration (the board is compared with the game again). */
  useCalibration(c: Calibration): void {
    this.reader.useCalibration(c);
  }

  /** The reader's settings (the calibration routine takes the smallest coin step from them). */
  get readerOptions(): Readonly<ReaderOptions> {
    return this.reader.options;
  }

  get currentGame(): Game {
    return this.game;
  }
  get boardStatus(): BoardStatus {
    return this.status;
  }
  get currentAlert(): Alert | null {
    return this.alert;
  }
  get crownSquare(): number | null {
    return this.awaitingCrown;
  }

  /** Starts tracking a (new or loaded) game: the board must be set up to match it first. */
  setGame(game: Game, t = this.reader.now): TrackerEvent[] {
    this.game = game;
    this.resync();
    this.events = [];
    this.evaluate(Number.isFinite(t) ? t : 0, true);
    return this.flush();
  }

  /** After a reconnect or a new game: compare board and position again before play goes on. */
  resync(): void {
    this.settingUp = true;
    this.awaitingCrown = null;
    this.last = null;
    this.alert = null;
    this.placements = [];
    this.stuck = null;
    this.cachePly = -1;
    this.updatePrior();
  }

  /** Feeds one frame of raw readings. Returns what happened. */
  push(t: number, readings: ArrayLike<number>): TrackerEvent[] {
    const changed = this.reader.push(t, readings);
    // (A crown is seen by the reader: a step up where it is expected. A lift shows the player crowning from under.)
    if (this.awaitingCrown !== null && this.reader.counts[this.awaitingCrown - 1] === 0) this.crownTouched = true;
    if (changed) this.logPlacements();
    // (A soft square appearing or going — one-or-two, or a faint reading — may change what the board shows.)
    const uncertainMoved = (this.reader.uncertain !== this.lastUncertain) && this.phase === 'play' && this.status.kind !== 'in-sync';
    this.lastUncertain = this.reader.uncertain;
    this.lastFaint = this.reader.faintMask;
    if (this.reader.flippedMask !== this.lastFlipped) {
      this.lastFlipped = this.reader.flippedMask;
      this.dirty = true;
    }
    if (changed || uncertainMoved || this.dirty || this.timerDue(t) || (this.phase === 'setup' && !this.reader.calibrated)) this.evaluate(t, changed);
    return this.events.length ? this.flush() : NO_EVENTS;
  }

  /** The man on the crowning square was lifted (to slip a coin under) after it arrived: the player is crowning. */
  private crownTouched = false;
  private lastUncertain = 0;
  private lastFlipped = 0;
  private lastFaint = 0;
  /**
   * The last board seen part-way through a legal move that looked finished (a
   * jumper down with captured coins still on, a jump stopped short): if the
   * opponent moves on from it, the mistake is named from it.
   */
  private stuck: { board: Counts; category: AlertCategory } | null = null;

  private flush(): TrackerEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }

  private logPlacements(): void {
    const b = this.reader.counts;
    for (let i = 0; i < 32; i++) if (b[i] > this.prevBoard[i] && this.prevBoard[i] === 0) this.placements.push(i + 1);
    this.prevBoard.set(b);
  }

  /** True when a grace, patience or settle timer has run out since the last evaluation. */
  private timerDue(t: number): boolean {
    return t >= this.deadline;
  }

  /** The board changed while a square was still settling: evaluate once it has. */
  private dirty = false;

  /** Next frame time at which the same board must be looked at again (a timer runs out). */
  private deadline = Infinity;

  private setDeadline(t: number): void {
    this.deadline = Infinity;
    if (this.phase !== 'play' || this.status.kind !== 'moving') return;
    for (const d of [this.options.graceMs, this.options.patienceMs, this.options.settleMs, this.options.fastReplyMs]) {
      const at = this.candidateSince + d;
      if (at > t && at < this.deadline) this.deadline = at;
    }
  }

  // -------------------------------------------------------------------------

  private snapshot() {
    const n = this.game.plies.length;
    if (this.cachePly !== n || !this.cache) {
      const pos = this.game.position;
      const opts = this.game.options;
      const lastPly = this.game.plies[n - 1];
      const before = lastPly ? (lastPly.beforeHuff ?? lastPly.before) : null;
      this.cache = {
        counts: countsOf(pos),
        outs: this.game.outcome ? [] : outcomes(pos, opts),
        before,
        beforeCounts: before ? countsOf(before) : null,
        beforeOuts: lastPly && !lastPly.huff ? outcomes(lastPly.before, opts) : [],
      };
      this.cachePly = n;
    }
    return this.cache;
  }

  private updatePrior(): void {
    // The game is the prior: a second coin is plausible only where the rules allow one — where a
    // king stands, where a king can land, where a man can reach the king row (it may arrive with
    // its crown, or as a ready-made stack), and on the square a crowned man was taken back to.
    // It is expected where a crown is awaited. Anywhere else a rise is a coin sitting better.
    const pos = this.game.position;
    let mask = pos.kings;
    for (const m of this.game.outcome ? [] : legalMoves(pos, this.game.options)) {
      const king = (pos.kings & (1 << (m.from - 1))) !== 0;
      if (king) for (const p of m.path) mask |= 1 << (p - 1);
      else if (m.crowned) mask |= 1 << (m.to - 1);
    }
    // (Also every square next to a king, legal or not: a king stepping wrongly must still be read as
    // a king for the alert to say what to put back.)
    for (let i = 0; i < 32; i++) {
      if (!((pos.kings >>> i) & 1)) continue;
      for (let d = 0; d < 4; d++) if (NEIGHBOUR[i * 4 + d] >= 0) mask |= 1 << NEIGHBOUR[i * 4 + d];
    }
    if (this.crownCarried !== null) mask |= 1 << (this.crownCarried - 1);
    const last = this.game.plies.at(-1);
    if (last?.move.crowned) mask |= 1 << (last.move.from - 1);
    this.reader.setStackPrior(mask, this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0);
  }

  /** A crowned man taken back as a stack: the square it went back to (its crown may still be on it). */
  private crownCarried: number | null = null;

  private setStatus(s: BoardStatus, t: number): void {
    if ((s.kind === 'moving' || s.kind === 'in-sync') && !s.reminder) {
      const r = this.flippedReminder(t);
      if (r) s = { ...s, reminder: r };
    }
    this.setReminder(s.kind === 'moving' || s.kind === 'in-sync' ? s.reminder ?? null : null, t);
    const same = s.kind === this.status.kind &&
      (s.kind !== 'moving' && s.kind !== 'in-sync' || (this.status as { reminder?: Reminder }).reminder === s.reminder) &&
      (s.kind !== 'awaiting-crown' || (this.status as { square: number }).square === s.square) &&
      (s.kind !== 'illegal' || (this.status as { alert: Alert }).alert === s.alert) &&
      (s.kind !== 'setup' || (this.status as { message: string }).message === s.message);
    this.status = s;
    if (!same) this.events.push({ type: 'status', t, status: s });
  }

  private reminder: Reminder | null = null;

  get currentReminder(): Reminder | null {
    return this.reminder;
  }

  private setReminder(r: Reminder | null, t: number): void {
    if (r && this.reminder && r.message === this.reminder.message) return;
    if (!r && !this.reminder) return;
    this.reminder = r;
    this.events.push(r ? { type: 'reminder', t, reminder: r } : { type: 'reminder-cleared', t });
  }

  /** A coin lying magnet-up: counted as a coin, and the player asked to turn it over. */
  private flippedReminder(t: number): Reminder | null {
    const m = this.reader.flippedMask;
    if (!m) return null;
    const squares: number[] = [];
    for (let i = 0; i < 32; i++) if ((m >>> i) & 1) squares.push(i + 1);
    const list = squares.length === 1 ? `${squares[0]}` : `${squares.slice(0, -1).join(', ')} and ${squares.at(-1)}`;
    return {
      category: 'upside-down',
      message: squares.length === 1 ? `The coin on ${list} is upside down: turn it over.` : `The coins on ${list} are upside down: turn them over.`,
      squares, t,
    };
  }

  /** The retraction rule: the piece first moved illegally in this position (kept until a move is committed). */
  private retract: { plies: number; game: Game; r: Retract } | null = null;

  private currentRetract(): Retract | null {
    const k = this.retract;
    return k && k.game === this.game && k.plies === this.game.plies.length ? k.r : null;
  }

  private raise(alert: Alert, t: number): void {
    if (alert.retract && !this.currentRetract()) this.retract = { plies: this.game.plies.length, game: this.game, r: alert.retract };
    const same = this.alert && this.alert.category === alert.category && this.alert.message === alert.message;
    if (same) return;
    this.alert = alert;
    this.events.push({ type: 'alert', t, alert });
    this.setStatus({ kind: 'illegal', alert }, t);
  }

  private clearAlert(t: number): void {
    if (!this.alert) return;
    this.alert = null;
    this.events.push({ type: 'alert-cleared', t });
  }

  // -------------------------------------------------------------------------

  private evaluate(t: number, changed: boolean): void {
    if (changed) this.candidateSince = t;
    this.deadline = Infinity;
    // Wait until every square has settled (look again on the next frame).
    this.dirty = this.reader.settling;
    if (this.dirty) return;
    this.evaluateNow(t);
    this.setDeadline(t);
  }

  private evaluateNow(t: number): void {
    const board = this.reader.counts;
    if (this.phase === 'setup') return this.evaluateSetup(board, t);
    if (this.awaitingCrown !== null && board[this.awaitingCrown - 1] === 2) {
      const sq = this.awaitingCrown;
      this.awaitingCrown = null;
      this.events.push({ type: 'crowned', t, square: sq });
      this.updatePrior();
    }
    if (this.phase === 'over') {
      const s = this.snapshot();
      if (sameCounts(board, s.counts)) {
        this.clearAlert(t);
        this.setStatus({ kind: 'in-sync' }, t);
      } else if (this.awaitingCrown !== null && crownWaitBoard(board, s.counts, this.awaitingCrown)) {
        this.setStatus({ kind: 'awaiting-crown', square: this.awaitingCrown }, t);
      }
      return;
    }
    this.evaluatePlay(board, t);
  }

  private evaluateSetup(board: Counts, t: number): void {
    const pos = this.game.position;
    const want = countsOf(pos);
    if (!this.reader.calibrated && this.reader.calibrateFrom(want)) {
      this.prevBoard.set(this.reader.counts);
    }
    // One coin or two is the game's call where the reading allows both: a king standing on its
    // square is recognised without lifting it (an off-centre stack reads like one centred coin).
    const soft = this.reader.calibrated ? this.setupReading(want) : null;
    if (soft) {
      for (const sq of diffSquares(this.reader.counts, soft)) this.reader.correct(sq, soft[sq - 1] as 1 | 2);
    }
    if (this.reader.calibrated && sameCounts(this.reader.counts, want)) {
      this.settingUp = false;
      this.placements = [];
      this.clearAlert(t);
      this.events.push({ type: 'ready', t, calibrated: this.reader.calibrated });
      this.setStatus({ kind: 'in-sync' }, t);
      this.updatePrior();
      return;
    }
    const fixes = fixesTo(board, pos, want);
    const message = fixes.length
      ? `Set up the position: ${describeFixes(fixes)}`
      : 'Checking the board: keep the pieces still while it calibrates.';
    if (this.status.kind !== 'setup' || this.status.message !== message) {
      this.events.push({ type: 'setup', t, fixes, message });
      this.setStatus({ kind: 'setup', fixes, message }, t);
    }
  }

  /**
   * The board read with the game's counts where one-or-two is the only
   * difference and the reading allows it (a coin there reading at least like a
   * fairly centred coin, for a king; no more than a clear stack, for a man).
   * Null if anything else differs.
   */
  private setupReading(want: Counts): Counts | null {
    const r = this.reader;
    const b = new Uint8Array(r.counts);
    for (let i = 0; i < 32; i++) {
      if (b[i] === want[i]) continue;
      if (b[i] === 0 || want[i] === 0) return null;
      if (r.settling) return null;
      if (want[i] === 2 && r.level(i + 1).coins < KING_MIN_READING) return null;
      b[i] = want[i];
    }
    return b;
  }

  private evaluatePlay(board: Counts, t: number): void {
    // One coin or two is a soft call: an off-centre stack can read like one centred coin.
    // Where something happened (the board differs from the position) and the reader was
    // unsure, or a stack is plausible (a king's landing square), try the board read either way.
    let unsure = 0;
    // (Not the square where a crown is awaited: the crown must be seen, not assumed.)
    const soft = (this.reader.uncertain | this.reader.stackPrior) & ~(this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0);
    // Likewise empty or one coin where the reading is faint (a coin half-lifted by a finger, an
    // emptied square whose empty level was only guessed).
    // (Any faint square: an emptied square still read as holding its coin matches the position.)
    const faint = this.reader.faintMask;
    for (const sq of this.differences()) unsure |= soft & (1 << (sq - 1));
    const boards = alternatives(board, unsure, faint);
    const { verdict, board: b } = classify(boards, this.situation());
    this.act(verdict, b, board, t);
  }

  /** What the game allows now, for classify. */
  private situation(): Situation {
    const snap = this.snapshot();
    const game = this.game;
    const huffs: { square: number; counts: Counts; outs: Outcome[] }[] = [];
    if (game.options.huffing && !game.outcome) {
      for (const h of game.huffable()) {
        const keep = ~(1 << (h - 1));
        const pos = game.position;
        const huffed: Position = { ...pos, black: pos.black & keep, white: pos.white & keep, kings: pos.kings & keep };
        huffs.push({ square: h, counts: countsOf(huffed), outs: outcomes(huffed, game.options) });
      }
    }
    return {
      counts: snap.counts,
      outs: snap.outs,
      last: this.last && snap.before && snap.beforeCounts
        ? { counts: snap.beforeCounts, outs: snap.beforeOuts, move: game.plies[this.last.index].move, opponentStarted: this.last.opponentStarted }
        : null,
      crown: this.awaitingCrown,
      huffs,
      placements: this.placements,
      retract: this.currentRetract()?.square ?? null,
      options: game.options,
    };
  }

  /** Acts on a verdict about `b` (the reading of `board` that classify chose), at frame time t. */
  private act(verdict: Verdict, b: Counts, board: Counts, t: number): void {
    const snap = this.snapshot();
    const game = this.game;
    const crown = this.awaitingCrown;
    // A reading the game explains settles the soft squares: the reader holds them (returned feedback).
    const settle = () => {
      if (b !== board) for (const sq of diffSquares(board, b)) this.reader.correct(sq, b[sq - 1] as 0 | 1 | 2);
    };
    switch (verdict.kind) {
      case 'in-sync':
      case 'crown-awaited':
        settle();
        this.stuck = null;
        this.reader.confirm(crown === null ? 0 : 1 << (crown - 1));
        this.clearAlert(t);
        this.setStatus(crown !== null ? { kind: 'awaiting-crown', square: crown } : { kind: 'in-sync' }, t);
        return;
      case 'legal':
        settle();
        if (game.options.huffing && t - this.candidateSince < this.options.settleMs) {
          // Jumps are optional: this may be a half-done longer jump. Commit once it has stood.
          this.setStatus({ kind: 'moving' }, t);
          return;
        }
        this.commit(this.chooseRoute(verdict.hits).move, b, t);
        return;
      case 'other-piece': {
        const r = this.currentRetract()!;
        const move = this.chooseRoute(verdict.hits).move;
        const words = otherPieceCorrection(r, move)!;
        if (this.options.retraction === 'notice') {
          settle();
          this.events.push({ type: 'retraction-notice', t, message: words, squares: [r.square] });
          this.commit(move, b, t);
          return;
        }
        if (t - this.candidateSince < this.options.graceMs) {
          if (!this.alert) this.setStatus({ kind: 'moving' }, t);
          return;
        }
        const fixes = fixesTo(b, game.position, snap.counts);
        this.raise({
          category: 'wrong-piece-retraction',
          message: `${words} ${describeFixes(fixes)} ${retractSentence(r)}`.replace(/\s+/g, ' ').trim(),
          squares: fixes.map((f) => f.square), fixes, t, retract: r,
        }, t);
        return;
      }
      case 'huff':
        settle();
        if (verdict.hit && t - this.candidateSince >= this.options.settleMs) {
          this.commit(verdict.hit.move, b, t, undefined, verdict.square);
          return;
        }
        this.markOpponentStarted();
        this.setStatus({ kind: 'moving' }, t);
        return;
      case 'change-of-mind': {
        settle();
        const o = this.chooseRoute(verdict.alternatives);
        const previous = game.undo().move;
        this.cachePly = -1;
        this.awaitingCrown = null;
        this.commit(o.move, b, t, previous);
        return;
      }
      case 'takeback': {
        settle();
        if (this.options.takebacks) {
          const ply = game.undo();
          this.cachePly = -1;
          this.crownCarried = ply.move.crowned && !(this.awaitingCrown === ply.move.to) ? ply.move.from : null;
          this.awaitingCrown = null;
          this.last = null;
          this.placements = [];
          this.clearAlert(t);
          this.events.push({ type: 'takeback', t, move: ply.move });
          this.setStatus({ kind: 'in-sync' }, t);
          this.updatePrior();
          return;
        }
        if (t - this.candidateSince >= this.options.graceMs) {
          const lastMove = game.plies[this.last!.index].move;
          const fixes = fixesTo(b, game.position, snap.counts);
          this.raise({
            category: 'takeback-refused',
            message: `Takebacks are not allowed in this game: the move ${moveText(lastMove, snap.beforeOuts.map((o) => o.move))} stands. ${describeFixes(fixes)}`,
            squares: fixes.map((f) => f.square), fixes, t,
          }, t);
        } else this.setStatus({ kind: 'moving' }, t);
        return;
      }
      case 'changing-mind':
        this.clearAlert(t);
        this.setStatus({ kind: 'moving' }, t);
        return;
      case 'part-way': {
        const view = withCrown(b, crown);
        // (Only the last mover's pieces gone is also the last mover lifting theirs again: no start yet.)
        if (this.sideToMoveTouched(view)) this.markOpponentStarted();
        // Part-way through a legal move: incomplete, not illegal. If it looks finished (the piece put
        // down, captured coins still on, a jump stopped short), remember what is missing and, after a
        // pause, say so quietly (no buzzer).
        let reminder: Reminder | undefined;
        if (verdict.finished) {
          const d = diagnose(view, game.position, snap.counts, snap.outs.map((o) => o.move), t);
          if (d.category === 'capture-not-removed' || d.category === 'incomplete-jump') {
            this.stuck = { board: new Uint8Array(view), category: d.category };
            if (t - this.candidateSince >= this.options.patienceMs) {
              reminder = this.reminder?.message === d.message ? this.reminder : { category: d.category, message: d.message, squares: d.squares, t };
            }
          }
        }
        this.clearAlert(t);
        this.setStatus(reminder ? { kind: 'moving', reminder } : { kind: 'moving' }, t);
        return;
      }
      case 'crown-missing':
        if (!verdict.partial || this.sideToMoveTouched(withCrown(b, crown))) this.markOpponentStarted();
        return this.notCrownedAfterGrace(board, t);
      case 'fast-reply':
        // (Only once it has stood a moment: it can look like a partial state on the way.)
        if (t - this.candidateSince < this.options.fastReplyMs) {
          this.setStatus({ kind: 'moving' }, t);
          return;
        }
        this.commit(verdict.first.move, null, t);
        this.commit(this.chooseRoute(verdict.replies).move, board, t);
        return;
      case 'illegal': {
        // Anything else, once it has stood for the grace period.
        if (t - this.candidateSince < this.options.graceMs) {
          if (!this.alert) this.setStatus({ kind: 'moving' }, t);
          return;
        }
        // The mistake is described on the likeliest reading of the board (see likelyBoard).
        const view = withCrown(this.likelyBoard(board), crown);
        const legal = snap.outs.map((o) => o.move);
        // Left part-way through a move (captured coins on, a jump stopped short) and the opponent has
        // moved on since: the mistake is the unfinished move, named as such however long it stood.
        const stuck = this.stuck && this.movedOnFrom(this.stuck.board, view);
        this.raise(stuck ? diagnose(this.stuck!.board, game.position, snap.counts, legal, t, view) : diagnose(view, game.position, snap.counts, legal, t), t);
        return;
      }
    }
  }

  /** The opponent started before the crown was seen: the crown may be landing just now, so allow the grace period. */
  private notCrownedAfterGrace(board: Counts, t: number): void {
    if (this.acceptAmbiguousCrown(board, t)) return;
    if (t - this.candidateSince < this.options.graceMs) {
      if (!this.alert) this.setStatus({ kind: 'moving' }, t);
      return;
    }
    this.raiseNotCrowned(board, t);
  }

  /**
   * The opponent has begun while the crowning square reads in the band where an off-centre stack
   * and a well-centred man overlap: if the evidence leans to a crown, it is taken as crowned (at
   * once: the new king may be about to move).
   */
  private acceptAmbiguousCrown(board: Counts, t: number): boolean {
    const sq = this.awaitingCrown!;
    // The opponent has begun and the player did something on the crowning square after the man
    // arrived (lifted it, or the reading rose): they crowned. A reading in the band where an
    // off-centre stack and a well-centred man overlap is then taken as the crown.
    const r = this.reader, i = sq - 1;
    // A reading above every single coin seen on this square is taken as the crown too (a crown put
    // on at once, or a ready-made stack, never shows the man alone: an off-centre stack reads like
    // a centred man, and the game says a crown belongs there).
    if (board[i] === 1 && r.level(sq).stack >= (this.crownTouched ? AMBIGUOUS_CROWN : UNSEEN_CROWN)) {
      r.correct(sq, 2);
      this.awaitingCrown = null;
      this.events.push({ type: 'crowned', t, square: sq });
      this.updatePrior();
      this.evaluatePlay(r.counts, t);
      return true;
    }
    return false;
  }

  private raiseNotCrowned(board: Counts, t: number): void {
    const sq = this.awaitingCrown!;
    if (this.acceptAmbiguousCrown(board, t)) return;
    const snap = this.snapshot();
    const fixes = fixesTo(board, this.game.position, snap.counts);
    this.raise({
      category: 'not-crowned',
      message: `Crown the king on ${sq} first: stack a second coin on it. ${describeFixes(fixes.filter((f) => f.square !== sq))}`.trim(),
      squares: fixes.map((f) => f.square), fixes, t,
    }, t);
  }

  /**
   * Does `board` follow from the stuck board by the opponent's hand alone: only
   * squares the unfinished move did not touch have changed, and a piece was put
   * down?
   */
  private movedOnFrom(stuck: Counts, board: Counts): boolean {
    const pos = this.game.position;
    let placed = false;
    for (let i = 0; i < 32; i++) {
      if (board[i] === stuck[i]) continue;
      // The side to move's pieces and the squares the unfinished move left are theirs: untouched since.
      const bit = 1 << i;
      const mover = pos.turn === 'black' ? pos.black : pos.white;
      if (mover & bit) return false;
      if (this.snapshot().counts[i] !== stuck[i]) return false;
      if (board[i] > stuck[i]) placed = true;
    }
    // (A piece only taken away is no reply: the opponent's move puts a piece down somewhere.)
    return placed;
  }

  /**
   * The board as read, but a man sitting better where no stack can be read as the man (two coins
   * there were never more than a guess), and a piece that appeared next to (or a jump from) where a
   * king vanished read as that king (an off-centre stack reads like one coin).
   */
  private likelyBoard(board: Counts): Counts {
    const b = new Uint8Array(board);
    const counts = this.snapshot().counts;
    const unexpected = this.reader.unexpectedMask;
    for (let i = 0; i < 32; i++) if ((unexpected >>> i) & 1 && b[i] === 2 && counts[i] < 2) b[i] = 1;
    const gone = (size: number) => {
      const out: number[] = [];
      for (let i = 0; i < 32; i++) if (counts[i] === size && b[i] === 0) out.push(i);
      return out;
    };
    const near = (from: number[], i: number) => from.some((k) => [0, 1, 2, 3].some((d) => NEIGHBOUR[k * 4 + d] === i || JUMP_LAND[k * 4 + d] === i));
    // A faint reading where a man stood, while a piece appeared elsewhere: the man moved (its square's
    // empty level was only a guess).
    const placed = b.some((n, i) => n > counts[i]);
    for (let i = 0; i < 32; i++) if (placed && (this.reader.faintMask >>> i) & 1 && b[i] === 1 && counts[i] === 1) b[i] = 0;
    const kingsGone = gone(2), menGone = gone(1);
    for (let i = 0; i < 32; i++) {
      if (b[i] !== 1 || counts[i] !== 0) continue;
      // (Not if a man that could have gone there is gone too: then it is likelier that man.)
      if (near(kingsGone, i) && !near(menGone, i) && (this.reader.stackPrior >>> i) & 1) b[i] = 2;
    }
    return b;
  }

  /** Has the side to move touched the board: one of its pieces changed, or something put down on an empty square? */
  private sideToMoveTouched(board: Counts): boolean {
    const pos = this.game.position, counts = this.snapshot().counts;
    const own = pos.turn === 'black' ? pos.black : pos.white;
    for (let i = 0; i < 32; i++) {
      if (board[i] === counts[i]) continue;
      if (counts[i] === 0 || (own >>> i) & 1) return true;
    }
    return false;
  }

  private markOpponentStarted(): void {
    if (this.last) this.last.opponentStarted = true;
  }

  /** Among results with the same board (a king's routes), the one the hand's placements followed. */
  private chooseRoute(hits: Outcome[]): Outcome {
    if (hits.length === 1) return hits[0];
    let best = hits[0], bestScore = -1;
    for (const h of hits) {
      let k = 0, score = 0;
      for (const p of this.placements) {
        const idx = h.move.path.indexOf(p, k);
        if (idx >= 0) {
          score++;
          k = idx + 1;
        }
      }
      if (score > bestScore) {
        best = h;
        bestScore = score;
      }
    }
    return best;
  }

  /** Commits a move (or, huffing, a huff and a move) the board showed, and announces it. */
  private commit(move: Move, board: Counts | null, t: number, previous?: Move, huff?: number): void {
    const game = this.game;
    const ply = huff === undefined ? game.play(move) : game.huffAndPlay(huff, move);
    this.cachePly = -1;
    this.stuck = null;
    this.retract = null;
    const text = moveText(move, legalMoves(ply.before, game.options));
    // The board matched: its counts may teach the calibration (but not a crowning square, whose coins are still coming).
    if (board) this.reader.confirm(move.crowned ? 1 << (move.to - 1) : 0);
    this.placements = [];
    this.last = { index: game.plies.length - 1, opponentStarted: false };
    this.clearAlert(t);
    const number = Math.floor((game.plies.length - 1 + (game.start.turn === 'white' ? 1 : 0)) / 2) + 1;
    if (previous) this.events.push({ type: 'move-replaced', t, previous, ply, text });
    else this.events.push({ type: 'move', t, ply, text, number });
    const carried = this.crownCarried !== null && move.from === this.crownCarried;
    this.crownCarried = null;
    if (carried && board && board[move.to - 1] === 1) this.reader.correct(move.to, 2);
    if (move.crowned && !(board && board[move.to - 1] === 2) && !carried) {
      this.awaitingCrown = move.to;
      this.crownTouched = false;
      this.events.push({ type: 'crown-awaited', t, square: move.to });
      this.setStatus({ kind: 'awaiting-crown', square: move.to }, t);
    } else {
      if (move.crowned) this.events.push({ type: 'crowned', t, square: move.to });
      this.setStatus({ kind: 'in-sync' }, t);
    }
    this.updatePrior();
    if (game.outcome) this.events.push({ type: 'game-over', t, game });
  }

  /** The squares where the board differs from the game's position (for displays). */
  differences(): number[] {
    return diffSquares(this.reader.counts, this.snapshot().counts);
  }
}

const NO_EVENTS: TrackerEvent[] = [];

/** In set-up, a square where the game has a king and one coin is read counts as the king if it reads at least this (fraction of a coin above empty). */
const KING_MIN_READING = 0.75;

/** Fraction of the way from one coin to two above which an awaited crown is taken as on once play goes on. */
const AMBIGUOUS_CROWN = 0.1;
/** …and with no crowning seen, this far (a reading above any man seen on the square). */
const UNSEEN_CROWN = 0.15;

/**
 * The board, then the boards with soft squares read the other way — one or two
 * coins where `uncertain`, empty or one where `faint` — at most 3 squares.
 */
function alternatives(board: Counts, uncertain: number, faint = 0): Counts[] {
  if (uncertain === 0 && faint === 0) return [board];
  const squares: [number, number][] = [];
  for (let i = 0; i < 32 && squares.length < 3; i++) {
    if ((faint >>> i) & 1 && board[i] <= 1) squares.push([i, board[i] === 1 ? 0 : 1]);
    else if ((uncertain >>> i) & 1 && board[i] >= 1) squares.push([i, board[i] === 1 ? 2 : 1]);
  }
  const out = [board];
  for (let mask = 1; mask < 1 << squares.length; mask++) {
    const b = new Uint8Array(board);
    squares.forEach(([i, other], k) => {
      if ((mask >> k) & 1) b[i] = other;
    });
    out.push(b);
  }
  return out;
}
