// The tournament over HTTP (club mode; the director in director.ts does the
// work). Reads for whoever may watch: GET /api/tournament (the state, the
// standings, the current round's games, the crosstable's rows, why the next
// round cannot be paired yet, the boards here), the crosstable as CSV and HTML, and
// a round's broadcast GET /broadcast/ROUND.pdn (every game of the round: the
// boards' live games and the finished ones from their records). Changes need
// the control token and JSON: POST /api/tournament (create), /players,
// /pair (a CSV pairing list optional), /start-round, /edit (any arbiter change:
// results with a reason, pairings, boards, players; the change itself or
// wrapped as {"change": …}). `by` names the arbiter. Bad input: a 400 whose
// message names the problem.

import express, { type Request, type Response } from 'express';
import { requesterOf, type Access } from './access.ts';
import { apiError } from './api-error.ts';
import { CrownheadError } from '../common/errors.ts';
import { TournamentError, crosstableModel, pointsText, type TournamentSettings } from '../tournament/index.ts';
import { MAX_CLIENT_MESSAGE } from '../protocol/v1.ts';
import type { TournamentView } from '../protocol/tournament-v1.ts';
import type { Director } from './director.ts';
import type { Room } from './room.ts';
import { roundGame } from './broadcast-pdn.ts';

const TEXT = (v: unknown, max = 80): string | undefined => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : undefined);

export function tournamentRoutes(app: express.Express, d: Director, rooms: readonly Room[], access: Access): void {
  const watch = (req: Request, res: Response): boolean => {
    const who = requesterOf(req);
    if (access.canWatch(who)) return true;
    apiError(res, 403, 'forbidden', access.readRefusal(who));
    return false;
  };
  const control = express.Router();
  control.use((req, res, next) => {
    const who = requesterOf(req);
    if (!access.canControl(who)) return void apiError(res, 403, 'forbidden', access.refusal(who));
    if (!req.is('application/json')) return void apiError(res, 415, 'bad-content-type', 'send JSON with "Content-Type: application/json"');
    next();
  });
  control.use(express.json({ limit: MAX_CLIENT_MESSAGE * 4 }));
  const change = (fn: (body: Record<string, unknown>, by: string) => unknown) => async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const out = await fn(body, TEXT(body.by, 60) ?? 'arbiter');
      res.json({ ok: true, ...(out && typeof out === 'object' ? out : {}), tournament: d.t.state });
    } catch (e) {
      if (e instanceof CrownheadError) return void apiError(res, e.code === 'forbidden' ? 403 : 400, e.code, e.message);
      // Anything else is the machine's, not the arbiter's (the tournament's journal refused the change: a full disk): said in the API's shape.
      const code = (e as NodeJS.ErrnoException).code;
      apiError(res, 500, code === 'ENOSPC' ? 'disk-full' : 'internal', `the change was not made: ${(e as Error).message}`);
    }
  };
  control.post(
    '/',
    change((b, by) => ({ created: d.create(settingsOf(b), by).state.id })),
  );
  control.post(
    '/players',
    change((b, by) => d.t.addPlayer(String(b.name ?? ''), by, { rating: b.rating as number | undefined, club: TEXT(b.club) })),
  );
  control.post(
    '/pair',
    change((b, by) => d.pairNextRound(by, typeof b.list === 'string' ? b.list : undefined)),
  );
  control.post(
    '/start-round',
    change((_b, by) => ({ started: d.startRound(by).map((g) => ({ board: g.board, game: g.game })) })),
  );
  control.post(
    '/edit',
    change((b, by) => d.edit(changeOf(b), by)),
  );
  app.use('/api/tournament', (req, res, next) => (req.method === 'POST' ? control(req, res, next) : next()));

  app.get('/api/tournament', (req, res) => {
    if (!watch(req, res)) return;
    res.setHeader('Cache-Control', 'no-store');
    const t = d.tournament;
    if (!t) return void apiError(res, 404, 'no-tournament', 'there is no tournament yet');
    res.json(tournamentView(d, t));
  });
  app.get('/api/tournament/crosstable.csv', (req, res) => {
    if (!watch(req, res)) return;
    if (!d.tournament) return void apiError(res, 404, 'no-tournament', 'there is no tournament yet');
    res.type('text/csv; charset=utf-8').setHeader('Cache-Control', 'no-store').send(d.tournament.crosstableCsv());
  });
  app.get('/api/tournament/crosstable.html', (req, res) => {
    if (!watch(req, res)) return;
    if (!d.tournament) return void apiError(res, 404, 'no-tournament', 'there is no tournament yet');
    res.type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-store').send(d.tournament.crosstableHtml());
  });
  app.get('/broadcast/:round.pdn', async (req, res, next) => {
    if (!watch(req, res)) return;
    try {
      const text = await roundPdn(d, rooms, Number(req.params.round));
      if (text === null) return void apiError(res, 404, 'no-round', `round ${String(req.params.round)} is not paired`);
      res.type('application/x-pdn; charset=utf-8').setHeader('Cache-Control', 'no-cache').send(text);
    } catch (e) {
      next(e);
    }
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The new tournament's settings from the body ({"settings": {…}}), or the refusal naming what is missing. */
function settingsOf(body: Record<string, unknown>): TournamentSettings {
  if (!isObject(body.settings))
    throw new TournamentError('bad-settings', 'no settings: send {"settings": {"id", "name", "system", "rounds", "ballots", "seed"}}');
  return body.settings as TournamentSettings;
}

/** The arbiter's change: {"change": {"t": …}} or the change itself ({"t": …}, `by` beside it); refused naming what is missing. */
function changeOf(body: Record<string, unknown>): Record<string, unknown> {
  if (isObject(body.change)) return body.change;
  if (typeof body.t === 'string') {
    const { by: _by, ...change } = body;
    return change;
  }
  throw new TournamentError('bad-event', 'no change: send the change as {"t": "set-result", …} or {"change": {"t": …}}');
}

/** GET /api/tournament's answer: the state, the current round's games, standings, crosstable rows, what stops the next round, the boards. */
function tournamentView(d: Director, t: NonNullable<Director['tournament']>): TournamentView {
  const round = t.currentRound();
  return {
    tournament: t.state,
    round,
    games: round ? t.gamesOfRound(round) : [],
    standings: t.standings(),
    crosstable: crosstableModel(t.state, (n) => (Number.isInteger(n * 2) ? pointsText(n) : n.toFixed(2))),
    nextRoundProblem: t.nextRoundProblem(),
    boards: d.boards(),
  };
}

/** Every started game of a round, by board: live from its board, else from its saved record. */
export async function roundPdn(d: Director, rooms: readonly Room[], round: number): Promise<string | null> {
  const t = d.tournament;
  if (!t || !Number.isInteger(round) || round < 1 || round > t.currentRound()) return null;
  const texts: string[] = [];
  for (const b of t.gamesOfRound(round)) {
    const room = rooms.find((r) => r.number === b.board);
    for (const g of b.games) {
      if (!g.gameId || !room) continue;
      const text = await roundGame(room, g.gameId);
      if (text) texts.push(text);
    }
  }
  return texts.join('\n');
}
