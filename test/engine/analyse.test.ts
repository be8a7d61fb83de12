// The one game analysis (src/engine/analyse.ts), used by the page through the
// coach and by `crownhead analyse`: a lost position scores −WIN whoever asks,
// and a cancelled search (the scheduler answers null) ends it without asking
// for the rest of the game.
import { describe, expect, it } from 'vitest';
import { analyseLine, scoreText, think, WIN, type EngineRequest } from '../../src/engine/index.ts';
import { legalMoves, parseFen, START } from '../../src/rules/index.ts';
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
