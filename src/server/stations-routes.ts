// The hub's stations on the HTTP API (club mode whose boards are stations,
// src/stations/hub.ts): GET /api/stations lists every paired board with its
// station's key fingerprint, whether it is online and the messages dropped
// for it (forged, replayed, a second station's claim), and those dropped for
// boards nobody paired; POST /api/stations/forget {"board": ID} (control
// token) forgets a board's key so a station rebuilt from scratch can pair again.

import express, { type Request, type Response } from 'express';
import type { Access } from './access.ts';
import { requesterOf } from './access.ts';
import { apiError } from './api-error.ts';
import type { StationsList } from '../protocol/stations-v1.ts';

/** What the hub lends the routes. */
export interface StationsApi {
  list(): StationsList;
  forget(board: string): boolean;
}

export function stationsRoutes(app: express.Express, api: StationsApi, access: Access): void {
  app.get('/api/stations', (req: Request, res: Response) => {
    const who = requesterOf(req);
    if (!access.canWatch(who)) return void apiError(res, 403, 'forbidden', access.readRefusal(who));
    res.json(api.list());
  });
  app.post('/api/stations/forget', express.json({ limit: 4096 }), (req: Request, res: Response) => {
    const who = requesterOf(req);
    if (!access.canControl(who)) return void apiError(res, 403, 'forbidden', access.refusal(who));
    const board = (req.body as { board?: unknown } | undefined)?.board;
    if (typeof board !== 'string' || !board)
      return void apiError(res, 400, 'bad-request', 'send {"board": "ID"}: the board whose key to forget');
    if (!api.forget(board)) return void apiError(res, 404, 'not-found', `board ${board.slice(0, 64)} is not paired`);
    res.json({
      ok: true,
      board,
      message: `board ${board}: its station's key is forgotten; the next station to claim it with the pairing secret pairs`,
    });
  });
}
