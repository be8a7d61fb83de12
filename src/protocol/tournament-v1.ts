// The tournament's HTTP answer, version 1: what GET /api/tournament sends
// (the tournament's state as the arbiter sees it, the current round's games
// by board, standings, the crosstable's rows, what stops the next round, the
// boards here), one zod schema the server's answer is typed against and the
// arbiter's panel reads with (a malformed answer named, never trusted). The
// tournament's own types live in src/tournament/; this is the wire shape.

import * as z from 'zod/mini';

const int = () => z.number().check(z.int());
const count = () => z.number().check(z.int(), z.gte(0));
const seed = () => z.number().check(z.int(), z.gte(1));

export const TournamentResult = z.enum(['1-0', '0-1', '1/2-1/2', '*']);

/** A player as the tournament holds them (seed: their number in every event). */
export const TournamentPlayer = z.object({
  seed: seed(),
  name: z.string(),
  rating: z.nullable(z.number()),
  club: z.nullable(z.string()),
  withdrawn: z.boolean(),
});
export type TournamentPlayer = z.infer<typeof TournamentPlayer>;

/** One result a game was given: by the board or the arbiter, when, and why. */
export const ResultGiven = z.object({ result: TournamentResult, at: z.number(), by: z.string(), reason: z.nullable(z.string()) });

/** A game of a pairing: 1, or 2 (the ballot's other side, colours swapped). */
export const TournamentGame = z.object({
  game: z.union([z.literal(1), z.literal(2)]),
  black: seed(),
  white: seed(),
  gameId: z.nullable(z.string()),
  started: z.boolean(),
  result: TournamentResult,
  history: z.array(ResultGiven),
});
export type TournamentGame = z.infer<typeof TournamentGame>;

export const TournamentPairing = z.object({
  board: seed(),
  black: seed(),
  white: seed(),
  ballot: z.nullable(int()),
  games: z.array(TournamentGame),
});

export const TournamentRound = z.object({ round: seed(), pairings: z.array(TournamentPairing), bye: z.nullable(seed()) });
export type TournamentRound = z.infer<typeof TournamentRound>;

export const TournamentStanding = z.object({
  rank: seed(),
  seed: seed(),
  name: z.string(),
  withdrawn: z.boolean(),
  points: z.number(),
  played: count(),
  won: count(),
  drawn: count(),
  lost: count(),
  byes: count(),
  tieBreaks: z.array(z.object({ name: z.string(), value: z.number() })),
});
export type TournamentStanding = z.infer<typeof TournamentStanding>;

/** A game of the current round on its board, as the board will start it. */
export const BoardGame = z.object({
  round: seed(),
  board: seed(),
  game: z.union([z.literal(1), z.literal(2)]),
  black: z.string(),
  white: z.string(),
  ballot: z.nullable(int()),
  gameId: z.nullable(z.string()),
  started: z.boolean(),
  result: TournamentResult,
});

/** GET /api/tournament's answer. */
export const TournamentView = z.object({
  tournament: z.object({
    id: z.string(),
    name: z.string(),
    system: z.enum(['round-robin', 'swiss', 'list']),
    rounds: count(),
    ballots: z.enum(['acf', 'none']),
    timeControl: z.nullable(z.string()),
    tournamentRules: z.boolean(),
    players: z.array(TournamentPlayer),
    played: z.array(TournamentRound),
  }),
  round: count(),
  games: z.array(z.object({ board: seed(), games: z.array(BoardGame) })),
  standings: z.array(TournamentStanding),
  crosstable: z.object({ caption: z.string(), head: z.array(z.string()), rows: z.array(z.array(z.string())) }),
  nextRoundProblem: z.nullable(z.string()),
  boards: z.array(seed()),
});
export type TournamentView = z.infer<typeof TournamentView>;
