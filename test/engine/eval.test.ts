import { describe, expect, it } from 'vitest';
import { evaluateBlack, features, seededRandom, WEIGHT_NAMES, WEIGHTS, type Weights } from '../../src/engine/index.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { Game, START } from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';

describe('evaluation features (what npm run tune fits)', () => {
  it('the score is the weights times the features, for the current table and for other tables', () => {
    const random = seededRandom(3);
    const tables: Weights[] = [
      WEIGHTS,
      Object.fromEntries(WEIGHT_NAMES.map((k) => [k, Math.round(random() * 200 - 50)])) as unknown as Weights,
    ];
    let checked = 0;
    for (const g of readPdn(corpusFile('tinsley.pdn')).games.slice(0, 40)) {
      const game = new Game(START);
      try {
        for (const n of g.moves) {
          game.play(n.move);
          const { black, white, kings } = game.position;
          for (const W of tables) {
            const f = features(black, white, kings, W);
            expect(WEIGHT_NAMES.reduce((s, k) => s + W[k] * f[k], 0)).toBe(evaluateBlack(black, white, kings, W));
          }
          checked++;
        }
      } catch {
        continue;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('the table is whole numbers with the man as the unit', () => {
    expect(WEIGHTS.man).toBe(100);
    for (const k of WEIGHT_NAMES) expect(Number.isInteger(WEIGHTS[k])).toBe(true);
  });
});
