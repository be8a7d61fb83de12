// The move tracker's types: its settings (TrackerOptions), what it tells the
// session (TrackerEvent, TrackerStep) and its state as one tagged union
// (TrackerState: set-up, or play with the crowning in progress, the last
// commit and the placements since), and the one writer of the game it hands
// its moves to (GameWriter: the table). Types and constants, no logic.

import type { Move, Ply, ReadonlyGame } from '../rules/index.ts';
import type { ReaderFeedback, ReaderOptions } from '../reading/view.ts';
import type { Alert, BoardStatus, Fix, Reminder } from '../model/board.ts';
import type { Counts } from './boards.ts';
import type { AlertCategory } from './diagnose.ts';

export interface TrackerOptions {
  /** Takebacks (the position before the last move on the board) are accepted. Tournament mode refuses them. */
  takebacks: boolean;
  /** A board that matches nothing must stay so this long (ms) before it is called illegal. */
  graceMs: number;
  /**
   * On a polarity-coded board, a man reading about half a step the other way
   * (its coin lying magnet-up) is said once it has stood this long (ms): a
   * coin turned over lies so for half a second or more, and nothing else
   * reads there but for a frame or two (graceMs is for a coin of the other
   * colour, which a crown being put together passes through).
   */
  flipGraceMs: number;
  /** A board part-way through a move that looks finished but wrong (a capture not removed, a jump stopped early) waits this long. */
  patienceMs: number;
  /** Huffing: jumps are optional, so a legal result must stand this long before it is committed. */
  settleMs: number;
  /** Two moves seen at once (a fast reply) must stand this long before both are committed. */
  fastReplyMs: number;
  /** The retraction rule: a correction made with another piece than the one moved illegally is refused ('enforce', tournament mode) or played with a notice. */
  retraction: 'enforce' | 'notice';
  /** Settings for the owner's reader (board-tracking.ts). */
  reader?: Partial<ReaderOptions>;
}

export const DEFAULT_TRACKER: TrackerOptions = {
  takebacks: true,
  graceMs: 800,
  flipGraceMs: 250,
  patienceMs: 2500,
  settleMs: 1200,
  fastReplyMs: 150,
  retraction: 'notice',
};

export type Phase = 'setup' | 'play' | 'over';

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
  | { type: 'game-over'; t: number; game: ReadonlyGame };

/**
 * The one writer of the game the tracker reads: the game at the table
 * (src/game/table.ts). The tracker decides on its read-only view of the game
 * and hands the move it decided (or the takeback) here; the writer journals
 * it — fsynced — and then plays it, and answers with the ply. The position
 * after it, which the tracker needs within the same frame (a fast reply's
 * answer is legal only after the first move; a change of mind is a takeback
 * and a move; the crown awaited and the game's end follow from the ply), is
 * read from the game itself: there is no second copy to keep in step.
 */
export interface GameWriter {
  /** Journals, then plays, a move (after huffing the piece on `huff`, if given); throws, changing nothing, if it is not legal. */
  play(move: Move, huff?: number): Ply;
  /** Journals, then takes back, the last move. */
  undo(): Ply;
}

/** What one step of the tracker produced: events for the session, feedback for the reader. */
export interface TrackerStep {
  events: TrackerEvent[];
  feedback: ReaderFeedback[];
}

export interface LastCommit {
  /** Index of the ply in game.plies. */
  index: number;
  /** The opponent has started to move since: no more change of mind. */
  opponentStarted: boolean;
}

/**
 * The crowning in progress: none, or a man arrived on the king row whose
 * crown is still to come (the square; the man lifted since, to slip the crown
 * under; its own steady reading, NaN until it has settled, and the last one
 * seen while waiting for that; the highest the reading has risen above it
 * since, in coin steps: a crown that landed, even if a sleeve knocked the
 * stack off-centre at once and it now reads like the man).
 */
export type Crown =
  { kind: 'none' } | { kind: 'awaited'; square: number; touched: boolean; manLevel: number; manLevelLast: number; peak: number };

/**
 * The last board seen part-way through a legal move that looked finished (a
 * jumper down with captured coins still on, a jump stopped short): if the
 * opponent moves on from it, the mistake is named from it.
 */
export interface Stuck {
  board: Counts;
  category: AlertCategory;
}

/**
 * The tracker's state, one tagged union. `setup`: board and game not compared
 * yet (a new or loaded game, a reconnect, a calibration): the board must match
 * the position first. `play`: following the game (its phase is 'over' once the
 * game has an outcome, however it came): the crowning in progress, the last
 * commit (for a change of mind or a takeback), the squares where pieces were
 * put down since (a king's route), a stuck part-way board.
 */
export type TrackerState =
  { kind: 'setup' } | { kind: 'play'; crown: Crown; last: LastCommit | null; placements: number[]; stuck: Stuck | null };

/** Play from a fresh comparison of board and game: nothing pending. */
export function freshPlay(): Extract<TrackerState, { kind: 'play' }> {
  return { kind: 'play', crown: { kind: 'none' }, last: null, placements: [], stuck: null };
}
