// The analysis workers: one engine worker (client.ts) per lane, a lane per
// core (at most MAX_LANES), started when the first analysis search comes and
// kept for the next. An analysis search names its lane (engine/analyse.ts
// cuts the game into that many stretches), so a lane's searches share its
// worker's hash table. The service's own worker (the computer, hints, the
// bar: engine/jobs.ts) is not one of them, so a hint asked during an
// analysis does not wait for it.

import { availableParallelism } from 'node:os';
import type { EngineRequest, EngineResult } from '../engine/port.ts';
import type { EngineClient } from './client.ts';

/** More lanes than this gain little on the boards' computers (and each worker keeps its own hash table). */
const MAX_LANES = 4;

/** Lanes for this machine: one per core, at least 1, at most MAX_LANES. */
export function analysisLanes(cores = availableParallelism()): number {
  return Math.max(1, Math.min(MAX_LANES, cores));
}

export class AnalysisPool {
  private readonly clients: (Promise<EngineClient> | undefined)[] = [];

  constructor(
    readonly lanes: number,
    private readonly start: () => Promise<EngineClient> = async () => new (await import('./client.ts')).EngineClient(),
  ) {}

  /** The search of one position, on its lane's worker (a lane past the last wraps round). */
  async think(req: EngineRequest): Promise<EngineResult> {
    const k = (req.lane ?? 0) % this.lanes;
    this.clients[k] ??= this.start();
    return (await this.clients[k])!.think(req);
  }

  /** Stops every lane's searches (those asked so far, begun or not): each answers with its deepest finished iteration. */
  stop(): void {
    for (const c of this.clients) void c?.then((e) => e.stop());
  }

  /** A new endgame database is there: every started worker loads it afresh. */
  async forgetEndgame(): Promise<void> {
    await Promise.all(this.clients.map(async (c) => (await c)?.forgetEndgame()));
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map(async (c) => (await c)?.close()));
  }
}
