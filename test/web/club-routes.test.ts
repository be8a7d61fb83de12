// The club pages' routes (src/server/club-pages.ts) on an express app with the
// real page build and the real access rules: /watch for anyone, /arbiter only
// with control rights (403 with a page saying why and what to do otherwise),
// never through the generic page route, never cached when personal.

import { createServer, type Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Access } from '../../src/server/access.ts';
import { clubPageRoutes } from '../../src/server/club-pages.ts';
import { loadPage, pageRoutes } from '../../src/server/page.ts';
import { rawRequest } from '../server/helpers.ts';

const TOKEN = 'ctrl-Token-7f3';
const WATCH = 'watch-Token-2b9';
let server: Server;
let base: string;

beforeAll(async () => {
  const access = new Access({ host: '127.0.0.1', requireToken: true, token: TOKEN, readToken: WATCH });
  const page = await loadPage(pino({ level: 'silent' }));
  const app = express();
  app.set('query parser', 'simple');
  clubPageRoutes(app, page, access);
  pageRoutes(app, page);
  app.use((_req, res) => void res.status(404).send('no'));
  server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('GET /watch and /arbiter', () => {
  it('serves the spectators page to anyone, gzipped and revalidated, with no token in it', async () => {
    for (const path of ['/watch', '/watch/']) {
      const r = await rawRequest(base + path, { headers: { host: `127.0.0.1`, 'accept-encoding': 'identity' } });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.body).toContain('<body data-mode="watch">');
      expect(r.body).not.toContain(TOKEN);
    }
    const etag = (await rawRequest(base + '/watch')).headers.etag as string;
    expect((await rawRequest(base + '/watch', { headers: { 'if-none-match': etag } })).status).toBe(304);
    // compared weakly, as RFC 9110 says for If-None-Match; * matches any current page (a reload's no-cache is for caches)
    for (const since of [`W/${etag}`, `"x", W/${etag}`, '*'])
      for (const cache of [{}, { 'cache-control': 'no-cache' }] as Record<string, string>[])
        expect((await rawRequest(base + '/watch', { headers: { 'if-none-match': since, ...cache } })).status, since).toBe(304);
    expect((await rawRequest(base + '/watch', { headers: { 'if-none-match': 'W/"x"' } })).status).toBe(200);
  });

  it('serves the arbiter page only with the control token, never cached', async () => {
    const ok = await rawRequest(`${base}/arbiter?token=${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('<body data-mode="arbiter">');
    expect(ok.headers['cache-control']).toBe('no-store');
    // The page itself holds no token: it reads its own address.
    expect(ok.body).not.toContain(TOKEN);
    expect((await rawRequest(`${base}/arbiter/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    for (const [what, url] of [
      ['no token', `${base}/arbiter`],
      ['the watch token', `${base}/arbiter?token=${WATCH}`],
      ['a wrong token', `${base}/arbiter?token=nope`],
    ] as const) {
      const r = await rawRequest(url);
      expect(r.status, what).toBe(403);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.body).toContain('The arbiter’s page needs the control token');
      expect(r.body).toContain('href="/watch"');
      expect(r.body).not.toContain(TOKEN);
    }
    expect((await rawRequest(`${base}/arbiter?token=${WATCH}`)).body).toContain('The watch token only lets this device follow the game');
  });

  it('leaves the club HTML to its routes: the generic page route does not serve it', async () => {
    const app = express();
    pageRoutes(app, await loadPage(pino({ level: 'silent' })));
    app.use((_req, res) => void res.status(404).send('not here'));
    const bare = createServer(app);
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;
    try {
      expect((await rawRequest(url + '/arbiter')).status).toBe(404);
      expect((await rawRequest(url + '/watch')).status).toBe(404);
      // The bundle itself is an ordinary page file.
      const js = await rawRequest(url + '/assets/club.js');
      expect(js.status).toBe(200);
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    } finally {
      await new Promise<void>((r) => bare.close(() => r()));
    }
  });
});
