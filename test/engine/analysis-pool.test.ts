// The analysis workers (src/engine-host/pool.ts): a lane per core (at most
// four), each lane's searches on its own worker, started on its first search,
// every started worker stopped and closed; and the real thing, two worker
// threads analysing a game as `crownhead analyse --threads 2` does.

import { describe, expect, it, vi } from 'vitest';
import { AnalysisPool, analysisLanes } from '../../src/engine-host/pool.ts';
import type { EngineClient } from '../../src/engine-host/client.ts';
import { analyseLine, think, type EngineRequest, type EngineResult } from '../../src/engine/index.ts';
import { legalMoves, playMove, sameResult, START } from '../../src/rules/index.ts';

describe('the analysis workers', () => {
  it('a lane per core, at least one, at most four, and no more than a quarter of the memory holds (330 MB a lane)', () => {
    const GiB = 2 ** 30;
    expect([1, 2, 3, 4, 8, 64].map((c) => analysisLanes(c, 8 * GiB))).toEqual([1, 2, 3, 4, 4, 4]);
    expect(analysisLanes(0, 8 * GiB)).toBe(1);
    // A 4-core board computer with 8, 4, 2, 1 GB and 512 MB.
    expect([8, 4, 2, 1, 0.5].map((m) => analysisLanes(4, m * GiB))).toEqual([4, 3, 1, 1, 1]);
  });

  it('closes its workers once idle for a minute, and starts them again for the next analysis', async () => {
    vi.useFakeTimers();
    try {
      const made: { closed: boolean }[] = [];
      const start = async () => {
        const me = { closed: false };
        made.push(me);
        return {
          think: async () => ({ move: null, score: 0, depth: 1, pv: [], nodes: 1, ms: 0 }) satisfies EngineResult,
          close: async () => void (me.closed = true),
        } as unknown as EngineClient; // a stand-in worker: the pool calls only think and close
      };
      const pool = new AnalysisPool(2, start);
      const ask = (lane: number) => pool.think({ position: START, limits: { depth: 1 }, purpose: 'analysis', lane });
      await Promise.all([ask(0), ask(1)]);
      expect(pool.started).toBe(2);
      await vi.advanceTimersByTimeAsync(59_000);
      await ask(0); // within the minute: the same worker, and the minute starts again
      await vi.advanceTimersByTimeAsync(59_000);
      expect(made).toHaveLength(2);
      expect(made.every((m) => !m.closed)).toBe(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(made.every((m) => m.closed)).toBe(true);
      expect(pool.started).toBe(0);
      await ask(1);
      expect(made).toHaveLength(3);
      await pool.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs each lane on its own worker, started on its first search; stop and close reach every started one', async () => {
    const made: { lane: number[]; stopped: number; closed: boolean }[] = [];
    const start = async () => {
      const me = { lane: [] as number[], stopped: 0, closed: false };
      made.push(me);
      return {
        think: async (req: EngineRequest) => {
          me.lane.push(req.lane!);
          return { move: null, score: 0, depth: 1, pv: [], nodes: 1, ms: 0 } satisfies EngineResult;
        },
        stop: () => void me.stopped++,
        close: async () => void (me.closed = true),
      } as unknown as EngineClient;
    };
    const pool = new AnalysisPool(2, start);
    await pool.think({ position: START, limits: { depth: 1 }, purpose: 'analysis', lane: 0 });
    expect(made).toHaveLength(1);
    await Promise.all([1, 0, 3].map((lane) => pool.think({ position: START, limits: { depth: 1 }, purpose: 'analysis', lane })));
    expect(made.map((m) => m.lane)).toEqual([
      [0, 0],
      [1, 3],
    ]);
    pool.stop();
    await pool.close();
    expect(made.map((m) => [m.stopped, m.closed])).toEqual([
      [1, true],
      [1, true],
    ]);
  });

  it('two worker threads analyse a line on their lanes and find the blunder this thread finds', { timeout: 60_000 }, async () => {
    // A line with one planted blunder: at ply 6 the move a depth-4 search scores worst (at least two men below the best).
    const moves = [];
    let pos = START;
    let blunder = -1;
    for (let i = 0; i < 10; i++) {
      let m = think({ position: pos, limits: { depth: 4 } }).move!;
      if (i >= 6 && blunder < 0) {
        const scored = legalMoves(pos).map((x) => ({ x, s: -think({ position: playMove(pos, x), limits: { depth: 4 } }).score }));
        const best = Math.max(...scored.map((y) => y.s));
        const worst = scored.reduce((a, b) => (b.s < a.s ? b : a));
        if (best - worst.s >= 200) [m, blunder] = [worst.x, i];
      }
      moves.push(m);
      pos = playMove(pos, m);
    }
    expect(blunder).toBeGreaterThanOrEqual(6);
    const pool = new AnalysisPool(2);
    try {
      const lanes = new Set<number | undefined>();
      const two = await analyseLine(START, moves, { depth: 6 }, (req) => (lanes.add(req.lane), pool.think(req)), { lanes: 2 });
      const one = await analyseLine(START, moves, { depth: 6 }, (req) => think(req));
      expect([...lanes].sort()).toEqual([0, 1]);
      expect(two).toHaveLength(10);
      // (A worker keeps its hash table from one position to the next, so its scores at a depth may differ by a little from a fresh search's.)
      expect(two![blunder]!.mark).toBe('??');
      expect(one![blunder]!.mark).toBe('??');
      expect(sameResult(two![blunder]!.best!, one![blunder]!.best!)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
