// A stable hub (#40 item 8): its pages are up before any station reports
// (/watch and /arbiter say there is no board yet, in a real browser: Debian
// chromium via playwright-core), and boards join as their stations pair; every
// board keeps its number across a hub restart, whatever order the stations
// report in; the broadcast carries the tags club mode's does (Event, Round,
// Board, the players, %clk); a game between two stations is listed once.

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/stations/broker.ts';
import { Hub } from '../../src/stations/hub.ts';
import { launchChromium } from '../web/chromium.ts';
import { SECRET, hub, removeTempDirs, station, tempDir, until, type TestStation } from './fixture.ts';

const WAIT = 15_000;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

async function broker(): Promise<EmbeddedBroker> {
  const b = await startEmbeddedBroker({ port: 0 });
  closers.push(() => b.close());
  return b;
}
async function st(url: string, id: string, seed: number): Promise<TestStation> {
  const s = await station(url, id, seed);
  closers.push(() => s.close());
  return s;
}
async function hubAt(url: string, dir: string): Promise<Hub> {
  const h = await hub(url, dir);
  closers.push(() => h.close());
  return h;
}

type Listed = { id: string; number: number };
const numbers = async (h: Hub): Promise<[string, number][]> =>
  ((await (await fetch(h.service!.url + 'api/boards')).json()) as { boards: Listed[] }).boards.map((b) => [b.id, b.number]);

describe('a stable hub', () => {
  it('serves before any station reports (no boards yet, said on /watch and /arbiter); a station joins once it pairs', async () => {
    const b = await broker();
    let started: Hub | null = null;
    void Hub.start({
      mqtt: { url: b.url, reconnectMs: 100 },
      secret: SECRET,
      retryMs: 300,
      service: { storage: { gamesDir: join(tempDir(), 'hub') }, http: { port: 0 }, log: { level: 'silent' } },
    }).then((h) => {
      started = h;
      closers.push(() => h.close());
    });
    await until(() => started !== null, 'the hub serving with no station');
    const h = started!;
    expect(await numbers(h)).toEqual([]);
    // The first board's address leads to the spectators' page while there is none.
    const root = await fetch(h.service!.url, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/watch']);
    expect((await fetch(h.service!.url + 'api/state')).status).toBe(404);
    const browser = await launchChromium();
    closers.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    for (const path of ['watch', 'arbiter']) {
      await page.goto(h.service!.url + path);
      await page.waitForSelector('#club-conn [data-connection="open"]', { timeout: WAIT });
      await page.waitForFunction(() => /No boards .*yet/.test(document.querySelector('#club-boards')?.textContent ?? ''), null, {
        timeout: WAIT,
      });
    }
    // A station pairs: its board joins the running hub, and the open page shows it.
    await st(b.url, 'NORTH', 7);
    await until(() => h.room('NORTH') !== null, 'the station joining');
    await page.waitForSelector('.club-card', { timeout: WAIT });
    expect(await numbers(h)).toEqual([['NORTH', 1]]);
    const first = await fetch(h.service!.url + 'api/state');
    expect(first.status).toBe(200);
  });

  it('keeps every board’s number across a restart, whatever order the stations report in', async () => {
    const b = await broker();
    const dir = join(tempDir(), 'hub');
    // SIM reports first (the hub waits for it where it cannot start without one), then SOUTH, then NORTH.
    const sim = await st(b.url, 'SIM', 1);
    await until(() => sim.client.connected, 'SIM on the broker');
    let h = await hubAt(b.url, dir);
    await until(() => h.room('SIM') !== null, 'SIM joining');
    await st(b.url, 'SOUTH', 2);
    await until(() => h.room('SOUTH') !== null, 'SOUTH joining');
    await st(b.url, 'NORTH', 3);
    await until(() => h.room('NORTH') !== null, 'NORTH joining');
    const before = await numbers(h);
    expect(before).toEqual([
      ['SIM', 1],
      ['SOUTH', 2],
      ['NORTH', 3],
    ]);
    await h.close();
    h = await hubAt(b.url, dir);
    await until(() => ['SIM', 'SOUTH', 'NORTH'].every((id) => h.room(id) !== null), 'every board back');
    expect(await numbers(h)).toEqual(before);
    expect(h.room('NORTH')!.number).toBe(3);
  });
});
