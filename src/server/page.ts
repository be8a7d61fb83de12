// The web page the server sends: prebuilt in dist/page/ (the package), or
// bundled in memory from src/web/ when running from source; each file
// prepared once (ETag, gzip), the versioned script and stylesheet cached for
// good, and the route that serves them (a 503 naming the problem when there
// is no page: the API still works). The club pages' two HTML shells are left
// to their own routes (club-pages.ts), which send them with `sendAsset`. An
// HTML file's inline scripts (the page's boot.ts) are allowed by their hashes
// in its Content-Security-Policy, and no other inline script is.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type express from 'express';
import type { Logger } from 'pino';
import { BUNDLED } from '../build-info.ts';
import { noneMatchHits } from './conditional.ts';

export interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  /** the content hash the page's HTML links it by (?v=…) */
  hash: string;
  /** an HTML file's inline scripts as CSP sources ('sha256-…') */
  scripts: string[];
}

/** The page's files by URL path, or why there is no page (the same {ok, code, message} as every other failure). */
export type Page = { ok: true; assets: Map<string, Asset> } | { ok: false; code: 'no-page'; message: string };

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|wasm)|image\/svg)/;

let pageBuild: Promise<Page> | null = null;

/** The club pages' HTML (src/web/build.ts), served only by src/server/club-pages.ts; the friend's seat page's, only by src/server/seat-routes.ts. */
const CLUB_HTML: ReadonlySet<string> = new Set(['/watch', '/arbiter', '/play']);

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
    if (typeof path !== 'string' || typeof file !== 'string' || typeof type !== 'string' || file.includes('..'))
      throw new Error(`dist/page/manifest.json has a bad entry: ${JSON.stringify(entry)}`);
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
      const reason =
        err.code === 'ERR_MODULE_NOT_FOUND' && /web[\\/]build\.ts/.test(err.message)
          ? 'the page sources (src/web/build.ts) are missing from this installation'
          : `the page failed to load: ${err.message}`;
      return { ok: false, code: 'no-page', message: reason };
    }
    const assets = new Map<string, Asset>();
    for (const [path, { body, type }] of files) {
      const gzip = COMPRESSIBLE.test(type) && body.length > 512 ? gzipSync(body, { level: 9 }) : null;
      // `hash` is the `?v=` the page's HTML asks for (src/web/build.ts: sha256, 10 hex digits).
      assets.set(path, {
        body,
        type,
        gzip: gzip && gzip.length < body.length ? gzip : null,
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        hash: createHash('sha256').update(body).digest('hex').slice(0, 10),
        scripts: type.startsWith('text/html') ? inlineScriptSources(body.toString('utf8')) : [],
      });
    }
    logger.debug({ files: assets.size, ms: Math.round(performance.now() - t0), prebuilt: BUNDLED }, 'page loaded');
    return { ok: true, assets };
  })();
  return pageBuild;
}

/** The CSP sources that allow an HTML file's inline scripts: 'sha256-…' of each one's text. */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
}

/** The response's CSP (set by http.ts for every route) with these inline scripts allowed too. */
function allowInlineScripts(res: express.Response, sources: string[]): void {
  const csp = res.getHeader('Content-Security-Policy');
  if (!sources.length || typeof csp !== 'string') return;
  res.setHeader(
    'Content-Security-Policy',
    csp.replace(/(^|;\s*)script-src ([^;]*)/, (_m, pre: string, list: string) => `${pre}script-src ${list} ${sources.join(' ')}`),
  );
}

/** GET/HEAD of the page's files (before the API routes). */
export function pageRoutes(app: express.Express, page: Page): void {
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!page.ok) {
      if (req.path !== '/' && req.path !== '/index.html') return next();
      res
        .status(503)
        .type('text/plain')
        .send(`Crownhead: ${page.message}.\nThe game API still works: /api/state, /api/current.pdn, /ws.\n`);
      return;
    }
    // The club pages' HTML goes through their own routes (club-pages.ts: /arbiter checks control rights).
    if (CLUB_HTML.has(req.path)) return next();
    const asset = page.assets.get(req.path === '/index.html' ? '/' : req.path);
    if (!asset) return next();
    sendAsset(req, res, asset);
  });
}

/** One of the page's files: ETag (304 when unchanged), cached for good when asked for by its hash, gzipped when the client takes it. */
export function sendAsset(req: express.Request, res: express.Response, asset: Asset, cacheControl?: string): void {
  res.setHeader('ETag', asset.etag);
  // Assets asked for by their content hash (?v=… from the page's HTML) never change: cache them for good.
  const v = req.query?.v;
  const forGood = !asset.type.startsWith('text/html') && v === asset.hash;
  res.setHeader('Cache-Control', cacheControl ?? (forGood ? 'public, max-age=31536000, immutable' : 'no-cache'));
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Content-Type', asset.type);
  allowInlineScripts(res, asset.scripts);
  if (noneMatchHits(req.headers['if-none-match'], asset.etag)) {
    res.status(304).end();
    return;
  }
  const gzip = asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.send(gzip ? asset.gzip : asset.body);
}
