// The HTTP side as routes: the page (page.ts), the read API (state, saved
// games, PDN downloads, the archive streamed; the archive view's JSON in
// archive.ts; the builder's sensor view in sensor-view.ts) and POST /api/command for controls, with access control on
// reads and commands alike, security headers, and every error in the API's one
// shape (api-error.ts) naming the problem.

import express, { type NextFunction, type Request, type Response } from 'express';
import { requesterOf } from './access.ts';
import { apiError } from './api-error.ts';
import { archiveRoutes } from './archive.ts';
import { sensorRoutes } from './sensor-view.ts';
import { commandFailure, statusFor } from './commands.ts';
import type { ServerContext } from './context.ts';
import { parseCommand } from './messages.ts';
import { MAX_CLIENT_MESSAGE, type CommandReplyBody, type GameListBody, type ServerInfoBody, type Snapshot } from '../protocol/v1.ts';
import { pageRoutes, type Page } from './page.ts';

export { apiError } from './api-error.ts';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "media-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  next();
}

function attachment(res: Response, filename: string, text: string): void {
  res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9_.-]/g, '_')}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.send(Buffer.from(text, 'utf8'));
}

/** The express app of one room (its session, store and board) behind the server's access control. */
export function createApp(ctx: ServerContext, page: Page): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(securityHeaders);
  pageRoutes(app, page);
  readGuard(app, ctx);
  // The page's archive view: GET /api/archive.json, GET /api/games/:id.json, DELETE /api/games/:id
  // (before /api/games/:file), behind the read guard; deleting also needs control rights (archive.ts).
  archiveRoutes(app, ctx);
  sensorRoutes(app, ctx);
  stateRoutes(app, ctx);
  downloadRoutes(app, ctx);
  commandRoute(app, ctx);
  fallbackRoutes(app);
  app.use(errorHandler(ctx));
  return app;
}

/** Reads are guarded like commands: this machine's own pages, or a token; never another site's page. */
function readGuard(app: express.Express, ctx: ServerContext): void {
  app.use('/api', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const who = requesterOf(req);
    if (!ctx.access.canRead(who)) return void apiError(res, 403, 'forbidden', ctx.access.readRefusal(who));
    next();
  });
}

/** The game's state, the server's description, and the list of saved games. */
function stateRoutes(app: express.Express, ctx: ServerContext): void {
  app.get('/api/state', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(ctx.session.snapshot() satisfies Snapshot);
  });
  app.get('/api/info', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...ctx.info(), readOnly: !ctx.access.canControl(requesterOf(req)) } satisfies ServerInfoBody);
  });
  // The saved games: read asynchronously and cached by the store, so a big folder never stalls play;
  // anything in the folder that is not a readable game is listed under "skipped".
  app.get('/api/games', async (_req, res, next) => {
    try {
      const list = await ctx.store.list();
      res.setHeader('Cache-Control', 'no-store');
      res.json({ current: ctx.session.gameId, ...list } satisfies GameListBody);
    } catch (e) {
      next(e);
    }
  });
}

/** PDN downloads: the game in play, one saved game, and the whole archive streamed. */
function downloadRoutes(app: express.Express, ctx: ServerContext): void {
  // ?annotated=1: with the analysis' ?/?? and better moves as comments (when the game was analysed).
  app.get('/api/current.pdn', (req, res) =>
    attachment(res, `${ctx.session.gameId}.pdn`, ctx.session.pdn({ annotated: req.query.annotated === '1' })),
  );
  app.get('/api/archive.pdn', (req, res, next) => {
    streamArchive(ctx, req, res).catch((e) => {
      if (res.headersSent) return void res.destroy();
      next(e);
    });
  });
  app.get('/api/games/:file', async (req, res, next) => {
    try {
      const file = String(req.params.file);
      const id = file.endsWith('.pdn') ? file.slice(0, -4) : null;
      const text = id === null ? null : id === ctx.session.gameId ? ctx.session.pdn() : await ctx.store.readPdn(id);
      if (text === null) return void apiError(res, 404, 'not-found', `no saved game "${file}" (see /api/games for the list)`);
      attachment(res, file, text);
    } catch (e) {
      next(e);
    }
  });
}

/** Every saved game a game at a time, oldest first; the game in play is in it even when the disk refused to store it. */
async function streamArchive(ctx: ServerContext, req: Request, res: Response): Promise<void> {
  const current = ctx.session.gameId;
  let sent = 0;
  let sawCurrent = false;
  res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
  res.setHeader('Content-Disposition', 'attachment; filename="crownhead-archive.pdn"');
  res.setHeader('Cache-Control', 'no-store');
  // Back pressure: each wait ends at 'drain' or when the client goes. One 'close' listener for the
  // whole stream (a big archive waits hundreds of times), removed at its end; no 'drain' one left over.
  let waiting: (() => void) | null = null;
  const wake = () => {
    const w = waiting;
    waiting = null;
    w?.();
  };
  res.on('close', wake);
  const write = async (text: string) => {
    if (req.destroyed || res.destroyed) throw Object.assign(new Error('client gone'), { type: 'request.aborted' });
    if (res.write((sent++ ? '\n' : '') + text)) return;
    await new Promise<void>((resolve) => {
      waiting = resolve;
      res.once('drain', wake);
    });
    res.off('drain', wake);
  };
  try {
    for await (const g of ctx.store.archive()) {
      if (g.id === current) {
        sawCurrent = true;
        await write(ctx.session.pdn());
      } else await write(g.text);
    }
    if (!sawCurrent) await write(ctx.session.pdn());
  } finally {
    res.off('close', wake);
  }
  res.end();
}

/** POST /api/command: control rights, JSON, a valid command; the state after it. */
function commandRoute(app: express.Express, ctx: ServerContext): void {
  app.post(
    '/api/command',
    (req, res, next) => {
      const who = requesterOf(req);
      if (!ctx.access.canControl(who)) return void apiError(res, 403, 'forbidden', ctx.access.refusal(who));
      if (!req.is('application/json'))
        return void apiError(res, 415, 'bad-content-type', 'send the command as JSON with "Content-Type: application/json"');
      next();
    },
    express.json({ limit: MAX_CLIENT_MESSAGE, strict: false }),
    async (req, res) => {
      const parsed = parseCommand(req.body);
      if (!parsed.ok) return void apiError(res, statusFor(parsed.error.code), parsed.error.code, parsed.error.message);
      try {
        await ctx.command(parsed.value); // (a station's board: its answer)
      } catch (e) {
        const f = commandFailure(e);
        if (f.internal) ctx.logger.error({ err: e, command: parsed.value.name }, 'command failed');
        return void apiError(res, statusFor(f.code), f.code, f.message);
      }
      res.json({ ok: true, state: ctx.session.snapshot() } satisfies CommandReplyBody);
    },
  );
}

const ROUTES: Record<string, string> = {
  '/api/command': 'POST',
  '/api/state': 'GET',
  '/api/info': 'GET',
  '/api/games': 'GET',
  '/api/current.pdn': 'GET',
  '/api/archive.pdn': 'GET',
};

/** A known path with the wrong method (405, with Allow), an unknown API path (404), anything else (plain 404). */
function fallbackRoutes(app: express.Express): void {
  app.use('/api', (req, res) => {
    const allowed = ROUTES[req.originalUrl.split('?')[0]!] ?? (req.path.startsWith('/games/') ? 'GET' : undefined);
    if (allowed) {
      res.setHeader('Allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
      return void apiError(
        res,
        405,
        'method-not-allowed',
        `${req.method} is not allowed on ${req.path === '/' ? '/api' : '/api' + req.path} (use ${allowed})`,
      );
    }
    apiError(res, 404, 'not-found', `no API endpoint ${req.method} /api${req.path}`);
  });
  app.use((req, res) => {
    res.status(404).type('text/plain').send(`Not found: ${req.path}\n`);
  });
}

/** Errors from the body parser and anything unexpected: JSON, never a crash. */
function errorHandler(ctx: ServerContext) {
  return (err: Error & { type?: string; status?: number; expose?: boolean }, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return void res.end();
    switch (err.type) {
      case 'entity.parse.failed':
        return void apiError(res, 400, 'bad-json', `the body is not valid JSON: ${err.message}`);
      case 'entity.too.large':
        return void apiError(res, 413, 'too-large', `the body is over the ${MAX_CLIENT_MESSAGE}-byte limit`);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return void apiError(res, 415, 'bad-encoding', err.message);
      case 'request.aborted':
        return void res.end();
    }
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) ctx.logger.error({ err, path: req.path }, 'request failed');
    const message = status === 500 ? describeServerError(err) : err.message;
    apiError(res, status, status === 500 ? 'internal' : 'bad-request', message);
  };
}

function describeServerError(err: NodeJS.ErrnoException): string {
  if (err.code === 'EACCES' || err.code === 'EPERM') return `the games directory cannot be read: permission denied (${err.path ?? ''})`;
  if (err.code === 'ENOTDIR' || err.code === 'ENOENT') return `the games directory cannot be read: ${err.message}`;
  return `internal error: ${err.message}`;
}
