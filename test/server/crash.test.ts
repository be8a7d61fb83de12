// Crash safety end to end: `crownhead serve --board sim` as a child process,
// a real game played through WebSocket hand commands, the process SIGKILLed
// at seeded random points (mid-move, right after a move's last piece went
// down, right after its event), restarted on the same games directory, the
// board put back with hand-setup (a real board would still hold the pieces),
// and play resumed. No move announced to a page is ever lost, the game stays
// one game, and its PDN file is the moves played.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readOnePdn } from '../../src/pdn/index.ts';
import { Game, parseFen, type Move } from '../../src/rules/index.ts';
import { mulberry32 } from '../../src/sensors/sim/prng.ts';
import { Client, corpusMoves, removeTempDirs, tempDir, until } from './helpers.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  removeTempDirs();
});

async function startServe(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
  const child = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), 'serve', '--board', 'sim', '--port', '0', '--games', dir], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let buf = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf('\n')) >= 0; ) {
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

describe('crash safety', () => {
  it('survives SIGKILL at random points: every announced move is kept, and the PDN is the game played', async () => {
    const dir = join(tempDir('crownhead-crash-'), 'games');
    const moves: Move[] = corpusMoves(20);
    const rng = mulberry32(20240917);
    // Three kills at distinct moves, each at a random phase of that move.
    const killAt = new Map<number, Phase>();
    while (killAt.size < 3) killAt.set(1 + Math.floor(rng() * 18), (['mid-move', 'pieces-down', 'after-event'] as const)[Math.floor(rng() * 3)]);

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

      const game = new Game(parseFen(hello.state.startFen));
      for (const m of moves.slice(0, i)) game.play(m);
      let killed = false;
      for (; i < moves.length; i++) {
        const mv = moves[i];
        const bit = 1 << (mv.from - 1);
        const size = game.position.kings & bit ? 2 : 1;
        const phase = killAt.get(i);
        if (phase) killAt.delete(i);
        expect((await c.command({ name: 'hand', action: 'lift', square: mv.from })).type).toBe('ok');
        if (phase === 'mid-move') {
          await kill(child);
          killed = true;
          break;
        }
        expect((await c.command({ name: 'hand', action: 'set', square: mv.to, coins: mv.crowned ? 2 : size })).type).toBe('ok');
        for (const sq of mv.captures) expect((await c.command({ name: 'hand', action: 'lift', square: sq })).type).toBe('ok');
        if (phase === 'pieces-down') {
          await kill(child);
          killed = true;
          break;
        }
        const e = await c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === i + 1, `move ${i + 1}`);
        expect(pathOf(e.event.move)).toBe(pathOf(mv));
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
      await until(() => existsSync(file) && readOnePdn(readFileSync(file, 'utf8')).moves.length === wanted.length, 'the PDN file with every move');
      expect(readOnePdn(readFileSync(file, 'utf8')).moves.map((m) => pathOf(m.move))).toEqual(wanted);
      const api = readOnePdn(await (await fetch(url + 'api/current.pdn')).text());
      expect(api.moves.map((m) => pathOf(m.move))).toEqual(wanted);
      expect(readdirSync(dir).filter((f) => f.endsWith('.journal'))).toEqual([`${gameId}.journal`]);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(restarts).toBe(3);
  });
});
