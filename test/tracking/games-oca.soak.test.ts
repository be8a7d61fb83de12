// Every game of OCA_2.0.pdn played on the simulated board by the hand with
// every habit of real players (table.ts) comes out as the same moves, with
// zero alerts, and the PDN written from the tracked game equals the record
// (moves and result). Incomplete-move reminders (quiet) are allowed. Three
// games in four on a polarity-coded board (codingFor).
import { describe, expect, it } from 'vitest';
import { readPdn, makePdn, pdnFromGame } from '../../src/pdn/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { codingFor, soakIndexes } from '../harness/corpus-games.ts';
import { HUMAN, RandomHand, Table } from '../harness/table.ts';

describe('OCA_2.0.pdn on the simulated board', () => {
  const games = readPdn(corpusFile('OCA_2.0.pdn')).games;
  it('has 43 games', () => expect(games.length).toBe(43));
  const play = new Set(soakIndexes(0, games.length));
  for (const [k, g] of games.entries()) {
    if (!play.has(k)) continue;
    it(`game ${k + 1}: ${g.tags.find(([n]) => n === 'Event')?.[1]} — same PDN, no alerts`, async () => {
      const table = new Table({ seed: 500 + k, physics: { coding: codingFor(500 + k) } });
      await table.open();
      table.setUp();
      const hand = new RandomHand(table, 9000 + k, HUMAN);
      for (const node of g.moves) hand.playMove(node.move);
      table.wait(1000);
      // (Not the physically ambiguous crown, counted apart: see table.ts.)
      expect(
        table.alerts().filter((a) => a.category !== 'not-crowned' || !a.squares.some((q) => table.ambiguousCrowns.includes(q))),
      ).toEqual([]);
      // The result is given by the players (resignation, agreement), not seen on the board.
      const written = makePdn(pdnFromGame(table.game, { tags: g.tags, result: g.result }));
      expect(written).toBe(makePdn(g));
    });
  }
});
