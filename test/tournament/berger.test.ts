// Round robin by the Berger tables: the generated tables for 4, 5 (with the
// bye), 6 and 8 players against the published ones (FIDE Handbook C.05,
// Annex 1: "first-named" has the first move, so plays Black in game 1 here),
// and a round-robin tournament paired round by round from them.

import { describe, expect, it } from 'vitest';
import { bergerTable, pairRoundRobin, roundRobinRounds } from '../../src/tournament/pairing.ts';
import { applyTournamentEvent, type TournamentState } from '../../src/tournament/tournament.ts';
import { TournamentError, type TournamentEvent } from '../../src/tournament/events.ts';

/** Published tables, one string per round: "1-4 2-3" (first-named first, by board). */
const PUBLISHED: Record<number, string[]> = {
  4: ['1-4 2-3', '4-3 1-2', '2-4 3-1'],
  6: ['1-6 2-5 3-4', '6-4 5-3 1-2', '2-6 3-1 4-5', '6-5 1-4 2-3', '3-6 4-2 5-1'],
  8: ['1-8 2-7 3-6 4-5', '8-5 6-4 7-3 1-2', '2-8 3-1 4-7 5-6', '8-6 7-5 1-4 2-3', '3-8 4-2 5-1 6-7', '8-7 1-6 2-5 3-4', '4-8 5-3 6-2 7-1'],
};

const asText = (t: [number, number][][]) => t.map((r) => r.map(([a, b]) => `${a}-${b}`).join(' '));

describe('Berger tables', () => {
  for (const n of [4, 6, 8])
    it(`for ${n} players are the published table`, () => {
      expect(asText(bergerTable(n))).toEqual(PUBLISHED[n]);
    });

  it('for 5 players are the table for 6, meeting player 6 being the bye', () => {
    expect(asText(bergerTable(5))).toEqual(PUBLISHED[6]);
    expect(roundRobinRounds(5)).toBe(5);
  });

  for (const n of [4, 5, 6, 8, 10, 12])
    it(`for ${n} players: everyone meets everyone once, first moves within one of each other`, () => {
      const t = bergerTable(n);
      const met = new Set<string>();
      const firsts = new Map<number, number>();
      for (const r of t)
        for (const [a, b] of r) {
          const key = [a, b].sort((x, y) => x - y).join('-');
          expect(met.has(key)).toBe(false);
          met.add(key);
          firsts.set(a, (firsts.get(a) ?? 0) + 1);
        }
      const m = n % 2 ? n + 1 : n;
      expect(met.size).toBe((m * (m - 1)) / 2);
      const counts = [...firsts.values()];
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    });
});

function build(events: TournamentEvent[]): TournamentState {
  let s: TournamentState | null = null;
  for (const e of events) {
    const r = applyTournamentEvent(s, e);
    if (r instanceof TournamentError) throw r;
    s = r;
  }
  return s!;
}

const player = (name: string, at: number): TournamentEvent => ({ t: 'add-player', at, by: 'arbiter', name });

describe('a round robin paired from the tables', () => {
  it('with 5 players gives one bye a round, each player once, and pairs no further than the table', () => {
    let s = build([
      { t: 'create', at: 0, by: 'arbiter', id: 'rr5', name: 'Five', system: 'round-robin', rounds: 5, ballots: 'none', seed: 1 },
      ...['A', 'B', 'C', 'D', 'E'].map(player),
    ]);
    const byes: number[] = [];
    for (let round = 1; round <= 5; round++) {
      const e = pairRoundRobin(s, 100 + round, 'arbiter');
      expect(e.round).toBe(round);
      expect(e.pairings).toHaveLength(2);
      byes.push(e.bye!);
      const next = applyTournamentEvent(s, e);
      if (next instanceof TournamentError) throw next;
      s = next;
      for (const p of s.played[round - 1].pairings)
        s = build([
          ...s.log,
          { t: 'result', at: 200 + round, by: 'board', round, board: p.board, game: 1, result: '1/2-1/2', gameId: null },
        ]);
    }
    expect(byes.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(() => pairRoundRobin(s, 300, 'arbiter')).toThrow(/all 5 rounds are paired/);
  });

  it('double: the second cycle reverses the colours', () => {
    let s = build([
      {
        t: 'create',
        at: 0,
        by: 'arbiter',
        id: 'rr4',
        name: 'Four',
        system: 'round-robin',
        rounds: 6,
        double: true,
        ballots: 'none',
        seed: 1,
      },
      ...['A', 'B', 'C', 'D'].map(player),
    ]);
    const rounds: string[] = [];
    for (let round = 1; round <= 6; round++) {
      const e = pairRoundRobin(s, round, 'arbiter');
      rounds.push(e.pairings.map((p) => `${p.black}-${p.white}`).join(' '));
      const events = [...s.log, e];
      for (const p of e.pairings)
        events.push({ t: 'result', at: round, by: 'board', round, board: p.board, game: 1, result: '1-0', gameId: null });
      s = build(events);
    }
    expect(rounds).toEqual([...PUBLISHED[4], '4-1 3-2', '3-4 2-1', '4-2 1-3']);
  });

  it('leaves out the pairings of a player who withdrew, the others keeping their table', () => {
    let s = build([
      { t: 'create', at: 0, by: 'arbiter', id: 'rr6', name: 'Six', system: 'round-robin', rounds: 5, ballots: 'none', seed: 1 },
      ...['A', 'B', 'C', 'D', 'E', 'F'].map(player),
      { t: 'withdraw-player', at: 10, by: 'arbiter', player: 3, reason: 'called away' },
    ]);
    const e = pairRoundRobin(s, 11, 'arbiter');
    // Round 1 of the table is 1-6 2-5 3-4: without player 3, two boards.
    expect(e.pairings.map((p) => [p.board, p.black, p.white])).toEqual([
      [1, 1, 6],
      [2, 2, 5],
    ]);
    expect(e.bye).toBeNull();
    s = applyOrThrow(s, e);
    expect(s.played[0].pairings).toHaveLength(2);
  });
});

function applyOrThrow(s: TournamentState, e: TournamentEvent): TournamentState {
  const r = applyTournamentEvent(s, e);
  if (r instanceof TournamentError) throw r;
  return r;
}
