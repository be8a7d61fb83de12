// The order of the engine's searches (src/engine/jobs.ts), driven by a
// scripted engine whose searches end when the test says (or when stopped).
import { describe, expect, it } from 'vitest';
import { EngineJobs, type EngineSeat } from '../../src/engine/jobs.ts';
import type { EngineRequest, EngineResult, Purpose } from '../../src/engine/port.ts';
import { START } from '../../src/rules/index.ts';

interface Search {
  req: EngineRequest;
  stopped: boolean;
  finish(score?: number): void;
}

/** An engine that records each search and ends it on finish() or stop() (stopped: answers at once, score −1). */
function scripted(): { seat: EngineSeat; searches: Search[]; stops: number } {
  const out = { searches: [] as Search[], stops: 0, seat: null as unknown as EngineSeat };
  let current: Search | null = null;
  out.seat = {
    run: (req) =>
      new Promise<EngineResult | null>((resolve) => {
        const s: Search = {
          req,
          stopped: false,
          finish: (score = req.limits.seed ?? 0) => {
            if (current === s) current = null;
            resolve(answer(score));
          },
        };
        current = s;
        out.searches.push(s);
      }),
    stop: () => {
      out.stops++;
      if (current) {
        current.stopped = true;
        current.finish(-1);
      }
    },
  };
  return out;
}

const req = (purpose: Purpose, seed: number): EngineRequest => ({ position: START, limits: { level: 10, seed }, purpose });
const answer = (score: number): EngineResult => ({ move: null, score, depth: 1, pv: [], nodes: 0, ms: 0 });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the engine takes its searches in turn', () => {
  it('one at a time; the waiting ones by purpose: computer, hint, evaluation, analysis', async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const done: string[] = [];
    const ask = (p: Purpose, seed: number) => jobs.think(req(p, seed)).then((r) => done.push(`${p}${seed}:${r?.score}`));
    void ask('analysis', 1);
    await tick();
    expect(jobs.busyWith).toBe('analysis');
    void ask('analysis', 2);
    void ask('evaluation', 3);
    void ask('hint', 4);
    void ask('computer', 5);
    expect(jobs.queued).toBe(4);
    // A running analysis search is not cut short (it is one position of many; each is short).
    expect(e.stops).toBe(0);
    for (let i = 0; i < 5; i++) {
      await tick();
      e.searches[i]!.finish();
    }
    await tick();
    expect(e.searches.map((s) => `${s.req.purpose}${s.req.limits.seed}`)).toEqual([
      'analysis1',
      'computer5',
      'hint4',
      'evaluation3',
      'analysis2',
    ]);
    expect(done).toEqual(['analysis1:1', 'computer5:5', 'hint4:4', 'evaluation3:3', 'analysis2:2']);
    expect(jobs.busyWith).toBeNull();
  });

  it("the computer's move or a hint stops a running evaluation early; it still answers", async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const ev = jobs.think(req('evaluation', 1));
    await tick();
    expect(jobs.busyWith).toBe('evaluation');
    const mv = jobs.think(req('computer', 2));
    expect(e.stops).toBe(1);
    expect(await ev).toEqual(answer(-1)); // its deepest finished iteration
    await tick();
    expect(jobs.busyWith).toBe('computer');
    e.searches[1]!.finish();
    expect(await mv).toEqual(answer(2));
    // A hint does the same; the computer's own search is never stopped.
    const ev2 = jobs.think(req('evaluation', 3));
    await tick();
    const hint = jobs.think(req('hint', 4));
    expect(await ev2).toEqual(answer(-1));
    await tick();
    const mv2 = jobs.think(req('computer', 5));
    expect(e.stops).toBe(2);
    e.searches[3]!.finish();
    expect(await hint).toEqual(answer(4));
    await tick();
    e.searches[4]!.finish();
    expect(await mv2).toEqual(answer(5));
  });

  it('a newer evaluation drops the waiting older one (null) and stops the running one', async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const mv = jobs.think(req('computer', 1));
    await tick();
    // Moves played quickly while the computer thinks: three positions to score; only the newest is searched.
    const evs = [2, 3, 4].map((n) => jobs.think(req('evaluation', n)));
    expect(jobs.queued).toBe(1);
    expect(await evs[0]).toBeNull();
    expect(await evs[1]).toBeNull();
    e.searches[0]!.finish();
    await mv;
    await tick();
    expect(jobs.busyWith).toBe('evaluation');
    const newer = jobs.think(req('evaluation', 5));
    expect(await evs[2]).toEqual(answer(-1));
    await tick();
    e.searches[2]!.finish();
    expect(await newer).toEqual(answer(5));
    expect(e.searches.map((s) => s.req.limits.seed)).toEqual([1, 4, 5]);
  });

  it("cancel('computer') (a takeback, a new game): its waiting searches answer null, its running one stops; others go on", async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const running = jobs.think(req('computer', 1));
    await tick();
    const waiting = jobs.think(req('computer', 2));
    const hint = jobs.think(req('hint', 3));
    jobs.cancel('computer');
    expect(await running).toEqual(answer(-1));
    expect(await waiting).toBeNull();
    await tick();
    expect(jobs.busyWith).toBe('hint');
    jobs.cancel('computer'); // nothing of the computer's: the hint is not touched
    expect(e.stops).toBe(1);
    e.searches[1]!.finish();
    expect(await hint).toEqual(answer(3));
  });

  it('at most one search per purpose waits: thirty hints behind a running search are one', async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const mv = jobs.think(req('computer', 1));
    await tick();
    const hints = Array.from({ length: 30 }, (_, i) => jobs.think(req('hint', 100 + i)));
    expect(jobs.queued).toBe(1);
    for (const h of hints.slice(0, 29)) expect(await h).toBeNull();
    e.searches[0]!.finish();
    await mv;
    await tick();
    e.searches[1]!.finish();
    expect(await hints[29]).toEqual(answer(129));
    await tick();
    expect(e.searches.map((s) => `${s.req.purpose}${s.req.limits.seed}`)).toEqual(['computer1', 'hint129']);
  });

  it('a ponder search runs only when nothing else waits; any other search stops it, and it resumes after', async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const mv = jobs.think(req('computer', 1));
    await tick();
    let pondered: unknown = 'pending';
    void jobs.think(req('ponder', 2)).then((r) => (pondered = r));
    await tick();
    expect(jobs.queued).toBe(1); // behind the computer's move
    e.searches[0]!.finish();
    await mv;
    await tick();
    expect(jobs.busyWith).toBe('ponder');
    // The evaluation bar scores the position on the board: the ponder search stops for it, then waits again.
    const ev = jobs.think(req('evaluation', 3));
    expect(e.searches[1]!.stopped).toBe(true);
    await tick();
    expect(jobs.busyWith).toBe('evaluation');
    expect(pondered).toBe('pending'); // not answered: it resumes
    e.searches[2]!.finish();
    expect(await ev).toEqual(answer(3));
    await tick();
    expect(jobs.busyWith).toBe('ponder');
    expect(e.searches.map((s) => `${s.req.purpose}${s.req.limits.seed}`)).toEqual(['computer1', 'ponder2', 'evaluation3', 'ponder2']);
    // The player has moved: cancel('ponder') ends it for good (it answers with what it has).
    jobs.cancel('ponder');
    await tick();
    expect(pondered).toEqual(answer(-1));
    expect(jobs.busyWith).toBeNull();
  });

  it('a newer ponder search replaces the running one; a cancelled waiting one answers null', async () => {
    const e = scripted();
    const jobs = new EngineJobs(async () => e.seat);
    const first = jobs.think(req('ponder', 1));
    await tick();
    const second = jobs.think(req('ponder', 2));
    expect(await first).toEqual(answer(-1));
    await tick();
    expect(jobs.busyWith).toBe('ponder');
    const hint = jobs.think(req('hint', 3));
    await tick();
    expect(jobs.busyWith).toBe('hint');
    jobs.cancel('ponder'); // waiting again behind the hint: dropped
    expect(await second).toBeNull();
    e.searches[2]!.finish();
    expect(await hint).toEqual(answer(3));
    await tick();
    expect(jobs.busyWith).toBeNull();
  });

  it('an engine failure rejects that search, and the next one still runs', async () => {
    let calls = 0;
    const jobs = new EngineJobs(async () => ({
      run: async (r) => {
        if (++calls === 1) throw new Error('engine worker stopped (exit code 1)');
        return answer(r.limits.seed ?? 0);
      },
      stop: () => undefined,
    }));
    await expect(jobs.think(req('hint', 1))).rejects.toThrow(/exit code 1/);
    expect(await jobs.think(req('hint', 2))).toEqual(answer(2));
  });
});
