// The one game analysis (src/engine/analyse.ts), used by the page through the
// coach and by `crownhead analyse`: a lost position scores −WIN whoever asks,
// and a cancelled search (the scheduler answers null) ends it without asking
// for the rest of the game.
import { describe, expect, it } from 'vitest';
import { analyseLine, deeperLimits, laneOrder, scoreText, think, WIN, type EngineRequest } from '../../src/engine/index.ts';
import { legalMoves, makeFen, parseFen, playMove, sameMove, START } from '../../src/rules/index.ts';
import { unwrap } from '../../src/common/result.ts';

describe('game analysis', () => {
  it('a move that leaves the opponent no move is scored as the win it is (−WIN for the lost position)', async () => {
    const start = unwrap(parseFen('B:W18:B14'));
    const [win] = legalMoves(start).filter((m) => m.captures.length);
    expect(win).toBeDefined();
    const verdicts = await analyseLine(start, [win!], { depth: 2 }, (req) => think(req));
    expect(verdicts).toHaveLength(1);
    expect(verdicts![0]!.after).toBe(WIN);
    expect(scoreText(verdicts![0]!.after)).toBe('win in 0');
    expect(verdicts![0]!.mark).toBe('');
  });

  it('stops at the first cancelled search (null) and answers null', async () => {
    const asked: EngineRequest[] = [];
    const moves = [legalMoves(START)[0]!];
    const r = await analyseLine(START, moves, { depth: 1 }, (req) => {
      asked.push(req);
      return null;
    });
    expect(r).toBeNull();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.purpose).toBe('analysis');
  });
});

describe('game analysis on several lanes (a worker per core)', () => {
  const line = (() => {
    const moves = [];
    let pos = START;
    for (let i = 0; i < 12; i++) {
      const r = think({ position: pos, limits: { depth: 3 } });
      moves.push(r.move!);
      pos = playMove(pos, r.move!);
    }
    return moves;
  })();

  it('cuts the line into even stretches, each searched from its end back to its start', () => {
    expect(laneOrder(13, 2)).toEqual([
      [5, 4, 3, 2, 1, 0],
      [12, 11, 10, 9, 8, 7, 6],
    ]);
    expect(laneOrder(3, 4)).toEqual([[0], [1], [2]]);
    expect(laneOrder(5, 1)).toEqual([[4, 3, 2, 1, 0]]);
  });

  it('asks every position once, two at a time on their lanes, and judges the moves as one lane does', async () => {
    const asked: { lane: number | undefined; key: string }[] = [];
    let inFlight = 0,
      most = 0;
    const ask = async (req: EngineRequest) => {
      asked.push({ lane: req.lane, key: makeFen(req.position) });
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return think({ ...req, lane: undefined });
    };
    const two = await analyseLine(START, line, { depth: 3 }, ask, { lanes: 2 });
    const one = await analyseLine(START, line, { depth: 3 }, (req) => think(req));
    expect(two).toEqual(one);
    expect(most).toBe(2);
    expect(asked).toHaveLength(13);
    expect(new Set(asked.map((a) => a.key)).size).toBe(13);
    expect(asked.filter((a) => a.lane === 0)).toHaveLength(6);
    expect(asked.filter((a) => a.lane === 1)).toHaveLength(7);
  });

  it('a cancelled search on one lane ends the other lane too, and the analysis answers null', async () => {
    let asks = 0;
    const r = await analyseLine(
      START,
      line,
      { depth: 1 },
      async (req) => {
        asks++;
        await new Promise((r) => setImmediate(r));
        return req.lane === 1 ? null : think({ ...req, lane: undefined });
      },
      { lanes: 2 },
    );
    expect(r).toBeNull();
    expect(asks).toBeLessThanOrEqual(3);
  });
});

describe('close calls looked at again deeper', () => {
  // A line of 6 moves from the start; the engine is a script: each position's score by its index and by
  // whether the search is the quick one (depth 1) or the deeper one (depth 5). Its best move is always one
  // the line did not play, so every drop counts.
  const line = (() => {
    const moves = [];
    let pos = START;
    for (let i = 0; i < 6; i++) {
      // A quiet line: every position on it has a move other than the one played.
      const m = legalMoves(pos).find(
        (m) => legalMoves(playMove(pos, m)).length > 1 && legalMoves(playMove(pos, m)).every((r) => !r.captures.length),
      )!;
      moves.push(m);
      pos = playMove(pos, m);
    }
    return moves;
  })();
  const fens = (() => {
    const out = [makeFen(START)];
    let pos = START;
    for (const m of line) out.push(makeFen((pos = playMove(pos, m))));
    return out;
  })();
  const other = (req: EngineRequest) => legalMoves(req.position).find((m) => !line.some((l) => sameMove(l, m)))!;
  // Scores by position, side to move's view (a move's drop is the sum of the scores on its two sides). Quick: move 1
  // drops 40 (close), move 3 drops 70 (a mistake), move 5 drops 10. Deep: move 1 drops 100 (a real mistake), move 3 20.
  const quickScore = [0, 0, 40, -40, 110, -110, 120];
  const deepScore = [0, 0, 100, -100, 120, -110, 120];
  const script = (asked: { i: number; deep: boolean; lane?: number | undefined }[]) => (req: EngineRequest) => {
    const i = fens.indexOf(makeFen(req.position));
    const deep = req.limits.depth === 5;
    asked.push({ i, deep, lane: req.lane });
    const s = (deep ? deepScore : quickScore)[i]!;
    return { move: other(req), score: s, depth: req.limits.depth!, nodes: 1, pv: [other(req)], timeMs: 0 } as unknown as ReturnType<
      typeof think
    >; // a scripted answer: only move and score are read
  };

  it('a close call the deeper search finds a mistake is marked; a quick mistake it clears is not', async () => {
    const asked: { i: number; deep: boolean }[] = [];
    const judged: number[] = [];
    const quick = await analyseLine(START, line, { depth: 1 }, script([]));
    expect(quick!.map((v) => v.mark)).toEqual(['', '', '', '?', '', '']);
    const v = await analyseLine(START, line, { depth: 1 }, script(asked), {
      judged: (p) => judged.push(p),
      confirm: { limits: { depth: 5 }, positions: 10 },
    });
    expect(v!.map((x) => x.mark)).toEqual(['', '?', '', '', '', '']);
    expect(v![1]).toMatchObject({ before: 0, after: -100 });
    // Only the positions around the two close calls (moves 1 and 3) are searched again.
    expect(
      asked
        .filter((a) => a.deep)
        .map((a) => a.i)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    // Every move judged once; the close calls last, after their deeper look.
    expect([...judged].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(judged.slice(-2).sort()).toEqual([1, 3]);
  });

  it('within its budget the calls nearest the mistake line go first; the rest keep the quick verdict', async () => {
    const asked: { i: number; deep: boolean }[] = [];
    // Room for two positions: move 3 (quick drop 70, 10 from the line) before move 1 (drop 40, 20 from it).
    const v = await analyseLine(START, line, { depth: 1 }, script(asked), { confirm: { limits: { depth: 5 }, positions: 2 } });
    expect(
      asked
        .filter((a) => a.deep)
        .map((a) => a.i)
        .sort(),
    ).toEqual([3, 4]);
    expect(v!.map((x) => x.mark)).toEqual(['', '', '', '', '', '']);
  });

  it('the deeper searches share the lanes, and a cancel among them ends the analysis', async () => {
    const asked: { i: number; deep: boolean; lane?: number | undefined }[] = [];
    const run = script(asked);
    const v = await analyseLine(START, line, { depth: 1 }, async (req) => run(req), {
      lanes: 2,
      confirm: { limits: { depth: 5 }, positions: 10 },
    });
    expect(v!.map((x) => x.mark)).toEqual(['', '?', '', '', '', '']);
    expect(new Set(asked.filter((a) => a.deep).map((a) => a.lane))).toEqual(new Set([0, 1]));
    let deepAsks = 0;
    const cancelled = await analyseLine(
      START,
      line,
      { depth: 1 },
      async (req) => (req.limits.depth === 5 && ++deepAsks === 2 ? null : run(req)),
      { lanes: 2, confirm: { limits: { depth: 5 }, positions: 10 } },
    );
    expect(cancelled).toBeNull();
    expect(deepAsks).toBeLessThanOrEqual(3);
  });

  it('a deeper look is four times the time or nodes, or four plies more', () => {
    expect(deeperLimits({ timeMs: 500, level: 10 })).toEqual({ timeMs: 2000, level: 10 });
    expect(deeperLimits({ depth: 8 })).toEqual({ depth: 12 });
    expect(deeperLimits({ nodes: 1000 })).toEqual({ nodes: 4000 });
  });
});
