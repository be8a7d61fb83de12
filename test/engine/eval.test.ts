import { describe, expect, it } from 'vitest';
import {
  compileWeights,
  decodePatterns,
  encodePatterns,
  evaluateBlack,
  evaluateWithin,
  LAZY_MARGIN,
  features,
  foldPatterns,
  PATTERN_WEIGHTS,
  PATTERNS,
  patternFeatures,
  patternSums,
  PHASE_STEPS,
  phaseOf,
  seededRandom,
  WEIGHT_NAMES,
  WEIGHTS,
  type Weights,
} from '../../src/engine/index.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { Game, START } from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';

/** Σ weight × feature over the named weights and the pattern tables, before the blend's division (what the tuner fits). */
function linearSum(W: Weights, b: number, w: number, k: number): number {
  const f = features(b, w, k);
  let sum = WEIGHT_NAMES.reduce((s, n) => s + W[n] * f[n], 0);
  if (W.patterns) {
    let pieces = 0;
    for (let x = b | w; x; x &= x - 1) pieces++;
    const ph = phaseOf(pieces);
    const [mid, end] = patternSums(b & ~k, w & ~k, W.patterns);
    sum += mid * ph + end * (PHASE_STEPS - ph);
  }
  return sum;
}
/** A table of random weights, with random pattern tables or none. */
function randomTable(random: () => number, patterns: boolean): Weights {
  const W = Object.fromEntries(WEIGHT_NAMES.map((k) => [k, Math.round(random() * 200 - 50)])) as Record<string, unknown>;
  if (patterns) W.patterns = Int16Array.from({ length: PATTERN_WEIGHTS }, () => Math.round(random() * 60 - 30));
  return W as unknown as Weights;
}

/** The positions of the first `games` games of tinsley.pdn (a record that does not replay stops where it fails). */
function tinsleyPositions(games: number): { black: number; white: number; kings: number }[] {
  const positions: { black: number; white: number; kings: number }[] = [];
  for (const g of readPdn(corpusFile('tinsley.pdn')).games.slice(0, games)) {
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
  return positions;
}

describe('evaluation features (what npm run tune fits)', () => {
  it('the score is the weights times the features (blended by phase), for the current table and for other tables', () => {
    const random = seededRandom(3);
    const tables: Weights[] = [WEIGHTS, randomTable(random, false), randomTable(random, true)];
    const positions = tinsleyPositions(40);
    let checked = 0;
    for (const { black, white, kings } of positions) {
      for (const W of tables) {
        const sum = linearSum(W, black, white, kings);
        expect(Math.trunc(sum / PHASE_STEPS) + 0).toBe(evaluateBlack(black, white, kings, W) + 0);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('the same on scattered positions with kings and lone runaways (the fast path against the features, term by term)', () => {
    const random = seededRandom(11);
    const tables: Weights[] = [WEIGHTS, randomTable(random, false), randomTable(random, true)];
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
      for (const W of tables) {
        const sum = linearSum(W, black, white, kings);
        expect(Math.trunc(sum / PHASE_STEPS) + 0, `${black} ${white} ${kings}`).toBe(evaluateBlack(black, white, kings, W) + 0);
      }
    }
    expect(kinged).toBeGreaterThan(1000);
  });

  it('lazy about the pattern tables only far outside the window: exact inside it, on the same side outside it', () => {
    const random = seededRandom(17);
    // Tables with patterns (random ones, whose sums often pass the margin) and one without.
    const tables: Weights[] = [WEIGHTS, randomTable(random, true), randomTable(random, false)];
    let exact = 0,
      lazy = 0;
    const positions = tinsleyPositions(10);
    for (const W of tables) {
      const c = compileWeights(W);
      const named = compileWeights({ ...W, patterns: undefined });
      for (const { black, white, kings } of positions) {
        const full = evaluateBlack(black, white, kings, W),
          without = evaluateBlack(black, white, kings, named.weights);
        // A window around the score, or one a man or more away on either side, narrow or wide.
        const at = full + Math.round((random() - 0.5) * 600),
          lo = at - (random() < 0.5 ? 1 : Math.round(random() * 100)),
          hi = at;
        const r = evaluateWithin(c, black, white, kings, lo, hi);
        if (c.patterns === null || (without + LAZY_MARGIN > lo && without - LAZY_MARGIN < hi)) {
          expect(r).toBe(full);
          exact++;
        } else {
          expect(r).toBe(without);
          lazy++;
          // On the window's side the full score is on, unless the patterns' sum passed the margin.
          if (Math.abs(full - without) < LAZY_MARGIN) {
            expect(r <= lo).toBe(full <= lo);
            expect(r >= hi).toBe(full >= hi);
          }
        }
      }
    }
    expect(exact).toBeGreaterThan(500);
    expect(lazy).toBeGreaterThan(500);
  });

  it('the pattern tables: both colours scored alike, stored and read back exactly', () => {
    // Turning the board round and swapping the colours negates the patterns' sum, for any tables.
    const random = seededRandom(5);
    const tables = [PATTERNS, randomTable(random, true).patterns!];
    for (let n = 0; n < 500; n++) {
      let bm = 0,
        wm = 0;
      for (let i = 0; i < 32; i++) {
        const r = random();
        if (r < 0.3) bm |= 1 << i;
        else if (r < 0.6) wm |= 1 << i;
      }
      let tb = 0,
        tw = 0;
      for (let i = 0; i < 32; i++) {
        if ((bm >>> i) & 1) tw |= 1 << (31 - i);
        if ((wm >>> i) & 1) tb |= 1 << (31 - i);
      }
      for (const P of tables) {
        const [m1, e1] = patternSums(bm, wm, P),
          [m2, e2] = patternSums(tb, tw, P);
        expect([m1 + m2 + 0, e1 + e2 + 0]).toEqual([0, 0]);
      }
      // 15 windows of 4 rows × 2 and 7 of 2 rows; the two self-symmetric ones read for both colours.
      expect(patternFeatures(bm, wm)).toHaveLength(24);
    }
    // A table whose folded entries would not fit the search's 16 bits is refused, not wrapped round.
    const huge = Int16Array.from({ length: PATTERN_WEIGHTS }, (_, j) => (j % 2 ? -30000 : 30000));
    expect(() => foldPatterns(huge)).toThrow(/does not fit the search's 16-bit tables/);
    const t = tables[1]!;
    expect(decodePatterns(encodePatterns(t, 'a test').toString('base64'))).toEqual(t);
    expect(() => encodePatterns(new Int16Array(3), '')).toThrow(/pattern tables hold 3 weights, not the 157464/);
    expect(() => decodePatterns('not gzipped')).toThrow(/pattern data does not gunzip/);
    // The shipped tables are the engine's (eval-patterns-data.ts), and they are not empty.
    expect(WEIGHTS.patterns).toBe(PATTERNS);
    expect(PATTERNS).toHaveLength(PATTERN_WEIGHTS);
    expect(PATTERNS.some((x) => x !== 0)).toBe(true);
    // The evaluation sums both phases in one packed integer: tables whose sums could pass ±32767 are refused.
    const big = new Int16Array(PATTERN_WEIGHTS).fill(3000, 0, PATTERN_WEIGHTS / 2); // every window's entries ±3000 (0 if self-symmetric)
    expect(() => compileWeights({ ...WEIGHTS, patterns: big })).toThrow(/pattern weights too large: their sums may reach \d+/);
    expect(() => compileWeights({ ...WEIGHTS, kingOn5_m: 20000 })).toThrow(/square weights too large: their sums may reach \d+/);
  });

  it('the table is whole numbers with the man as the unit', () => {
    expect(WEIGHTS.man_m).toBe(100);
    for (const k of WEIGHT_NAMES) expect(Number.isInteger(WEIGHTS[k])).toBe(true);
  });
});
