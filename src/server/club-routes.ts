// Club mode's HTTP routes, in front of the first board's (which keep their
// one-board URLs): the board list (GET /api/boards), each board's own page,
// API and socket under /boards/ID/ (its room's app), and the broadcast: every
// game as one PDN (GET /broadcast.pdn) with an ETag and long polling — a
// request whose If-None-Match names the current ETag (compared weakly, or *:
// conditional.ts) waits up to 30 s for a change, then gets the new feed (200)
// or 304. The broadcast and the board list are readable by whoever may watch
// (anyone, with a public broadcast).

import express, { type Request, type Response } from 'express';
import { requesterOf, type Access } from './access.ts';
import { apiError } from './api-error.ts';
import { noneMatchHits } from './conditional.ts';
import type { SpectatorFeed } from './feed.ts';
import type { BoardList } from '../protocol/club-v1.ts';

/** What each option is when it is not given. */
const DEFAULTS = { longPollMs: 30_000 } as const;

export interface ClubRoutesOptions {
  /** how long a broadcast request with the current ETag waits for a change (default 30 s) */
  longPollMs?: number;
}

export function clubRoutes(
  app: express.Express,
  club: {
    feed: SpectatorFeed;
    access: Access;
    boardApps: ReadonlyMap<string, express.Express>;
    /** the broadcast's text when a tournament runs (its current round, finished games too); null: every board's game */
    roundText?: () => Promise<string | null>;
  },
  opts: ClubRoutesOptions = {},
): void {
  const { feed, access, boardApps } = club;
  const mayWatch = (req: Request, res: Response): boolean => {
    const who = requesterOf(req);
    if (access.canWatch(who)) return true;
    apiError(res, 403, 'forbidden', access.readRefusal(who));
    return false;
  };
  app.get('/api/boards', (req, res) => {
    if (!mayWatch(req, res)) return;
    res.setHeader('Cache-Control', 'no-store');
    res.json({ boards: feed.summaries() } satisfies BoardList);
  });
  app.get('/broadcast.pdn', async (req, res, next) => {
    try {
      await broadcast(req, res);
    } catch (e) {
      next(e);
    }
  });
  const broadcast = async (req: Request, res: Response): Promise<void> => {
    if (!mayWatch(req, res)) return;
    // The version the request names (weakly, or * for any) is the current one: wait for the next.
    if (noneMatchHits(req.headers['if-none-match'], feed.etag)) {
      const since = feed.etag;
      let gone = false;
      res.on('close', () => (gone = true));
      const changed = await feed.waitPast(since, opts.longPollMs ?? DEFAULTS.longPollMs);
      if (gone) return;
      if (!changed) {
        res.setHeader('ETag', feed.etag);
        return void res.status(304).end();
      }
    }
    const etag = feed.etag;
    const text = (await club.roundText?.()) ?? feed.pdn();
    res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    res.send(Buffer.from(text, 'utf8'));
  };
  // A board's own page and API: /boards/ID/ is that board's one-board page (its socket /boards/ID/ws).
  app.use('/boards/:id', (req, res, next) => {
    const id = String(req.params.id);
    const sub = boardApps.get(id);
    if (!sub) return void apiError(res, 404, 'no-board', `no board "${id}" here (GET /api/boards lists them)`);
    const [path, query] = req.originalUrl.split('?');
    // The page's links are relative to its folder: /boards/ID is /boards/ID/.
    if (path === `/boards/${id}`) return void res.redirect(301, `${path}/${query !== undefined ? `?${query}` : ''}`);
    sub(req, res, next);
  });
}
