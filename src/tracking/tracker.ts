// Move tracking: the small state machine around classify (classify.ts). Each
// frame it takes the reader's BoardView (reading/: coin counts, soft squares,
// levels) as a plain value, reads the settled board both ways where one coin
// or two (or none or one) is soft, asks classify which case it is, and acts:
// in sync; a legal result (commit at once); part-way through one (wait; a
// quiet reminder if it looks finished and stands); a change of mind or a
// takeback; a fast reply (commit both); a crown awaited or missing; anything
// else, once it has stood for the grace period, illegal and diagnosed
// (diagnose.ts). It never holds the reader: what the game settled (where a
// stack is plausible or expected, the soft calls it decided, boards it
// confirmed, a set-up to calibrate from) is returned as ReaderFeedback for the
// owner (board-tracking.ts) to apply. Set-up/resync (kings recognised without
// lifting them), crowning however the crown arrives, coins lying magnet-up (a
// reminder) and huffing are handled here too. Its phase is derived from the
// game. Pure: time comes from the frames; the Game is the only outside state
// it changes.

import { Game, JUMP_LAND, NEIGHBOUR, legalMoves, moveText, type Move, type Ply, type Position } from '../rules/index.ts';
import type { BoardView, ReaderFeedback, ReaderOptions } from '../reading/view.ts';
import { FIRM_STACK } from '../reading/thresholds.ts';
import { countsOf, diffSquares, outcomes, sameCounts, type Counts, type Outcome } from './boards.ts';
import { classify, crownWaitBoard, withCrown, type Situation, type Verdict } from './classify.ts';
import { joinWords } from '../words/index.ts';
import { ColourWatch, colourIssues, colourWords, mixedKings, withColoursSeen } from './colour.ts';
import type { BoardStatus, Reminder } from '../protocol/v1.ts';
import { DEFAULT_TRACKER, freshPlay, type Crown, type Phase, type TrackerEvent, type TrackerOptions, type TrackerState, type TrackerStep } from './state.ts';
import { describeFixes, diagnose, fixesTo, otherPieceCorrection, retractSentence, type Alert, type AlertCategory, type Fix, type Retract } from './diagnose.ts';

/**
 * Quiet feedback, no buzzer (a board part-way through a legal move that has
 * stood a while, a coin lying magnet-up), and how the board stands against the
 * game at a glance: the protocol's types (src/protocol/v1.ts). A reminder's
 * category is an AlertCategory, 'upside-down' or 'wrong-colour'.
 */
export type { BoardStatus, Reminder } from '../protocol/v1.ts';
export { DEFAULT_TRACKER, type Phase, type TrackerEvent, type TrackerOptions, type TrackerStep } from './state.ts';

export class MoveTracker {
  readonly options: TrackerOptions;
  /** The reader's latest view (plain values, as of this step). */
  private v: BoardView = EMPTY_VIEW;
  /** The board as read this step, with the soft calls the game settled in it since. */
  private board = new Uint8Array(32);
  /** Feedback for the reader, returned with the step's events. */
  private feedback: ReaderFeedback[] = [];
  /** Where a stack is plausible now (what the reader was last told). */
  private plausible = 0;
  /** Set-up (board and game not compared yet) or play, with what play has pending: see TrackerState. */
  private state: TrackerState = { kind: 'setup' };
  private game: Game;
  /** What was last said: the status, and the alert standing (if any). */
  private status: BoardStatus = { kind: 'setup', fixes: [], message: '' };
  private alert: Alert | null = null;
  private prevBoard = new Uint8Array(32);
  private candidateSince = -Infinity;
  private events: TrackerEvent[] = [];
  // Cached per position: keyed by the position object itself (a change of mind
  // replaces the last ply, so the number of plies alone would not do).
  private cacheKey: Position | null = null;
  private cacheOver = false;
  private cache: { counts: Counts; outs: Outcome[]; before: Position | null; beforeCounts: Counts | null; beforeOuts: Outcome[] } | null = null;

  constructor(game: Game, options: Partial<TrackerOptions> = {}) {
    this.options = { ...DEFAULT_TRACKER, ...options };
    this.colours = new ColourWatch(this.options.graceMs);
    this.game = game;
    this.updatePrior();
  }

  /** Feedback produced outside a step (at construction): the owner applies it before the first frame. */
  takeFeedback(): ReaderFeedback[] {
    const f = this.feedback;
    this.feedback = [];
    return f;
  }

  /**
   * Playing the computer: the move the player is to carry out on the board for
   * it (null: none). Until it is played, only that move is accepted; any other
   * legal move is refused with words that name it ("That is not the
   * computer's move: … then play 22x15."). Cleared once it is committed.
   */
  expectMove(move: Move | null, t: number): TrackerStep {
    this.expected = move;
    this.events = [];
    if (this.phase === 'play') this.evaluate(t, true);
    return this.flush();
  }

  get expectedMove(): Move | null {
    return this.expected;
  }

  private expected: Move | null = null;

  private expectedText(): string {
    return moveText(this.expected!, legalMoves(this.game.position, this.game.options));
  }

  /** A legal move other than the computer's stands on the board: once it has stood the grace period, refused. */
  private notTheExpectedMove(board: Counts, t: number): void {
    this.markOpponentStarted();
    if (this.waitGrace(t)) return;
    const fixes = fixesTo(board, this.game.position, this.snapshot().counts);
    this.raise({
      category: 'not-computers-move',
      message: `That is not the computer's move: ${lowerFirst(describeFixes(fixes).replace(/\.$/, ''))}, then play ${this.expectedText()}.`,
      squares: fixes.map((f) => f.square), fixes, t,
    }, t);
  }

  /** Set-up until board and game agree; then play, or over once the game has an outcome (however it came). */
  get phase(): Phase {
    return this.state.kind === 'setup' ? 'setup' : this.game.outcome ? 'over' : 'play';
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

  /** The play state (null in set-up). */
  private get playing(): Extract<TrackerState, { kind: 'play' }> | null {
    return this.state.kind === 'play' ? this.state : null;
  }

  /** The crown being waited for (null: none). */
  private get crownWait(): Extract<Crown, { kind: 'awaited' }> | null {
    const p = this.playing;
    return p && p.crown.kind === 'awaited' ? p.crown : null;
  }

  /** The square where a crown is awaited (null: none). */
  private get awaitingCrown(): number | null {
    return this.crownWait?.square ?? null;
  }

  /** No crown is awaited any more (it came, or the move was replaced or taken back). */
  private crownDone(): void {
    const p = this.playing;
    if (p) p.crown = { kind: 'none' };
  }

  /** Starts tracking a (new or loaded) game against the reader's view: the board must be set up to match it first. */
  setGame(game: Game, t: number, view: BoardView): TrackerStep {
    // (Another game: the computer's move expected in the old one no longer stands. The same game
    // after a reconnect or a takeback keeps it until the session says otherwise.)
    if (game !== this.game) this.expected = null;
    this.game = game;
    this.resync();
    this.events = [];
    this.see(view);
    this.evaluate(Number.isFinite(t) ? t : 0, true);
    return this.flush();
  }

  /** After a reconnect or a new game: compare board and position again before play goes on. */
  resync(): void {
    this.state = { kind: 'setup' };
    this.alert = null;
    this.cache = null;
    this.updatePrior();
  }

  /**
   * One frame: the reader's view of the board (`changed`: its counts changed
   * this frame). Returns what happened, and what the reader should learn.
   */
  step(t: number, view: BoardView, changed: boolean): TrackerStep {
    this.see(view);
    // (A crown is seen by the reader: a step up where it is expected. A lift shows the player crowning from under.)
    const wait = this.crownWait;
    if (wait && this.board[wait.square - 1] === 0) wait.touched = true;
    if (wait && Number.isNaN(wait.manLevel)) noteManLevel(wait, this.board, view);
    // (The reader just calibrated from the set-up and reset its counts: nothing was put down.)
    if (view.calibrated && !this.wasCalibrated) this.prevBoard.set(this.board);
    this.wasCalibrated = view.calibrated;
    if (changed) this.logPlacements();
    // (A soft square appearing or going — one-or-two, or a faint reading — may change what the board shows.)
    const uncertainMoved = (view.uncertain !== this.lastUncertain) && this.phase === 'play' && this.status.kind !== 'in-sync';
    this.lastUncertain = view.uncertain;
    if (view.flipped !== this.lastFlipped) {
      this.lastFlipped = view.flipped;
      this.dirty = true;
    }
    // (On a coded board a coin's side can change with no count changing: turned over, swapped.)
    const sides = view.coded ? view.whiteSide ^ (view.blackSide * 3) ^ (view.half * 7) : 0;
    if (sides !== this.lastSides) {
      this.lastSides = sides;
      this.dirty = true;
    }
    if (changed || uncertainMoved || this.dirty || this.timerDue(t) || (this.phase === 'setup' && !view.calibrated)) this.evaluate(t, changed);
    return this.events.length || this.feedback.length ? this.flush() : NO_STEP;
  }

  private see(view: BoardView): void {
    this.v = view;
    this.board.set(view.counts);
  }

  private wasCalibrated = false;
  private lastSides = 0;
  /** Coded board: where one coin read may be a king crowned with the opponent's coin (see colour.ts). */
  private mixedKings(): number {
    return mixedKings(this.v, this.game.position, this.plausible, this.awaitingCrown);
  }

  /** Colour issues (coded board) and coins magnet-up, said once they have stood the grace period. */
  private readonly colours: ColourWatch;

  /** The game settled a soft call: this square holds `count` coins (here at once, in the reader when the owner applies it). */
  private correct(square: number, count: 0 | 1 | 2): void {
    this.board[square - 1] = count;
    this.feedback.push({ kind: 'correct', square, count });
  }

  private confirm(except: number): void {
    this.feedback.push({ kind: 'confirm', except });
  }

  private lastUncertain = 0;
  private lastFlipped = 0;
  private flush(): TrackerStep {
    const out = { events: this.events, feedback: this.feedback };
    this.events = [];
    this.feedback = [];
    return out;
  }

  private logPlacements(): void {
    const b = this.board;
    const placements = this.playing?.placements;
    if (placements) for (let i = 0; i < 32; i++) if (b[i] > this.prevBoard[i] && this.prevBoard[i] === 0) placements.push(i + 1);
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
    // (A colour issue waiting out its grace period is looked at again when it is up.)
    if (this.colours.due > t) this.deadline = this.colours.due;
    if (this.phase !== 'play' || this.status.kind !== 'moving') return;
    for (const d of [this.options.graceMs, this.options.patienceMs, this.options.settleMs, this.options.fastReplyMs]) {
      const at = this.candidateSince + d;
      if (at > t && at < this.deadline) this.deadline = at;
    }
  }

  // -------------------------------------------------------------------------

  private snapshot() {
    const n = this.game.plies.length;
    const pos = this.game.position;
    const over = this.game.outcome !== null;
    if (this.cacheKey !== pos || this.cacheOver !== over || !this.cache) {
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
      this.cacheKey = pos;
      this.cacheOver = over;
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
    // (Also every empty square next to a king, legal or not: a king stepping wrongly must still be
    // read as a king for the alert to say what to put back. Not a square a man stands on: no king
    // goes there, and a coin on that man is a stack where none can be.)
    const occupied = pos.black | pos.white;
    for (let i = 0; i < 32; i++) {
      if (!((pos.kings >>> i) & 1)) continue;
      for (let d = 0; d < 4; d++) {
        const n = NEIGHBOUR[i * 4 + d];
        if (n >= 0 && !((occupied >>> n) & 1)) mask |= 1 << n;
      }
    }
    if (this.crownCarried !== null) mask |= 1 << (this.crownCarried - 1);
    const last = this.game.plies.at(-1);
    if (last?.move.crowned) mask |= 1 << (last.move.from - 1);
    this.plausible = mask;
    this.feedback.push({ kind: 'stack-prior', plausible: mask, expected: this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0 });
  }

  /** A crowned man taken back as a stack: the square it went back to (its crown may still be on it). */
  private crownCarried: number | null = null;

  private setStatus(s: BoardStatus, t: number): void {
    if ((s.kind === 'moving' || s.kind === 'in-sync') && !s.reminder) {
      const r = this.colours.reminder(this.v, this.game.position, t, s.kind);
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
    this.dirty = this.v.settling;
    if (this.dirty) return;
    this.evaluateNow(t);
    this.setDeadline(t);
  }

  private evaluateNow(t: number): void {
    const board = this.board;
    if (this.phase === 'setup') return this.evaluateSetup(board, t);
    // (Coded board: the man lifted and put back on a coin of the opponent's colour — the rules' way
    // to crown with an opponent's coin — reads about half a coin on that side: crowned.)
    const crownSq = this.awaitingCrown;
    if (crownSq !== null && board[crownSq - 1] === 1 && this.crownWait!.touched && (this.mixedKings() >>> (crownSq - 1)) & 1) this.correct(crownSq, 2);
    if (this.awaitingCrown !== null && board[this.awaitingCrown - 1] === 2) {
      const sq = this.awaitingCrown;
      this.crownDone();
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
    // Not calibrated yet: the reader calibrates from the set-up once its readings agree with it
    // (the owner applies this and steps again at once if it did).
    if (!this.v.calibrated) this.feedback.push({ kind: 'calibrate-from', counts: want });
    // One coin or two is the game's call where the reading allows both: a king standing on its
    // square is recognised without lifting it (an off-centre stack reads like one centred coin).
    const soft = this.v.calibrated ? this.setupReading(want) : null;
    if (soft) {
      for (const sq of diffSquares(board, soft)) this.correct(sq, soft[sq - 1] as 1 | 2);
    }
    // On a polarity-coded board the colours must be right too (a set-up from a FEN, a resumed game,
    // pieces put back after a fumble): each coin of the wrong side is named.
    const colours = this.v.calibrated && sameCounts(board, want) ? colourWords(colourIssues(this.v, pos), pos) : [];
    if (colours.length) {
      const message = `Set up the position: ${colours.join(' ')}`;
      if (this.status.kind !== 'setup' || this.status.message !== message) {
        this.events.push({ type: 'setup', t, fixes: [], message });
        this.setStatus({ kind: 'setup', fixes: [], message }, t);
      }
      return;
    }
    if (this.v.calibrated && sameCounts(board, want)) {
      this.state = freshPlay();
      this.clearAlert(t);
      this.events.push({ type: 'ready', t, calibrated: true });
      this.setStatus({ kind: 'in-sync' }, t);
      this.updatePrior();
      return;
    }
    const fixes = fixesTo(board, pos, want);
    // Squares that should hold a coin but read like empty ones to an uncalibrated board (a weak
    // sensor or magnet): seeing them empty for a moment settles it, so ask for exactly that.
    const unclear: number[] = [];
    for (let i = 0; i < 32; i++) if ((this.v.unclear >>> i) & 1) unclear.push(i + 1);
    const lift = unclear.length
      ? `${fixes.length ? 'If the coin is there already, lift' : 'Lift'} the ${unclear.length > 1 ? 'coins' : 'coin'} on ${joinWords(unclear.map(String))} for a moment and put ${unclear.length > 1 ? 'them' : 'it'} back: the board cannot yet tell ${unclear.length > 1 ? 'them' : 'it'} from an empty square.`
      : '';
    const message = fixes.length
      ? `Set up the position: ${describeFixes(fixes)}${lift ? ` ${lift}` : ''}`
      : lift || 'Checking the board: keep the pieces still while it calibrates.';
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
    const v = this.v;
    const b = new Uint8Array(this.board);
    for (let i = 0; i < 32; i++) {
      if (b[i] === want[i]) continue;
      if (b[i] === 0 || want[i] === 0) return null;
      if (v.settling) return null;
      if (want[i] === 2 && v.coins[i] < KING_MIN_READING) return null;
      b[i] = want[i];
    }
    return b;
  }

  private evaluatePlay(board: Counts, t: number): void {
    // One coin or two is a soft call: an off-centre stack can read like one centred coin.
    // Where something happened (the board differs from the position) and the reader was
    // unsure, or a stack is plausible (a king's landing square), try the board read either way.
    let unsure = 0;
    // (Not the square where a crown is awaited: the crown must be seen, not assumed. Nor two coins
    // on measured levels reading higher than any man can: a stack there is a stack, plausible or not.)
    const soft = (this.v.uncertain | this.plausible) & ~this.firmStacks(board) & ~(this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0);
    // Likewise empty or one coin where the reading is faint (a coin half-lifted by a finger, an
    // emptied square whose empty level was only guessed).
    // (Any faint square: an emptied square still read as holding its coin matches the position.)
    const faint = this.v.faint;
    const mixed = this.mixedKings();
    for (const sq of this.differences()) unsure |= (soft | mixed) & (1 << (sq - 1));
    const boards = alternatives(board, unsure, faint);
    const { verdict, board: b } = classify(boards, this.situation());
    this.act(verdict, b, board, t);
  }

  /**
   * Squares read as two coins whose levels were measured (the routine) and whose reading stands in
   * the upper part of the one-to-two gap, where no man reads (a man's level may rise with better
   * centring only so far: see Calibration.learn).
   */
  private firmStacks(board: Counts): number {
    let m = 0;
    const v = this.v;
    let stack: Readonly<Float32Array> | null = null;
    for (let i = 0; i < 32; i++) if (board[i] === 2 && (v.measured >>> i) & 1 && (stack ??= v.stack)[i] >= FIRM_STACK) m |= 1 << i;
    return m;
  }

  /** What the game allows now, for classify. */
  private situation(): Situation {
    const snap = this.snapshot();
    const game = this.game, last = this.playing?.last;
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
      last: last && snap.before && snap.beforeCounts
        ? { counts: snap.beforeCounts, outs: snap.beforeOuts, move: game.plies[last.index].move, opponentStarted: last.opponentStarted }
        : null,
      crown: this.awaitingCrown,
      huffs,
      placements: this.playing?.placements ?? [],
      retract: this.currentRetract()?.square ?? null,
      options: game.options,
    };
  }

  /** One handler per verdict of classify. */
  private static readonly VERDICTS: { [K in Verdict['kind']]: Handler<K> } = {
    'in-sync': MoveTracker.prototype.onInSync,
    'crown-awaited': MoveTracker.prototype.onInSync,
    'legal': MoveTracker.prototype.onLegal,
    'other-piece': MoveTracker.prototype.onOtherPiece,
    'huff': MoveTracker.prototype.onHuff,
    'change-of-mind': MoveTracker.prototype.onChangeOfMind,
    'takeback': MoveTracker.prototype.onTakeback,
    'changing-mind': MoveTracker.prototype.onChangingMind,
    'part-way': MoveTracker.prototype.onPartWay,
    'crown-missing': MoveTracker.prototype.onCrownMissing,
    'fast-reply': MoveTracker.prototype.onFastReply,
    'illegal': MoveTracker.prototype.onIllegal,
  };

  /** Acts on a verdict about `b` (the reading of `board` that classify chose), at frame time t: its handler (VERDICTS). */
  private act(verdict: Verdict, b: Counts, board: Counts, t: number): void {
    (MoveTracker.VERDICTS[verdict.kind] as Handler<Verdict['kind']>).call(this, { verdict, b, board, t });
  }

  /** A reading the game explains settles the soft squares: the reader holds them (returned feedback). */
  private settle({ b, board }: { b: Counts; board: Counts }): void {
    if (b !== board) for (const sq of diffSquares(board, b)) this.correct(sq, b[sq - 1] as 0 | 1 | 2);
  }

  /** The board shows the position (but for a crown awaited): confirmed. */
  private onInSync(a: Act<'in-sync'> | Act<'crown-awaited'>): void {
    const crown = this.awaitingCrown;
    this.settle(a);
    this.playing!.stuck = null;
    this.confirm(crown === null ? 0 : 1 << (crown - 1));
    this.clearAlert(a.t);
    this.setStatus(crown !== null ? { kind: 'awaiting-crown', square: crown } : { kind: 'in-sync' }, a.t);
  }

  /** The result of a legal move: committed (playing the computer, only its move; huffing, once it has stood). */
  private onLegal(a: Act<'legal'>): void {
    const { verdict, b, board, t } = a;
    const expected = this.expected;
    const hits = expected ? verdict.hits.filter((h) => sameMove(h.move, expected)) : verdict.hits;
    if (!hits.length) return this.notTheExpectedMove(board, t);
    this.settle(a);
    if (this.game.options.huffing && t - this.candidateSince < this.options.settleMs) {
      // Jumps are optional: this may be a half-done longer jump. Commit once it has stood.
      this.setStatus({ kind: 'moving' }, t);
      return;
    }
    this.commit(chooseRoute(hits, this.playing!.placements).move, b, t);
  }

  /** A legal move made with another piece than the one moved illegally: played with a notice, or refused (the retraction rule). */
  private onOtherPiece(a: Act<'other-piece'>): void {
    const { verdict, b, t } = a;
    const r = this.currentRetract()!;
    const move = chooseRoute(verdict.hits, this.playing!.placements).move;
    const words = otherPieceCorrection(r, move)!;
    if (this.options.retraction === 'notice') {
      this.settle(a);
      this.events.push({ type: 'retraction-notice', t, message: words, squares: [r.square] });
      this.commit(move, b, t);
      return;
    }
    if (this.waitGrace(t)) return;
    const fixes = fixesTo(b, this.game.position, this.snapshot().counts);
    this.raise({
      category: 'wrong-piece-retraction',
      message: `${words} ${describeFixes(fixes)} ${retractSentence(r)}`.replace(/\s+/g, ' ').trim(),
      squares: fixes.map((f) => f.square), fixes, t, retract: r,
    }, t);
  }

  /** Huffing: a huffable piece taken off (and maybe a move made after it), committed once it has stood. */
  private onHuff(a: Act<'huff'>): void {
    const { verdict, b, t } = a;
    this.settle(a);
    if (verdict.hit && t - this.candidateSince >= this.options.settleMs) {
      this.commit(verdict.hit.move, b, t, undefined, verdict.square);
      return;
    }
    this.markOpponentStarted();
    this.setStatus({ kind: 'moving' }, t);
  }

  /** The last mover made another legal move instead: it replaces the last one. */
  private onChangeOfMind(a: Act<'change-of-mind'>): void {
    this.settle(a);
    const o = chooseRoute(a.verdict.alternatives, this.playing!.placements);
    const previous = this.game.undo().move;
    this.cache = null;
    this.crownDone();
    this.commit(o.move, a.b, a.t, previous);
  }

  /** The position before the last move: taken back, or (tournament) refused once it has stood. */
  private onTakeback(a: Act<'takeback'>): void {
    const { b, t } = a;
    const game = this.game, play = this.playing!;
    this.settle(a);
    if (this.options.takebacks) {
      const ply = game.undo();
      this.expected = null;
      this.cache = null;
      this.crownCarried = ply.move.crowned && !(this.awaitingCrown === ply.move.to) ? ply.move.from : null;
      // (Nothing pending but a board left part-way: see onIllegal.)
      this.state = { ...freshPlay(), stuck: play.stuck };
      this.clearAlert(t);
      this.events.push({ type: 'takeback', t, move: ply.move });
      this.setStatus({ kind: 'in-sync' }, t);
      this.updatePrior();
      return;
    }
    if (t - this.candidateSince >= this.options.graceMs) {
      const snap = this.snapshot();
      const lastMove = game.plies[play.last!.index].move;
      const fixes = fixesTo(b, game.position, snap.counts);
      this.raise({
        category: 'takeback-refused',
        message: `Takebacks are not allowed in this game: the move ${moveText(lastMove, snap.beforeOuts.map((o) => o.move))} stands. ${describeFixes(fixes)}`,
        squares: fixes.map((f) => f.square), fixes, t,
      }, t);
    } else this.setStatus({ kind: 'moving' }, t);
  }

  /** The last mover part-way through another move: wait. */
  private onChangingMind({ t }: Act<'changing-mind'>): void {
    this.clearAlert(t);
    this.setStatus({ kind: 'moving' }, t);
  }

  /**
   * Part-way through a legal move: incomplete, not illegal. If it looks finished
   * (the piece put down, captured coins still on, a jump stopped short),
   * remember what is missing and, after a pause, say so quietly (no buzzer).
   */
  private onPartWay({ verdict, b, t }: Act<'part-way'>): void {
    const snap = this.snapshot();
    const view = withCrown(b, this.awaitingCrown);
    // (Only the last mover's pieces gone is also the last mover lifting theirs again: no start yet.)
    if (this.sideToMoveTouched(view)) this.markOpponentStarted();
    let reminder: Reminder | undefined;
    if (verdict.finished) {
      const d = diagnose(view, this.game.position, snap.counts, snap.outs.map((o) => o.move), t);
      if (d.category === 'capture-not-removed' || d.category === 'incomplete-jump') {
        this.playing!.stuck = { board: new Uint8Array(view), category: d.category };
        if (t - this.candidateSince >= this.options.patienceMs) {
          // (Carrying out the computer's move: say whose move it is.)
          // (Only what is left to do: the computer's move is to be finished, not undone.)
          const todo = d.message.split(/(?<=\.) /)[0];
          const message = this.expected ? `The computer played ${this.expectedText()}: ${todo.charAt(0).toLowerCase()}${todo.slice(1)}` : d.message;
          reminder = this.reminder?.message === message ? this.reminder : { category: d.category, message, squares: d.squares, t };
        }
      }
    }
    this.clearAlert(t);
    this.setStatus(reminder ? { kind: 'moving', reminder } : { kind: 'moving' }, t);
  }

  /** The opponent went on while a crown is awaited. */
  private onCrownMissing({ verdict, b, board, t }: Act<'crown-missing'>): void {
    if (!verdict.partial || this.sideToMoveTouched(withCrown(b, this.awaitingCrown))) this.markOpponentStarted();
    this.notCrownedAfterGrace(board, t);
  }

  /** A move and the answer, both done before the board was seen still: both committed once it has stood a moment. */
  private onFastReply({ verdict, board, t }: Act<'fast-reply'>): void {
    if (this.expected && !sameMove(verdict.first.move, this.expected)) return this.notTheExpectedMove(board, t);
    // (Only once it has stood a moment: it can look like a partial state on the way.)
    if (t - this.candidateSince < this.options.fastReplyMs) {
      this.setStatus({ kind: 'moving' }, t);
      return;
    }
    this.commit(verdict.first.move, null, t);
    this.commit(chooseRoute(verdict.replies, this.playing!.placements).move, board, t);
  }

  /** Nothing legal explains the board: once it has stood for the grace period, illegal, diagnosed. */
  private onIllegal({ board, t }: Act<'illegal'>): void {
    if (this.waitGrace(t)) return;
    const snap = this.snapshot(), game = this.game, stuck = this.playing!.stuck;
    // The mistake is described on the likeliest reading of the board (see likelyBoard).
    const view = withCrown(this.likelyBoard(board), this.awaitingCrown);
    const legal = snap.outs.map((o) => o.move);
    // Left part-way through a move (captured coins on, a jump stopped short) and the opponent has
    // moved on since: the mistake is the unfinished move, named as such however long it stood.
    const movedOn = stuck !== null && this.movedOnFrom(stuck.board, view);
    const alert = movedOn ? diagnose(stuck.board, game.position, snap.counts, legal, t, view) : diagnose(view, game.position, snap.counts, legal, t);
    const named = movedOn ? alert : withColoursSeen(alert, this.v, game.position, snap.counts, view);
    this.raise(this.expected ? { ...named, message: `${named.message} The computer's move is ${this.expectedText()}.` } : named, t);
  }

  /** Within the grace period a wrong-looking board is a move under way (true: wait). */
  private waitGrace(t: number): boolean {
    if (t - this.candidateSince >= this.options.graceMs) return false;
    if (!this.alert) this.setStatus({ kind: 'moving' }, t);
    return true;
  }

  /** The opponent started before the crown was seen: the crown may be landing just now, so allow the grace period. */
  private notCrownedAfterGrace(board: Counts, t: number): void {
    if (this.acceptAmbiguousCrown(board, t)) return;
    if (this.waitGrace(t)) return;
    this.raiseNotCrowned(board, t);
  }

  /**
   * The opponent has begun while the crowning square reads in the band where an off-centre stack
   * and a well-centred man overlap: if the evidence leans to a crown, it is taken as crowned (at
   * once: the new king may be about to move).
   */
  private acceptAmbiguousCrown(board: Counts, t: number): boolean {
    const wait = this.crownWait!, sq = wait.square;
    // The opponent has begun and the player did something on the crowning square after the man
    // arrived (lifted it, or the reading rose): they crowned. A reading in the band where an
    // off-centre stack and a well-centred man overlap is then taken as the crown.
    const i = sq - 1;
    // A reading above every single coin seen on this square is taken as the crown too (a crown put
    // on at once, or a ready-made stack, never shows the man alone: an off-centre stack reads like
    // a centred man, and the game says a crown belongs there).
    // And a crown put on top, with the man never lifted, shows as a rise from the man's own steady
    // reading, whatever the level: a weak stack lying off-centre reads below a centred man
    // (hardware/README.md) but still a good step above the man it was put on.
    const rose = !wait.touched && this.v.coins[i] - wait.manLevel >= CROWN_RISE;
    if (board[i] === 1 && (rose || this.v.stack[i] >= (wait.touched ? AMBIGUOUS_CROWN : UNSEEN_CROWN))) {
      this.correct(sq, 2);
      this.crownDone();
      this.events.push({ type: 'crowned', t, square: sq });
      this.updatePrior();
      this.evaluatePlay(this.board, t);
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
    const unexpected = this.v.unexpected;
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
    for (let i = 0; i < 32; i++) if (placed && (this.v.faint >>> i) & 1 && b[i] === 1 && counts[i] === 1) b[i] = 0;
    const kingsGone = gone(2), menGone = gone(1);
    for (let i = 0; i < 32; i++) {
      if (b[i] !== 1 || counts[i] !== 0) continue;
      // (Not if a man that could have gone there is gone too: then it is likelier that man.)
      if (near(kingsGone, i) && !near(menGone, i) && (this.plausible >>> i) & 1) b[i] = 2;
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
    const last = this.playing?.last;
    if (last) last.opponentStarted = true;
  }

  /** Commits a move (or, huffing, a huff and a move) the board showed, and announces it. */
  private commit(move: Move, board: Counts | null, t: number, previous?: Move, huff?: number): void {
    const game = this.game;
    const ply = huff === undefined ? game.play(move) : game.huffAndPlay(huff, move);
    if (this.expected && sameMove(move, this.expected)) this.expected = null;
    this.cache = null;
    this.retract = null;
    const play = this.playing!;
    const text = moveText(move, legalMoves(ply.before, game.options));
    // The board matched: its counts may teach the calibration (but not a crowning square, whose coins are still coming).
    if (board) this.confirm(move.crowned ? 1 << (move.to - 1) : 0);
    // (A crown still awaited stays so: a fast reply commits the answer to a crowning move.)
    this.state = { ...freshPlay(), crown: play.crown, last: { index: game.plies.length - 1, opponentStarted: false } };
    this.clearAlert(t);
    const number = Math.floor((game.plies.length - 1 + (game.start.turn === 'white' ? 1 : 0)) / 2) + 1;
    if (previous) this.events.push({ type: 'move-replaced', t, previous, ply, text });
    else this.events.push({ type: 'move', t, ply, text, number });
    const carried = this.crownCarried !== null && move.from === this.crownCarried;
    this.crownCarried = null;
    if (carried && board && board[move.to - 1] === 1) this.correct(move.to, 2);
    if (move.crowned && !(board && board[move.to - 1] === 2) && !carried) {
      this.state.crown = { kind: 'awaited', square: move.to, touched: false, manLevel: NaN, manLevelLast: NaN };
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
    return diffSquares(this.board, this.snapshot().counts);
  }
}

/** Among results with the same board (a king's routes), the one the hand's placements followed. */
function chooseRoute(hits: Outcome[], placements: readonly number[]): Outcome {
  if (hits.length === 1) return hits[0];
  let best = hits[0], bestScore = -1;
  for (const h of hits) {
    let k = 0, score = 0;
    for (const p of placements) {
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


/** Takes the man's level on the crowning square once its smoothed reading has stopped moving. */
function noteManLevel(wait: Extract<Crown, { kind: 'awaited' }>, board: Counts, view: BoardView): void {
  const i = wait.square - 1;
  if (wait.touched || board[i] !== 1) return;
  const level = view.coins[i];
  if (Math.abs(level - wait.manLevelLast) <= MAN_STILL) wait.manLevel = level;
  wait.manLevelLast = level;
}

/** A verdict to act on: about `b`, the reading of `board` that classify chose, at frame time t. */
interface Act<K extends Verdict['kind']> {
  verdict: Extract<Verdict, { kind: K }>;
  b: Counts;
  board: Counts;
  t: number;
}
type Handler<K extends Verdict['kind']> = (this: MoveTracker, a: Act<K>) => void;


const NO_STEP: TrackerStep = Object.freeze({ events: [], feedback: [] }) as unknown as TrackerStep;

/** The view before the first frame: nothing read yet. */
const EMPTY_VIEW: BoardView = {
  counts: new Uint8Array(32), confidence: new Float32Array(32), calibrated: false,
  uncertain: 0, unexpected: 0, flipped: 0, faint: 0, plausibleStacks: 0, expectedStacks: 0,
  lastChange: -Infinity, now: -Infinity, settling: false, coins: new Float32Array(32), stack: new Float32Array(32), measured: 0, unclear: 0,
  coded: false, signed: new Float32Array(32), whiteSide: 0, blackSide: 0, half: 0,
};

/** In set-up, a square where the game has a king and one coin is read counts as the king if it reads at least this (fraction of a coin above empty). */
const KING_MIN_READING = 0.75;

const lowerFirst = (x: string): string => x.charAt(0).toLowerCase() + x.slice(1);

/** The same move: same start and the same landing squares in order. */
function sameMove(a: Move, b: Move): boolean {
  return a.from === b.from && a.path.length === b.path.length && a.path.every((p, i) => p === b.path[i]);
}

/** Fraction of the way from one coin to two above which an awaited crown is taken as on once play goes on. */
const AMBIGUOUS_CROWN = 0.1;
/** …and with no crowning seen, this far (a reading above any man seen on the square). */
const UNSEEN_CROWN = 0.15;
/**
 * A rise of at least this many coin steps from the man's own steady reading on the crowning square
 * is the crown put on top, once the opponent has begun: the smallest crown (a weak coin on a weak
 * man, both far off-centre) adds about 0.18 of a step; a man's reading does not move by itself.
 */
const CROWN_RISE = 0.12;
/** The man's smoothed reading has stopped moving when two frames differ by at most this (coin steps). */
const MAN_STILL = 0.01;

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
