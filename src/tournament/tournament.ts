// A tournament as event-sourced state: its settings (name — the PDN Event —,
// pairing system, rounds planned, ballot pairs or go-as-you-please, what a
// bye is worth, the seed), its players, and its rounds with their pairings
// and games. `applyTournamentEvent(state, event)` is the one way the state
// changes: pure, it returns the next state or the TournamentError naming why
// the event is refused (the state is never changed in place; the next
// state shares what the event left alone, so states are read-only to their
// holders). `replayTournament` rebuilds a state from a journal's events in
// linear time. A correction is a new event: a game keeps every result it was
// given, with who, when and why, so the original stays visible. Pure.

import { BALLOTS } from '../rules/ballots.ts';
import { parseTimeControl } from '../game/clock.ts';
import { TournamentError, type BallotMode, type GameResult, type PairingSpec, type PairingSystem, type TournamentEvent } from './events.ts';

export interface Player {
  /** seed number: 1-based order of entry (a player's id in every event) */
  seed: number;
  name: string;
  rating: number | null;
  club: string | null;
  withdrawn: boolean;
}

/** One result a game was given: by the board or the arbiter, when, and why (corrections). */
export interface ResultEntry {
  result: GameResult;
  at: number;
  by: string;
  reason: string | null;
}

export interface PairingGame {
  /** 1, or 2: the ballot's other side with the colours swapped */
  game: 1 | 2;
  black: number;
  white: number;
  /** the game's id in the games folder (null until it starts) */
  gameId: string | null;
  started: boolean;
  /** the result that counts ('*' while none) */
  result: GameResult;
  /** every result given, oldest first (the last one counts) */
  history: ResultEntry[];
}

export interface Pairing {
  board: number;
  /** Black (moves first) in game 1 */
  black: number;
  white: number;
  ballot: number | null;
  games: PairingGame[];
}

export interface Round {
  round: number;
  pairings: Pairing[];
  /** the player sitting out (odd number of players), or null */
  bye: number | null;
}

export interface TournamentState {
  id: string;
  name: string;
  system: PairingSystem;
  /** rounds planned */
  rounds: number;
  double: boolean;
  ballots: BallotMode;
  crossboardOnly: boolean;
  /** points a bye is worth per game of a pairing */
  byePoints: 1 | 0.5 | 0;
  seed: number;
  /** every game's time control (null: the service's own) */
  timeControl: string | null;
  /** every game in tournament mode: no hints, no evaluation bar, takebacks only by the arbiter */
  tournamentRules: boolean;
  createdAt: number;
  players: Player[];
  /** the rounds paired so far, round 1 first */
  played: Round[];
  /** every event applied, in order: the history the arbiter sees */
  log: TournamentEvent[];
}

/** Games per pairing: two (a ballot pair) or one (go-as-you-please). */
export const gamesPerPairing = (s: Pick<TournamentState, 'ballots'>): 1 | 2 => (s.ballots === 'acf' ? 2 : 1);

/** The number of the round paired last (0 before round 1). */
export const currentRound = (s: TournamentState): number => s.played.length;

/** True when every game of the round has a result. */
export function roundComplete(s: TournamentState, round: number): boolean {
  const r = s.played[round - 1];
  return r !== undefined && r.pairings.every((p) => p.games.every((g) => g.result !== '*'));
}

/** True once a game of the round began or has a result: its pairings are fixed. */
export const roundStarted = (r: Round): boolean => r.pairings.some(pairingStarted);
const pairingStarted = (p: Pairing): boolean => p.games.some((g) => g.started || g.result !== '*');

/** Why the next round cannot be paired now, or null when it can. */
export function nextRoundProblem(s: TournamentState): string | null {
  const n = currentRound(s);
  if (n >= s.rounds) return `all ${s.rounds} rounds are paired`;
  if (n > 0 && !roundComplete(s, n)) return `round ${n} is not finished: ${unfinishedGames(s, n)} game(s) have no result`;
  return null;
}

const unfinishedGames = (s: TournamentState, round: number) =>
  s.played[round - 1].pairings.reduce((k, p) => k + p.games.filter((g) => g.result === '*').length, 0);

/** A player by seed number, or the error naming the missing one. */
export function playerBySeed(s: TournamentState, seed: number): Player {
  const p = s.players[seed - 1];
  if (!p) throw new TournamentError('no-player', `no player number ${seed} (there are ${s.players.length})`);
  return p;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A player by name (case and outer spaces ignored), or the error naming the missing one. */
export function playerByName(s: TournamentState, name: string): Player {
  const p = s.players.find((x) => sameName(x.name, name));
  if (!p) throw new TournamentError('no-player', `no player named "${name}"`);
  return p;
}

/**
 * Applies one event: the next state, or the TournamentError saying why the
 * event is refused. `state` is null before the tournament is created.
 */
export function applyTournamentEvent(state: TournamentState | null, e: TournamentEvent): TournamentState | TournamentError {
  try {
    if (e.t === 'create') return create(state, e);
    if (!state) throw new TournamentError('no-tournament', 'there is no tournament yet: create it first');
    const next: TournamentState = { ...state, players: [...state.players], played: [...state.played], log: [...state.log, e] };
    change({ s: next, fresh: new Set() }, e);
    return next;
  } catch (err) {
    if (err instanceof TournamentError) return err;
    throw err;
  }
}

/** A journal's events replayed: the state they make, or the first refused one (its index and why) with the state before it. */
export interface Replayed {
  state: TournamentState | null;
  refused: { index: number; error: TournamentError } | null;
}

/**
 * The state `events` make from nothing: the same as applying them one by
 * one, in linear time (one private state is changed in place instead of a
 * copy per event). Stops at the first refused event.
 */
export function replayTournament(events: readonly TournamentEvent[]): Replayed {
  let s: TournamentState | null = null;
  for (let index = 0; index < events.length; index++) {
    const e = events[index];
    try {
      if (e.t === 'create') s = create(s, e);
      else {
        if (!s) throw new TournamentError('no-tournament', 'there is no tournament yet: create it first');
        // (A refusal may leave this private copy half changed: the replay stops there and rebuilds the state before.)
        change({ s, fresh: null }, e);
        s.log.push(e);
      }
    } catch (err) {
      if (!(err instanceof TournamentError)) throw err;
      return { state: index === 0 ? null : replayTournament(events.slice(0, index)).state, refused: { index, error: err } };
    }
  }
  return { state: s, refused: null };
}

/** The tournament's time control as given ("" or absent: none of its own), or the error naming what cannot be read. */
function timeControlOf(text: string | undefined): string | null {
  if (text === undefined || !text.trim()) return null;
  const read = parseTimeControl(text);
  if (!read.ok) throw new TournamentError('bad-settings', `time control "${text}": ${read.error.message}`);
  return text.trim();
}

function create(state: TournamentState | null, e: Extract<TournamentEvent, { t: 'create' }>): TournamentState {
  if (state) throw new TournamentError('already-created', `the tournament "${state.name}" already exists`);
  return {
    id: e.id,
    name: e.name.trim(),
    system: e.system,
    rounds: e.rounds,
    double: e.double ?? false,
    ballots: e.ballots,
    crossboardOnly: e.crossboardOnly ?? false,
    byePoints: e.byePoints ?? 1,
    seed: e.seed,
    timeControl: timeControlOf(e.timeControl),
    tournamentRules: e.tournamentRules ?? true,
    createdAt: e.at,
    players: [],
    played: [],
    log: [e],
  };
}

/**
 * A state being changed by one event. Copy on write: the state's arrays of
 * players and rounds are fresh copies, and every player, round, pairing or
 * game changed is copied on the way down (once: `fresh` holds the copies),
 * so the state before is never touched and unchanged parts are shared.
 * `fresh` null: the state is private (a replay) and changes in place.
 */
interface Draft {
  s: TournamentState;
  fresh: Set<object> | null;
}

function own<T extends object>(d: Draft, x: T, copy: (x: T) => T): T {
  if (!d.fresh || d.fresh.has(x)) return x;
  const c = copy(x);
  d.fresh.add(c);
  return c;
}

/** A player of the draft, to change. */
function playerAt(d: Draft, seed: number): Player {
  const p = own(d, playerBySeed(d.s, seed), (x) => ({ ...x }));
  d.s.players[seed - 1] = p;
  return p;
}

/** Changes the draft by one event, or throws the refusal. */
function change(d: Draft, e: Exclude<TournamentEvent, { t: 'create' }>): void {
  const s = d.s;
  switch (e.t) {
    case 'add-player':
      return addPlayer(s, e.name, e.rating ?? null, e.club ?? null);
    case 'withdraw-player': {
      const p = playerAt(d, e.player);
      if (p.withdrawn) throw new TournamentError('no-player', `${p.name} has already withdrawn`);
      p.withdrawn = true;
      return;
    }
    case 'rename-player': {
      const p = playerAt(d, e.player);
      const other = s.players.find((x) => x !== p && sameName(x.name, e.name));
      if (other) throw new TournamentError('duplicate-player', `player ${other.seed} is already named "${other.name}"`);
      p.name = e.name.trim();
      return;
    }
    case 'rename-tournament':
      s.name = e.name.trim();
      return;
    case 'pair-round':
      return pairRound(s, e);
    case 'repair-board':
      return repairBoard(d, e.round, e.pairing);
    case 'swap-boards':
      return swapBoards(d, e.round, e.a, e.b);
    case 'start-game':
      return startGame(d, e);
    case 'result':
      return recordResult(d, e);
    case 'set-result': {
      const g = gameAt(d, e.round, e.board, e.game);
      g.history.push({ result: e.result, at: e.at, by: e.by, reason: e.reason });
      g.result = e.result;
      return;
    }
  }
}

function addPlayer(s: TournamentState, name: string, rating: number | null, club: string | null): void {
  const other = s.players.find((x) => sameName(x.name, name));
  if (other) throw new TournamentError('duplicate-player', `player ${other.seed} is already named "${other.name}"`);
  if (s.system === 'round-robin' && s.played.length > 0)
    throw new TournamentError('round-started', 'a round robin cannot take a new player once round 1 is paired (the tables are fixed)');
  s.players.push({ seed: s.players.length + 1, name: name.trim(), rating, club: club?.trim() || null, withdrawn: false });
}

/** A round of the draft, to change (its pairings array a copy). */
function roundAt(d: Draft, round: number): Round {
  const r = d.s.played[round - 1];
  if (!r) throw new TournamentError('no-round', `round ${round} is not paired (${d.s.played.length} round(s) so far)`);
  const o = own(d, r, (x) => ({ ...x, pairings: [...x.pairings] }));
  d.s.played[round - 1] = o;
  return o;
}

/** A pairing of the draft, to change (its games array a copy). */
function pairingAt(d: Draft, round: number, board: number): Pairing {
  const r = roundAt(d, round);
  const i = r.pairings.findIndex((x) => x.board === board);
  if (i < 0) throw new TournamentError('no-pairing', `round ${round} has no board ${board}`);
  const o = own(d, r.pairings[i], (x) => ({ ...x, games: [...x.games] }));
  r.pairings[i] = o;
  return o;
}

/** A game of the draft, to change (its history a copy). */
function gameAt(d: Draft, round: number, board: number, game: 1 | 2): PairingGame {
  const p = pairingAt(d, round, board);
  const i = p.games.findIndex((x) => x.game === game);
  if (i < 0)
    throw new TournamentError('no-pairing', `round ${round} board ${board} has no game ${game} (one game per pairing: no ballot pairs)`);
  const o = own(d, p.games[i], (x) => ({ ...x, history: [...x.history] }));
  p.games[i] = o;
  return o;
}

function startGame(d: Draft, e: Extract<TournamentEvent, { t: 'start-game' }>): void {
  const g = gameAt(d, e.round, e.board, e.game);
  const where = `round ${e.round} board ${e.board} game ${e.game}`;
  if (g.result !== '*')
    throw new TournamentError('result-recorded', `${where} is over (${g.result}): to play it again the arbiter clears its result first`);
  if (e.game === 2) {
    const first = gameAt(d, e.round, e.board, 1);
    if (first.result === '*')
      throw new TournamentError('bad-result', `round ${e.round} board ${e.board} game 1 has no result yet: it is played first`);
  }
  checkGameId(d.s, e.gameId, g);
  g.started = true;
  g.gameId = e.gameId;
}

/** A game id belongs to one tournament game: refused when another game already has it. */
function checkGameId(s: TournamentState, gameId: string, self: PairingGame): void {
  for (const r of s.played)
    for (const p of r.pairings)
      for (const g of p.games)
        if (g !== self && g.gameId === gameId)
          throw new TournamentError('game-id-taken', `game id ${gameId} is already round ${r.round} board ${p.board} game ${g.game}`);
}

function recordResult(d: Draft, e: Extract<TournamentEvent, { t: 'result' }>): void {
  const g = gameAt(d, e.round, e.board, e.game);
  if (e.result === '*') throw new TournamentError('bad-result', 'a finished game needs a result: 1-0, 0-1 or 1/2-1/2');
  if (g.result !== '*')
    throw new TournamentError(
      'result-recorded',
      `round ${e.round} board ${e.board} game ${e.game} already has ${g.result}: the arbiter replaces a result with a reason`,
    );
  if (e.gameId !== null) checkGameId(d.s, e.gameId, g);
  g.started = true;
  if (e.gameId !== null) g.gameId = e.gameId;
  g.history.push({ result: e.result, at: e.at, by: e.by, reason: null });
  g.result = e.result;
}

/** The games of a pairing: game 1 as paired, and with ballot pairs game 2 with the colours swapped. */
function gamesOf(s: TournamentState, spec: PairingSpec): PairingGame[] {
  const game = (no: 1 | 2, black: number, white: number): PairingGame => ({
    game: no,
    black,
    white,
    gameId: null,
    started: false,
    result: '*',
    history: [],
  });
  const one = game(1, spec.black, spec.white);
  return gamesPerPairing(s) === 2 ? [one, game(2, spec.white, spec.black)] : [one];
}

/** Why a pairing's ballot does not fit the tournament, or null. */
function ballotProblem(s: TournamentState, spec: PairingSpec): string | null {
  if (s.ballots === 'none') return spec.ballot === null ? null : `board ${spec.board}: this tournament plays without ballots`;
  if (spec.ballot === null) return `board ${spec.board}: this tournament plays ACF ballot pairs, so each pairing needs a ballot`;
  const b = BALLOTS.find((x) => x.number === spec.ballot);
  if (!b) return `board ${spec.board}: no ACF ballot ${spec.ballot}`;
  return null;
}

/** Checks one pairing's players against the tournament: they exist, differ and play on. */
function checkSpec(s: TournamentState, spec: PairingSpec): void {
  const black = playerBySeed(s, spec.black);
  const white = playerBySeed(s, spec.white);
  if (black === white) throw new TournamentError('bad-pairing', `board ${spec.board}: ${black.name} cannot play against themself`);
  for (const p of [black, white]) if (p.withdrawn) throw new TournamentError('bad-pairing', `board ${spec.board}: ${p.name} has withdrawn`);
  const problem = ballotProblem(s, spec);
  if (problem) throw new TournamentError('bad-pairing', problem);
}

/** Checks a whole round: boards distinct, nobody twice, the bye not playing. */
function checkRound(s: TournamentState, round: number, pairings: readonly PairingSpec[], bye: number | null): void {
  const boards = new Set<number>();
  const seen = new Set<number>();
  for (const spec of pairings) {
    checkSpec(s, spec);
    if (boards.has(spec.board)) throw new TournamentError('bad-pairing', `round ${round}: board ${spec.board} is given twice`);
    boards.add(spec.board);
    for (const seed of [spec.black, spec.white]) {
      if (seen.has(seed)) throw new TournamentError('bad-pairing', `round ${round}: ${s.players[seed - 1].name} is paired twice`);
      seen.add(seed);
    }
  }
  if (bye !== null) {
    const p = playerBySeed(s, bye);
    if (seen.has(bye)) throw new TournamentError('bad-pairing', `round ${round}: ${p.name} has the bye and a game`);
  }
}

function pairRound(s: TournamentState, e: Extract<TournamentEvent, { t: 'pair-round' }>): void {
  const n = currentRound(s);
  if (e.replace) {
    if (e.round !== n) throw new TournamentError('no-round', `only the last round paired (${n}) can be re-paired, not round ${e.round}`);
    if (roundStarted(s.played[n - 1])) throw new TournamentError('round-started', `round ${n} has started: its pairings are fixed`);
  } else {
    if (e.round !== n + 1) throw new TournamentError('no-round', `the next round to pair is ${n + 1}, not ${e.round}`);
    const problem = nextRoundProblem(s);
    if (problem) throw new TournamentError(n >= s.rounds ? 'no-more-rounds' : 'round-not-complete', problem);
  }
  if (e.pairings.length === 0) throw new TournamentError('bad-pairing', `round ${e.round} has no pairing`);
  checkRound(s, e.round, e.pairings, e.bye);
  const pairings = [...e.pairings].sort((a, b) => a.board - b.board).map((spec) => ({ ...spec, games: gamesOf(s, spec) }));
  const round: Round = { round: e.round, pairings, bye: e.bye };
  if (e.replace) s.played[n - 1] = round;
  else s.played.push(round);
}

function repairBoard(d: Draft, round: number, spec: PairingSpec): void {
  const r = roundAt(d, round);
  const old = pairingAt(d, round, spec.board);
  if (pairingStarted(old))
    throw new TournamentError('round-started', `round ${round} board ${spec.board} has started: its pairing is fixed`);
  const others = r.pairings.filter((p) => p !== old);
  checkRound(d.s, round, [...others, spec], r.bye);
  r.pairings[r.pairings.indexOf(old)] = { ...spec, games: gamesOf(d.s, spec) };
}

function swapBoards(d: Draft, round: number, a: number, b: number): void {
  if (a === b) throw new TournamentError('bad-pairing', `board ${a} cannot be swapped with itself`);
  const pa = pairingAt(d, round, a);
  const pb = pairingAt(d, round, b);
  for (const p of [pa, pb])
    if (pairingStarted(p)) throw new TournamentError('round-started', `round ${round} board ${p.board} has started: its board is fixed`);
  pa.board = b;
  pb.board = a;
  roundAt(d, round).pairings.sort((x, y) => x.board - y.board);
}
