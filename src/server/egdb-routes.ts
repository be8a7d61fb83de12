// The 5-piece endgame database from the page (engine-host/egdb-build.ts):
// GET /api/egdb says whether it is built, being built (slice k of n) or not
// (read rights: any page that may watch), POST /api/egdb/build starts
// building it and DELETE /api/egdb/build stops a build (control rights: the
// board's player, not a spectator). A build already under way, a database
// already built or a machine with too little memory answers 409 with why.

import type express from 'express';
import { requesterOf, type Access } from './access.ts';
import { apiError } from './api-error.ts';
import { EgdbBuildError, type EgdbBuilder } from '../engine-host/egdb-build.ts';

export function egdbRoutes(app: express.Express, builder: EgdbBuilder, access: Access): void {
  const may = (control: boolean) => (req: express.Request, res: express.Response, next: express.NextFunction) => {
    const who = requesterOf(req);
    if (control ? !access.canControl(who) : !access.canRead(who))
      return void apiError(res, 403, 'forbidden', control ? access.refusal(who) : access.readRefusal(who));
    next();
  };
  app.get('/api/egdb', may(false), (_req, res) => void res.set('Cache-Control', 'no-store').json(builder.status()));
  app.post('/api/egdb/build', may(true), (_req, res) => {
    try {
      res.status(202).json(builder.start());
    } catch (e) {
      if (!(e instanceof EgdbBuildError)) throw e;
      apiError(res, 409, e.code, e.message);
    }
  });
  app.delete('/api/egdb/build', may(true), (_req, res) => {
    builder.stop();
    res.json(builder.status());
  });
}
