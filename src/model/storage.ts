// The games folder's vocabulary, as zod/mini schemas with their types
// inferred: what went wrong with the disk or a journal, what a damaged
// journal lost and where its original was kept, the folder's health as the
// page and /api/info show it (and the event that announces a change of it),
// and the folder's listing of saved games. Made by src/storage/, shown by
// the page through src/protocol/v1.ts.

import * as z from 'zod/mini';

export const StorageProblem = z.enum(['disk-full', 'unwritable', 'io-error', 'damaged-journal', 'unresumable']);
export type StorageProblem = z.infer<typeof StorageProblem>;

/** Bytes a journal reader dropped: where, how much, why, and the start of them. */
export const JournalDamage = z.object({ line: z.number(), offset: z.number(), bytes: z.number(), why: z.string(), excerpt: z.string() });
export type JournalDamage = z.infer<typeof JournalDamage>;

/** What a damaged journal lost, and where the original was kept. */
export const DamageReport = z.object({
  game: z.string(),
  /** the journal that was damaged */
  file: z.string(),
  /** a copy of the damaged file as it was found (null if it could not be kept) */
  keptAt: z.nullable(z.string()),
  /** bytes the reader dropped */
  dropped: z.array(JournalDamage),
  /** good records that could not be replayed after what was dropped (so were dropped too) */
  unreplayed: z.number(),
  /** whether the game was resumed (from what could be read) */
  resumed: z.boolean(),
  /** moves resumed */
  moves: z.number(),
  /** the game's PDN file, which holds the record as of its last rewrite */
  pdn: z.nullable(z.string()),
});
export type DamageReport = z.infer<typeof DamageReport>;

/** Storage health as the page and /api/info show it: `ok` and `message` always; the rest when there is trouble. */
export const StorageHealth = z.object({
  ok: z.boolean(),
  message: z.string(),
  problem: z.optional(StorageProblem),
  /** announced changes (journal records, files) that wait in memory to be written */
  unsaved: z.optional(z.number()),
  /** when the current write trouble began (ms since 1970) */
  since: z.optional(z.number()),
  /** the newest game's journal was damaged: what was lost and where the original is */
  damaged: z.optional(DamageReport),
  /** what the user can do, in words */
  choice: z.optional(z.string()),
});
export type StorageHealth = z.infer<typeof StorageHealth>;

/** Storage trouble or recovery, with the health as it now stands: the store's event, one of the page's game events. */
export const StorageEvent = z.object({
  type: z.literal('storage'),
  ok: z.boolean(),
  problem: z.optional(StorageProblem),
  storage: StorageHealth,
  /** the sentence spoken and logged */
  say: z.string(),
});
export type StorageEvent = z.infer<typeof StorageEvent>;

/** One saved game file as the games folder's listing summarises it (from the PDN's first tags), and its name. */
export const SavedGame = z.object({
  id: z.string(),
  event: z.string(),
  black: z.string(),
  white: z.string(),
  date: z.string(),
  result: z.string(),
  /** the file's modification time (ms since 1970) */
  modified: z.number(),
  file: z.string(),
});
export type SavedGame = z.infer<typeof SavedGame>;

/** An entry of the games folder that is not a readable game, and why. */
export const SkippedFile = z.object({ file: z.string(), why: z.string() });
export type SkippedFile = z.infer<typeof SkippedFile>;

/** The games folder's listing (the store's, newest first). */
export const GameList = z.object({
  games: z.array(SavedGame),
  /** entries of the folder that look like games but cannot be read as one */
  skipped: z.array(SkippedFile),
  /** why the folder itself could not be read (then `games` is empty) */
  error: z.optional(z.string()),
});
export type GameList = z.infer<typeof GameList>;
