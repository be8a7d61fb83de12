// The failures found by trying the service as an attacker and as an unlucky
// user, each reproduced on the real service (loopback HTTP + WebSocket, the
// simulated board, the real games folder; the disk filling up is an injected
// ENOSPC with short writes at the store's file-system seam):
// 1. disk full mid-game, then space freed: a restart resumes every announced move;
// 2. a new game during the failure, then freed: nothing lost;
// 3. a damaged middle line: the rest resumed and reported, never an older game;
// 4. two services on one folder: the second refused, naming the first;
// 5. leftovers and junk in the folder, tag floods and limits, new-game floods, one notice per episode;
// 6. reads from a foreign Origin or an unexpected Host refused.

import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeJournalLine, readJournal, type JournalEntry } from '../../src/storage/journal.ts';
import { readOnePdn, readPdn } from '../../src/pdn/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { FaultyFs } from '../storage/faulty-fs.ts';
import { corpusMoves, playOnSim, post, rawRequest, setUp, startSimService, tempDir, until, useServices } from './helpers.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const services = useServices();
const clients = services.clients;
const start = services.watched;
const pathOf = (m: { from: number; path: readonly number[] }) => [m.from, ...m.path].join('-');
const movesIn = (dir: string, id: string) =>
  readJournal(readFileSync(join(dir, `${id}.journal`)))
    .entries.filter((e) => e.k === 'move')
    .map((e) => (e as { path: number[] }).path.join('-'));

async function play(s: Awaited<ReturnType<typeof start>>, moves: ReturnType<typeof corpusMoves>, from: number, to: number) {
  for (let k = from; k < to; k++) {
    playOnSim(s.sim, moves[k]);
    await s.c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === k + 1, `move ${k + 1}`);
  }
}

describe('1-2. a full disk', () => {
  it('disk full mid-game: play goes on, pages are told once (new pages in hello, /api/info too); freed, every announced move is on disk and a restart resumes them all', async () => {
    const disk = new FaultyFs();
    const s = await start({ storage: { fs: disk.fs, retryMs: 50 } });
    const dir = s.dir;
    const id = s.service.session.gameId;
    const moves = corpusMoves(16);
    setUp(s.sim);
    await s.c.event('ready');
    await play(s, moves, 0, 5);
    disk.fill(37); // the next record is cut mid-line
    await play(s, moves, 5, 12);
    const failing = s.c.received.filter((m) => m.type === 'event' && m.event.type === 'storage');
    expect(failing).toHaveLength(1); // one notice for the episode, not one or two per move
    expect(failing[0].event).toMatchObject({ ok: false, problem: 'disk-full', storage: { ok: false, problem: 'disk-full' } });
    // on disk meanwhile: good records only (the fragment was cut off)
    const r = readJournal(readFileSync(join(dir, `${id}.journal`)));
    expect(r.damage).toEqual([]);
    expect(r.torn).toBe(false);
    // a page that connects now is told at once, and so is /api/info
    const late = await s.ws();
    clients.push(late);
    const hello = await late.next((m) => m.type === 'hello');
    expect(hello.server.storage).toMatchObject({
      ok: false,
      problem: 'disk-full',
      unsaved: expect.any(Number),
      message: expect.stringMatching(/the disk is full/),
    });
    expect((await (await fetch(s.service.url + 'api/info')).json()).storage).toMatchObject({ ok: false, problem: 'disk-full' });

    disk.free(); // space freed: the retry writes everything without waiting for a move
    const back = await s.c.next((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok === true, 'storage back');
    expect(back.event.say).toMatch(/saved in .* again/);
    expect(movesIn(dir, id)).toEqual(moves.slice(0, 12).map(pathOf));
    await play(s, moves, 12, 14);
    await s.service.close();

    const again = await start({ board: { source: new SimBoard({ clock: 'manual', seed: 9 }) }, storage: { gamesDir: dir } });
    expect(again.service.session.gameId).toBe(id);
    expect(again.hello.state.moves.map(pathOf)).toEqual(moves.slice(0, 14).map(pathOf));
    expect(again.hello.server.storage).toEqual({ ok: true, message: `games are saved in ${dir}` });
  });

  it('stopped while the disk is still full: what was written resumes cleanly (the rest is lost, as the log says)', async () => {
    const disk = new FaultyFs();
    const s = await start({ storage: { fs: disk.fs } });
    const moves = corpusMoves(8);
    setUp(s.sim);
    await s.c.event('ready');
    await play(s, moves, 0, 4);
    disk.fill(50);
    await play(s, moves, 4, 8);
    const written = movesIn(s.dir, s.service.session.gameId);
    expect(written).toEqual(moves.slice(0, 4).map(pathOf));
    await s.service.close();
    const again = await start({ board: { source: new SimBoard({ clock: 'manual', seed: 9 }) }, storage: { gamesDir: s.dir } });
    expect(again.hello.state.moves.map(pathOf)).toEqual(written);
    expect(again.hello.server.storage.ok).toBe(true);
  });

  it('a new game started while writes fail loses nothing of the first game once space is freed', async () => {
    const disk = new FaultyFs();
    const s = await start({ storage: { fs: disk.fs, retryMs: 50 } });
    const first = s.service.session.gameId;
    const moves = corpusMoves(10);
    setUp(s.sim);
    await s.c.event('ready');
    await play(s, moves, 0, 3);
    disk.fill(0);
    await play(s, moves, 3, 10);
    expect((await s.c.command({ name: 'new-game' })).type).toBe('ok');
    const second = s.service.session.gameId;
    expect(second).not.toBe(first);
    expect(s.service.storage()).toMatchObject({ ok: false, problem: 'disk-full' });
    disk.free();
    await s.c.next((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok, 'storage back');
    expect(movesIn(s.dir, first)).toEqual(moves.map(pathOf));
    await until(
      () => existsSync(join(s.dir, `${first}.pdn`)) && readOnePdn(readFileSync(join(s.dir, `${first}.pdn`), 'utf8')).moves.length === 10,
      "the first game's PDN with its 10 moves",
    );
    expect(existsSync(join(s.dir, `${second}.journal`))).toBe(true);
  });
});

describe('3. a damaged journal', () => {
  const FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
  const journal = (id: string, moves: ReturnType<typeof corpusMoves>, extra: JournalEntry[] = []) =>
    [
      { k: 'new', id, at: 1, fen: FEN, options: {}, tags: { Event: id }, ballot: null, moves: [] } as JournalEntry,
      ...extra,
      ...moves.map((m, k) => ({ k: 'move', at: 2 + k, path: [m.from, ...m.path] }) as JournalEntry),
    ].map(makeJournalLine);

  it('a damaged middle line: the newest game is resumed from the rest and the page is told what was lost and what it can do', async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(dir, { recursive: true });
    const moves = corpusMoves(20);
    writeFileSync(join(dir, 'older.journal'), journal('older', moves.slice(0, 3)).join(''));
    utimesSync(join(dir, 'older.journal'), 1000, 1000);
    const lines = journal('newest', moves, [{ k: 'tags', at: 1, tags: { Event: 'newest', Black: 'Ann' } }]);
    lines[1] = lines[1].slice(0, 10) + 'XX' + lines[1].slice(12); // two bytes garbled on disk
    writeFileSync(join(dir, 'newest.journal'), lines.join(''));
    const s = await start({ storage: { gamesDir: dir } });
    expect(s.service.session.gameId).toBe('newest');
    expect(s.hello.state.moves.map(pathOf)).toEqual(moves.map(pathOf));
    const st = s.hello.server.storage;
    expect(st).toMatchObject({
      ok: false,
      problem: 'damaged-journal',
      damaged: { game: 'newest', dropped: [{ line: 2, offset: lines[0].length }], unreplayed: 0, resumed: true, moves: 20 },
    });
    expect(st.message).toMatch(/damaged: 1 record could not be read .*resumed from what could be read: 20 moves/);
    expect(st.choice).toMatch(/start a new game/);
    expect(readFileSync(st.damaged.keptAt, 'utf8')).toBe(lines.join(''));
    expect((await (await fetch(s.service.url + 'api/info')).json()).storage.problem).toBe('damaged-journal');
    // starting a new game is the user's way out; the report then goes
    expect((await s.c.command({ name: 'new-game' })).type).toBe('ok');
    const cleared = await s.c.next((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok, 'storage ok');
    expect(cleared.event.storage).toEqual({ ok: true, message: `games are saved in ${dir}` });
  });

  it('a journal that lost its start: not resumed, the older unfinished game is NOT resumed instead, and the page says so', async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(dir, { recursive: true });
    const moves = corpusMoves(6);
    writeFileSync(join(dir, 'older.journal'), journal('older', moves.slice(0, 3)).join(''));
    utimesSync(join(dir, 'older.journal'), 1000, 1000);
    const lines = journal('newest', moves);
    lines[0] = lines[0].replace('newest', 'ne\u0000est');
    writeFileSync(join(dir, 'newest.journal'), lines.join(''));
    const s = await start({ storage: { gamesDir: dir } });
    expect(['older', 'newest']).not.toContain(s.service.session.gameId);
    expect(s.hello.state.moves).toEqual([]);
    expect(s.hello.server.storage).toMatchObject({
      ok: false,
      problem: 'unresumable',
      damaged: { game: 'newest', resumed: false, keptAt: expect.stringMatching(/newest\.journal\.damaged-/) },
    });
    expect(s.hello.server.storage.message).toMatch(/cannot be resumed.*no older game was resumed/);
  });
});

describe('4. two services on one folder', () => {
  it('the second is refused with a message naming the process that holds the folder (in process and as a command)', async () => {
    const s = await start();
    await expect(startSimService({ storage: { gamesDir: s.dir } })).rejects.toThrow(
      new RegExp(`in use by another Crownhead \\(process ${process.pid}, serving ${s.service.url.replace(/[.]/g, '\\.')}`),
    );
    // the CLI: exits 1 and says why (spawned through bin/crownhead.js like a user would)
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
    const child = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), 'serve', '--board', 'sim', '--port', '0', '--games', s.dir], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`in use by another Crownhead \\(process ${process.pid}`));
    // the first one is untouched and still plays; once it stops, the folder is free
    expect((await s.c.command({ name: 'set-tags', tags: { Round: '1' } })).type).toBe('ok');
    await s.service.close();
    const next = await start({ storage: { gamesDir: s.dir } });
    expect(next.service.session.gameId).toBe(s.service.session.gameId);
  });
});

describe('5. leftovers, junk, floods and limits', () => {
  it('cleans temp files a kill left; a folder named x.pdn or junk never makes the list or the archive fail: they are skipped and listed', async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(join(dir, 'x.pdn'), { recursive: true });
    writeFileSync(join(dir, 'old.pdn.tmp-4242'), '[Event "half');
    writeFileSync(join(dir, 'junk.pdn'), 'not a game at all');
    writeFileSync(join(dir, '20000101-120000-001.pdn'), '[Event "Saved"]\n[Result "1-0"]\n1. 11-15 1-0\n');
    const s = await start({ storage: { gamesDir: dir } });
    expect(existsSync(join(dir, 'old.pdn.tmp-4242'))).toBe(false);
    await until(() => existsSync(join(dir, `${s.service.session.gameId}.pdn`)), 'the PDN file');
    const games = await fetch(s.service.url + 'api/games');
    expect(games.status).toBe(200);
    const list = await games.json();
    expect(list.games.map((g: { id: string }) => g.id).sort()).toEqual([s.service.session.gameId, '20000101-120000-001'].sort());
    expect(list.skipped).toEqual([
      { file: 'junk.pdn', why: expect.stringMatching(/not a PDN game/) },
      { file: 'x.pdn', why: expect.stringMatching(/folder/) },
    ]);
    const archive = await fetch(s.service.url + 'api/archive.pdn');
    expect(archive.status).toBe(200);
    const read = readPdn(await archive.text());
    expect(read.errors).toEqual([]);
    expect(read.games.map((g) => g.result)).toEqual(['1-0', '*']);
  });

  it('limits tags with clear errors; a burst of set-tags goes down as one journal write; new-game floods leave one journal', async () => {
    // Floods on purpose: no command rate limit here (that is rate.test.ts's).
    const s = await start({ http: { ws: { commandRates: null } } });
    const cmd = (c: Record<string, unknown>) => s.c.command(c);
    expect(await cmd({ name: 'set-tags', tags: { Black: 'x'.repeat(81) } })).toMatchObject({
      type: 'error',
      code: 'bad-request',
      message: 'tag Black: at most 80 characters (got 81)',
    });
    expect(await cmd({ name: 'set-tags', tags: { Site: 'a\nb' } })).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/line breaks/),
    });
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`T${k}`, 'v']));
    expect(await cmd({ name: 'set-tags', tags: many })).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/at most 24 tags \(this change would make 3\d\)/),
    });
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`T${k}`, 'v'.repeat(200)]));
    expect(await cmd({ name: 'set-tags', tags: big })).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/at most 4096 bytes/),
    });

    const id = s.service.session.gameId;
    await Promise.all(Array.from({ length: 60 }, (_, k) => cmd({ name: 'set-tags', tags: { Round: String(k) } })));
    await until(
      () => readJournal(readFileSync(join(s.dir, `${id}.journal`))).entries.some((e) => e.k === 'tags' && e.tags.Round === '59'),
      'the last tags on disk',
    );
    const tagRecords = readJournal(readFileSync(join(s.dir, `${id}.journal`))).entries.filter((e) => e.k === 'tags');
    expect(tagRecords.length).toBeLessThan(6);

    for (let k = 0; k < 100; k++) expect((await cmd({ name: 'new-game' })).type).toBe('ok');
    expect(readdirSync(s.dir).filter((f) => f.endsWith('.journal'))).toEqual([`${s.service.session.gameId}.journal`]);
  });
});

describe('6. reads guarded like commands', () => {
  it('refuses the WebSocket and the API to a foreign Origin and to an unexpected Host; loopback pages need no token', async () => {
    const s = await start();
    const port = s.service.port;
    await expect(s.ws('ws', { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    const rebind = { host: `rebind.evil.example:${port}` };
    for (const path of ['api/state', 'api/info', 'api/games', 'api/archive.pdn', 'api/current.pdn']) {
      const r = await rawRequest(s.service.url + path, { headers: rebind });
      expect(r.status, path).toBe(403);
      expect(JSON.parse(r.body).message).toMatch(/loopback name/);
      const o = await rawRequest(s.service.url + path, { headers: { origin: 'http://evil.example' } });
      expect(o.status, path).toBe(403);
      expect(JSON.parse(o.body).message).toMatch(/another site/);
    }
    const ws = await s.ws('ws', { headers: rebind });
    clients.push(ws);
    expect(await ws.next()).toMatchObject({ type: 'error', code: 'forbidden' });
    expect((await ws.waitClosed()).code).toBe(1008);
    // this machine's own page, with or without Origin, needs nothing
    expect(
      (await rawRequest(s.service.url + 'api/state', { headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } }))
        .status,
    ).toBe(200);
    expect((await fetch(s.service.url + 'api/archive.pdn')).status).toBe(200);
    expect(s.hello.server.readOnly).toBe(false);
  });

  it('on --host 0.0.0.0 this machine still needs no token, and both tokens are made', async () => {
    const s = await start({ http: { host: '0.0.0.0' } });
    expect(s.service.token).toBeTruthy();
    expect(s.service.readToken).toBeTruthy();
    expect(s.service.readToken).not.toBe(s.service.token);
    expect((await fetch(s.service.url + 'api/state')).status).toBe(200);
    expect(
      (await rawRequest(s.service.url + `api/state?token=${s.service.readToken}`, { headers: { host: `192.168.1.5:${s.service.port}` } }))
        .status,
    ).toBe(200);
    expect((await rawRequest(s.service.url + 'api/state', { headers: { host: `192.168.1.5:${s.service.port}` } })).status).toBe(403);
  });
});

describe('6b. tokens for other devices', () => {
  it('a page opened with the watch token gets it as a same-site cookie, so its download links work; a wrong cookie reads nothing', async () => {
    const s = await services.start({ http: { requireToken: true, token: 'control-token-1', readToken: 'watch-token-1' } });
    const url = s.service.url;
    const cookie = await new Promise<string>((ok, fail) => {
      const req = httpRequest(url.replace(/\/$/, '') + '/ws?token=watch-token-1', {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        ok(String(res.headers['set-cookie']));
      });
      req.on('error', fail);
      req.end();
    });
    expect(cookie).toBe('crownhead_token=watch-token-1; Path=/api; HttpOnly; SameSite=Strict');
    const pdn = await fetch(url + 'api/current.pdn', { headers: { cookie: 'crownhead_token=watch-token-1' } });
    expect(pdn.status).toBe(200);
    // From another device (its own Host name), a wrong cookie reads nothing; the right one does.
    const other = { host: `192.168.1.5:${s.service.port}` };
    expect((await rawRequest(url + 'api/archive.pdn', { headers: { ...other, cookie: 'crownhead_token=nope' } })).status).toBe(403);
    expect((await rawRequest(url + 'api/current.pdn', { headers: { ...other, cookie: 'crownhead_token=watch-token-1' } })).status).toBe(
      200,
    );
    expect((await post(url + 'api/command', { name: 'takeback' }, { cookie: 'crownhead_token=watch-token-1' })).status).toBe(403);
  });
});
