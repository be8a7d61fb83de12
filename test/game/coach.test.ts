// Engine floods: the coach asks the engine only for what
// still applies. A session wired as the service wires it — its `think` through
// the engine scheduler (src/engine/jobs.ts) to a fake worker that counts the
// searches it starts and the ones it is told to stop. Behaviour only: which
// searches start and stop, never how long they take.
import { describe, expect, it } from 'vitest';
import { GameSession } from '../../src/game/index.ts';
import { EngineJobs, type EngineSeat } from '../../src/engine/jobs.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { makeFen, START } from '../../src/rules/index.ts';

interface Search {
  purpose: string;
  stopped: boolean;
  finish(): void;
}

/** A fake engine worker: every search waits until finished or stopped (then it answers at once, as the worker does). */
function fakeWorker(): { seat: EngineSeat; searches: Search[]; running: () => Search | null } {
  const searches: Search[] = [];
  let current: Search | null = null;
  const seat: EngineSeat = {
    run: (req) =>
      new Promise((resolve) => {
        const s: Search = {
          purpose: req.purpose ?? 'computer',
          stopped: false,
          finish: () => {
            if (current === s) current = null;
            resolve({ move: null, score: 0, depth: 1, pv: [], nodes: 0, ms: 0 });
          },
        };
        current = s;
        searches.push(s);
      }),
    stop: () => {
      if (current) {
        current.stopped = true;
        current.finish();
      }
    },
  };
  return { seat, searches, running: () => current };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** Finishes every search the engine is given until it is idle; the searches started meanwhile. */
async function drain(w: ReturnType<typeof fakeWorker>): Promise<void> {
  await settle();
  for (let guard = 0; guard < 200 && w.running(); guard++) {
    w.running()!.finish();
    await settle();
  }
}

/** A session on the fake engine, with a game of four moves restored (finished by resignation when `over`). */
function session(over = false): { s: GameSession; w: ReturnType<typeof fakeWorker> } {
  const w = fakeWorker();
  const jobs = new EngineJobs(async () => w.seat);
  const s = new GameSession({ now: () => 0, think: (req) => jobs.think(req), stopThinking: (p) => jobs.cancel(p) });
  const entries: JournalEntry[] = [
    { k: 'new', id: 'g1', at: 0, fen: makeFen(START), options: {}, tags: {}, ballot: null, moves: [] },
    { k: 'move', at: 1, path: [11, 15] },
    { k: 'move', at: 2, path: [23, 19] },
    { k: 'move', at: 3, path: [8, 11] },
    { k: 'move', at: 4, path: [22, 17] },
  ];
  if (over) entries.push({ k: 'result', at: 5, result: '0-1', outcome: { winner: 'white', reason: 'resignation' } });
  s.restore(entries);
  return { s, w };
}

const count = (w: ReturnType<typeof fakeWorker>, purpose: string): number => w.searches.filter((x) => x.purpose === purpose).length;

describe('the engine is asked only for what still applies', () => {
  it('thirty hints in one position start one search, not thirty', async () => {
    const { s, w } = session();
    for (let i = 0; i < 30; i++) s.hint();
    await drain(w);
    expect(count(w, 'hint')).toBe(1);
  });

  it("the evaluation bar's first score is not queued behind a flood of hints", async () => {
    const { s, w } = session();
    for (let i = 0; i < 30; i++) s.hint();
    s.setEvaluation(true);
    await settle();
    w.running()!.finish(); // the hint
    await settle();
    expect(w.running()?.purpose).toBe('evaluation');
  });

  it('a changed position (a takeback) stops the hint asked for the old one', async () => {
    const { s, w } = session();
    s.hint();
    await settle();
    expect(w.running()?.purpose).toBe('hint');
    s.takeback();
    await settle();
    expect(w.searches[0]!.stopped).toBe(true);
    // Asked again in the new position: a new search.
    s.hint();
    await drain(w);
    expect(count(w, 'hint')).toBe(2);
  });

  it('a new game stops a running analysis; no more of its positions are searched', async () => {
    const { s, w } = session(true);
    s.analyse();
    await settle();
    expect(w.running()?.purpose).toBe('analysis');
    s.newGame();
    await drain(w);
    expect(w.searches[0]!.stopped).toBe(true);
    expect(count(w, 'analysis')).toBe(1);
    expect(s.snapshot().analysis ?? null).toBeNull();
  });

  it('a new game stops a hint and drops one waiting', async () => {
    const { s, w } = session();
    s.setEvaluation(true);
    await settle();
    s.hint();
    await settle();
    expect(w.running()?.purpose).toBe('hint'); // it stopped the evaluation
    s.newGame();
    await settle();
    expect(w.searches.filter((x) => x.purpose === 'hint').every((x) => x.stopped)).toBe(true);
    await drain(w);
    expect(count(w, 'hint')).toBe(1);
  });
});

describe('engine work shows its progress and can be cancelled', () => {
  it('the analysis counts the moves checked of the total, and a cancel stops its search and drops it', async () => {
    const { s, w } = session(true);
    const seen: string[] = [];
    s.on((e) => seen.push(e.type));
    s.analyse();
    await settle();
    expect(s.snapshot().analysis).toMatchObject({ running: true, done: 0, total: 4 });
    w.running()!.finish(); // the last position (the analysis goes from the end back)
    await settle();
    w.running()!.finish(); // the one before it: the last move is judged
    await settle();
    expect(s.snapshot().analysis).toMatchObject({ running: true, done: 1, total: 4 });
    expect(seen.filter((t) => t === 'coach').length).toBeGreaterThanOrEqual(3);
    const third = w.running()!;
    s.cancel('analysis');
    await drain(w);
    expect(third.stopped).toBe(true);
    expect(count(w, 'analysis')).toBe(3);
    expect(s.snapshot().analysis ?? null).toBeNull();
    // Asked again, it runs to the end.
    s.analyse();
    await drain(w);
    expect(s.snapshot().analysis).toMatchObject({ running: false, done: 4, total: 4 });
  });

  it('a hint in progress is in the snapshot until it comes, and a cancel stops it', async () => {
    const { s, w } = session();
    s.hint();
    await settle();
    expect(s.snapshot().hinting).toBe(true);
    w.running()!.finish();
    await settle();
    expect(s.snapshot().hinting).toBe(false);
    s.takeback();
    s.hint();
    await settle();
    const h = w.running()!;
    s.cancel('hint');
    await settle();
    expect(h.stopped).toBe(true);
    expect(s.snapshot().hinting).toBe(false);
  });
});

describe('who plays the computer', () => {
  it('is said by the new-game request alone: a player named like the computer does not make a computer game', () => {
    const think = () => new Promise<never>(() => {});
    const entries: JournalEntry[] = [];
    const s = new GameSession({ now: () => 1_700_000_000_000, think, journal: (e) => entries.push(e) });
    s.newGame({ computer: { side: 'white', level: 5 } });
    expect(s.computer?.setting).toEqual({ side: 'white', level: 5 });
    expect(s.tags.White).toBe('Crownhead (level 5)');
    // the form of an older page kept the computer's name with "Two players"
    s.newGame({ computer: null, tags: { Black: 'Ann', White: 'Crownhead (level 5)' } });
    expect(s.computer).toBeNull();
    expect(s.tags.Black).toBe('Ann');
    expect(s.tags.White).toBeUndefined();
    // and a restart resumes it as a two-player game
    const again = new GameSession({ now: () => 1_700_000_000_000, think });
    const last = entries.map((e) => e.k).lastIndexOf('new');
    expect(last).toBeGreaterThan(0);
    again.restore(entries.slice(last));
    expect(again.tags.Black).toBe('Ann');
    expect(again.computer).toBeNull();
  });
});
