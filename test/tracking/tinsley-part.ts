// Every game of tinsley.pdn, split in parts so the test runner can play them in
// parallel, each played on the simulated board by a randomised hand — captured
// pieces removed before, during or after the move; multi-jumps stepped or placed
// straight; crowns on top or underneath; pieces lifted and put back; pauses;
// sensor noise, drift and off-centre placement — must come out as the same moves
// with zero alerts.
import { describe, expect, it } from 'vitest';
import { corpusGameCount, playCorpusGame } from './corpus-games.ts';

export function tinsleyPart(part: number, parts: number): void {
  describe(`tinsley.pdn on the simulated board, part ${part + 1}/${parts}`, () => {
    it('every game comes out move for move, with no alert', { timeout: 600_000 }, async () => {
      const n = corpusGameCount('tinsley.pdn');
      const lo = Math.floor((n * part) / parts), hi = Math.floor((n * (part + 1)) / parts);
      const failures: string[] = [];
      let moves = 0;
      for (let k = lo; k < hi; k++) {
        const run = await playCorpusGame('tinsley.pdn', k);
        moves += run.latencies.length;
        if (!run.ok) failures.push(run.detail);
      }
      expect(failures).toEqual([]);
      expect(moves).toBeGreaterThan(10_000);
    });
  });
}
