import { afterAll, describe, expect, it } from 'vitest';
import { EngineClient } from '../../src/engine-host/client.ts';
import { Game, legalMoves, sameMove, START } from '../../src/rules/index.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';
import { unwrap } from '../../src/common/result.ts';

// The worker's endgame database: the tests' shared cache, not the home directory.
process.env.CROWNHEAD_CACHE = TEST_EGDB_DIR;

describe('engine worker_thread', () => {
  const client = new EngineClient();
  afterAll(() => client.close());

  it('searches in its own thread: the main event loop keeps ticking meanwhile', async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    const t0 = performance.now();
    const r = await client.think({ position: Game.fromBallot(30).game.position, limits: { timeMs: 800 } });
    clearInterval(timer);
    const span = performance.now() - t0;
    expect(span).toBeGreaterThan(400);
    expect(r.move).not.toBeNull();
    expect(r.nodes).toBeGreaterThan(0); // (how many in the time depends on how busy the machine is)
    // A 10 ms timer kept firing while the search ran (in-thread, not one tick could fire before
    // it returned). No bound on the gaps: that would be a timing test, and the machine may be busy.
    expect(ticks.filter((t) => t < t0 + span - 50).length).toBeGreaterThanOrEqual(5);
  });

  it('returns the same answer as the in-thread search at a fixed depth, and legal moves', async () => {
    const { think } = await import('../../src/engine/index.ts');
    const pos = Game.fromBallot(12).game.position;
    await client.newGame();
    const a = await client.think({ position: pos, limits: { depth: 7 } });
    const b = think({ position: pos, limits: { depth: 7 } });
    expect(a.score).toBe(b.score);
    expect(sameMove(a.move!, b.move!)).toBe(true);
    expect(legalMoves(pos).some((m) => sameMove(m, a.move!))).toBe(true);
  });

  it('plays from the opening book when asked (off by default), with the 40-move count passed through', async () => {
    const book = await client.think({ position: START, limits: { depth: 4, book: 'best' } });
    expect(book.book).toBe(true);
    expect(`${book.move!.from}-${book.move!.to}`).toBe('11-15');
    const plain = await client.think({ position: START, limits: { depth: 4 } });
    expect(plain.book).toBeUndefined();
    // Two kings v one with 79 quiet plies gone: any move lets the lone king claim the draw.
    const { parseFen } = await import('../../src/rules/index.ts');
    expect((await client.think({ position: unwrap(parseFen('W:WK18,K19:BK1')), quietPlies: 79, limits: { depth: 3 } })).score).toBe(0);
  });

  it('stop() ends a long search early with the deepest finished line', async () => {
    const t0 = performance.now();
    const p = client.think({ position: START, limits: { timeMs: 60_000 } });
    setTimeout(() => client.stop(), 300);
    const r = await p;
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.move).not.toBeNull();
  });

  it('stop() also ends a search asked for but not begun yet, and none asked after it', async () => {
    const a = client.think({ position: START, limits: { timeMs: 60_000 } });
    const b = client.think({ position: Game.fromBallot(7).game.position, limits: { timeMs: 60_000 } }); // waits behind a
    setTimeout(() => client.stop(), 300);
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.move).not.toBeNull();
    expect(rb.move).not.toBeNull();
    // A later search is not touched by that stop: it runs to its own limit.
    const c = await client.think({ position: START, limits: { depth: 5 } });
    expect(c.depth).toBe(5);
  }, 20_000);

  it('a bad request is an error, and the worker goes on serving', async () => {
    await expect(client.think({ position: START, limits: { level: 42 } })).rejects.toThrow(/level must be a whole number from 1 to 10/);
    const r = await client.think({ position: START, limits: { depth: 3 } });
    expect(r.depth).toBe(3);
  });
});
