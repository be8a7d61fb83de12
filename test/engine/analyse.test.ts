// The one game analysis (src/engine/analyse.ts), used by the page through the
// coach and by `crownhead analyse`: a lost position scores −WIN whoever asks,
// and a cancelled search (the scheduler answers null) ends it without asking
// for the rest of the game.
import { describe, expect, it } from 'vitest';
import { analyseLine, laneOrder, scoreText, think, WIN, type EngineRequest } from '../../src/engine/index.ts';
import { legalMoves, makeFen, parseFen, playMove, START } from '../../src/rules/index.ts';
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
