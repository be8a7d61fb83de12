// The clocks' vocabulary, as zod/mini schemas with their types inferred:
// the clocks as the page and a hub see them (ClockState), and both clocks as
// the journal keeps them (SavedClock: src/game/clock.ts writes and restores
// it, src/storage/journal.ts reads it back).

import * as z from 'zod/mini';
import { Side } from './game.ts';

const nonNeg = () => z.number().check(z.gte(0));
const perSide = <T extends z.core.SomeType>(t: T) => z.object({ black: t, white: t });

export const ClockState = z.object({
  /** the time control as given, e.g. "5m+3s" */
  control: z.string(),
  black: nonNeg(),
  white: nonNeg(),
  running: z.nullable(Side),
  /** who ran out of time, if anyone */
  flagged: z.nullable(Side),
  /** false until the first move (or "Start clock"): clocks start with play, not with the set-up */
  started: z.boolean(),
  /** ACF time per move only: the move being timed (black/white above are what is left of each side's limit) */
  perMove: z.optional(
    z.object({
      /** whose move is being timed (null before the first) */
      side: z.nullable(Side),
      /** this move's limit (ms): the short one when `forced` */
      limit: nonNeg(),
      /** the mover has exactly one legal capture */
      forced: z.boolean(),
      /** "time" has been called on this side: the limit is reached and the grace period runs */
      timeCalled: z.nullable(Side),
      /** what is left of the grace period (ms); the side loses at 0 */
      graceLeft: nonNeg(),
    }),
  ),
});
export type ClockState = z.infer<typeof ClockState>;

/** Both clocks as the journal keeps them (the game's clock writes and reads this shape: game/clock.ts). */
export const SavedClock = z.object({
  remaining: perSide(z.number()),
  movesMade: perSide(z.number()),
  period: perSide(z.number()),
  /** when each side's next control is reached (Infinity is written as null by JSON) */
  nextAt: perSide(z.nullable(z.number())),
  flagged: z.nullable(Side),
  /** ACF time per move: the move being timed, whether it is a forced capture, whom "time" was called on */
  current: z.optional(z.nullable(Side)),
  forced: z.optional(z.boolean()),
  called: z.optional(z.nullable(Side)),
});
export type SavedClock = z.infer<typeof SavedClock>;
