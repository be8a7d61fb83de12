// The arbiter's tournament panel (on /arbiter), headless: what GET
// /api/tournament answered (the state, standings, crosstable rows, why the
// next round cannot be paired, the boards here) or that there is none yet,
// the outcome of the arbiter's last action in words, and which game the
// result form is set to. The pure questions the renderer asks: what to do
// next (pair or start a round), every game of every round with its players'
// names, and the API call each form asks for (checked, every mistake named).
// No DOM, no fetch.

import { TournamentView, type TournamentGame, type TournamentRound } from '../protocol/tournament-v1.ts';

/** GET /api/tournament's answer: its schema is the protocol's (src/protocol/tournament-v1.ts), read with it by tourney-main.ts. */
export type TourneyData = TournamentView;

/** GET /api/tournament's body read with the protocol's schema: the data, or the problem named (field and what is wrong). */
export function readTourney(json: unknown): { ok: true; data: TourneyData } | { ok: false; problem: string } {
  const r = TournamentView.safeParse(json);
  if (r.success) return { ok: true, data: r.data };
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, problem: `${where}${issue?.message ?? 'not a tournament'}` };
}

export interface TourneyState {
  /** null until the first answer; 'none' when there is no tournament yet */
  data: TourneyData | 'none' | null;
  /** the last action's outcome */
  status: { ok: boolean; text: string } | null;
  /** the game the result form is set to: "round.board.game" */
  chosen: string | null;
}

export type TourneyAction =
  { type: 'loaded'; data: TourneyData | 'none' } | { type: 'status'; ok: boolean; text: string } | { type: 'choose'; game: string };

export const initialTourney = (): TourneyState => ({ data: null, status: null, chosen: null });

export function reduceTourney(s: TourneyState, a: TourneyAction): TourneyState {
  switch (a.type) {
    case 'loaded':
      return { ...s, data: a.data };
    case 'status':
      return { ...s, status: { ok: a.ok, text: a.text } };
    case 'choose':
      return { ...s, chosen: a.game };
  }
}

/** A game of a round, with its players' names, as the panel lists it. */
export interface GameRow {
  key: string;
  round: number;
  board: number;
  game: 1 | 2;
  black: string;
  white: string;
  result: string;
  started: boolean;
  /** the earlier results it was given (corrections keep them) */
  history: TournamentGame['history'];
}

export const gameKey = (round: number, board: number, game: number): string => `${round}.${board}.${game}`;

const nameOf = (d: TourneyData, seed: number): string => d.tournament.players[seed - 1]?.name ?? `player ${seed}`;

/** Every game of a round, by board then game. */
export function roundGames(d: TourneyData, r: TournamentRound): GameRow[] {
  return r.pairings.flatMap((p) =>
    p.games.map((g) => ({
      key: gameKey(r.round, p.board, g.game),
      round: r.round,
      board: p.board,
      game: g.game,
      black: nameOf(d, g.black),
      white: nameOf(d, g.white),
      result: g.result,
      started: g.started,
      history: g.history,
    })),
  );
}

/** What the arbiter can do next with the rounds: pair the next one, start the current one, or nothing (and why). */
export function nextStep(d: TourneyData): { kind: 'pair' | 'start' | 'none'; round: number; why: string } {
  const current = d.tournament.played[d.round - 1];
  // A board waits for the round to start: its next game (the first without a result) has not begun.
  const waiting = current?.pairings.some((p) => {
    const g = p.games.find((x) => x.result === '*');
    return g !== undefined && !g.started;
  });
  if (waiting) return { kind: 'start', round: d.round, why: '' };
  if (d.nextRoundProblem === null) return { kind: 'pair', round: d.round + 1, why: '' };
  return { kind: 'none', round: d.round, why: d.nextRoundProblem };
}

/** An API call the panel makes: its path under /api/tournament and its JSON body. */
export interface TourneyCall {
  path: string;
  body: Record<string, unknown>;
}

type Checked = { ok: true; call: TourneyCall } | { ok: false; message: string };

const text = (f: Record<string, string>, k: string): string => (f[k] ?? '').trim();
const by = (f: Record<string, string>) => (text(f, 'by') ? { by: text(f, 'by') } : {});

/** The create form's fields as the API's settings. */
export function createCall(f: Record<string, string>): Checked {
  const name = text(f, 'name');
  if (!name) return { ok: false, message: 'give the tournament a name' };
  const rounds = Number(text(f, 'rounds'));
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 99)
    return { ok: false, message: 'the number of rounds is a whole number from 1 to 99' };
  const id =
    text(f, 'id') ||
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) ||
    'tournament';
  const seed = text(f, 'seed') ? Number(text(f, 'seed')) : 1;
  if (!Number.isInteger(seed)) return { ok: false, message: 'the seed is a whole number' };
  const tc = text(f, 'timeControl');
  const settings = {
    id,
    name,
    system: text(f, 'system') || 'round-robin',
    rounds,
    ballots: text(f, 'ballots') || 'acf',
    seed,
    ...(tc ? { timeControl: tc } : {}),
    tournamentRules: f.tournamentRules === 'on',
  };
  return { ok: true, call: { path: '', body: { settings, ...by(f) } } };
}

/** The add-player form as the API's call. */
export function playerCall(f: Record<string, string>): Checked {
  const name = text(f, 'name');
  if (!name) return { ok: false, message: 'write the new player’s name' };
  const rating = text(f, 'rating');
  if (rating && !/^\d{1,4}$/.test(rating)) return { ok: false, message: 'a rating is a whole number, like 1850' };
  return { ok: true, call: { path: '/players', body: { name, ...(rating ? { rating: Number(rating) } : {}), ...by(f) } } };
}

/** The result form (a game, its result, why) as the edit call. */
export function resultCall(f: Record<string, string>): Checked {
  const m = /^(\d+)\.(\d+)\.([12])$/.exec(text(f, 'game'));
  if (!m) return { ok: false, message: 'choose the game' };
  const result = text(f, 'result');
  if (!['1-0', '0-1', '1/2-1/2', '*'].includes(result)) return { ok: false, message: 'choose the result' };
  const reason = text(f, 'reason');
  if (!reason) return { ok: false, message: 'say why (the reason is kept with the earlier result)' };
  const change = { t: 'set-result', round: Number(m[1]), board: Number(m[2]), game: Number(m[3]), result, reason };
  return { ok: true, call: { path: '/edit', body: { change, ...by(f) } } };
}

/** Withdrawing a player (by seed) as the edit call. */
export function withdrawCall(seed: number, reason: string): TourneyCall {
  return { path: '/edit', body: { change: { t: 'withdraw-player', player: seed, ...(reason ? { reason } : {}) } } };
}
