// Club mode's tournament, as the service uses it: one `Tournament` per
// tournament, its state rebuilt from its journal and every change journalled
// (fsynced) before the method returns, so the caller announces only what is
// on disk. Time is an input (`now`), and every change says who made it.
//
// The API (what src/server wires):
//   Tournament.create(dir, settings, { now })      a new tournament-ID.jsonl in the games folder
//   Tournament.open(file, { now })                 replay it (t.torn: a dropped unfinished last line)
//   tournamentFiles(dir) → string[]                the tournament journals in the games folder
//   t.state / t.currentRound()                     the state; the round paired last (0: none)
//   t.gamesOfRound(round?) → BoardGames[]          per board, the games in order, each with the
//                                                  `newGame` request (ballot or start, tags)
//   t.nextGameOnBoard(board) → GameToPlay | null   the board's next game in the current round
//   gameById(t.state, gameId) / gameOfTags(t.state, session.tags)   which tournament game a session plays
//   tournamentResult(session.result)               the session's PDN result as the tournament takes it
//   t.startGame(round, board, game, gameId, by?)   a game began: its pairing is fixed
//   t.recordResult(round, board, game, result, gameId, by?)   the board's result
//   t.roundComplete(round?) / t.nextRoundProblem() whether the next round can be paired
//   t.addPlayer(name, by, { rating, club }?)       before round 1 for a round robin
//   t.pairNextRound(by, list?)                     by the tournament's system (a list: parsePairingList)
//   t.edit(change, by)                             any arbiter change (set-result with a reason,
//                                                  repair-board, swap-boards, withdraw/rename…)
//   t.standings() / t.crosstableCsv() / t.crosstableHtml()
// Every refusal is a TournamentError with a code (see events.ts). Pure
// functions of a state (applyTournamentEvent, gamesOfRound, pairing,
// standings) are exported too.

import type { StoreFs } from '../storage/disk.ts';
import { TournamentError, checkTournamentEvent, type GameResult, type TournamentEvent } from './events.ts';
import { gamesOfRound, nextGameOnBoard, resultEvent, startGameEvent, type BoardGames, type GameToPlay } from './games.ts';
import { TournamentJournal, type TornLine } from './journal.ts';
import { pairNextRound, type ListedRound } from './pairing.ts';
import { crosstableCsv, crosstableHtml, standings, type Standing } from './standings.ts';
import { currentRound, nextRoundProblem, roundComplete, type TournamentState } from './tournament.ts';

export * from './events.ts';
export * from './tournament.ts';
export * from './games.ts';
export * from './pairing.ts';
export * from './standings.ts';
export * from './journal.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An arbiter's change: any event but the creation, without its time and author (the tournament adds them). */
export type ArbiterChange = DistributiveOmit<Exclude<TournamentEvent, { t: 'create' }>, 'at' | 'by'>;

/** A new tournament's settings: the create event without its time and author. */
export type TournamentSettings = Omit<Extract<TournamentEvent, { t: 'create' }>, 't' | 'at' | 'by'>;

export interface TournamentOptions {
  /** wall-clock milliseconds */
  now: () => number;
  /** the file-system seam (tests inject failures) */
  fs?: StoreFs;
}

export class Tournament {
  private constructor(
    private readonly journal: TournamentJournal,
    private readonly now: () => number,
  ) {}

  static create(dir: string, settings: TournamentSettings, o: TournamentOptions, by = 'arbiter'): Tournament {
    return new Tournament(TournamentJournal.create(dir, { t: 'create', at: o.now(), by, ...settings }, { fs: o.fs }), o.now);
  }

  static open(file: string, o: TournamentOptions): Tournament {
    return new Tournament(TournamentJournal.open(file, { fs: o.fs }), o.now);
  }

  get state(): TournamentState {
    return this.journal.state;
  }

  get file(): string {
    return this.journal.file;
  }

  /** The unfinished last line the load dropped (never acknowledged), or null. */
  get torn(): TornLine | null {
    return this.journal.torn;
  }

  currentRound(): number {
    return currentRound(this.state);
  }

  gamesOfRound(round = this.currentRound()): BoardGames[] {
    return gamesOfRound(this.state, round);
  }

  nextGameOnBoard(board: number): GameToPlay | null {
    return nextGameOnBoard(this.state, board);
  }

  roundComplete(round = this.currentRound()): boolean {
    return roundComplete(this.state, round);
  }

  nextRoundProblem(): string | null {
    return nextRoundProblem(this.state);
  }

  startGame(round: number, board: number, game: 1 | 2, gameId: string, by = 'board'): TournamentState {
    return this.journal.append(startGameEvent(round, board, game, gameId, this.now(), by));
  }

  recordResult(
    round: number,
    board: number,
    game: 1 | 2,
    result: Exclude<GameResult, '*'>,
    gameId: string | null,
    by = 'board',
  ): TournamentState {
    return this.journal.append(resultEvent(round, board, game, result, gameId, this.now(), by));
  }

  addPlayer(name: string, by: string, more: { rating?: number; club?: string } = {}): TournamentState {
    return this.journal.append({ t: 'add-player', at: this.now(), by, name, ...more });
  }

  pairNextRound(by: string, list?: readonly ListedRound[]): TournamentState {
    return this.journal.append(pairNextRound(this.state, this.now(), by, list));
  }

  /**
   * Any arbiter change (as parsed from a request: checked against the event
   * schema here); refused ones throw their TournamentError, journalling nothing.
   */
  edit(change: ArbiterChange | Record<string, unknown>, by: string): TournamentState {
    const event = checkTournamentEvent({ ...change, at: this.now(), by });
    if (event.t === 'create') throw new TournamentError('already-created', `the tournament "${this.state.name}" already exists`);
    return this.journal.append(event);
  }

  standings(): Standing[] {
    return standings(this.state);
  }

  crosstableCsv(): string {
    return crosstableCsv(this.state);
  }

  crosstableHtml(): string {
    return crosstableHtml(this.state);
  }

  close(): void {
    this.journal.close();
  }
}
