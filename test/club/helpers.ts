// Shared by the club tests: building a tournament state from events (any
// refusal fails the test with its message), and the events a test writes
// most (players, a tournament's creation).

import { TournamentError, type TournamentEvent } from '../../src/club/events.ts';
import { applyTournamentEvent, type TournamentState } from '../../src/club/tournament.ts';

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
