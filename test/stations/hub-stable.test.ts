// A stable hub: its pages are up before any station reports
// (/watch and /arbiter say there is no board yet, in a real browser: Debian
// chromium via playwright-core), and boards join as their stations pair; every
// board keeps its number across a hub restart, whatever order the stations
// report in; the broadcast carries the tags club mode's does (Event, Round,
// Board, the players, %clk); a game between two stations is listed once,
// paired by what the two stations say (each names the other's board and
// game), not by likeness (their names may be spelt differently).

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/stations/broker.ts';
import { Hub } from '../../src/stations/hub.ts';
import { startStation } from '../../src/stations/station.ts';
import { startService } from '../../src/server/service.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { readPdn } from '../../src/pdn/index.ts';
import type { Color } from '../../src/rules/index.ts';
import type { GameSettings } from '../../src/server/room.ts';
import { RandomHand, handTable } from '../harness/table.ts';
import { launchChromium } from '../web/chromium.ts';
import { GAMES, SECRET, hub, removeTempDirs, station, tempDir, until, type TestStation } from './fixture.ts';

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

/** A station whose game has these settings (tags, time control), maybe playing the board `far` (its player on `far.side`). */
async function playing(url: string, id: string, seed: number, game: GameSettings, far?: { board: string; side: Color }) {
  const sim = new SimBoard({ clock: 'manual', seed, id });
  const s = await startStation({
    mqtt: { url, reconnectMs: 100 },
    secret: SECRET,
    ...(far ? { opponent: far } : {}),
    service: { board: { source: sim }, storage: { gamesDir: join(tempDir(), id) }, http: { port: 0 }, log: { level: 'silent' }, game },
  });
  closers.push(() => s.close());
  const session = s.service.session;
  sim.setupStart();
  sim.advance(700);
  return { ...s, sim, session, hand: new RandomHand(handTable(sim, session), seed) };
}

const HUB_TAGS = { Event: 'Club Night', Site: 'Hull', Round: '3' };
const tagNames = (pdn: string): string[][] => readPdn(pdn).games.map((g) => g.tags.map(([k]) => k).sort());

describe('the hub’s broadcast', () => {
  it('carries the tags club mode’s does: Event, Round, Board, the players, %clk', async () => {
    const b = await broker();
    const game: GameSettings = { tags: { Black: 'Ann', White: 'Bob' }, timeControl: '5m+3s' };
    const north = await playing(b.url, 'NORTH', 5, game);
    const h = await Hub.start({
      mqtt: { url: b.url, reconnectMs: 100 },
      secret: SECRET,
      retryMs: 300,
      service: { storage: { gamesDir: join(tempDir(), 'hub') }, http: { port: 0 }, log: { level: 'silent' }, game: { tags: HUB_TAGS } },
    });
    closers.push(() => h.close());
    const moves = GAMES[0]!.moves.slice(0, 4).map((n) => n.move);
    for (const m of moves) {
      north.hand.playMove(m);
      north.sim.advance(800);
    }
    await until(() => h.room('NORTH')?.session.game.plies.length === 4, 'the moves on the hub');
    const pdn = await (await fetch(h.service!.url + 'broadcast.pdn')).text();
    for (const tag of ['[Event "Club Night"]', '[Site "Hull"]', '[Round "3"]', '[Board "1"]', '[Black "Ann"]', '[White "Bob"]'])
      expect(pdn).toContain(tag);
    expect(pdn.match(/%clk/g)?.length).toBe(4);
    // The station's own record is its own: the hub's tags are the broadcast's.
    expect(north.session.pdn()).not.toContain('Club Night');
    // The same game on a club's board, with the same flags, has the same tags.
    const sim = new SimBoard({ clock: 'manual', seed: 5, id: 'CLUB-1' });
    const club = await startService({
      club: { sources: [sim], always: true },
      storage: { gamesDir: join(tempDir(), 'club') },
      http: { port: 0 },
      log: { level: 'silent' },
      game: { tags: { ...HUB_TAGS, ...game.tags }, timeControl: game.timeControl },
    });
    closers.push(() => club.close());
    sim.setupStart();
    sim.advance(700);
    const hand = new RandomHand(handTable(sim, club.session), 5);
    for (const m of moves) {
      hand.playMove(m);
      sim.advance(800);
    }
    const clubPdn = await (await fetch(club.url + 'broadcast.pdn')).text();
    expect(clubPdn.match(/%clk/g)?.length).toBe(4);
    expect(tagNames(pdn)).toEqual(tagNames(clubPdn));
  });

  it('lists a game between two of its stations once, from the board furthest on, paired by what the stations say', async () => {
    const b = await broker();
    const h = await hubAt(b.url, join(tempDir(), 'hub'));
    const game: GameSettings = { tags: { Event: 'Two clubs', Black: 'Ann', White: 'Bob' }, timeControl: '10m+5s' };
    const north = await playing(b.url, 'NORTH', 41, game, { board: 'SOUTH', side: 'white' });
    await until(() => h.room('NORTH') !== null, 'NORTH on the hub (board 1)');
    // (SOUTH's station spells Ann's name otherwise: the records differ in their tags, and are still one game.)
    const southGame: GameSettings = { ...game, tags: { ...game.tags, Black: 'Ann L.' } };
    const south = await playing(b.url, 'SOUTH', 42, southGame, { board: 'NORTH', side: 'black' });
    await until(() => h.room('SOUTH') !== null, 'SOUTH on the hub (board 2)');
    const other = await playing(b.url, 'OTHER', 43, { tags: { Black: 'Cy', White: 'Di' } });
    await until(() => h.room('OTHER') !== null, 'OTHER on the hub (board 3)');
    const moves = GAMES[1]!.moves.slice(0, 5).map((n) => n.move);
    for (const [i, move] of moves.entries()) {
      const [here, there] = i % 2 === 0 ? [north, south] : [south, north];
      here.hand.playMove(move);
      here.sim.advance(800);
      await until(
        () => there.session.remote?.state().move !== null || there.session.game.plies.length > i,
        `move ${i + 1} shown on the far board`,
      );
      // The last move is not carried out yet at the far board: its record is one behind.
      if (i === moves.length - 1) break;
      there.hand.playMove(move);
      there.sim.advance(800);
    }
    other.hand.playMove(GAMES[2]!.moves[0]!.move);
    other.sim.advance(800);
    await until(() => h.room('NORTH')?.session.game.plies.length === 5 && h.room('SOUTH')?.session.game.plies.length === 4, 'both records');
    await until(() => h.room('OTHER')?.session.game.plies.length === 1, 'the other board’s move');
    // Each station names the far board and its linked game with its own game: the hub pairs them by that.
    await until(
      () => h.room('NORTH')?.farGame?.far.gameId === south.session.gameId && h.room('SOUTH')?.farGame?.far.gameId === north.session.gameId,
      'each station naming the other’s game',
    );
    expect(h.room('NORTH')!.farGame).toEqual({ gameId: north.session.gameId, far: { board: 'SOUTH', gameId: south.session.gameId } });
    expect(h.room('OTHER')!.farGame).toBeNull();
    const games = readPdn(await (await fetch(h.service!.url + 'broadcast.pdn')).text()).games;
    const tag = (g: (typeof games)[number], k: string) => g.tags.find(([n]) => n === k)?.[1];
    expect(games.map((g) => [tag(g, 'Board'), tag(g, 'Black'), tag(g, 'White'), g.moves.length])).toEqual([
      ['1', 'Ann', 'Bob', 5],
      ['3', 'Cy', 'Di', 1],
    ]);
  });
});
