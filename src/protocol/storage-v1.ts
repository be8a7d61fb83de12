// Part of the page–server protocol, version 1 (re-exported by v1.ts, where
// every user imports it from): the games folder's health as the page and
// /api/info show it — what went wrong with the disk or a journal, what a
// damaged journal lost and where its original was kept. Its own file because
// it is storage's vocabulary, not the page's; it imports nothing of v1.ts.

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
