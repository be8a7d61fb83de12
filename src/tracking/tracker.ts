// Move tracking: the small state machine around classify (classify.ts). Each
// frame it takes the reader's BoardView (reading/: coin counts, soft squares,
// levels) as a plain value, reads the settled board both ways where one coin
// or two (or none or one) is soft, asks classify which case it is, and acts,
// one handler per verdict: in sync; a legal result (commit at once); part-way
// through one (wait; a quiet reminder if it looks finished and stands); a
// change of mind or a takeback; a fast reply (commit both); a crown awaited or
// missing; anything else, once it has stood for the grace period, illegal and
// diagnosed (diagnose.ts). It never writes the game: it decides on a
// read-only view of it (ReadonlyGame) and hands each move it decided, each
// takeback and change of mind, to the game's one writer (GameWriter: the
// table, which journals it, fsynced, and then plays it); the position after
// it, needed in the same frame (a fast reply's answer, the crown awaited, the
// game's end), is read from the game the writer changed — the table's answer
// — never from a copy of its own. It never holds the reader: what the game settled
// (where a stack is plausible or expected, the soft calls it decided, boards
// it confirmed, a set-up to calibrate from) is returned as ReaderFeedback for
// the owner (board-tracking.ts) to apply. Set-up/resync (setup.ts: kings
// recognised without lifting them), crowning however the crown arrives, and
// huffing are decided here; its state (one tagged union, state.ts), memory
// and what it says live in tracker-core.ts, the board evidence it weighs in
// evidence.ts, colours and coins magnet-up in colour.ts. Its phase is derived
// from the game. Pure: time comes from the frames; it changes no outside
// state but through the writer.

import { legalMoves, moveText, type Color, type Move, type ReadonlyGame } from '../rules/index.ts';
import type { BoardView } from '../reading/view.ts';
import { countsOf, diffSquares, sameCounts, type Counts } from './boards.ts';
import { classify, crownWaitBoard, withCrown, type Situation, type Verdict } from './classify.ts';
import { coloursRead, takebackColourWords, withColoursSeen } from './colour.ts';
import type { Reminder } from '../model/board.ts';
import { TrackerCore } from './tracker-core.ts';
import { checkSetup, situationOf } from './setup.ts';
import { freshPlay, type TrackerStep } from './state.ts';
import {
  alternatives,
  chooseRoute,
  crownRead,
  firmStacks,
  likelyBoard,
  movedOnFrom,
  noteManLevel,
  sameMove,
  sideToMoveTouched,
} from './evidence.ts';
import { describeFixes, diagnose, fixesTo, otherPieceCorrection, retractSentence } from './diagnose.ts';

/**
 * Quiet feedback, no buzzer (a board part-way through a legal move that has
 * stood a while, a coin lying magnet-up), and how the board stands against the
 * game at a glance: the model's types (src/model/board.ts). A reminder's
 * category is an AlertCategory, 'upside-down' or 'wrong-colour'.
 */
export type { BoardStatus, Reminder } from '../model/board.ts';
export { DEFAULT_TRACKER, type GameWriter, type Phase, type TrackerEvent, type TrackerOptions, type TrackerStep } from './state.ts';

export class MoveTracker extends TrackerCore {
  /**
   * Playing the computer: the move the player is to carry out on the board for
   * it (null: none). Until it is played, only that move is accepted; any other
   * legal move is refused with words that name it ("That is not the
   * computer's move: … then play 22x15."). Cleared once it is committed.
   * `by` names whose move it is (a player at another board, by name).
   */
  expectMove(move: Move | null, t: number, by = 'the computer'): TrackerStep {
    this.expected = move;
    this.expectedBy = by;
    this.said.take();
    if (this.phase === 'play') this.evaluate(t, true);
    return this.flush();
  }

  /** Whose move `expected` is, as the sentences name them ("the computer", or a player's name). */
  private expectedBy = 'the computer';
  /** A side played at another board: its moves are made there, so none is taken here before it arrives (null: none). */
  private elsewhere: { side: Color; by: string } | null = null;

  /** The side whose moves are made at another board, and its player's name (null: both players are here). */
  playedElsewhere(side: Color | null, by = ''): void {
    this.elsewhere = side ? { side, by } : null;
  }

  /** Its move has not arrived yet: a move made here for that side is refused (it would be a move they never made). */
  private waitingElsewhere(): boolean {
    return this.expected === null && this.elsewhere?.side === this.game.turn;
  }

  /**
   * A legal move other than the one expected stands on the board (the
   * computer's, or the player's at another board), or one for the side played
   * at another board before theirs arrived: once it has stood the grace
   * period, refused, with what to put back.
   */
  private notTheExpectedMove(board: Counts, t: number): void {
    this.markOpponentStarted();
    if (this.waitGrace(t)) return;
    const fixes = fixesTo(board, this.game.position, this.positions.of(this.game).counts);
    const undo = lowerFirst(describeFixes(fixes).replace(/\.$/, ''));
    const by = this.elsewhere?.by;
    const message = this.expected
      ? `That is not ${this.expectedBy}'s move: ${undo}, then play ${this.expectedText()}.`
      : `That move is ${by}'s to make, at the other board: ${undo}, then wait for ${by}'s move.`;
    this.raise({ category: 'not-computers-move', message, squares: fixes.map((f) => f.square), fixes, t }, t);
  }

  /** Starts tracking a (new or loaded) game against the reader's view: the board must be set up to match it first. */
  setGame(game: ReadonlyGame, t: number, view: BoardView): TrackerStep {
    // (Another game: the computer's move expected in the old one no longer stands. The same game
    // after a reconnect or a takeback keeps it until the session says otherwise.)
    if (game !== this.game) this.expected = null;
    this.game = game;
    this.resync();
    this.said.take();
    this.see(view);
    this.evaluate(Number.isFinite(t) ? t : 0, true);
    return this.flush();
  }

  /** After a reconnect or a new game: compare board and position again before play goes on. */
  resync(): void {
    this.state = { kind: 'setup' };
    this.said.alert = null;
    this.positions.clear();
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
    if (wait) noteManLevel(wait, this.board, view);
    // (The reader just calibrated from the set-up and reset its counts: nothing was put down.)
    if (view.calibrated && !this.wasCalibrated) this.prevBoard.set(this.board);
    this.wasCalibrated = view.calibrated;
    if (changed) this.logPlacements();
    // (A soft square appearing or going — one-or-two, or a faint reading — may change what the board shows.)
    const uncertainMoved = view.uncertain !== this.lastUncertain && this.phase === 'play' && this.said.status.kind !== 'in-sync';
    this.lastUncertain = view.uncertain;
    // (A king's reading coming down near one coin, or going back up, changes what is said.)
    const low = this.phase === 'play' && this.game.position.kings ? this.lowKings() : 0;
    if (low !== this.lastLow) {
      this.lastLow = low;
      this.dirty = true;
    }
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
    if (changed || uncertainMoved || this.dirty || this.timerDue(t) || (this.phase === 'setup' && !view.calibrated))
      this.evaluate(t, changed);
    return this.said.events.length || this.feedback.length ? this.flush() : NO_STEP;
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
    if (crownSq !== null && board[crownSq - 1] === 1 && this.crownWait!.touched && (this.mixedKings() >>> (crownSq - 1)) & 1)
      this.correct(crownSq, 2);
    if (this.awaitingCrown !== null && board[this.awaitingCrown - 1] === 2) {
      const sq = this.awaitingCrown;
      this.crownDone();
      this.said.events.push({ type: 'crowned', t, square: sq });
      this.updatePrior();
    }
    if (this.phase === 'over') {
      const s = this.positions.of(this.game);
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
    // Not calibrated yet: the reader calibrates from the set-up once its readings agree with it
    // (the owner applies this and steps again at once if it did).
    if (!this.v.calibrated) this.feedback.push({ kind: 'calibrate-from', counts: countsOf(this.game.position) });
    const { soft, verdict } = checkSetup(board, this.v, this.game.position);
    if (soft) for (const sq of diffSquares(board, soft)) this.correct(sq, soft[sq - 1] as 1 | 2);
    if (verdict.kind === 'ready') {
      this.state = freshPlay();
      this.clearAlert(t);
      this.said.events.push({ type: 'ready', t, calibrated: true });
      this.setStatus({ kind: 'in-sync' }, t);
      this.updatePrior();
      return;
    }
    const { fixes, message } = verdict;
    if (this.said.status.kind !== 'setup' || this.said.status.message !== message) {
      this.said.events.push({ type: 'setup', t, fixes, message });
      this.setStatus({ kind: 'setup', fixes, message }, t);
    }
  }

  private evaluatePlay(board: Counts, t: number): void {
    // One coin or two is a soft call: an off-centre stack can read like one centred coin.
    // Where something happened (the board differs from the position) and the reader was
    // unsure, or a stack is plausible (a king's landing square), try the board read either way.
    let unsure = 0;
    // (Not the square where a crown is awaited: the crown must be seen, not assumed. Nor two coins
    // on measured levels reading higher than any man can: a stack there is a stack, plausible or not.)
    const soft =
      (this.v.uncertain | this.plausible) & ~firmStacks(board, this.v) & ~(this.awaitingCrown ? 1 << (this.awaitingCrown - 1) : 0);
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

  /** What the game allows now, for classify (and, on a coded board, the colours read: a takeback must show them). */
  private situation(): Situation {
    const retract = this.currentRetract()?.square ?? null;
    return situationOf(this.game, this.positions, this.playing, this.awaitingCrown, retract, coloursRead(this.v));
  }

  /** One handler per verdict of classify. */
  private static readonly VERDICTS: { [K in Verdict['kind']]: Handler<K> } = {
    'in-sync': MoveTracker.prototype.onInSync,
    'crown-awaited': MoveTracker.prototype.onInSync,
    legal: MoveTracker.prototype.onLegal,
    'other-piece': MoveTracker.prototype.onOtherPiece,
    huff: MoveTracker.prototype.onHuff,
    'change-of-mind': MoveTracker.prototype.onChangeOfMind,
    takeback: MoveTracker.prototype.onTakeback,
    'changing-mind': MoveTracker.prototype.onChangingMind,
    'part-way': MoveTracker.prototype.onPartWay,
    'crown-missing': MoveTracker.prototype.onCrownMissing,
    'fast-reply': MoveTracker.prototype.onFastReply,
    illegal: MoveTracker.prototype.onIllegal,
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
    if (!hits.length || this.waitingElsewhere()) return this.notTheExpectedMove(board, t);
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
      this.said.events.push({ type: 'retraction-notice', t, message: words, squares: [r.square] });
      this.commit(move, b, t);
      return;
    }
    if (this.waitGrace(t)) return;
    const fixes = fixesTo(b, this.game.position, this.positions.of(this.game).counts);
    this.raise(
      {
        category: 'wrong-piece-retraction',
        message: `${words} ${describeFixes(fixes)} ${retractSentence(r)}`.replace(/\s+/g, ' ').trim(),
        squares: fixes.map((f) => f.square),
        fixes,
        t,
        retract: r,
      },
      t,
    );
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
    const previous = this.writer.undo().move;
    this.positions.clear();
    this.crownDone();
    this.commit(o.move, a.b, a.t, previous);
  }

  /** The position before the last move: taken back, or (tournament) refused once it has stood. */
  private onTakeback(a: Act<'takeback'>): void {
    const { b, t } = a;
    const game = this.game,
      play = this.playing!;
    this.settle(a);
    if (this.options.takebacks) {
      const ply = this.writer.undo();
      this.expected = null;
      this.positions.clear();
      this.crownCarried = ply.move.crowned && !(this.awaitingCrown === ply.move.to) ? ply.move.from : null;
      // (Nothing pending but a board left part-way: see onIllegal.)
      this.state = { ...freshPlay(), stuck: play.stuck };
      this.clearAlert(t);
      this.said.events.push({ type: 'takeback', t, move: ply.move });
      this.setStatus({ kind: 'in-sync' }, t);
      this.updatePrior();
      return;
    }
    if (t - this.candidateSince >= this.options.graceMs) {
      const snap = this.positions.of(this.game);
      const lastMove = game.plies[play.last!.index].move;
      const fixes = fixesTo(b, game.position, snap.counts);
      this.raise(
        {
          category: 'takeback-refused',
          message: `Takebacks are not allowed in this game: the move ${moveText(
            lastMove,
            snap.beforeOuts.map((o) => o.move),
          )} stands. ${describeFixes(fixes)}`,
          squares: fixes.map((f) => f.square),
          fixes,
          t,
        },
        t,
      );
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
    const snap = this.positions.of(this.game);
    const view = withCrown(b, this.awaitingCrown);
    // (Only the last mover's pieces gone is also the last mover lifting theirs again: no start yet.)
    if (sideToMoveTouched(this.game.position, this.positions.of(this.game).counts, view)) this.markOpponentStarted();
    let reminder: Reminder | undefined;
    if (verdict.finished) {
      const d = diagnose(
        view,
        this.game.position,
        snap.counts,
        snap.outs.map((o) => o.move),
        t,
      );
      if (d.category === 'capture-not-removed' || d.category === 'incomplete-jump') {
        this.playing!.stuck = { board: new Uint8Array(view), category: d.category };
        if (t - this.candidateSince >= this.options.patienceMs) {
          // (Carrying out the computer's move: say whose move it is.)
          // (Only what is left to do: the computer's move is to be finished, not undone.)
          const todo = d.message.split(/(?<=\.) /)[0];
          const message = this.expected
            ? `${upperFirst(this.expectedBy)} played ${this.expectedText()}: ${todo.charAt(0).toLowerCase()}${todo.slice(1)}`
            : d.message;
          reminder =
            this.said.reminder?.message === message ? this.said.reminder : { category: d.category, message, squares: d.squares, t };
        }
      }
    }
    this.clearAlert(t);
    this.setStatus(reminder ? { kind: 'moving', reminder } : { kind: 'moving' }, t);
  }

  /** The opponent went on while a crown is awaited. */
  private onCrownMissing({ verdict, b, board, t }: Act<'crown-missing'>): void {
    if (!verdict.partial || sideToMoveTouched(this.game.position, this.positions.of(this.game).counts, withCrown(b, this.awaitingCrown)))
      this.markOpponentStarted();
    this.notCrownedAfterGrace(board, t);
  }

  /** A move and the answer, both done before the board was seen still: both committed once it has stood a moment. */
  private onFastReply(a: Act<'fast-reply'>): void {
    const { verdict, b, board, t } = a;
    if ((this.expected && !sameMove(verdict.first.move, this.expected)) || this.waitingElsewhere())
      return this.notTheExpectedMove(board, t);
    // (Only once it has stood a moment: it can look like a partial state on the way.)
    if (t - this.candidateSince < this.options.fastReplyMs) {
      this.setStatus({ kind: 'moving' }, t);
      return;
    }
    this.settle(a);
    this.commit(verdict.first.move, null, t);
    // (A reply for the side played at another board is theirs to make: refused on the next look, never committed.)
    if (this.elsewhere?.side === this.game.turn) return;
    this.commit(chooseRoute(verdict.replies, this.playing!.placements).move, b, t);
  }

  /** Nothing legal explains the board: once it has stood for the grace period, illegal, diagnosed. */
  private onIllegal({ board, t }: Act<'illegal'>): void {
    if (this.waitGrace(t)) return;
    const snap = this.positions.of(this.game),
      game = this.game,
      stuck = this.playing!.stuck;
    // The mistake is described on the likeliest reading of the board (see likelyBoard).
    const view = withCrown(likelyBoard(board, snap.counts, this.v, this.plausible), this.awaitingCrown);
    const legal = snap.outs.map((o) => o.move);
    // Left part-way through a move (captured coins on, a jump stopped short) and the opponent has
    // moved on since: the mistake is the unfinished move, named as such however long it stood.
    const movedOn = stuck !== null && movedOnFrom(game.position, snap.counts, stuck.board, view);
    const alert = movedOn
      ? diagnose(stuck.board, game.position, snap.counts, legal, t, view)
      : diagnose(view, game.position, snap.counts, legal, t);
    const named = movedOn ? alert : withColoursSeen(alert, this.v, game.position, snap.counts, view);
    // (Coded board: the position before the last move, refused as a takeback for its colours: say why — where takebacks are on.)
    const last =
      this.options.takebacks && this.playing!.last && snap.before && snap.beforeCounts ? game.plies[this.playing!.last.index] : null;
    const why = last
      ? takebackColourWords(this.v, board, { ...last, beforeCounts: snap.beforeCounts!, legal: snap.beforeOuts.map((o) => o.move) })
      : '';
    if (why) named.message = `${named.message} ${why}`;
    this.raise(
      this.expected ? { ...named, message: `${named.message} ${upperFirst(this.expectedBy)}'s move is ${this.expectedText()}.` } : named,
      t,
    );
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
    const wait = this.crownWait!,
      sq = wait.square;
    // The opponent has begun and the player did something on the crowning square after the man
    // arrived (lifted it, or the reading rose): they crowned. A reading in the band where an
    // off-centre stack and a well-centred man overlap is then taken as the crown. A reading above
    // every single coin seen on this square is taken as the crown too (a crown put on at once, or
    // a ready-made stack, never shows the man alone: an off-centre stack reads like a centred man,
    // and the game says a crown belongs there). And a crown put on top, with the man never
    // lifted, shows as a rise from the man's own steady reading, whatever the level: a weak stack
    // lying off-centre reads below a centred man (hardware/README.md) but still a good step above
    // the man it was put on.
    if (board[sq - 1] === 1 && crownRead(this.v, wait)) {
      this.correct(sq, 2);
      this.crownDone();
      this.said.events.push({ type: 'crowned', t, square: sq });
      this.updatePrior();
      this.evaluatePlay(this.board, t);
      return true;
    }
    return false;
  }

  private raiseNotCrowned(board: Counts, t: number): void {
    const sq = this.awaitingCrown!;
    if (this.acceptAmbiguousCrown(board, t)) return;
    const snap = this.positions.of(this.game);
    const fixes = fixesTo(board, this.game.position, snap.counts);
    this.raise(
      {
        category: 'not-crowned',
        message: `Crown the king on ${sq} first: stack a second coin on it. ${describeFixes(fixes.filter((f) => f.square !== sq))}`.trim(),
        squares: fixes.map((f) => f.square),
        fixes,
        t,
      },
      t,
    );
  }

  /** Commits a move (or, huffing, a huff and a move) the board showed, and announces it. */
  private commit(move: Move, board: Counts | null, t: number, previous?: Move, huff?: number): void {
    const game = this.game;
    const ply = this.writer.play(move, huff);
    if (this.expected && sameMove(move, this.expected)) this.expected = null;
    this.positions.clear();
    this.retract = null;
    const play = this.playing!;
    const text = moveText(move, legalMoves(ply.before, game.options));
    // The board matched: its counts may teach the calibration (but not a crowning square, whose coins are still coming).
    if (board) this.confirm(move.crowned ? 1 << (move.to - 1) : 0);
    // (A crown still awaited stays so: a fast reply commits the answer to a crowning move.)
    this.state = { ...freshPlay(), crown: play.crown, last: { index: game.plies.length - 1, opponentStarted: false } };
    this.clearAlert(t);
    const number = Math.floor((game.plies.length - 1 + (game.start.turn === 'white' ? 1 : 0)) / 2) + 1;
    if (previous) this.said.events.push({ type: 'move-replaced', t, previous, ply, text });
    else this.said.events.push({ type: 'move', t, ply, text, number });
    const carried = this.crownCarried !== null && move.from === this.crownCarried;
    this.crownCarried = null;
    if (carried && board && board[move.to - 1] === 1) this.correct(move.to, 2);
    if (move.crowned && !(board && board[move.to - 1] === 2) && !carried) {
      this.state.crown = { kind: 'awaited', square: move.to, touched: false, manLevel: NaN, manLevelLast: NaN, peak: 0 };
      this.said.events.push({ type: 'crown-awaited', t, square: move.to });
      this.setStatus({ kind: 'awaiting-crown', square: move.to }, t);
    } else {
      if (move.crowned) this.said.events.push({ type: 'crowned', t, square: move.to });
      this.setStatus({ kind: 'in-sync' }, t);
    }
    this.updatePrior();
    if (game.outcome) this.said.events.push({ type: 'game-over', t, game });
  }
}

/** A verdict to act on: about `b`, the reading of `board` that classify chose, at frame time t. */
interface Act<K extends Verdict['kind']> {
  verdict: Extract<Verdict, { kind: K }>;
  b: Counts;
  board: Counts;
  t: number;
}
type Handler<K extends Verdict['kind']> = (this: MoveTracker, a: Act<K>) => void;

/** The step of a quiet frame (nothing happened): one frozen value, shared. */
const NO_STEP: TrackerStep = Object.freeze({ events: [], feedback: [] });

const lowerFirst = (x: string): string => x.charAt(0).toLowerCase() + x.slice(1);
const upperFirst = (x: string): string => x.charAt(0).toUpperCase() + x.slice(1);
