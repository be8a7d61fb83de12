// The archive's JSON routes for the page (src/server/archive.ts) on the real
// service: the list with players, date, event, result and length (the game in
// play marked), one game as move records, deleting with control rights only
// (never the game in play), and clear errors for unknown or bad ids; a PDN
// collection in the folder opened one game at a time (?game=N), the event
// loop answering pages while a big one is indexed; the whole archive streamed
// to a slow reader.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { ArchiveEntry, GameRecord } from '../../src/protocol/v1.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { makeFen } from '../../src/rules/index.ts';
import { CORPUS } from '../harness/corpus.ts';
import { setUp, tempDir, until, useServices } from './helpers.ts';

const { start } = useServices();

/** GET `url` read slowly: after each chunk the reader pauses for a turn of the event loop (the sender keeps waiting on back pressure). */
function slowRead(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        res.pause();
        setImmediate(() => res.resume());
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('archive JSON', () => {
  it('lists saved games, opens one as move records, deletes it with control, keeps the game in play', async () => {
    const s = await start({ http: { requireToken: true, token: 'tok-1' } });
    const session = s.service.session;
    session.setTags({ Black: 'Ann', White: 'Ben', Event: 'Club night' });
    setUp(s.sim);
    s.sim.advance(800);
    session.resign('white');
    // (The service writes the PDN on a later turn of the event loop, as after a page's command.)
    const oldId = session.gameId;
    const pdnOf = (id: string) => join(s.dir, `${id}.pdn`);
    await until(() => existsSync(pdnOf(oldId)) && readFileSync(pdnOf(oldId), 'utf8').includes('[Result "1-0"]'), 'the resigned game saved');
    session.newGame({ tags: { Black: 'Cy' } });
    await until(
      () => existsSync(pdnOf(session.gameId)) && readFileSync(pdnOf(session.gameId), 'utf8').includes('[Black "Cy"]'),
      'the new game saved',
    );
    const url = (p: string) => new URL(p, s.service.url).toString();
    const list = (await (await fetch(url('/api/archive.json'))).json()) as { current: string; games: unknown[] };
    const games = list.games.map((g) => ArchiveEntry.parse(g));
    expect(list.current).toBe(session.gameId);
    const old = games.find((g) => g.id === oldId)!;
    expect(old).toMatchObject({ black: 'Ann', white: 'Ben', event: 'Club night', result: '1-0', plies: 0, current: false });
    expect(games.find((g) => g.current)).toMatchObject({ id: session.gameId, black: 'Cy' });

    const rec = GameRecord.parse(await (await fetch(url(`/api/games/${oldId}.json`))).json());
    expect(rec).toMatchObject({ id: oldId, result: '1-0', moves: [] });
    expect(rec.tags.Black).toBe('Ann');
    expect(rec.start).toHaveLength(24);
    const missing = await fetch(url('/api/games/nope.json'));
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/no saved game "nope"/);

    // Deleting: a read-only client is refused; the game in play cannot go; with the token the old one goes.
    const ro = await fetch(url(`/api/games/${oldId}`), { method: 'DELETE' });
    expect(ro.status).toBe(403);
    const cur = await fetch(url(`/api/games/${session.gameId}`), { method: 'DELETE', headers: { Authorization: 'Bearer tok-1' } });
    expect(cur.status).toBe(409);
    expect((await cur.json()).message).toMatch(/game in play cannot be deleted/);
    const bad = await fetch(url('/api/games/..%2Fx'), { method: 'DELETE', headers: { Authorization: 'Bearer tok-1' } });
    expect(bad.status).toBe(400);
    const ok = await fetch(url(`/api/games/${oldId}`), { method: 'DELETE', headers: { Authorization: 'Bearer tok-1' } });
    expect(ok.status).toBe(200);
    expect(existsSync(join(s.dir, `${oldId}.pdn`))).toBe(false);
    expect(existsSync(join(s.dir, `${oldId}.journal`))).toBe(false);
    const after = (await (await fetch(url('/api/archive.json'))).json()) as { games: { id: string }[] };
    expect(after.games.map((g) => g.id)).not.toContain(oldId);
    expect((await fetch(url(`/api/games/${oldId}`), { method: 'DELETE', headers: { Authorization: 'Bearer tok-1' } })).status).toBe(404);
  });

  it('serves hashed assets as immutable, the HTML as no-cache', async () => {
    const s = await start();
    const html = await (await fetch(s.service.url)).text();
    const js = /src="(\/assets\/app\.js\?v=[0-9a-f]{10})"/.exec(html)![1];
    const res = await fetch(new URL(js, s.service.url));
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(new URL('/assets/app.js?v=0000000000', s.service.url))).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(s.service.url)).headers.get('cache-control')).toBe('no-cache');
  });

  // A big PDN file in the folder used to be read and parsed whole, on the event loop, on every open; and only its first game could be opened.
  it('opens game N of a big PDN collection (?game=N), answering pages while the file is indexed', async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(dir, { recursive: true });
    const corpus = ['tinsley.pdn', '11_man_english.pdn'].map((f) => readFileSync(join(CORPUS, f), 'utf8')).join('\n');
    writeFileSync(join(dir, 'big.pdn'), Array(8).fill(corpus).join('\n')); // about 4 MB, 25,000 games
    const one = readPdn(corpus);
    const s = await start({ storage: { gamesDir: dir } });
    const url = (p: string) => new URL(p, s.service.url).toString();
    const c = await s.ws();
    await c.next((m) => m.type === 'hello');
    // Pages keep talking while the first open indexes the file: their pings are answered meanwhile.
    let done = false;
    const opened = fetch(url('/api/games/big.json?game=726')).then(async (r) => {
      done = true;
      return { status: r.status, body: await r.json() };
    });
    let pongs = 0;
    while (!done) {
      c.ws.send(JSON.stringify({ v: 1, type: 'ping' }));
      await c.next((m) => m.type === 'pong');
      if (!done) pongs++;
    }
    const rec = await opened;
    expect(rec.status).toBe(200);
    // game 726 of the file is the second game of 11_man_english.pdn (tinsley.pdn holds 724 games, one of them unreadable)
    const want = one.games[724];
    expect(GameRecord.parse(rec.body).moves).toHaveLength(want.moves.length);
    expect(rec.body.tags).toEqual(Object.fromEntries(want.tags));
    expect(rec.body.startFen).toBe(makeFen(want.start));
    expect(pongs).toBeGreaterThan(0);
    // the first game by default; numbers out of range or not numbers are refused clearly
    expect((await (await fetch(url('/api/games/big.json'))).json()).tags).toEqual(Object.fromEntries(one.games[0].tags));
    const far = await fetch(url('/api/games/big.json?game=99999'));
    expect(far.status).toBe(404);
    expect((await far.json()).message).toMatch(/holds 2\d{4} games, not 99999/);
    expect((await fetch(url('/api/games/big.json?game=zero'))).status).toBe(400);
    const list = (await (await fetch(url('/api/archive.json'))).json()) as { games: { id: string; plies: number | null }[] };
    expect(list.games.find((g) => g.id === 'big')?.plies).toBe(one.games[0].moves.length);
  });

  // Every back-pressure wait added a 'close' listener to the response, kept to the end: past ten waits, a MaxListenersExceededWarning.
  it('streams a big archive whole to a slow reader, with one close listener however often it waits', async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(dir, { recursive: true });
    const corpus = ['tinsley.pdn', '11_man_english.pdn'].map((f) => readFileSync(join(CORPUS, f), 'utf8')).join('\n');
    const big = Array(8).fill(corpus).join('\n'); // about 4 MB: sent in pieces of 256 kB, each one a wait
    writeFileSync(join(dir, 'big.pdn'), big);
    const s = await start({ storage: { gamesDir: dir } });
    const warnings: Error[] = [];
    const warned = (w: Error) => warnings.push(w);
    process.on('warning', warned);
    try {
      const got = await slowRead(new URL('/api/archive.pdn', s.service.url).toString());
      expect(got.status).toBe(200);
      // Every game of the file (the pieces are its games' byte ranges) and the game in play: nothing else, nothing lost.
      const squeeze = (t: string) => t.replace(/\s+/g, '');
      const [body, file, current] = [got.body, big, s.service.session.pdn()].map(squeeze);
      expect(body.length).toBe(file.length + current.length);
      expect(body.includes(file), 'the whole file').toBe(true);
      expect(body.includes(current), 'the game in play').toBe(true);
      // (A warning is emitted on the next turn of the event loop.)
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', warned);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });
});
