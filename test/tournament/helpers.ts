// Shared by the club tests: building a tournament state from events (any
// refusal fails the test with its message), and the events a test writes
// most (players, a tournament's creation), and a scripted tournament a
// writer can play for ever (the kill -9 test's child and its check).

import { TournamentError, type TournamentEvent } from '../../src/tournament/events.ts';
import { pairRoundRobin } from '../../src/tournament/pairing.ts';
import { applyTournamentEvent, type TournamentState } from '../../src/tournament/tournament.ts';

export type CreateEvent = Extract<TournamentEvent, { t: 'create' }>;

export function create(over: Partial<CreateEvent> = {}): CreateEvent {
  return {
    t: 'create',
    at: 1000,
    by: 'arbiter',
    id: 'club',
    name: 'Club Championship',
    system: 'round-robin',
    rounds: 3,
    ballots: 'acf',
    seed: 7,
    ...over,
  };
}

export const addPlayer = (name: string, i = 0, more: { rating?: number; club?: string } = {}): TournamentEvent => ({
  t: 'add-player',
  at: 2000 + i,
  by: 'arbiter',
  name,
  ...more,
});

/** Applies events in turn to `from` (null: nothing yet); throws the first refusal. */
export function apply(from: TournamentState | null, ...events: TournamentEvent[]): TournamentState {
  let s = from;
  for (const e of events) {
    const r = applyTournamentEvent(s, e);
    if (r instanceof TournamentError) throw r;
    s = r;
  }
  if (!s) throw new Error('no tournament');
  return s;
}

/** The refusal an event meets (fails the test when the event is accepted). */
export function refusal(from: TournamentState | null, e: TournamentEvent): TournamentError {
  const r = applyTournamentEvent(from, e);
  if (!(r instanceof TournamentError)) throw new Error(`${e.t} was accepted`);
  return r;
}

const SCRIPT_RESULTS = ['1-0', '0-1', '1/2-1/2'] as const;

/**
 * The `i`th event (0-based) of a scripted tournament, a function of the state
 * so far: a double round robin of six players with ballot pairs, each game
 * started then given a result, round after round; once it is over, the
 * tournament is renamed again and again (so a writer never runs out).
 */
export function scriptedEvent(s: TournamentState | null, i: number): TournamentEvent {
  const at = 1_700_000_000_000 + i * 1000;
  if (!s) return create({ id: 'kill9', rounds: 10, double: true, seed: 11, at });
  if (s.players.length < 6) return addPlayer(`Player ${s.players.length + 1}`, i);
  const round = s.played[s.played.length - 1];
  if (round)
    for (const p of round.pairings)
      for (const g of p.games) {
        const where = { round: round.round, board: p.board, game: g.game };
        if (!g.started) return { t: 'start-game', at, by: `board ${p.board}`, ...where, gameId: `g${i}` };
        if (g.result === '*')
          return { t: 'result', at, by: `board ${p.board}`, ...where, result: SCRIPT_RESULTS[(i * 7) % 3], gameId: g.gameId };
      }
  if (s.played.length < s.rounds) return pairRoundRobin(s, at, 'arbiter');
  return { t: 'rename-tournament', at, by: 'arbiter', name: `Club ${i}` };
}
