// The HTTP side: the page (prebuilt in dist/page/, or bundled from src/web/ when
// running from source; gzipped when the client takes it, with ETags; the
// versioned script and stylesheet cached for good), the read API (state, saved
// games, PDN downloads, the archive streamed, the archive view's JSON in
// archive.ts) and POST /api/command for controls, with access control on reads
// and commands alike, security headers and JSON errors that name the problem.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BUNDLED } from '../build-info.ts';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { bearerToken, cookieToken, type Requester } from './access.ts';
import { commandFailure, statusFor } from './commands.ts';
import type { ServerContext } from './context.ts';
import { MAX_CLIENT_MESSAGE, parseCommand } from './messages.ts';
import { archiveRoutes } from './archive.ts';

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  /** the content hash the page's HTML links it by (?v=…) */
  hash: string;
}

/** The page's files by URL path, or why there is no page. */
export type Page = { ok: true; assets: Map<string, Asset> } | { ok: false; reason: string };

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|wasm)|image\/svg)/;

let pageBuild: Promise<Page> | null = null;

/** The prebuilt page beside the bundle (dist/page/, listed in its manifest.json). */
function readPrebuiltPage(): Map<string, { body: Buffer; type: string }> {
  const dir = new URL('../page/', import.meta.url);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8'));
  } catch (e) {
    throw new Error(`the prebuilt page (dist/page/manifest.json) cannot be read: ${(e as Error).message}; run "npm run build"`);
  }
  if (!Array.isArray(manifest)) throw new Error('dist/page/manifest.json is not a list; run "npm run build"');
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const entry of manifest as unknown[]) {
    const { path, file, type } = (entry ?? {}) as Record<string, unknown>;
    if (typeof path !== 'string' || typeof file !== 'string' || typeof type !== 'string' || file.includes('..')) throw new Error(`dist/page/manifest.json has a bad entry: ${JSON.stringify(entry)}`);
    files.set(path, { body: readFileSync(new URL(file, dir)), type });
  }
  return files;
}

/**
 * The page once per process: read from dist/page/ in the built package, or
 * bundled in memory from src/web/ (esbuild) when running from source; each
 * file prepared once (ETag, gzip).
 */
export function loadPage(logger: Logger): Promise<Page> {
  pageBuild ??= (async (): Promise<Page> => {
    const t0 = performance.now();
    let files: Map<string, { body: Buffer; type: string }>;
    try {
      if (BUNDLED) files = readPrebuiltPage();
      else {
        // A specifier the bundler cannot follow: the build step never ships esbuild or src/web.
        const source = '../web/build.ts';
        const { buildPage } = (await import(source)) as { buildPage: () => Promise<typeof files> };
        files = await buildPage();
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const reason = err.code === 'ERR_MODULE_NOT_FOUND' && /web[\\/]build\.ts/.test(err.message) ? 'the page sources (src/web/build.ts) are missing from this installation' : `the page failed to load: ${err.message}`;
      return { ok: false, reason };
    }
    const assets = new Map<string, Asset>();
    for (const [path, { body, type }] of files) {
      const gzip = COMPRESSIBLE.test(type) && body.length > 512 ? gzipSync(body, { level: 9 }) : null;
      // `hash` is the `?v=` the page's HTML asks for (src/web/build.ts: sha256, 10 hex digits).
      assets.set(path, { body, type, gzip: gzip && gzip.length < body.length ? gzip : null, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, hash: createHash('sha256').update(body).digest('hex').slice(0, 10) });
    }
    logger.debug({ files: assets.size, ms: Math.round(performance.now() - t0), prebuilt: BUNDLED }, 'page loaded');
    return { ok: true, assets };
  })();
  return pageBuild;
}

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

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  next();
}

export function requesterOf(req: Request): Requester {
  const q = req.query?.token;
  return {
    remoteAddress: req.socket.remoteAddress,
    host: req.headers.host,
    origin: req.headers.origin,
    token: bearerToken(req.headers.authorization) ?? (typeof q === 'string' ? q : null) ?? cookieToken(req.headers.cookie),
  };
}

function attachment(res: Response, filename: string, text: string): void {
  res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9_.-]/g, '_')}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.send(Buffer.from(text, 'utf8'));
}

const apiError = (res: Response, status: number, code: string, message: string) => res.status(status).json({ ok: false, code, message });

export function createApp(ctx: ServerContext, page: Page): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(securityHeaders);

  // ---------------------------------------------------------------- the page
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!page.ok) {
      if (req.path !== '/' && req.path !== '/index.html') return next();
      res.status(503).type('text/plain').send(`Crownhead: ${page.reason}.\nThe game API still works: /api/state, /api/current.pdn, /ws.\n`);
      return;
    }
    const asset = page.assets.get(req.path === '/index.html' ? '/' : req.path);
    if (!asset) return next();
    res.setHeader('ETag', asset.etag);
    // Assets asked for by their content hash (?v=… from the page's HTML) never change: cache them for good.
    const v = req.query?.v;
    res.setHeader('Cache-Control', req.path !== '/' && v === asset.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Type', asset.type);
    if (req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    const gzip = asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.send(gzip ? asset.gzip : asset.body);
  });

  // ---------------------------------------------------------------- read API
  // Reads are guarded like commands: this machine's own pages, or a token; never another site's page.
  app.use('/api', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const who = requesterOf(req);
    if (!ctx.access.canRead(who)) return void apiError(res, 403, 'forbidden', ctx.access.readRefusal(who));
    next();
  });

  // ---------------------------------------------------------------- the page's archive view (src/server/archive.ts)
  // GET /api/archive.json, GET /api/games/:id.json, DELETE /api/games/:id (before /api/games/:file),
  // behind the read guard above; deleting also needs control rights (archive.ts).
  archiveRoutes(app, ctx);
  app.get('/api/state', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(ctx.session.snapshot());
  });
  app.get('/api/info', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...ctx.info(), readOnly: !ctx.access.canControl(requesterOf(req)) });
  });
  // The saved games: read asynchronously and cached by the store, so a big folder never stalls play;
  // anything in the folder that is not a readable game is listed under "skipped".
  app.get('/api/games', async (_req, res, next) => {
    try {
      const list = await ctx.store.list();
      res.setHeader('Cache-Control', 'no-store');
      res.json({ current: ctx.session.gameId, ...list });
    } catch (e) {
      next(e);
    }
  });
  // ?annotated=1: with the analysis' ?/?? and better moves as comments (when the game was analysed).
  app.get('/api/current.pdn', (req, res) => attachment(res, `${ctx.session.gameId}.pdn`, ctx.session.pdn({ annotated: req.query.annotated === '1' })));
  app.get('/api/archive.pdn', async (req, res, next) => {
    // Streamed a game at a time, oldest first; the game in play is in it even when the disk refused to store it.
    const current = ctx.session.gameId;
    let sent = 0;
    let sawCurrent = false;
    try {
      res.setHeader('Content-Type', 'application/x-pdn; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="crownhead-archive.pdn"');
      res.setHeader('Cache-Control', 'no-store');
      const write = async (text: string) => {
        if (req.destroyed || res.destroyed) throw Object.assign(new Error('client gone'), { type: 'request.aborted' });
        if (!res.write((sent++ ? '\n' : '') + text)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
      };
      for await (const g of ctx.store.archive()) {
        if (g.id === current) {
          sawCurrent = true;
          await write(ctx.session.pdn());
        } else await write(g.text);
      }
      if (!sawCurrent) await write(ctx.session.pdn());
      res.end();
    } catch (e) {
      if (res.headersSent) return void res.destroy();
      next(e);
    }
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

  // ---------------------------------------------------------------- commands
  app.post('/api/command', (req, res, next) => {
    const who = requesterOf(req);
    if (!ctx.access.canControl(who)) return void apiError(res, 403, 'forbidden', ctx.access.refusal(who));
    if (!req.is('application/json')) return void apiError(res, 415, 'bad-content-type', 'send the command as JSON with "Content-Type: application/json"');
    next();
  }, express.json({ limit: MAX_CLIENT_MESSAGE, strict: false }), (req, res) => {
    const parsed = parseCommand(req.body);
    if (!parsed.ok) return void apiError(res, statusFor(parsed.code), parsed.code, parsed.message);
    try {
      ctx.command(parsed.command);
    } catch (e) {
      const f = commandFailure(e);
      if (f.internal) ctx.logger.error({ err: e, command: parsed.command.name }, 'command failed');
      return void apiError(res, statusFor(f.code), f.code, f.message);
    }
    res.json({ ok: true, state: ctx.session.snapshot() });
  });

  const ROUTES: Record<string, string> = {
    '/api/command': 'POST', '/api/state': 'GET', '/api/info': 'GET', '/api/games': 'GET', '/api/current.pdn': 'GET', '/api/archive.pdn': 'GET',
  };
  app.use('/api', (req, res) => {
    const allowed = ROUTES[req.originalUrl.split('?')[0]] ?? (req.path.startsWith('/games/') ? 'GET' : undefined);
    if (allowed) {
      res.setHeader('Allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
      return void apiError(res, 405, 'method-not-allowed', `${req.method} is not allowed on ${req.path === '/' ? '/api' : '/api' + req.path} (use ${allowed})`);
    }
    apiError(res, 404, 'not-found', `no API endpoint ${req.method} /api${req.path}`);
  });
  app.use((req, res) => {
    res.status(404).type('text/plain').send(`Not found: ${req.path}\n`);
  });

  // Errors from the body parser and anything unexpected: JSON, never a crash.
  app.use((err: Error & { type?: string; status?: number; expose?: boolean }, req: Request, res: Response, _next: NextFunction) => {
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
  });
  return app;
}

function describeServerError(err: NodeJS.ErrnoException): string {
  if (err.code === 'EACCES' || err.code === 'EPERM') return `the games directory cannot be read: permission denied (${err.path ?? ''})`;
  if (err.code === 'ENOTDIR' || err.code === 'ENOENT') return `the games directory cannot be read: ${err.message}`;
  return `internal error: ${err.message}`;
}
