// The 5-piece endgame database as the board's page sees it (GET /api/egdb):
// built and in use, being built (slice k of n), or not, and why — what the
// service's builder reports (src/engine-host/egdb-build.ts) and the page's
// card draws (src/web/egdb-view.ts).

import * as z from 'zod/mini';

export const EgdbStatus = z.object({
  /** absent: not built; building: under way (done of total slices); built: there and whole, in use; damaged: there but refused; failed: the last build stopped with an error; stopped: the last build was stopped (it resumes) */
  state: z.enum(['absent', 'building', 'built', 'damaged', 'failed', 'stopped']),
  done: z.number(),
  total: z.number(),
  /** ms since the build started (building), for the page's estimate */
  elapsedMs: z.number(),
  /** the file's size when built */
  bytes: z.number(),
  /** in words, for the page */
  message: z.string(),
});
export type EgdbStatus = z.infer<typeof EgdbStatus>;
