// Honest status of a game between two boards, in a real browser (Debian
// chromium): NORTH (in this process, its simulated board on the manual clock)
// plays SOUTH (`crownhead station --board sim:SOUTH`, its own process) through
// the embedded broker. SOUTH's process is killed as a crash would end it (no
// goodbye): the broker drops its connection and publishes its will, and
// NORTH's page names it in words ("Bob's board has been offline for …"). A
// station silent without its connection closing (frozen, its network cut) is
// dropped by the broker after 1.5 × its keepalive (STATION_KEEPALIVE_S = 2 s:
// 3 s), so the words are due within 5 s either way; the test waits with a
// generous timeout and logs the delay it measured. SOUTH started again on its
// folder: the words are gone, and the game goes on — NORTH's move after the
// recovery reaches SOUTH, SOUTH's reply shows on NORTH's page. Then SOUTH's
// process is frozen (SIGSTOP: its connection open, silent): named offline
// once the broker's keepalive drops it; running again, cleared. Then SOUTH's
// process is frozen (SIGSTOP: its connection open, silent): named offline
// once the broker's keepalive drops it; running again, cleared.

import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { startStation, STATION_KEEPALIVE_S } from '../../src/stations/station.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { Game } from '../../src/rules/index.ts';
import { RandomHand, handTable } from '../harness/table.ts';
import { Client } from '../harness/ws-client.ts';
import { SECRET, freePort, removeTempDirs, tempDir, until } from '../stations/fixture.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_'))),
  CROWNHEAD_FROM_SOURCE: '1',
};
const WAIT = 30_000;
let browser: Browser;
const closers: (() => Promise<unknown>)[] = [];
const children = new Set<ChildProcess>();

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  for (const c of [...children]) {
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  }
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  await browser?.close();
  removeTempDirs();
}, 60_000);

/** `crownhead station` for board SOUTH (a simulated board), its player Black's opponent: resolves once it is ready. */
function south(broker: string, port: number, games: string): Promise<ChildProcess> {
  const args = ['station', '--board', 'sim:SOUTH', '--port', String(port), '--games', games, '--hub', broker, '--hub-secret', SECRET];
  const p = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...args, '--opponent', 'NORTH', '--opponent-side', 'black'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(p);
  p.on('exit', () => children.delete(p));
  let err = '';
  return new Promise((ok, fail) => {
    p.stderr!.on('data', (d) => {
      err += d;
      if (/Crownhead station: board SOUTH/.test(err)) ok(p);
    });
    p.on('exit', (code) => fail(new Error(`crownhead station exited (${code}): ${err}`)));
  });
}

/** A move by hand on SOUTH's simulated board, through its page's socket. */
async function handMove(page: Client, from: number, to: number): Promise<void> {
  for (const c of [
    { name: 'hand', action: 'lift', square: from },
    { name: 'hand', action: 'set', square: to, coins: 1 },
  ])
    expect((await page.command(c)).type).toBe('ok');
}

describe('the far board stopped and back, on the near page', () => {
  it(
    'names the far station gone (within the keepalive’s bound), clears it when back, and the game goes on',
    { timeout: 180_000 },
    async () => {
      const broker = await startEmbeddedBroker({ port: 0 });
      closers.push(() => broker.close());
      const [southPort, southGames] = [await freePort(), join(tempDir(), 'south')];
      let southProc = await south(broker.url, southPort, southGames);

      // NORTH: Ann plays Black here; Bob plays White at SOUTH.
      const sim = new SimBoard({ clock: 'manual', seed: 61, id: 'NORTH' });
      const north = await startStation({
        mqtt: { url: broker.url, reconnectMs: 100 },
        secret: SECRET,
        opponent: { board: 'SOUTH', side: 'white' },
        service: {
          board: { source: sim },
          storage: { gamesDir: join(tempDir(), 'north') },
          http: { port: 0 },
          log: { level: 'silent' },
          game: { tags: { Black: 'Ann', White: 'Bob' } },
        },
      });
      closers.push(() => north.close());
      const hand = new RandomHand(handTable(sim, north.service.session), 61);
      sim.setupStart();
      sim.advance(700);
      await until(() => north.service.session.snapshot().remote?.link?.state === 'online', 'NORTH hearing of SOUTH', WAIT);

      const page = await browser.newPage();
      closers.push(() => page.close());
      await page.goto(north.service.url);
      await page.waitForSelector('.remote >> text=/Bob \\(White, at another board\\)/', { timeout: WAIT });
      expect(await page.locator('[data-link]').count()).toBe(0);

      // SOUTH's station dies without a word (SIGKILL: no goodbye; the broker publishes its will).
      const killedAt = Date.now();
      const dead = new Promise((r) => southProc.once('exit', r));
      southProc.kill('SIGKILL');
      await dead;
      await page.waitForSelector(
        '[data-link="offline"] >> text=/Bob.s board has been offline for \\d+ s: your move will reach it when it is back/',
        {
          timeout: WAIT,
        },
      );
      const named = Date.now() - killedAt;
      // Since the station fell silent, not since its will was sealed (when it connected).
      expect(north.service.session.snapshot().remote!.link!.since).toBeGreaterThanOrEqual(killedAt);
      console.log(
        `far station killed → named offline on the near page after ${named} ms (bound: connection closed at once; silent: 1.5 × keepalive ${STATION_KEEPALIVE_S} s)`,
      );

      // SOUTH starts again on its folder (same key, same game): the words go.
      const backAt = Date.now();
      southProc = await south(broker.url, southPort, southGames);
      await page.waitForSelector('[data-link]', { state: 'detached', timeout: WAIT });
      console.log(`far station restarted → the offline words cleared after ${Date.now() - backAt} ms (including its start)`);
      await page.waitForSelector('.remote >> text=/waits for your move/', { timeout: WAIT });

      // The game goes on: Ann's 11-15 reaches SOUTH, which carries it out; Bob's reply 22-18 reaches NORTH's page.
      const southPage = await Client.connect(`ws://127.0.0.1:${southPort}/ws`);
      closers.push(async () => southPage.close());
      await southPage.next((m) => m.type === 'hello', 'SOUTH’s page', WAIT);
      const game = Game.standard();
      const first = game.legalMoves().find((m) => m.from === 11 && m.to === 15)!;
      hand.playMove(first);
      sim.advance(800);
      expect(north.service.session.game.plies.length).toBe(1);
      await southPage.next(
        (m) => m.type === 'event' && m.event.type === 'remote-move' && m.event.text === '11-15',
        '11-15 shown at SOUTH',
        WAIT,
      );
      await handMove(southPage, 11, 15);
      await southPage.next((m) => m.type === 'event' && m.event.type === 'move', '11-15 carried out at SOUTH', WAIT);
      await handMove(southPage, 22, 18);
      await page.waitForSelector('.remote >> text=/Bob \\(White, at another board\\) plays 22-18/', { timeout: WAIT });
      expect(await page.locator('[data-link]').count()).toBe(0);

      // SOUTH's process frozen (SIGSTOP: its connection stays open, it says nothing): the broker drops it after 1.5 × its keepalive.
      const frozenAt = Date.now();
      southProc.kill('SIGSTOP');
      try {
        await page.waitForSelector('[data-link="offline"]', { timeout: WAIT });
        console.log(`far station frozen → named offline on the near page after ${Date.now() - frozenAt} ms`);
      } finally {
        southProc.kill('SIGCONT');
      }
      // Running again: it reconnects, and the words go.
      await page.waitForSelector('[data-link]', { state: 'detached', timeout: WAIT });
    },
  );
});
