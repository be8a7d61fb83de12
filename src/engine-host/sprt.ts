// Deciding a change honestly and quickly: the sequential probability ratio
// test over self-play, as the chess engines' testing frameworks run it. Each
// ballot is played twice with the colours swapped (a pair), and a pair's score
// (0, ½, 1, 1½ or 2 for the engine under test) is one sample: the pentanomial
// model, which takes the ballot's own bias out of the variance. H0: the change
// is worth elo0 (logistic Elo), H1: elo1; the log-likelihood ratio of the
// results is the generalised SPRT's (each hypothesis' most likely distribution
// of pair scores with that expected score, found exactly: Van den Bergh's
// secular equation), and the test stops when it leaves [ln(β/(1−α)),
// ln((1−β)/α)]. The per-game (trinomial: win, draw, loss) form of the same
// ratio is here too. Pure functions, and the loop that plays pairs until the
// test decides over any two match players (match.ts).

import { playGame, type GameRecord, type MoveLimit, type Player } from './match.ts';

/** The test's settings: Elo bounds (logistic) and error rates. */
export interface SprtBounds {
  readonly elo0: number;
  readonly elo1: number;
  readonly alpha: number;
  readonly beta: number;
}

export const DEFAULT_SPRT: SprtBounds = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 };

/** Expected score of an Elo difference (logistic). */
export const scoreOfElo = (elo: number): number => 1 / (1 + 10 ** (-elo / 400));

/** Where the test stops: below `lower` H0 is accepted, above `upper` H1. */
export function sprtLimits(b: Pick<SprtBounds, 'alpha' | 'beta'>): { lower: number; upper: number } {
  return { lower: Math.log(b.beta / (1 - b.alpha)), upper: Math.log((1 - b.beta) / b.alpha) };
}

/**
 * The most likely distribution over the observed outcomes `a` (with
 * frequencies `p`, summing to 1) whose mean is `s`: p_i / (1 + x (a_i − s)),
 * x the root of Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0 (bisection: the sum
 * falls with x on the interval where every weight is positive). Returns the
 * log-likelihood per sample against the empirical distribution's: −Σ p_i ln(1 + x (a_i − s)).
 */
function constrainedLogLikelihood(a: readonly number[], p: readonly number[], s: number): number {
  const d = a.map((ai) => ai - s);
  const lo0 = -1 / Math.max(...d),
    hi0 = -1 / Math.min(...d);
  // s outside the outcomes' range: no distribution on them has that mean (never, with every outcome counted).
  if (!(Math.max(...d) > 0 && Math.min(...d) < 0)) return -Infinity;
  let lo = lo0,
    hi = hi0;
  const f = (x: number): number => d.reduce((acc, di, i) => acc + (p[i]! * di) / (1 + x * di), 0);
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  const x = (lo + hi) / 2;
  return -d.reduce((acc, di, i) => acc + p[i]! * Math.log(1 + x * di), 0);
}

/** Stands for an outcome not seen yet (as fishtest regularises): every mean between the outcomes stays possible. */
const UNSEEN = 1e-3;

/**
 * The generalised SPRT's log-likelihood ratio of H1 against H0 for samples
 * with outcomes `values` seen `counts` times each: N × (ℓ(s1) − ℓ(s0)), an
 * outcome not seen yet counted as UNSEEN (else a test whose results all lie
 * on one side of s0 and s1 — all draws, say — would have no ratio at all).
 */
export function llrOf(values: readonly number[], counts: readonly number[], b: Pick<SprtBounds, 'elo0' | 'elo1'>): number {
  if (counts.every((c) => c === 0)) return 0;
  const reg = counts.map((c) => (c > 0 ? c : UNSEEN));
  const n = reg.reduce((x, y) => x + y, 0);
  const p = reg.map((c) => c / n);
  return n * (constrainedLogLikelihood(values, p, scoreOfElo(b.elo1)) - constrainedLogLikelihood(values, p, scoreOfElo(b.elo0)));
}

/** Pair scores (both games of a ballot) for the engine under test: counts of 0, ½, 1, 1½, 2. */
export type Pentanomial = readonly [number, number, number, number, number];

/** The pentanomial LLR (a pair's score as a fraction: 0, ¼, ½, ¾, 1). */
export const llrPentanomial = (pairs: Pentanomial, b: Pick<SprtBounds, 'elo0' | 'elo1'>): number =>
  llrOf([0, 0.25, 0.5, 0.75, 1], pairs, b);

/** The trinomial LLR from single games: losses, draws, wins. */
export const llrTrinomial = (losses: number, draws: number, wins: number, b: Pick<SprtBounds, 'elo0' | 'elo1'>): number =>
  llrOf([0, 0.5, 1], [losses, draws, wins], b);

/** The simple approximation (normal, per sample): N/2 · ln((σ² + (μ − s0)²) / (σ² + (μ − s1)²)); close for small Elo. */
export function llrApproximate(values: readonly number[], counts: readonly number[], b: Pick<SprtBounds, 'elo0' | 'elo1'>): number {
  const n = counts.reduce((x, y) => x + y, 0);
  if (n === 0) return 0;
  const mu = values.reduce((acc, v, i) => acc + v * counts[i]!, 0) / n;
  const v2 = values.reduce((acc, v, i) => acc + (v - mu) ** 2 * counts[i]!, 0) / n;
  const s0 = scoreOfElo(b.elo0),
    s1 = scoreOfElo(b.elo1);
  return (n / 2) * Math.log((v2 + (mu - s0) ** 2) / (v2 + (mu - s1) ** 2));
}

export type SprtVerdict = 'H1' | 'H0' | 'undecided';

export interface SprtState {
  readonly pairs: Pentanomial;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly llr: number;
  readonly verdict: SprtVerdict;
}

/** The state after some pairs: LLR and verdict. */
export function sprtState(pairs: Pentanomial, wins: number, draws: number, losses: number, b: SprtBounds): SprtState {
  const llr = llrPentanomial(pairs, b);
  const { lower, upper } = sprtLimits(b);
  const verdict = llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'undecided';
  return { pairs, wins, draws, losses, llr, verdict };
}

/**
 * Plays pairs (`test` with Black on a ballot, then with White) until the test
 * decides or `maxPairs` have been played; `onPair` after each pair.
 */
export async function runSprt(
  test: Player,
  base: Player,
  ballots: readonly number[],
  limit: MoveLimit,
  b: SprtBounds,
  maxPairs: number,
  onPair?: (s: SprtState, games: readonly GameRecord[]) => void,
  graceMs = 1000,
): Promise<SprtState> {
  const pairs: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let wins = 0,
    draws = 0,
    losses = 0;
  let state = sprtState(pairs, 0, 0, 0, b);
  for (let i = 0; i < maxPairs && state.verdict === 'undecided'; i++) {
    const ballot = ballots[i % ballots.length]!;
    const g1 = await playGame(ballot, test, base, limit, graceMs);
    const g2 = await playGame(ballot, base, test, limit, graceMs);
    const s1 = g1.blackScore,
      s2 = 1 - g2.blackScore;
    for (const s of [s1, s2]) {
      if (s === 1) wins++;
      else if (s === 0) losses++;
      else draws++;
    }
    pairs[Math.round(2 * (s1 + s2))]!++;
    state = sprtState([...pairs], wins, draws, losses, b);
    onPair?.(state, [g1, g2]);
  }
  return state;
}
