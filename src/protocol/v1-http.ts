// Part of the page–server protocol, version 1 (re-exported by v1.ts, where
// every user imports it from): the HTTP JSON of the archive's trash (GET
// /api/trash.json) and of the builder's sensor view (GET /api/sensors.json).
// Kept apart only to keep v1.ts a readable size; it imports nothing of v1.ts.

import * as z from 'zod/mini';
import { SavedGame } from '../model/storage.ts';

const int = () => z.number().check(z.int());
const Square = z.number().check(z.int(), z.gte(1), z.lte(32));

// ------------------------------------------------------------------ the archive's trash

/** A deleted game waiting in the trash (GET /api/trash.json); POST /api/trash/:id/restore puts it back. */
export const TrashEntry = z.extend(z.pick(SavedGame, { id: true, event: true, black: true, white: true, date: true, result: true }), {
  /** when it was deleted (ms since 1970) */
  deleted: z.number(),
});
export type TrashEntry = z.infer<typeof TrashEntry>;

/** The trash: its games, and how many days a deleted game is kept before it is emptied. */
export const TrashList = z.object({ days: int(), games: z.array(TrashEntry) });
export type TrashList = z.infer<typeof TrashList>;

// ------------------------------------------------------------------ the builder's sensor view (control rights)

/** The per-square test (as `crownhead doctor` does it) on one square: its step, the instruction, and once over, what answered. */
export const SensorTest = z.object({
  square: Square,
  step: z.enum(['clear', 'place', 'lift', 'stack', 'unstack', 'flip', 'unflip', 'coin', 'coin-lift', 'done']),
  instruction: z.string(),
  result: z.nullable(z.object({ ok: z.boolean(), text: z.string(), moved: z.array(z.object({ square: Square, dev: z.number() })) })),
});
export type SensorTest = z.infer<typeof SensorTest>;

/** GET /api/sensors.json: the latest raw reading of the 32 sensors, each square's learnt levels, the counts read, the test. */
export const SensorSnapshot = z.object({
  /** the frame's time (null: no frame yet) */
  t: z.nullable(z.number()),
  readings: z.nullable(z.array(z.number())),
  calibrated: z.boolean(),
  /** per square (index 0 = square 1): the reading of an empty square, one coin, two, and the level below which a coin reads as upside down */
  levels: z.array(z.object({ empty: z.number(), one: z.number(), two: z.number(), flipped: z.number() })),
  counts: z.array(int()),
  test: z.nullable(SensorTest),
});
export type SensorSnapshot = z.infer<typeof SensorSnapshot>;
