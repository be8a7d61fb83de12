// The tournament's events: every arbiter action and every result from a
// board is one event, and the journal is the list of them. Owns the event
// schema (zod, so a line read back from disk is checked field by field), the
// serialise/parse pair (`makeTournamentEvent` / `parseTournamentEvent`, one
// JSON line each) and the tournament stage's error (`TournamentError`, a
// CrownheadError with a stable code). Every event says who did it (`by`) and
// when (`at`, milliseconds, given by the caller: the core never reads a
// clock). Pure.

import * as z from 'zod/mini';
import { CrownheadError } from '../common/errors.ts';
import { attempt, type Result } from '../common/result.ts';

export type TournamentErrorCode =
  | 'bad-event'
  | 'bad-settings'
  | 'no-tournament'
  | 'already-created'
  | 'no-player'
  | 'duplicate-player'
  | 'no-round'
  | 'no-pairing'
  | 'round-started'
  | 'round-not-complete'
  | 'bad-pairing'
  | 'bad-result'
  | 'result-recorded'
  | 'game-id-taken'
  | 'no-more-rounds'
  | 'bad-pairing-list'
  | 'bad-journal';

/** A refused tournament change or unreadable tournament input: a code the service maps to a reply, a sentence naming the problem. */
export class TournamentError extends CrownheadError<TournamentErrorCode> {
  override readonly name = 'TournamentError';
}

const int = () => z.number().check(z.int());
const pos = () => z.number().check(z.int(), z.gte(1));
/** A pairing's game: 1, or 2 (the ballot's other side, colours swapped). */
const gameNo = () => z.union([z.literal(1), z.literal(2)]);
/** A name as a PDN tag can hold it: 1–80 characters, no line breaks or control characters. */
const name = () => z.string().check(z.minLength(1), z.maxLength(80), z.regex(/^[^\u0000-\u001f\u007f]*\S[^\u0000-\u001f\u007f]*$/));

/** A game's result as PDN writes it (1-0: Black, the first player, won). `*` clears a result. */
export const GameResult = z.enum(['1-0', '0-1', '1/2-1/2', '*']);
export type GameResult = z.infer<typeof GameResult>;

export const PairingSystem = z.enum(['round-robin', 'swiss', 'list']);
export type PairingSystem = z.infer<typeof PairingSystem>;

/** 'acf': ACF three-move ballot pairs (two games per pairing, sides swapped); 'none': go-as-you-please, one game per pairing. */
export const BallotMode = z.enum(['acf', 'none']);
export type BallotMode = z.infer<typeof BallotMode>;

/** One pairing as an event carries it: its board, the players (by seed number) with their colours in game 1, the ballot. */
export const PairingSpec = z.object({
  board: pos(),
  /** plays Black (moves first) in game 1 */
  black: pos(),
  white: pos(),
  /** ACF ballot number (1–174), null for go-as-you-please */
  ballot: z.nullable(z.number().check(z.int(), z.gte(1), z.lte(174))),
});
export type PairingSpec = z.infer<typeof PairingSpec>;

const who = { at: int(), by: z.string().check(z.maxLength(80)) };

export const TournamentEventSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('create'),
    ...who,
    id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/)),
    name: name(),
    system: PairingSystem,
    rounds: pos(),
    /** round robin: each pair meets twice, colours reversed the second time */
    double: z.optional(z.boolean()),
    ballots: BallotMode,
    /** ballots drawn at random skip the mail-play ones too (barred ballots are always skipped) */
    crossboardOnly: z.optional(z.boolean()),
    /** points a bye is worth per game of a pairing (default 1: a win) */
    byePoints: z.optional(z.union([z.literal(1), z.literal(0.5), z.literal(0)])),
    /** seed of the ballot draw and of every random tie-break */
    seed: int(),
    /** every game's time control ("5m+3s", "40/90m,30m", "5m/move,1m/forced"; absent: the service's own) */
    timeControl: z.optional(z.string().check(z.maxLength(60))),
    /** tournament rules on every game (no hints, no evaluation bar, takebacks only by the arbiter); absent: true */
    tournamentRules: z.optional(z.boolean()),
  }),
  z.object({
    t: z.literal('add-player'),
    ...who,
    name: name(),
    rating: z.optional(int()),
    club: z.optional(z.string().check(z.maxLength(80))),
  }),
  z.object({ t: z.literal('withdraw-player'), ...who, player: pos(), reason: z.optional(z.string()) }),
  z.object({ t: z.literal('rename-player'), ...who, player: pos(), name: name() }),
  z.object({ t: z.literal('rename-tournament'), ...who, name: name() }),
  /** A round's pairings (computed by pairing.ts or read from a list); `replace` re-pairs a round whose games have not started. */
  z.object({
    t: z.literal('pair-round'),
    ...who,
    round: pos(),
    pairings: z.array(PairingSpec),
    bye: z.nullable(pos()),
    replace: z.optional(z.boolean()),
  }),
  /** One pairing changed before its games start: new players, colours or ballot on the same board. */
  z.object({ t: z.literal('repair-board'), ...who, round: pos(), pairing: PairingSpec, reason: z.optional(z.string()) }),
  /** The boards of two pairings of a round exchanged (before either starts). */
  z.object({ t: z.literal('swap-boards'), ...who, round: pos(), a: pos(), b: pos() }),
  /** A game began at its board (its pairing is fixed from now on). */
  z.object({ t: z.literal('start-game'), ...who, round: pos(), board: pos(), game: gameNo(), gameId: z.string() }),
  /** A game's result as the board reports it (the first time). */
  z.object({
    t: z.literal('result'),
    ...who,
    round: pos(),
    board: pos(),
    game: gameNo(),
    result: GameResult,
    gameId: z.nullable(z.string()),
  }),
  /** The arbiter sets or replaces a result ('*' clears it); the reason is required and kept with the earlier result. */
  z.object({
    t: z.literal('set-result'),
    ...who,
    round: pos(),
    board: pos(),
    game: gameNo(),
    result: GameResult,
    reason: z.string().check(z.minLength(1)),
  }),
]);
export type TournamentEvent = z.infer<typeof TournamentEventSchema>;
export type TournamentEventType = TournamentEvent['t'];

/** One event as a journal line (JSON, no newline). */
export function makeTournamentEvent(e: TournamentEvent): string {
  return JSON.stringify(e);
}

const EVENT_KINDS = 'set-result, withdraw-player, rename-player, rename-tournament, repair-board, swap-boards, pair-round, add-player';

interface Issue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  expected?: unknown;
  values?: readonly unknown[];
}

/** The first problem of a parsed value as words: "reason is missing", "round: expected number", "result: expected one of …". */
function firstIssue(error: { issues: readonly Issue[] }, value: unknown): string {
  const i = error.issues[0];
  if (!i) return 'not a tournament event';
  const at = i.path.map(String).join('.');
  let here: unknown = value;
  for (const k of i.path) here = here !== null && typeof here === 'object' ? (here as Record<PropertyKey, unknown>)[k] : undefined;
  const what =
    here === undefined && i.path.length
      ? 'is missing'
      : i.code === 'invalid_type' && typeof i.expected === 'string'
        ? `expected ${i.expected}`
        : i.code === 'invalid_value' && i.values
          ? `expected one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`
          : at === 't'
            ? `no such change (${JSON.stringify(here)}): one of ${EVENT_KINDS}`
            : i.code === 'invalid_union'
              ? `${JSON.stringify(here)} is not allowed here`
              : i.message;
  return at ? `${at}${what === 'is missing' ? ' ' : ': '}${what}` : what;
}

/** Checks a value (an event from the HTTP API, or a parsed line) and returns it as a TournamentEvent; throws TournamentError 'bad-event'. */
export function checkTournamentEvent(value: unknown): TournamentEvent {
  const r = TournamentEventSchema.safeParse(value);
  if (!r.success) throw new TournamentError('bad-event', `not a tournament event: ${firstIssue(r.error, value)}`);
  return r.data;
}

/** One journal line back to its event, or the TournamentError 'bad-event' naming the problem. */
export const parseTournamentEvent = (line: string): Result<TournamentEvent, TournamentError> =>
  attempt(TournamentError, () => readTournamentEvent(line));

function readTournamentEvent(line: string): TournamentEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new TournamentError('bad-event', 'not a tournament event: not JSON');
  }
  return checkTournamentEvent(value);
}
