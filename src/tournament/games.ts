// What a board's session needs from the tournament: the games of a round,
// board by board in the order they are played, each with the request the
// session's `newGame` takes (the ballot, or the start position with Black to
// move, and the PDN tags: Event, Round, Board, Black, White, and for ballot
// pairs Game "1" or "2"; the table adds Ballot, Date and TimeControl
// itself, and the reserved Result/FEN/SetUp/GameType are never given; the
// tournament's time control and rules go with every game), the
// way back from a session's tags and result to the tournament's game
// (`gameOfTags`, `gameById`, `tournamentResult`), and the events a board reports (a
// game started, a result). Pure.

import type { NewGameRequest } from '../game/table.ts';
import { resultWinner, type PdnResult } from '../pdn/index.ts';
import { tagProblem } from '../game/tags.ts';
import { TournamentError, type GameResult, type TournamentEvent } from './events.ts';
import { gamesPerPairing, type TournamentState } from './tournament.ts';

/** One game of a round as a board plays it. */
export interface GameToPlay {
  round: number;
  board: number;
  game: 1 | 2;
  /** player names: Black moves first */
  black: string;
  white: string;
  ballot: number | null;
  /** what `GameSession.newGame` takes to start this game */
  request: Pick<NewGameRequest, 'ballot' | 'firstPlayer' | 'tags' | 'timeControl' | 'tournament'> & { tags: Record<string, string> };
  /** the game's id in the games folder once it started */
  gameId: string | null;
  started: boolean;
  result: GameResult;
}

/** One game of the tournament: its round, board and place in the pairing. */
export interface GameRef {
  round: number;
  board: number;
  game: 1 | 2;
}

/** A board's games in a round, in playing order (game 2 of a ballot pair after game 1). */
export interface BoardGames {
  board: number;
  games: GameToPlay[];
}

/** The session tags of a tournament game (checked as every tag a game takes is). */
export function tournamentTags(
  s: TournamentState,
  round: number,
  board: number,
  game: 1 | 2,
  black: string,
  white: string,
): Record<string, string> {
  const tags: Record<string, string> = { Event: s.name, Round: String(round), Board: String(board), Black: black, White: white };
  if (gamesPerPairing(s) === 2) tags.Game = String(game);
  for (const [k, v] of Object.entries(tags)) {
    const problem = tagProblem(k, v);
    if (problem) throw new TournamentError('bad-settings', problem);
  }
  return tags;
}

/** For each board of the round, the games to play in order. */
export function gamesOfRound(s: TournamentState, round: number): BoardGames[] {
  const r = s.played[round - 1];
  if (!r) throw new TournamentError('no-round', `round ${round} is not paired (${s.played.length} round(s) so far)`);
  const nameOf = (seed: number) => s.players[seed - 1].name;
  return r.pairings.map((p) => ({
    board: p.board,
    games: p.games.map((g) => {
      const black = nameOf(g.black);
      const white = nameOf(g.white);
      const tags = tournamentTags(s, round, p.board, g.game, black, white);
      const rules = { tournament: s.tournamentRules, ...(s.timeControl !== null ? { timeControl: s.timeControl } : {}) };
      const request = p.ballot !== null ? { ballot: p.ballot, tags, ...rules } : { firstPlayer: 'black' as const, tags, ...rules };
      return {
        round,
        board: p.board,
        game: g.game,
        black,
        white,
        ballot: p.ballot,
        request,
        gameId: g.gameId,
        started: g.started,
        result: g.result,
      };
    }),
  }));
}

/** The game a board plays next in the current round (the first without a result), or null when the board is done or not in the round. */
export function nextGameOnBoard(s: TournamentState, board: number): GameToPlay | null {
  if (!s.played.length) return null;
  const b = gamesOfRound(s, s.played.length).find((x) => x.board === board);
  return b?.games.find((g) => g.result === '*') ?? null;
}

/** The event for a game begun at its board (its pairing is fixed from then on). */
export function startGameEvent(round: number, board: number, game: 1 | 2, gameId: string, at: number, by: string): TournamentEvent {
  return { t: 'start-game', at, by, round, board, game, gameId };
}

/** The event for a game's result as its board reports it (the arbiter's changes are `set-result`, with a reason). */
export function resultEvent(
  round: number,
  board: number,
  game: 1 | 2,
  result: Exclude<GameResult, '*'>,
  gameId: string | null,
  at: number,
  by: string,
): TournamentEvent {
  return { t: 'result', at, by, round, board, game, result, gameId };
}

/**
 * Where a session's game sits in the tournament, read back from the Round,
 * Board and Game tags `gamesOfRound` gave it (null: no such game). Names are
 * not compared (a player renamed mid-game keeps the old name in the tags);
 * once the game's start is recorded, `gameById` is the sure way.
 */
export function gameOfTags(s: TournamentState, tags: Readonly<Record<string, string>>): GameRef | null {
  const num = (v: string | undefined) => (v !== undefined && /^[1-9]\d{0,3}$/.test(v) ? Number(v) : null);
  const round = num(tags.Round);
  const board = num(tags.Board);
  const game = gamesPerPairing(s) === 2 ? num(tags.Game) : 1;
  if (round === null || board === null || (game !== 1 && game !== 2)) return null;
  const p = s.played[round - 1]?.pairings.find((x) => x.board === board);
  return p?.games.some((x) => x.game === game) ? { round, board, game } : null;
}

/** A tournament game by its id in the games folder (recorded by start-game or a result), or null. */
export function gameById(s: TournamentState, gameId: string): GameRef | null {
  for (const r of s.played)
    for (const p of r.pairings) for (const g of p.games) if (g.gameId === gameId) return { round: r.round, board: p.board, game: g.game };
  return null;
}

/** A session's result as the tournament records it (the PDN's 2-0 style scores too), or null while the game goes on. */
export function tournamentResult(result: PdnResult): Exclude<GameResult, '*'> | null {
  const w = resultWinner(result);
  return w === 'black' ? '1-0' : w === 'white' ? '0-1' : w === 'draw' ? '1/2-1/2' : null;
}
