// The owner of the reading → tracking seam: one BoardReader (reading/, all
// the evidence about coins) and one MoveTracker (the game against the board).
// Each frame goes to the reader; its plain BoardView goes to the tracker; the
// tracker's feedback (what the game settled) comes back as data and is applied
// to the reader here, and nowhere else. The game is read-only here: the
// tracker's moves go to the game's one writer given at construction (the
// table, which journals each first). It also runs the explicit calibration
// routine (reading/routine.ts): while it runs, frames go to the routine, not
// the reader, and its result is put to use here. Pure like both: time comes
// from the frames.

import type { Color, Move, ReadonlyGame } from '../rules/index.ts';
import type { Alert } from './diagnose.ts';
import { BoardReader } from '../reading/reader.ts';
import type { BoardView, ReaderFeedback, ReaderOptions } from '../reading/view.ts';
import type { Calibration } from '../reading/calibration.ts';
import { CalibrationRoutine, type RoutineProgress } from '../reading/routine.ts';
import {
  MoveTracker,
  type BoardStatus,
  type GameWriter,
  type Phase,
  type Reminder,
  type TrackerEvent,
  type TrackerOptions,
  type TrackerStep,
} from './tracker.ts';

/** What a frame did to the calibration routine: it moved on, or it is done (its result in use, the board to be set up again). */
export type CalibrationStep =
  { kind: 'progress'; progress: RoutineProgress } | { kind: 'done'; calibration: Calibration; events: TrackerEvent[] };

export class BoardTracking {
  readonly reader: BoardReader;
  readonly tracker: MoveTracker;

  /** `writer`: the game's one writer (the table), which plays what the tracker decides, journalled first. */
  constructor(game: ReadonlyGame, writer: GameWriter, options: Partial<TrackerOptions> = {}, reader?: BoardReader) {
    this.tracker = new MoveTracker(game, writer, options);
    this.reader = reader ?? new BoardReader(this.tracker.options.reader);
    this.reader.apply(this.tracker.takeFeedback());
  }

  /** Feeds one frame of raw readings. Returns what happened. */
  push(t: number, readings: ArrayLike<number>): TrackerEvent[] {
    const changed = this.reader.push(t, readings);
    return this.settle(t, this.tracker.step(t, this.reader.view(), changed));
  }

  /** Starts tracking a (new or loaded) game: the board must be set up to match it first. */
  setGame(game: ReadonlyGame, t = this.reader.now): TrackerEvent[] {
    return this.settle(t, this.tracker.setGame(game, t, this.reader.view()));
  }

  /** Playing the computer (or a player at another board, `by` name): the move the player is to carry out for it (see MoveTracker.expectMove). */
  expectMove(move: Move | null, t = this.reader.now, by?: string): TrackerEvent[] {
    return this.settle(t, this.tracker.expectMove(move, t, by));
  }

  /** The side whose moves are made at another board, and its player's name (null: both players are here; see MoveTracker.playedElsewhere). */
  playedElsewhere(side: Color | null, by?: string): void {
    this.tracker.playedElsewhere(side, by);
  }

  /** After a reconnect: compare board and position again before play goes on. */
  resync(): void {
    this.tracker.resync();
    this.reader.apply(this.tracker.takeFeedback());
  }

  /** Uses a saved or routine-made calibration. */
  useCalibration(c: Calibration): void {
    this.reader.useCalibration(c);
  }

  private routine: CalibrationRoutine | null = null;

  /** The explicit calibration routine is running: frames go to it (pushCalibration), play waits. */
  get calibrating(): boolean {
    return this.routine !== null;
  }

  /** Where the running routine stands (null: none runs). */
  get calibration(): RoutineProgress | null {
    return this.routine ? this.routine.progress() : null;
  }

  /** Starts (or restarts) the explicit calibration routine; returns its first instruction. */
  startCalibration(): RoutineProgress {
    this.routine = new CalibrationRoutine({ minCoinDelta: this.reader.options.minCoinDelta });
    return this.routine.progress();
  }

  /** Stops the routine (null if none ran): the board is compared with the game again. */
  cancelCalibration(t = this.reader.now): TrackerEvent[] | null {
    if (!this.routine) return null;
    this.routine = null;
    return this.setGame(this.tracker.currentGame, t);
  }

  /**
   * Feeds one frame to the running routine. Null when it did not move on. Once
   * done its calibration is in use and the board is compared with the game
   * again (the events of that).
   */
  pushCalibration(t: number, readings: ArrayLike<number>): CalibrationStep | null {
    const routine = this.routine;
    if (!routine) return null;
    const progress = routine.push(t, readings);
    if (!progress) return null;
    if (!routine.finished) return { kind: 'progress', progress };
    this.routine = null;
    const calibration = routine.result();
    this.useCalibration(calibration);
    return { kind: 'done', calibration, events: this.setGame(this.tracker.currentGame, t) };
  }

  /**
   * Applies the tracker's feedback to the reader. If that calibrated the reader
   * from the set-up (its counts reset to the position), the tracker sees the new
   * board at once, in the same frame.
   */
  private settle(t: number, step: TrackerStep): TrackerEvent[] {
    if (!step.feedback.length) return step.events;
    if (!this.apply(step.feedback)) return step.events;
    const again = this.tracker.step(t, this.reader.view(), true);
    this.apply(again.feedback);
    return step.events.length ? [...step.events, ...again.events] : again.events;
  }

  private apply(feedback: readonly ReaderFeedback[]): boolean {
    return feedback.length ? this.reader.apply(feedback) : false;
  }

  /** Tournament mode on or off for the game at hand: no takeback at the board, the retraction rule enforced. */
  tournamentRules(on: boolean): void {
    this.tracker.options.takebacks = !on;
    this.tracker.options.retraction = on ? 'enforce' : 'notice';
  }

  /** What the reader makes of the board (counts, confidence, soft squares), for displays. */
  get view(): BoardView {
    return this.reader.view();
  }
  /** The reader's settings. */
  get readerOptions(): Readonly<ReaderOptions> {
    return this.reader.options;
  }
  get phase(): Phase {
    return this.tracker.phase;
  }
  get currentGame(): ReadonlyGame {
    return this.tracker.currentGame;
  }
  get boardStatus(): BoardStatus {
    return this.tracker.boardStatus;
  }
  get currentAlert(): Alert | null {
    return this.tracker.currentAlert;
  }
  get currentReminder(): Reminder | null {
    return this.tracker.currentReminder;
  }
  get crownSquare(): number | null {
    return this.tracker.crownSquare;
  }
  /** The squares where the board differs from the game's position (for displays). */
  differences(): number[] {
    return this.tracker.differences();
  }
}
