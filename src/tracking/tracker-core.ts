// The move tracker's memory and voice (MoveTracker, tracker.ts, decides): the
// reader's latest view and the board as read, the state (TrackerState: set-up
// or play with what it has pending), the game, the feedback for the reader,
// what was said (status, alert, reminder: report.ts), the timers, the
// computer's move expected, the retraction rule's piece, and the small acts
// every decision shares (settle a soft call, confirm a board, set the status,
// raise or clear an alert, tell the reader the stack prior). The game is
// read-only here: what is decided is played by its one writer (GameWriter,
// the table). Pure: time comes from the frames.

import { legalMoves, moveText, type Move, type ReadonlyGame } from '../rules/index.ts';
import { EMPTY_VIEW, type BoardView, type ReaderFeedback } from '../reading/view.ts';
import type { Alert, BoardStatus, Reminder } from '../model/board.ts';
import { diffSquares } from './boards.ts';
import { ColourWatch, menLanding, mixedKings } from './colour.ts';
import { OffCentreWatch } from './kings.ts';
import type { Retract } from './diagnose.ts';
import { PositionCache, flipPrior, priorMoves, stackPrior } from './evidence.ts';
import { TrackerReport } from './report.ts';
import {
  DEFAULT_TRACKER,
  type Crown,
  type GameWriter,
  type Phase,
  type TrackerOptions,
  type TrackerState,
  type TrackerStep,
} from './state.ts';

export abstract class TrackerCore {
  readonly options: TrackerOptions;
  /** The reader's latest view (plain values, as of this step). */
  protected v: BoardView = EMPTY_VIEW;
  /** The board as read this step, with the soft calls the game settled in it since. */
  protected board = new Uint8Array(32);
  /** Feedback for the reader, returned with the step's events. */
  protected feedback: ReaderFeedback[] = [];
  /** Where a stack is plausible now (what the reader was last told). */
  protected plausible = 0;
  /** Set-up (board and game not compared yet) or play, with what play has pending: see TrackerState. */
  protected state: TrackerState = { kind: 'setup' };
  /** The game as read (read-only: its one writer is `writer`, the table). */
  protected game: ReadonlyGame;
  /** What was said (status, alert, reminder) and the step's events. */
  protected readonly said = new TrackerReport();
  protected prevBoard = new Uint8Array(32);
  protected candidateSince = -Infinity;
  /** What the game allows, worked out once per position. */
  protected readonly positions = new PositionCache();

  constructor(
    game: ReadonlyGame,
    /** Plays and takes back what the tracker decided, journalled first (the table); the game read above follows. */
    protected readonly writer: GameWriter,
    options: Partial<TrackerOptions> = {},
  ) {
    this.options = { ...DEFAULT_TRACKER, ...options };
    this.colours = new ColourWatch(this.options.graceMs, this.options.flipGraceMs);
    this.game = game;
    this.updatePrior();
  }

  /** Feedback produced outside a step (at construction): the owner applies it before the first frame. */
  takeFeedback(): ReaderFeedback[] {
    const f = this.feedback;
    this.feedback = [];
    return f;
  }

  get expectedMove(): Move | null {
    return this.expected;
  }

  protected expected: Move | null = null;

  protected expectedText(): string {
    return moveText(this.expected!, legalMoves(this.game.position, this.game.options));
  }

  /** Set-up until board and game agree; then play, or over once the game has an outcome (however it came). */
  get phase(): Phase {
    return this.state.kind === 'setup' ? 'setup' : this.game.outcome ? 'over' : 'play';
  }

  get currentGame(): ReadonlyGame {
    return this.game;
  }
  get boardStatus(): BoardStatus {
    return this.said.status;
  }
  get currentAlert(): Alert | null {
    return this.said.alert;
  }
  get crownSquare(): number | null {
    return this.awaitingCrown;
  }

  /** The play state (null in set-up). */
  protected get playing(): Extract<TrackerState, { kind: 'play' }> | null {
    return this.state.kind === 'play' ? this.state : null;
  }

  /** The crown being waited for (null: none). */
  protected get crownWait(): Extract<Crown, { kind: 'awaited' }> | null {
    const p = this.playing;
    return p && p.crown.kind === 'awaited' ? p.crown : null;
  }

  /** The square where a crown is awaited (null: none). */
  protected get awaitingCrown(): number | null {
    return this.crownWait?.square ?? null;
  }

  /** No crown is awaited any more (it came, or the move was replaced or taken back). */
  protected crownDone(): void {
    const p = this.playing;
    if (p) p.crown = { kind: 'none' };
  }

  protected see(view: BoardView): void {
    this.v = view;
    this.board.set(view.counts);
    // Men of the position seen lifted since the last move (a j'adoube): put back, each is its own coin.
    const pos = this.game.position;
    if (this.game.plies.length !== this.handled.plies || this.game !== this.handled.game)
      this.handled = { game: this.game, plies: this.game.plies.length, men: 0 };
    const men = (pos.black | pos.white) & ~pos.kings;
    // (Only the men not yet seen lifted are looked at.)
    for (let m = men & ~this.handled.men; m; m &= m - 1) {
      const i = 31 - Math.clz32(m & -m);
      if (!view.counts[i]) this.handled.men |= 1 << i;
    }
  }

  /** The men of the position lifted since its last move (see see()). */
  private handled = { game: null as ReadonlyGame | null, plies: 0, men: 0 };

  protected wasCalibrated = false;
  protected lastSides = 0;
  /** Coded board: where one coin read may be a king crowned with the opponent's coin (see colour.ts). */
  protected mixedKings(): number {
    return mixedKings(this.v, this.game.position, this.plausible, this.awaitingCrown);
  }

  /** Colour issues (coded board) and coins magnet-up, said once they have stood the grace period. */
  protected readonly colours: ColourWatch;
  /** Kings reading like one coin (a stack knocked off-centre), said once they have stood a moment (kings.ts). */
  protected readonly offCentre = new OffCentreWatch();
  /** The kings read slid off-centre at the last frame (see kings.ts). */
  protected lastLow = 0;

  /** The kings of the position reading near one coin (not a crown being put together, nor one crowned with the opponent's coin). */
  protected lowKings(): number {
    const crown = this.awaitingCrown;
    // (Nor a king whose crown lies magnet-up: that is said as a coin upside down.)
    return this.offCentre.look(this.v, this.game.position, this.board, this.mixedKings() | this.v.flipped | (crown ? 1 << (crown - 1) : 0));
  }

  /** The game settled a soft call: this square holds `count` coins (here at once, in the reader when the owner applies it). */
  protected correct(square: number, count: 0 | 1 | 2): void {
    this.board[square - 1] = count;
    this.feedback.push({ kind: 'correct', square, count });
  }

  protected confirm(except: number): void {
    this.feedback.push({ kind: 'confirm', except });
  }

  protected lastUncertain = 0;
  protected lastFlipped = 0;
  protected flush(): TrackerStep {
    const out = { events: this.said.take(), feedback: this.feedback };
    this.feedback = [];
    return out;
  }

  protected logPlacements(): void {
    const b = this.board;
    const placements = this.playing?.placements;
    if (placements) for (let i = 0; i < 32; i++) if (b[i] > this.prevBoard[i] && this.prevBoard[i] === 0) placements.push(i + 1);
    this.prevBoard.set(b);
  }

  /** True when a grace, patience or settle timer has run out since the last evaluation. */
  protected timerDue(t: number): boolean {
    return t >= this.deadline;
  }

  /** The board changed while a square was still settling: evaluate once it has. */
  protected dirty = false;

  /** Next frame time at which the same board must be looked at again (a timer runs out). */
  protected deadline = Infinity;

  protected setDeadline(t: number): void {
    this.deadline = Infinity;
    // (A colour issue waiting out its grace period is looked at again when it is up.)
    if (this.colours.due > t) this.deadline = this.colours.due;
    if (this.offCentre.due > t && this.offCentre.due < this.deadline) this.deadline = this.offCentre.due;
    if (this.phase !== 'play' || this.said.status.kind !== 'moving') return;
    for (const d of [this.options.graceMs, this.options.patienceMs, this.options.settleMs, this.options.fastReplyMs]) {
      const at = this.candidateSince + d;
      if (at > t && at < this.deadline) this.deadline = at;
    }
  }

  /**
   * Tells the reader where a stack is plausible now, and where one is expected (a crown awaited):
   * see stackPrior; and, for a polarity-coded board, where a coin may lie magnet-up: see flipPrior.
   */
  protected updatePrior(): void {
    const moves = priorMoves(this.game);
    this.plausible = stackPrior(this.game, this.crownCarried, moves);
    this.feedback.push({
      kind: 'stack-prior',
      plausible: this.plausible,
      expected: this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0,
    });
    this.feedback.push({ kind: 'flip-prior', ...flipPrior(this.game, this.awaitingCrown, moves) });
  }

  /** A crowned man taken back as a stack: the square it went back to (its crown may still be on it). */
  protected crownCarried: number | null = null;

  /**
   * Sets the status; a coin magnet-up or of the wrong colour rides on an
   * in-sync or moving one (see ColourWatch), a coin magnet-up also on an
   * awaited crown: a man that landed on its crowning square upside down reads
   * like one crowned with the opponent's coin, but no crown was slipped under
   * it while the square was never emptied. A man just moved, or lifted and
   * put back, is the mover's own coin: reading the other way it lies upside
   * down, however far (colourIssues' `moved`). Mid-move likewise a coin
   * landing while none of the mover's kings is off its square: a man (see
   * menLanding).
   */
  protected setStatus(s: BoardStatus, t: number): void {
    const wait = this.crownWait,
      man = wait && !wait.touched ? 1 << (wait.square - 1) : 0;
    const mixed = this.mixedKings() & ~man & ~menLanding(this.v, this.game.position),
      last = this.game.plies.at(-1);
    const colour =
      (s.kind === 'moving' || s.kind === 'in-sync' || s.kind === 'awaiting-crown') && !('reminder' in s && s.reminder)
        ? this.colours.reminder(this.v, this.game.position, t, s.kind, {
            mixed,
            men: wait ? 1 << (wait.square - 1) : 0,
            moved: (last ? 1 << (last.move.to - 1) : 0) | this.handled.men,
          })
        : null;
    // (A king knocked off-centre, reading like one coin, on a board otherwise in sync: straighten it.)
    const low = s.kind === 'in-sync' && !s.reminder && !colour && this.phase === 'play' ? this.lastLow : 0;
    const king = this.offCentre.reminder(low, t);
    this.said.setStatus(s, t, colour ?? king);
  }

  get currentReminder(): Reminder | null {
    return this.said.reminder;
  }

  /** The retraction rule: the piece first moved illegally in this position (kept until a move is committed). */
  protected retract: { plies: number; game: ReadonlyGame; r: Retract } | null = null;

  protected currentRetract(): Retract | null {
    const k = this.retract;
    return k && k.game === this.game && k.plies === this.game.plies.length ? k.r : null;
  }

  protected raise(alert: Alert, t: number): void {
    if (alert.retract && !this.currentRetract()) this.retract = { plies: this.game.plies.length, game: this.game, r: alert.retract };
    this.said.raise(alert, t);
  }

  protected clearAlert(t: number): void {
    this.said.clearAlert(t);
  }

  /** Within the grace period a wrong-looking board is a move under way (true: wait). */
  protected waitGrace(t: number): boolean {
    if (t - this.candidateSince >= this.options.graceMs) return false;
    if (!this.said.alert) this.setStatus({ kind: 'moving' }, t);
    return true;
  }

  protected markOpponentStarted(): void {
    const last = this.playing?.last;
    if (last) last.opponentStarted = true;
  }

  /** The squares where the board differs from the game's position (for displays). */
  differences(): number[] {
    return diffSquares(this.board, this.positions.of(this.game).counts);
  }
}
