// Crash safety end to end: `crownhead serve --board sim` as a child process,
// a real game played through WebSocket hand commands, the process SIGKILLed
// at seeded random points (mid-move, right after a move's last piece went
// down, right after its event), restarted on the same games directory, the
// board put back with hand-setup (a real board would still hold the pieces),
// and play resumed. No move announced to a page is ever lost, the game stays
// one game, and its PDN file is the moves played. A second run adds disk-full
// episodes (an ENOSPC preloaded into the child, test/server/disk-full-preload.mjs)
// and kills during them and during their recovery: the journal is never left
// with a fragment before records, the game is always resumed, and once space
// is back every announced move survives the kill.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/storage/journal.ts';
import { readOnePdn } from '../../src/pdn/index.ts';
import { Game, parseFen, type Move } from '../../src/rules/index.ts';
import { mulberry32 } from '../../src/common/prng.ts';
import { corpusMoves, removeTempDirs, tempDir, until } from './helpers.ts';
import { Client } from '../harness/ws-client.ts';
import { unwrap } from '../../src/common/result.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  removeTempDirs();
});

async function startServe(dir: string, diskFullFlag?: string): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
  if (diskFullFlag) Object.assign(env, { CH_TEST_DISK_FULL: diskFullFlag, CH_TEST_GAMES: dir });
  const preload = diskFullFlag ? ['--import', pathToFileURL(join(ROOT, 'test/server/disk-full-preload.mjs')).href] : [];
  const child = spawn(
    process.execPath,
    [...preload, join(ROOT, 'bin/crownhead.js'), 'serve', '--board', 'sim', '--port', '0', '--games', dir],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  let buf = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf('\n')) >= 0;) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const o = JSON.parse(line);
          if (typeof o.url === 'string') ok(o.url);
        } catch {
          /* not a log line */
        }
      }
    });
    child.on('exit', (code, sig) => fail(new Error(`serve exited (${code ?? sig}) before it was ready: ${err}`)));
  });
  return { child, url };
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

const pathOf = (m: { from: number; path: readonly number[] }) => [m.from, ...m.path].join('-');

type Phase = 'mid-move' | 'pieces-down' | 'after-event';

/**
 * Plays move `i` by WebSocket hand commands (lift, put down, take the captured
 * coins); with `phase` 'mid-move' or 'pieces-down' SIGKILLs the service at that
 * point instead of waiting for the move. Returns false when it killed.
 */
async function handMove(c: Client, child: ChildProcess, game: Game, mv: Move, i: number, phase: Phase | undefined): Promise<boolean> {
  const size = game.position.kings & (1 << (mv.from - 1)) ? 2 : 1;
  expect((await c.command({ name: 'hand', action: 'lift', square: mv.from })).type).toBe('ok');
  if (phase === 'mid-move') {
    await kill(child);
    return false;
  }
  expect((await c.command({ name: 'hand', action: 'set', square: mv.to, coins: mv.crowned ? 2 : size })).type).toBe('ok');
  for (const sq of mv.captures) expect((await c.command({ name: 'hand', action: 'lift', square: sq })).type).toBe('ok');
  if (phase === 'pieces-down') {
    await kill(child);
    return false;
  }
  const e = await c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === i + 1, `move ${i + 1}`);
  expect(pathOf(e.event.move)).toBe(pathOf(mv));
  return true;
}

describe('crash safety', () => {
  it('survives SIGKILL at random points: every announced move is kept, and the PDN is the game played', async () => {
    const dir = join(tempDir('crownhead-crash-'), 'games');
    const moves: Move[] = corpusMoves(20);
    const rng = mulberry32(20240917);
    // Six kills at distinct moves, each at a random phase of that move.
    const killAt = new Map<number, Phase>();
    while (killAt.size < 6)
      killAt.set(1 + Math.floor(rng() * 18), (['mid-move', 'pieces-down', 'after-event'] as const)[Math.floor(rng() * 3)]);

    let confirmed = 0; // moves whose event a page received
    let gameId: string | null = null;
    let restarts = 0;
    let i = 0;
    while (i < moves.length) {
      const { child, url } = await startServe(dir);
      const c = await Client.connect(url.replace(/^http/, 'ws') + 'ws');
      const hello = await c.next((m) => m.type === 'hello');
      const played: string[] = hello.state.moves.map((m: { from: number; path: number[] }) => pathOf(m));
      // the journal kept every announced move, and nothing that was not played
      expect(played.length).toBeGreaterThanOrEqual(confirmed);
      expect(played.length).toBeLessThanOrEqual(i + 1);
      expect(played).toEqual(moves.slice(0, played.length).map(pathOf));
      gameId ??= hello.state.gameId;
      expect(hello.state.gameId).toBe(gameId);
      i = played.length;
      confirmed = i;

      // Put the game's position on the (restarted) simulated board.
      expect((await c.command({ name: 'hand-setup' })).type).toBe('ok');
      if (hello.state.status.kind !== 'in-sync') await c.next((m) => m.type === 'event' && m.event.type === 'ready', 'ready after set-up');

      const game = new Game(unwrap(parseFen(hello.state.startFen)));
      for (const m of moves.slice(0, i)) game.play(m);
      let killed = false;
      for (; i < moves.length; i++) {
        const mv = moves[i];
        const phase = killAt.get(i);
        if (phase) killAt.delete(i);
        if (!(await handMove(c, child, game, mv, i, phase))) {
          killed = true;
          break;
        }
        game.play(mv);
        confirmed = i + 1;
        if (phase === 'after-event') {
          await kill(child);
          killed = true;
          i++;
          break;
        }
      }
      c.close();
      if (killed) {
        restarts++;
        continue;
      }
      // All moves played: the record on disk and on the API is the game.
      const file = join(dir, `${gameId}.pdn`);
      const wanted = moves.map(pathOf);
      await until(
        () => existsSync(file) && readOnePdn(readFileSync(file, 'utf8')).moves.length === wanted.length,
        'the PDN file with every move',
      );
      expect(readOnePdn(readFileSync(file, 'utf8')).moves.map((m) => pathOf(m.move))).toEqual(wanted);
      const api = readOnePdn(await (await fetch(url + 'api/current.pdn')).text());
      expect(api.moves.map((m) => pathOf(m.move))).toEqual(wanted);
      expect(readdirSync(dir).filter((f) => f.endsWith('.journal'))).toEqual([`${gameId}.journal`]);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(restarts).toBe(6);
  }, 240_000);

  it('survives SIGKILL during disk-full episodes and their recovery: always resumed, never a fragment before records, nothing announced lost once space is back', async () => {
    const base = tempDir('crownhead-crash-full-');
    const dir = join(base, 'games');
    const flag = join(base, 'disk-full');
    const moves: Move[] = corpusMoves(24);
    const rng = mulberry32(977);
    // Episodes: the disk fills before move `at` (a few bytes left), stays full for `len` moves, then is freed.
    // Each ends with a kill: while still full, or after the recovery (storage back), at a random phase of a move.
    type Episode = { at: number; len: number; bytes: number; kill: 'while-full' | 'after-recovery'; phase: Phase };
    const episodes: Episode[] = [];
    for (let at = 2; episodes.length < 4 && at < 20; at += 4 + Math.floor(rng() * 2)) {
      episodes.push({
        at,
        len: 1 + Math.floor(rng() * 3),
        bytes: Math.floor(rng() * 90),
        kill: episodes.length % 2 ? 'while-full' : 'after-recovery',
        phase: (['mid-move', 'pieces-down', 'after-event'] as const)[Math.floor(rng() * 3)],
      });
    }
    let durable = 0; // announced moves that must survive any kill (announced before a fill, or before the recovery was confirmed)
    let gameId: string | null = null;
    let kills = 0;
    let failures = 0; // disk-full notices the pages got (the episodes really happened)
    let i = 0;
    while (i < moves.length) {
      rmSync(flag, { force: true });
      // The journal is always clean on disk: good records only.
      if (existsSync(dir) && gameId) {
        const r = readJournal(readFileSync(join(dir, `${gameId}.journal`)));
        expect(r.damage).toEqual([]);
      }
      const { child, url } = await startServe(dir, flag);
      const c = await Client.connect(url.replace(/^http/, 'ws') + 'ws');
      const hello = await c.next((m) => m.type === 'hello');
      expect(hello.server.storage).toMatchObject({ ok: true });
      const played: string[] = hello.state.moves.map((m: { from: number; path: number[] }) => pathOf(m));
      gameId ??= hello.state.gameId;
      expect(hello.state.gameId).toBe(gameId);
      expect(played.length).toBeGreaterThanOrEqual(durable);
      expect(played).toEqual(moves.slice(0, played.length).map(pathOf));
      i = played.length;
      durable = i;
      expect((await c.command({ name: 'hand-setup' })).type).toBe('ok');
      if (hello.state.status.kind !== 'in-sync') await c.next((m) => m.type === 'event' && m.event.type === 'ready', 'ready after set-up');
      const game = new Game(unwrap(parseFen(hello.state.startFen)));
      for (const m of moves.slice(0, i)) game.play(m);

      let killed = false;
      let fullUntil = -1;
      let episode: Episode | undefined;
      for (; i < moves.length && !killed; i++) {
        const ep = episodes.find((e) => e.at === i);
        if (ep) {
          episodes.splice(episodes.indexOf(ep), 1);
          episode = ep;
          writeFileSync(flag, String(ep.bytes));
          fullUntil = i + ep.len;
        }
        if (episode && i === fullUntil) {
          rmSync(flag);
          if (episode.kill === 'after-recovery') {
            // the service retries on its own; every announced move is on disk once it says storage is back
            // (if no write failed during the episode, nothing waited in memory)
            const failed = c.received.some((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok === false);
            if (failed)
              await c.next((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok === true, 'storage back', 15_000);
            durable = i;
          }
        }
        const killNow =
          episode && ((episode.kill === 'while-full' && i === fullUntil - 1) || (episode.kill === 'after-recovery' && i === fullUntil));
        const phase = killNow ? episode!.phase : undefined;
        const mv = moves[i];
        if (!(await handMove(c, child, game, mv, i, phase))) {
          killed = true;
          break;
        }
        game.play(mv);
        if (!episode || i >= fullUntil) durable = i + 1; // announced while storage works: fsynced first
        if (phase === 'after-event') {
          await kill(child);
          killed = true;
          i++;
          break;
        }
      }
      failures += c.received.filter(
        (m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok === false && m.event.problem === 'disk-full',
      ).length;
      c.close();
      if (killed) {
        kills++;
        continue;
      }
      const file = join(dir, `${gameId}.pdn`);
      await until(
        () => existsSync(file) && readOnePdn(readFileSync(file, 'utf8')).moves.length === moves.length,
        'the PDN file with every move',
      );
      expect(readOnePdn(readFileSync(file, 'utf8')).moves.map((m) => pathOf(m.move))).toEqual(moves.map(pathOf));
      expect(readdirSync(dir).filter((f) => f.endsWith('.journal'))).toEqual([`${gameId}.journal`]);
      expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(kills).toBe(4);
    expect(failures).toBeGreaterThanOrEqual(3);
  }, 240_000);
});
