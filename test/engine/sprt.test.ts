// The sequential test that decides a change (src/engine-host/sprt.ts): its
// log-likelihood ratios against closed forms (where only two outcomes are
// seen, the most likely distribution of a given mean is fixed; the unseen
// ones' tiny regularising count moves it in the fourth decimal) and against an
// independent computation (scipy's brentq on the same secular equation, the
// same regularisation, 2026-11-28), its stopping bounds, and its loop over
// scripted players.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPRT,
  llrApproximate,
  llrPentanomial,
  llrTrinomial,
  runSprt,
  scoreOfElo,
  sprtLimits,
  sprtState,
} from '../../src/engine-host/sprt.ts';
import type { Player } from '../../src/engine-host/match.ts';
import { legalMoves } from '../../src/rules/index.ts';

const b05 = { elo0: 0, elo1: 5 };

describe('the SPRT log-likelihood ratio', () => {
  it('the bounds at α = β = 0.05: ±ln(19) = ±2.944', () => {
    const { lower, upper } = sprtLimits(DEFAULT_SPRT);
    expect(lower).toBeCloseTo(-2.9444389791664403, 12);
    expect(upper).toBeCloseTo(2.9444389791664403, 12);
    expect(scoreOfElo(5)).toBeCloseTo(0.5071950817090514, 12);
  });

  it('two outcomes only (no draws): the closed form W·ln(s1/s0) + L·ln((1−s1)/(1−s0))', () => {
    const s1 = scoreOfElo(5);
    const closed = 30 * Math.log(s1 / 0.5) + 20 * Math.log((1 - s1) / 0.5);
    expect(closed).toBeCloseTo(0.13873411214809606, 12);
    expect(llrTrinomial(20, 0, 30, b05)).toBeCloseTo(closed, 3);
    expect(llrTrinomial(20, 0, 30, b05)).toBeCloseTo(0.1387367872300359, 9);
  });

  it('pairs split 1–1 or 1½–½ only: the two-point closed form on ¼ and ¾', () => {
    const q1 = (scoreOfElo(5) - 0.25) / 0.5;
    const closed = 20 * Math.log(q1 / 0.5) + 12 * Math.log((1 - q1) / 0.5);
    expect(llrPentanomial([0, 12, 0, 20, 0], b05)).toBeCloseTo(closed, 3);
    expect(llrPentanomial([0, 12, 0, 20, 0], b05)).toBeCloseTo(0.21700072403765336, 9);
    expect(closed).toBeCloseTo(0.21704780966110482, 12);
  });

  it('five outcomes: the values an independent solver gives', () => {
    expect(llrPentanomial([10, 40, 90, 45, 15], b05)).toBeCloseTo(0.3786189183864296, 9);
    expect(llrPentanomial([10, 40, 90, 45, 15], { elo0: -5, elo1: 0 })).toBeCloseTo(0.5565306592953418, 9);
    expect(llrPentanomial([5, 60, 300, 80, 5], { elo0: 0, elo1: 10 })).toBeCloseTo(1.0116482450416002, 9);
    expect(llrTrinomial(60, 300, 80, b05)).toBeCloseTo(0.7627542621315619, 9);
  });

  it('the normal approximation is close for small Elo; nothing seen is no evidence; results on one side of both means still count', () => {
    const counts = [10, 40, 90, 45, 15];
    expect(llrApproximate([0, 0.25, 0.5, 0.75, 1], counts, b05)).toBeCloseTo(llrPentanomial([10, 40, 90, 45, 15], b05), 2);
    expect(llrPentanomial([0, 0, 0, 0, 0], b05)).toBe(0);
    // All draws, or draws and a lost pair: a mean at or below s0 = ½ — for H0, a finite ratio (the smoke run's first NaN).
    expect(llrPentanomial([0, 0, 7, 0, 0], b05)).toBeCloseTo(-0.09630050235527185, 9);
    expect(llrPentanomial([0, 1, 3, 0, 0], b05)).toBeCloseTo(-0.05786067386550752, 9);
  });

  it('the verdict: H1 above the upper bound, H0 below the lower, else undecided', () => {
    expect(sprtState([0, 20, 100, 300, 200], 0, 0, 0, DEFAULT_SPRT).verdict).toBe('H1');
    expect(sprtState([200, 300, 100, 20, 0], 0, 0, 0, DEFAULT_SPRT).verdict).toBe('H0');
    expect(sprtState([1, 2, 3, 2, 1], 0, 0, 0, DEFAULT_SPRT).verdict).toBe('undecided');
  });
});

describe('the SPRT loop plays pairs, colours swapped, until the test decides', () => {
  /** A player that moves instantly: the first legal move (`strong`: the one that captures most, else the first). */
  const player = (name: string, strong: boolean): Player => ({
    name,
    newGame: async () => undefined,
    move: async (game) => {
      const legal = legalMoves(game.position);
      return strong ? legal.reduce((a, m) => (m.captures.length > a.captures.length ? m : a), legal[0]!) : legal[legal.length - 1]!;
    },
    close: async () => undefined,
  });

  it('each pair is one ballot with both colours; it stops at a verdict or at the cap', async () => {
    const seen: string[] = [];
    const s = await runSprt(player('a', true), player('b', false), [1, 2, 3], { depth: 1 }, DEFAULT_SPRT, 4, (_, games) =>
      seen.push(games.map((g) => `${g.ballot}:${g.black}`).join(' ')),
    );
    expect(seen[0]).toBe('1:a 1:b');
    expect(seen.length).toBeLessThanOrEqual(4);
    expect(s.pairs.reduce((x, y) => x + y, 0)).toBe(seen.length);
    expect(s.wins + s.draws + s.losses).toBe(2 * seen.length);
    if (seen.length < 4) expect(s.verdict).not.toBe('undecided');
  });
});
