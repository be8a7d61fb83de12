// The board's vocabulary, as zod/mini schemas with their types inferred:
// what to put where (Fix), an illegal board (Alert), a quiet reminder, the
// board's status at a glance, and the calibration routine's progress. Made
// by tracking and the reader's routine, carried by the game to the page
// (src/protocol/v1.ts) and to a hub (src/protocol/stations-v1.ts).

import * as z from 'zod/mini';
import { Square } from './game.ts';

const int = () => z.number().check(z.int());

/** One thing to do on one square to put the board right. */
export const Fix = z.object({
  square: Square,
  /** put a piece there, or take coins away */
  action: z.enum(['place', 'remove']),
  /** what to place (or what stands there to remove), e.g. "a black man" */
  piece: z.string(),
  coins: int(),
});
export type Fix = z.infer<typeof Fix>;

/** An illegal board: a category (open-ended: tracking may add kinds), a sentence, the squares to fix. */
export const Alert = z.object({
  category: z.string(),
  message: z.string(),
  squares: z.array(Square),
  fixes: z.array(Fix),
  /** frame time the alert was raised */
  t: z.number(),
  /**
   * The retraction rule: the piece moved incorrectly, which has a legal move
   * and must (in tournament mode) make the correction: its square and its moves.
   */
  retract: z.optional(z.object({ square: Square, moves: z.array(z.string()), capture: z.boolean() })),
});
export type Alert = z.infer<typeof Alert>;

/**
 * A board part-way through a legal move that has stood a while (captured coins
 * still on, a crown not yet placed), or a coin lying magnet-up: a quiet
 * reminder, never a buzzer.
 */
export const Reminder = z.object({
  category: z.string(),
  message: z.string(),
  squares: z.array(Square),
  /** frame time the reminder was raised */
  t: z.number(),
});
export type Reminder = z.infer<typeof Reminder>;

export const BoardStatus = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setup'), fixes: z.array(Fix), message: z.string() }),
  z.object({ kind: z.literal('in-sync'), reminder: z.optional(Reminder) }),
  z.object({ kind: z.literal('moving'), reminder: z.optional(Reminder) }),
  z.object({ kind: z.literal('awaiting-crown'), square: Square }),
  z.object({ kind: z.literal('illegal'), alert: Alert }),
]);
export type BoardStatus = z.infer<typeof BoardStatus>;

/** The explicit calibration routine, step by step. */
export const CalibrationProgress = z.object({
  step: z.enum(['clear', 'start', 'stack', 'done']),
  square: z.nullable(Square),
  done: int(),
  total: int(),
  message: z.string(),
});
export type CalibrationProgress = z.infer<typeof CalibrationProgress>;
