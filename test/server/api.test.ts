// The HTTP API: state, info, saved games, PDN downloads, the archive, and
// POST /api/command with errors that name the problem; security headers; the page.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOnePdn, readPdn } from '../../src/pdn/index.ts';
import { post, StillBoard, until, useServices } from './helpers.ts';

const { start } = useServices();

describe('HTTP API', () => {
  it('serves the state, the server info and the game list', async () => {
    const s = await start({ game: { tags: { Event: 'Test' } } });
    const url = s.service.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const state = await (await fetch(url + 'api/state')).json();
    expect(state).toMatchObject({ version: 1, gameId: s.service.session.gameId, turn: 'black', result: '*' });
    expect(state.tags.Event).toBe('Test');
    const info = await (await fetch(url + 'api/info')).json();
    expect(info).toMatchObject({ name: 'crownhead', sim: true, source: 'sim', readOnly: false, storage: { ok: true } });
    await until(() => existsSync(`${s.dir}/${s.service.session.gameId}.pdn`), 'the PDN file');
    const games = await (await fetch(url + 'api/games')).json();
    expect(games.current).toBe(s.service.session.gameId);
    expect(games.games.map((g: { id: string }) => g.id)).toEqual([s.service.session.gameId]);
    expect(games.games[0]).toMatchObject({ event: 'Test', result: '*' });
  });

  it('downloads the current game, a saved game and the archive as PDN attachments', async () => {
    const s = await start({ game: { tags: { Black: 'Ann', White: 'Bo' } } });
    const url = s.service.url;
    const first = s.service.session.gameId;
    const cur = await fetch(url + 'api/current.pdn');
    expect(cur.status).toBe(200);
    expect(cur.headers.get('content-disposition')).toBe(`attachment; filename="${first}.pdn"`);
    expect(cur.headers.get('content-type')).toMatch(/pdn/);
    const g = readOnePdn(await cur.text());
    expect(g.tags).toEqual(
      expect.arrayContaining([
        ['Black', 'Ann'],
        ['White', 'Bo'],
      ]),
    );

    expect((await post(url + 'api/command', { name: 'resign', side: 'black' })).status).toBe(200);
    expect((await post(url + 'api/command', { name: 'new-game', tags: { Black: 'Cy' } })).status).toBe(200);
    const second = s.service.session.gameId;
    expect(second).not.toBe(first);
    await until(
      () => existsSync(`${s.dir}/${second}.pdn`) && readFileSync(`${s.dir}/${first}.pdn`, 'utf8').includes('0-1'),
      'both PDN files',
    );

    const saved = await fetch(url + `api/games/${first}.pdn`);
    expect(saved.status).toBe(200);
    expect(readOnePdn(await saved.text()).result).toBe('0-1');
    const archive = readPdn(await (await fetch(url + 'api/archive.pdn')).text());
    expect(archive.errors).toEqual([]);
    expect(archive.games.map((x) => x.result)).toEqual(['0-1', '*']);

    for (const bad of ['nope.pdn', '..%2F..%2Fetc%2Fpasswd.pdn', `${first}.txt`]) {
      const r = await fetch(url + `api/games/${bad}`);
      expect(r.status, bad).toBe(404);
      expect((await r.json()).message).toMatch(/no saved game/);
    }
  });

  it('runs commands posted as JSON and answers with the new state', async () => {
    const s = await start();
    const r = await post(s.service.url + 'api/command', { name: 'set-tags', tags: { Site: 'Hall' } });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.ok).toBe(true);
    expect(body.state.tags.Site).toBe('Hall');
    expect(s.service.session.tags.Site).toBe('Hall');
  });

  it('rejects bad commands with a status and a message naming the problem, and keeps serving', async () => {
    const s = await start();
    const u = s.service.url + 'api/command';
    const cases: [string | object, number, string, RegExp, Record<string, string>?][] = [
      ['{"name": "resign",', 400, 'bad-json', /not valid JSON/],
      [{ name: 'resign', side: 'black', why: 'tired' }, 400, 'bad-message', /unknown field "why"/],
      [{ name: 'teleport' }, 400, 'unknown-command', /unknown command "teleport"/],
      [{ side: 'black' }, 400, 'bad-message', /needs a "name"/],
      ['[]', 400, 'bad-message', /JSON object/],
      [{ name: 'new-game', ballot: 999 }, 400, 'bad-message', /"ballot" must be at most 174/],
      [{ name: 'new-game', fen: 'W:Wxx' }, 400, 'bad-fen', /./],
      [{ name: 'takeback' }, 409, 'nothing-to-undo', /no move/],
      [{ name: 'accept-draw', side: 'white' }, 409, 'not-allowed', /not offered a draw/],
      [{ name: 'set-tags', tags: { Result: '1-0' } }, 400, 'bad-request', /set by the game/],
      [JSON.stringify({ name: 'set-tags', tags: { A: 'x'.repeat(20_000) } }), 413, 'too-large', /limit/],
      ['name=resign', 415, 'bad-content-type', /application\/json/, { 'content-type': 'application/x-www-form-urlencoded' }],
    ];
    for (const [body, status, code, text, headers] of cases) {
      const r = await post(u, body, headers);
      const j = await r.json();
      expect([r.status, j.code], JSON.stringify(body).slice(0, 50)).toEqual([status, code]);
      expect(j.message).toMatch(text);
    }
    const get = await fetch(u);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const unknown = await fetch(s.service.url + 'api/nothing');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toMatch(/no API endpoint GET \/api\/nothing/);
    expect((await fetch(s.service.url + 'api/state')).status).toBe(200);
  });

  it('refuses hand commands when the board is not the simulated one', async () => {
    const still = new StillBoard();
    const s = await start({ board: { source: still as never } });
    const r = await post(s.service.url + 'api/command', { name: 'hand', action: 'place', square: 5 });
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({ code: 'not-sim', message: expect.stringMatching(/only on the simulated board/) });
    expect((await (await fetch(s.service.url + 'api/info')).json()).sim).toBe(false);
    expect((await post(s.service.url + 'api/command', { name: 'resign', side: 'white' })).status).toBe(200);
    await until(() => still.sent.some((c) => c.type === 'buzz' && c.pattern === 'GAMEOVER'), 'the game-over buzz');
  });

  it('sends security headers that allow the page to run its own scripts only', async () => {
    const s = await start();
    const r = await fetch(s.service.url + 'api/state');
    expect(r.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('x-powered-by')).toBeNull();
  });

  it('serves the page from src/web/build.ts (gzipped on request, with ETags), or says plainly why it cannot', async () => {
    const s = await start();
    const r = await fetch(s.service.url, { headers: { 'accept-encoding': 'gzip' } });
    if (!existsSync(new URL('../../src/web/build.ts', import.meta.url))) {
      expect(r.status).toBe(503);
      expect(await r.text()).toMatch(/src\/web\/build\.ts/);
      return;
    }
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    const html = await r.text();
    const etag = r.headers.get('etag')!;
    expect((await fetch(s.service.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const scripts = [...html.matchAll(/src="\/?(assets\/[^"]+)"/g)].map((m) => m[1]);
    for (const a of scripts) {
      const asset = await fetch(s.service.url + a);
      expect(asset.status, a).toBe(200);
    }
    // The one inline script (the page's boot.ts) is allowed by its hash in the page's CSP, and nothing else inline is.
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(1);
    const scriptSrc = /script-src ([^;]*)/.exec(r.headers.get('content-security-policy') ?? '')?.[1].split(' ');
    expect(scriptSrc).toEqual(["'self'", `'sha256-${createHash('sha256').update(inline[0]).digest('base64')}'`]);
    // (Besides the page's app.js, its "Play a friend online" and "Endgame database" cards' own small scripts.)
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      '<script>',
      expect.stringMatching(/^<script type="module" src="\/assets\/app\.js/),
      expect.stringMatching(/^<script type="module" src="\/assets\/friend\.js/),
      expect.stringMatching(/^<script type="module" src="\/assets\/egdb\.js/),
    ]);
  });
});
