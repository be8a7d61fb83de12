// The analysis workers: one engine worker (client.ts) per lane, a lane per
// core (at most MAX_LANES), started when the first analysis search comes and
// kept for the next while it comes within IDLE_MS; after that they are closed
// and their memory given back (each its own hash table and, near the end of
// a game, its own copy of the endgame database). An analysis search names its lane (engine/analyse.ts
// cuts the game into that many stretches), so a lane's searches share its
// worker's hash table. The service's own worker (the computer, hints, the
// bar: engine/jobs.ts) is not one of them, so a hint asked during an
// analysis does not wait for it.

import { availableParallelism, totalmem } from 'node:os';
import type { EngineRequest, EngineResult } from '../engine/port.ts';
import type { EngineClient } from './client.ts';

/** More lanes than this gain little on the boards' computers (and each worker keeps its own hash table). */
const MAX_LANES = 4;

/**
 * What a lane may cost: its worker thread, its 8 MB hash table and its copy of the endgame database (the
 * 5-piece one adds about 117 MB of RSS, and up to CACHE_BYTES, 128 MiB, of blocks kept inflated for the
 * search: egdb-pack.ts) — about 330 MB near the end of a game. Lanes take at most a quarter of the
 * machine's memory.
 */
const LANE_BYTES = 330 * 2 ** 20;

/** Workers idle this long are closed (the service's next analysis starts them again, in well under a second). */
const IDLE_MS = 60_000;

/** Lanes for this machine: one per core, at least 1, at most MAX_LANES, and no more than a quarter of its memory holds. */
export function analysisLanes(cores = availableParallelism(), memory = totalmem()): number {
  return Math.max(1, Math.min(MAX_LANES, cores, Math.floor(memory / 4 / LANE_BYTES)));
}

export class AnalysisPool {
  private clients: (Promise<EngineClient> | undefined)[] = [];
  /** Searches asked and not yet answered. */
  private busy = 0;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly lanes: number,
    private readonly start: () => Promise<EngineClient> = async () => new (await import('./client.ts')).EngineClient(),
    private readonly idleMs = IDLE_MS,
  ) {}

  /** The search of one position, on its lane's worker (a lane past the last wraps round). */
  async think(req: EngineRequest): Promise<EngineResult> {
    const k = (req.lane ?? 0) % this.lanes;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.busy++;
    try {
      this.clients[k] ??= this.start();
      return await (await this.clients[k])!.think(req);
    } finally {
      if (--this.busy === 0) {
        this.idle = setTimeout(() => void this.close(), this.idleMs);
        this.idle.unref();
      }
    }
  }

  /** Workers started (and not closed since). */
  get started(): number {
    return this.clients.filter(Boolean).length;
  }

  /** Stops every lane's searches (those asked so far, begun or not): each answers with its deepest finished iteration. */
  stop(): void {
    for (const c of this.clients) void c?.then((e) => e.stop());
  }

  /** A new endgame database is there: every started worker loads it afresh. */
  async forgetEndgame(): Promise<void> {
    await Promise.all(this.clients.map(async (c) => (await c)?.forgetEndgame()));
  }

  /** Closes every started worker (a later search starts its lane's again). */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const clients = this.clients;
    this.clients = [];
    await Promise.all(clients.map(async (c) => (await c)?.close()));
  }
}
