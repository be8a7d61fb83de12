// Swiss over five rounds with 9 and 12 players, results drawn from a seeded
// PRNG, with and without ballot pairs: no pairing repeats, nobody's colour
// difference (games 1 as Black minus as White) passes 2, nobody gets a
// second bye, and the bye goes to the lowest-ranked player without one.
// Round 1 pairs the top half against the bottom half by rating.

import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/common/prng.ts';
import type { BallotMode, GameResult, TournamentEvent } from '../../src/tournament/events.ts';
import { MAX_COLOUR_DIFFERENCE, pairSwiss } from '../../src/tournament/pairing.ts';
import { scores, standings } from '../../src/tournament/standings.ts';
import type { TournamentState } from '../../src/tournament/tournament.ts';
import { addPlayer, apply, create } from './helpers.ts';

const RESULTS: GameResult[] = ['1-0', '0-1', '1/2-1/2'];

function field(players: number, ballots: BallotMode, seed: number): TournamentState {
  const names = Array.from({ length: players }, (_, i) => addPlayer(`P${i + 1}`, i, { rating: 2000 - 10 * i }));
  return apply(null, create({ system: 'swiss', rounds: 5, ballots, seed }), ...names);
}

interface Run {
  s: TournamentState;
  /** before each round: the bye's place among players without a bye, from the bottom of the ranking (0 = lowest) */
  byeRanks: number[];
}

function run(players: number, ballots: BallotMode, seed: number): Run {
  let s = field(players, ballots, seed);
  const rng = mulberry32(seed * 31 + players);
  const byeRanks: number[] = [];
  let at = 5000;
  for (let round = 1; round <= 5; round++) {
    // The Swiss ranking: points, then rating (here falling with the seed number).
    const score = scores(s);
    const before = [...s.players].sort((a, b) => score.get(b.seed)! - score.get(a.seed)! || a.seed - b.seed);
    const e = pairSwiss(s, at++, 'arbiter');
    if (e.bye !== null) {
      const hadBye = new Set(s.played.map((r) => r.bye));
      const eligible = before.filter((r) => !hadBye.has(r.seed)).reverse();
      byeRanks.push(eligible.findIndex((r) => r.seed === e.bye));
    }
    s = apply(s, e);
    const results: TournamentEvent[] = s.played[round - 1].pairings.flatMap((p) =>
      p.games.map((g) => ({
        t: 'result' as const,
        at: at++,
        by: 'board',
        round,
        board: p.board,
        game: g.game,
        result: RESULTS[Math.floor(rng() * 3)],
        gameId: null,
      })),
    );
    s = apply(s, ...results);
  }
  return { s, byeRanks };
}

function check({ s, byeRanks }: Run, players: number): void {
  const met = new Set<string>();
  const balance = new Map<number, number>();
  const byes = new Map<number, number>();
  for (const r of s.played) {
    const inRound = r.pairings.flatMap((p) => [p.black, p.white]).concat(r.bye === null ? [] : [r.bye]);
    expect(new Set(inRound).size).toBe(players);
    if (r.bye !== null) byes.set(r.bye, (byes.get(r.bye) ?? 0) + 1);
    for (const p of r.pairings) {
      const key = [p.black, p.white].sort((a, b) => a - b).join('-');
      expect(met.has(key), `round ${r.round}: ${key} again`).toBe(false);
      met.add(key);
      balance.set(p.black, (balance.get(p.black) ?? 0) + 1);
      balance.set(p.white, (balance.get(p.white) ?? 0) - 1);
    }
  }
  for (const [seed, b] of balance) expect(Math.abs(b), `player ${seed}`).toBeLessThanOrEqual(MAX_COLOUR_DIFFERENCE);
  for (const n of byes.values()) expect(n).toBe(1);
  if (players % 2) {
    expect(byes.size).toBe(5);
    expect(byeRanks).toEqual([0, 0, 0, 0, 0]);
  } else expect(byes.size).toBe(0);
}

describe('Swiss pairing', () => {
  for (const ballots of ['acf', 'none'] as const)
    for (const players of [9, 12])
      for (const seed of [1, 2, 3])
        it(`${players} players, ${ballots === 'acf' ? 'ballot pairs' : 'no ballots'}, seed ${seed}: five rounds without repeats, colours within 2, one bye each at most`, () => {
          check(run(players, ballots, seed), players);
        });

  it('round 1 pairs the top half against the bottom half by rating, colours alternating down the boards', () => {
    const s = field(12, 'acf', 4);
    const e = pairSwiss(s, 1, 'arbiter');
    expect(e.pairings.map((p) => [p.black, p.white].sort((a, b) => a - b))).toEqual([
      [1, 7],
      [2, 8],
      [3, 9],
      [4, 10],
      [5, 11],
      [6, 12],
    ]);
    const topBlack = e.pairings.map((p) => p.black < p.white);
    expect(topBlack).toEqual(topBlack.map((_, i) => (i % 2 === 0) === topBlack[0]));
    expect(new Set(e.pairings.map((p) => p.ballot)).size).toBe(1);
  });

  it('pairs within score groups: after a round of wins, winners meet winners and losers meet losers', () => {
    let s = field(12, 'none', 6);
    s = apply(s, pairSwiss(s, 1, 'arbiter'));
    s = apply(
      s,
      ...s.played[0].pairings.map((p) => ({
        t: 'result' as const,
        at: 2,
        by: 'board',
        round: 1,
        board: p.board,
        game: 1 as const,
        result: '1-0' as const,
        gameId: null,
      })),
    );
    const winners = new Set(s.played[0].pairings.map((p) => p.black));
    const e = pairSwiss(s, 3, 'arbiter');
    for (const p of e.pairings) expect(winners.has(p.black)).toBe(winners.has(p.white));
    // The winners' group on the top boards.
    expect(e.pairings.map((p) => winners.has(p.black))).toEqual([true, true, true, false, false, false]);
  });

  it('is deterministic: the same state pairs the same way', () => {
    const a = run(9, 'acf', 5).s;
    const b = run(9, 'acf', 5).s;
    expect(b.played).toEqual(a.played);
  });

  it('scores a bye as the arbiter set it, per game of a pairing, and lists it apart from games', () => {
    for (const [byePoints, ballots, expected] of [
      [undefined, 'acf', 2],
      [0.5, 'acf', 1],
      [0, 'none', 0],
      [0.5, 'none', 0.5],
    ] as const) {
      let s = apply(null, create({ system: 'swiss', rounds: 2, ballots, byePoints }), addPlayer('A'), addPlayer('B'), addPlayer('C'));
      s = apply(s, pairSwiss(s, 1, 'arbiter'));
      const bye = s.played[0].bye!;
      const row = standings(s).find((r) => r.seed === bye)!;
      expect([row.points, row.byes, row.played, row.won]).toEqual([expected, 1, 0, 0]);
      expect(row.tieBreaks.map((t) => t.value)).toEqual([0, 0]);
    }
  });

  it('says so when no pairing without a repeat is left', () => {
    let s = field(4, 'none', 1);
    for (let round = 1; round <= 3; round++) {
      s = apply(s, pairSwiss(s, round, 'arbiter'));
      for (const p of s.played[round - 1].pairings)
        s = apply(s, { t: 'result', at: round, by: 'board', round, board: p.board, game: 1, result: '1/2-1/2', gameId: null });
    }
    expect(() => pairSwiss(s, 4, 'arbiter')).toThrow('round 4 cannot be paired without a repeat meeting: the arbiter pairs it by hand');
  });

  it('leaves a withdrawn player out', () => {
    let s = field(6, 'none', 1);
    s = apply(s, { t: 'withdraw-player', at: 3000, by: 'arbiter', player: 2, reason: 'ill' });
    const e = pairSwiss(s, 3001, 'arbiter');
    expect(e.pairings.flatMap((p) => [p.black, p.white])).not.toContain(2);
    expect(e.bye).toBe(6);
  });
});
