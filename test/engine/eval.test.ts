import { describe, expect, it } from 'vitest';
import { evaluateBlack, features, PHASE_STEPS, seededRandom, WEIGHT_NAMES, WEIGHTS, type Weights } from '../../src/engine/index.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { Game, START } from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';

describe('evaluation features (what npm run tune fits)', () => {
  it('the score is the weights times the features (blended by phase), for the current table and for other tables', () => {
    const random = seededRandom(3);
    const tables: Weights[] = [
      WEIGHTS,
      Object.fromEntries(WEIGHT_NAMES.map((k) => [k, Math.round(random() * 200 - 50)])) as unknown as Weights,
    ];
    // The positions of the first 40 games (a record that does not replay stops where it fails).
    const positions: { black: number; white: number; kings: number }[] = [];
    for (const g of readPdn(corpusFile('tinsley.pdn')).games.slice(0, 40)) {
      const game = new Game(START);
      try {
        for (const n of g.moves) {
          game.play(n.move);
          positions.push(game.position);
        }
      } catch {
        continue;
      }
    }
    let checked = 0;
    for (const { black, white, kings } of positions) {
      const f = features(black, white, kings);
      for (const W of tables) {
        const sum = WEIGHT_NAMES.reduce((s, k) => s + W[k] * f[k], 0);
        expect(Math.trunc(sum / PHASE_STEPS) + 0).toBe(evaluateBlack(black, white, kings, W) + 0);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('the same on scattered positions with kings and lone runaways (the fast path against the features, term by term)', () => {
    const random = seededRandom(11);
    const tables: Weights[] = [
      WEIGHTS,
      Object.fromEntries(WEIGHT_NAMES.map((k) => [k, Math.round(random() * 200 - 50)])) as unknown as Weights,
    ];
    let kinged = 0;
    for (let n = 0; n < 3000; n++) {
      // 2–24 pieces on distinct squares, each side's men off its own crowning row, some of them kings.
      const pieces = 2 + Math.floor(random() * 23);
      let black = 0,
        white = 0,
        kings = 0;
      for (let i = 0; i < pieces; i++) {
        const sq = Math.floor(random() * 32);
        const bit = 1 << sq;
        if ((black | white) & bit) continue;
        const king = random() < 0.3;
        if (random() < 0.5) {
          if (!king && sq >= 28) continue;
          black |= bit;
        } else {
          if (!king && sq < 4) continue;
          white |= bit;
        }
        if (king) kings |= bit;
      }
      if (kings) kinged++;
      const f = features(black, white, kings);
      for (const W of tables) {
        const sum = WEIGHT_NAMES.reduce((s, k) => s + W[k] * f[k], 0);
        expect(Math.trunc(sum / PHASE_STEPS) + 0, `${black} ${white} ${kings}`).toBe(evaluateBlack(black, white, kings, W) + 0);
      }
    }
    expect(kinged).toBeGreaterThan(1000);
  });

  it('the table is whole numbers with the man as the unit', () => {
    expect(WEIGHTS.man_m).toBe(100);
    for (const k of WEIGHT_NAMES) expect(Number.isInteger(WEIGHTS[k])).toBe(true);
  });
});
