// Seen in bench/tracking-habits.ts (the off-centre-nudge hand, 60 %): tinsley
// game 0 played on the simulated board with seed 1, a polarity-coded board.
// At ply 50 (12x19) the Black man leaves square 12, where he had stood since
// the set-up; 95 s later the square's empty level reads 12 counts (0.09 of a
// step) below the one learnt then — the room's drift, the warm-up, White's
// coins on 8 and 16 beside it. Square 12 is on the flip prior (every man's own
// square: a j'adoube put back magnet-up), and the reader kept the man lifted
// off as his coin lying magnet-up; with the jumper on 19 and the captured man
// gone the board counted as 19-16 taken back, then a piece missing from 12 —
// three alerts for a legal capture. A coin cannot turn over without leaving its
// square: the man is gone, and a coin magnet-up there must arrive past the bar.
import { describe, expect, it } from 'vitest';
import { playCorpusGame } from '../harness/corpus-games.ts';
import { TIDY } from '../harness/table.ts';

describe('a man lifted from a square whose empty level drifted while he stood there', () => {
  it('tinsley game 0, seed 1, pieces put down off-centre and nudged: every move recorded, no alert', async () => {
    const r = await playCorpusGame('tinsley.pdn', 0, { ...TIDY, offCentreNudge: 0.6 });
    expect(r.detail).toBe('');
    expect([r.exact, r.alerts]).toEqual([true, 0]);
  });
});
