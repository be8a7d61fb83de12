// The friend's seat over HTTP (seat.ts): the seat's page GET /play/<token>
// (the play page's shell, only for the seat's token: any other answers 404
// saying the link is not valid), its PDN GET /play/<token>/game.pdn — the
// session's own PDN, the same bytes as the board's /api/current.pdn — and,
// for the board's player (control rights), the pairing: POST /api/friend
// {name, side?, host?} starts it (a new token, a new game), GET /api/friend
// shows it (the link, from the address the page was loaded from or the
// service's public URL, and its QR code), DELETE /api/friend closes the seat.

import express, { type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { requesterOf, type Access } from './access.ts';
import { apiError } from './api-error.ts';
import { securityHeaders } from './http.ts';
import { sendAsset, type Page } from './page.ts';
import { qrSvg } from './qr.ts';
import type { FriendSeat } from './seat.ts';
import { FriendRequest, type FriendSeatBody } from '../protocol/play-v1.ts';
import { MAX_CLIENT_MESSAGE } from '../protocol/v1.ts';
import { describeIssue, type Issue } from './messages.ts';

export interface SeatRouteOptions {
  /** the address other devices reach this service by (e.g. https://club.example:8443), for the link; default: the address the request came to */
  publicUrl?: string;
  /** the seat page's socket is connected */
  online: () => boolean;
}

/** The seat's link: /play/<token> on the public address, or on the address the page was loaded from. */
export function seatLink(token: string, base: string): string {
  return `${base.replace(/\/+$/, '')}/play/${token}`;
}

const notValid = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Crownhead · Not a seat</title>
<style>body{background:#13171b;color:#ece7dc;font:17px/1.5 system-ui,sans-serif;margin:0;padding:24px}</style></head>
<body><main><h1>This link is not a seat (any more)</h1><p role="alert">Ask the player at the board for a new link.</p></main></body></html>
`;

export function seatRoutes(app: express.Express, seat: FriendSeat, access: Access, page: Page, log: Logger, opts: SeatRouteOptions): void {
  const base = (req: Request) => opts.publicUrl ?? `${req.protocol}://${req.headers.host ?? 'localhost'}`;
  const body = (req: Request): FriendSeatBody => {
    const token = seat.token;
    if (!token) return { seat: null };
    const link = seatLink(token, base(req));
    return { seat: { name: seat.name!, side: seat.side(), link, qrSvg: qrSvg(link), online: opts.online() } };
  };
  app.use('/play', securityHeaders);
  app.get(['/play/:token', '/play/:token/'], (req, res, next) => {
    if (!seat.matches(String(req.params.token)))
      return void res.status(404).setHeader('Cache-Control', 'no-store').type('html').send(notValid);
    const asset = page.ok ? page.assets.get('/play') : undefined;
    if (!asset) return next();
    sendAsset(req, res, asset, 'no-store');
  });
  app.get('/play/:token/game.pdn', (req, res) => {
    if (!seat.matches(String(req.params.token))) return void apiError(res, 404, 'not-found', 'this link is not a seat (any more)');
    res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${seat.session.gameId.replace(/[^A-Za-z0-9_.-]/g, '_')}.pdn"`);
    res.setHeader('Cache-Control', 'no-store');
    res.send(Buffer.from(seat.session.pdn(), 'utf8'));
  });
  const control = (req: Request, res: Response, next: () => void) => {
    const who = requesterOf(req);
    if (!access.canControl(who)) return void apiError(res, 403, 'forbidden', access.refusal(who));
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  app.get('/api/friend', control, (req, res) => void res.json(body(req)));
  app.delete('/api/friend', control, (req, res) => {
    seat.close();
    log.info('the friend seat was closed: its link no longer works');
    res.json(body(req));
  });
  app.post('/api/friend', control, express.json({ limit: MAX_CLIENT_MESSAGE }), (req, res) => {
    const p = FriendRequest.safeParse(req.body);
    if (!p.success) return void apiError(res, 400, 'bad-message', `friend: ${describeIssue(p.error.issues[0] as Issue, req.body)}`);
    try {
      seat.start(p.data.name, p.data.side ?? 'white', p.data.host);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      return void apiError(res, 409, err.code ?? 'internal', err.message ?? String(e));
    }
    const b = body(req);
    log.info(`${p.data.name} plays ${p.data.side ?? 'white'} from a browser: ${b.seat?.link}`);
    res.json(b);
  });
  // (A body that is not JSON: the API's one error shape, as on every other route.)
  app.use('/api/friend', (err: Error & { type?: string }, _req: Request, res: Response, next: (e?: unknown) => void) => {
    if (err.type === 'entity.parse.failed') return void apiError(res, 400, 'bad-json', `the body is not valid JSON: ${err.message}`);
    if (err.type === 'entity.too.large') return void apiError(res, 413, 'too-large', 'the body is too large');
    next(err);
  });
}
