// A game between two boards far apart: two simulated stations (NORTH and
// SOUTH) on one broker — the embedded one and Mosquitto — each player on
// their own board. The far side's move reaches a board as the move of its
// player at another board (shown and spoken by name as a move to carry out,
// the board checked against exactly it); the test hand carries it out there;
// a wrong move in its place is an alert, not a move. The whole game,
// to its end by the rules, one PDN: the same on both boards. Then "next game"
// on one board starts the next game on both, colours swapped, and it is
// played the same way.

import { afterEach, describe, expect, it } from 'vitest';
import { startStation } from '../../src/stations/station.ts';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { Game, legalMoves, type Color, type Move } from '../../src/rules/index.ts';
import type { SessionEvent } from '../../src/game/index.ts';
import { RandomHand, handTable } from '../harness/table.ts';
import { farLink } from '../../src/web/far-board.ts';
import mqtt from 'mqtt';
import { boardTopic } from '../../src/stations/topics.ts';
import { readMessage, sealMessage } from '../../src/stations/messages.ts';
import { ephemeralIdentity } from '../../src/stations/identity.ts';
import { GAMES, SECRET, brokers, removeTempDirs, tempDir, until } from './fixture.ts';
import { join } from 'node:path';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

/** A corpus game played on past its resignation, each side taking its first legal move, until the rules end it. */
function decidedGame(): Move[] {
  for (const g of GAMES) {
    const game = Game.standard();
    for (const n of g.moves) game.play(n.move);
    while (!game.outcome && game.plies.length < 200) game.play(game.legalMoves()[0]!);
    if (game.outcome?.reason === 'no-moves' && game.plies.length <= 90) return game.plies.map((p) => p.move);
  }
  throw new Error('no corpus game ends by the rules within 90 plies');
}

async function board(url: string, id: string, seed: number, far: { board: string; side: Color }, dir = join(tempDir(), id)) {
  const sim = new SimBoard({ clock: 'manual', seed, id });
  const s = await startStation({
    mqtt: { url, reconnectMs: 100 },
    secret: SECRET,
    opponent: far,
    service: {
      board: { source: sim },
      storage: { gamesDir: dir },
      http: { port: 0 },
      log: { level: 'silent' },
      game: { tags: { Event: 'Two clubs', Site: 'Internet', Black: 'Ann', White: 'Bob' }, timeControl: '10m+5s' },
    },
  });
  closers.push(() => s.close());
  const session = s.service.session;
  const table = handTable(sim, session);
  const events: SessionEvent[] = [];
  session.on((e) => events.push(e));
  return { ...s, sim, session, hand: new RandomHand(table, seed), events, dir };
}

const BROKERS: [string, () => Promise<string>][] = [
  ...brokers(closers),
  [
    // (Locked down, as the hub's own broker is beyond loopback: each station to its own topics and the far board's records and status.)
    'aedes with logins',
    async () => {
      const b = await startEmbeddedBroker({ port: 0, secret: SECRET });
      closers.push(() => b.close());
      return b.url;
    },
  ],
];

describe.each(BROKERS)('a game between two boards far apart (%s)', (_name, brokerUrl) => {
  it('each side carries out the other’s moves; the whole game, one PDN on both boards', async () => {
    const url = await brokerUrl();
    // Ann plays Black on board NORTH; Bob plays White on board SOUTH.
    const north = await board(url, 'NORTH', 41, { board: 'SOUTH', side: 'white' });
    const south = await board(url, 'SOUTH', 42, { board: 'NORTH', side: 'black' });
    await until(() => north.client.connected && south.client.connected, 'both boards on the broker');
    for (const s of [north, south]) {
      s.session.setTags({ Black: 'Ann', White: 'Bob' });
      s.sim.setupStart();
      s.sim.advance(700);
    }
    const moves = decidedGame();
    let wrongTried = false;
    for (const [i, move] of moves.entries()) {
      const [here, there] = i % 2 === 0 ? [north, south] : [south, north];
      const told = there.events.filter((e) => e.type === 'remote-move').length;
      here.hand.playMove(move);
      here.sim.advance(800);
      expect(here.session.game.plies.length).toBe(i + 1);
      // The far board is told the move to carry out, by the far player's name.
      await until(() => there.events.filter((e) => e.type === 'remote-move').length > told, `move ${i + 1} shown on the far board`);
      const shown = there.events.filter((e) => e.type === 'remote-move').at(-1) as Extract<SessionEvent, { type: 'remote-move' }>;
      expect([shown.from, ...shown.path]).toEqual([move.from, ...move.path]);
      expect(shown.say).toMatch(new RegExp(`^${i % 2 === 0 ? 'Ann' : 'Bob'} plays ${move.from} (to|takes) `));
      if (!wrongTried && i === 4 && move.captures.length === 0) {
        // Another move in its place: an alert, and no move is made.
        const other = legalMoves(there.session.game.position).find((m) => m.from !== move.from && m.captures.length === 0);
        if (other) {
          wrongTried = true;
          const alerts = there.events.filter((e) => e.type === 'alert').length;
          there.sim.lift(other.from);
          there.sim.advance(150);
          there.sim.set(other.to, 1);
          there.sim.advance(1500);
          expect(there.events.filter((e) => e.type === 'alert').length).toBeGreaterThan(alerts);
          expect(there.session.game.plies.length).toBe(i);
          there.sim.lift(other.to);
          there.sim.advance(150);
          there.sim.set(other.from, 1);
          there.sim.advance(1500);
        }
      }
      there.hand.playMove(move);
      there.sim.advance(800);
      expect(there.session.game.plies.length).toBe(i + 1);
    }
    expect(wrongTried).toBe(true);
    expect(north.session.game.outcome).toEqual(south.session.game.outcome);
    expect(north.session.game.outcome?.reason).toBe('no-moves');
    expect(north.session.pdn()).toBe(south.session.pdn());
    // The far player is a player, by name: no computer in the record; each move's clock the same on both boards.
    expect(north.session.pdn()).not.toMatch(/Crownhead/);
    expect(north.session.pdn()).toMatch(/\[White "Bob"\]/);
    expect(north.session.pdn().match(/%clk/g)?.length).toBe(moves.length);

    // "Next game" on one board starts the next game on both, colours swapped: Bob (at SOUTH) now plays Black and moves first.
    north.session.nextGame('next');
    await until(() => south.session.remote?.setting.link !== undefined, 'the next game followed on the far board');
    expect(north.session.snapshot().remote).toMatchObject({ side: 'black', name: 'Bob' });
    expect(south.session.snapshot().remote).toMatchObject({ side: 'white', name: 'Ann' });
    for (const s of [north, south]) {
      expect(s.session.tags).toMatchObject({ Black: 'Bob', White: 'Ann', TimeControl: '600+5' });
      s.sim.clear();
      s.sim.advance(300);
      s.sim.setupStart();
      s.sim.advance(700);
    }
    const second = decidedGame().slice(0, 6);
    for (const [i, move] of second.entries()) {
      const [here, there] = i % 2 === 0 ? [south, north] : [north, south];
      here.hand.playMove(move);
      here.sim.advance(800);
      await until(
        () => there.session.remote?.state().move !== null || there.session.game.plies.length > i,
        `game 2 move ${i + 1} on the far board`,
      );
      there.hand.playMove(move);
      there.sim.advance(800);
      expect(there.session.game.plies.length).toBe(i + 1);
    }
    expect(north.session.pdn()).toBe(south.session.pdn());
    expect(north.session.pdn()).toMatch(/\[Black "Bob"\]/);
    // The link holds across a restart of either board: the resumed game keeps who plays where.
    expect(north.session.remote?.side).toBe('black');
  });

  it('the far board never shows a forged move: plain, sealed with another key, or a real record moved to another board', async () => {
    const url = await brokerUrl();
    const north = await board(url, 'NORTH', 45, { board: 'SOUTH', side: 'white' });
    const south = await board(url, 'SOUTH', 46, { board: 'NORTH', side: 'black' });
    await until(() => north.session.snapshot().remote?.link?.state === 'online', 'NORTH hearing of SOUTH');
    for (const s of [north, south]) {
      s.sim.setupStart();
      s.sim.advance(700);
    }
    // Ann (NORTH, Black) plays 11-15; SOUTH carries it out: White (Bob at SOUTH) to move.
    const first = decidedGame()[0]!;
    north.hand.playMove(first);
    north.sim.advance(800);
    await until(() => south.events.some((e) => e.type === 'remote-move'), 'the first move on SOUTH');
    south.hand.playMove(first);
    south.sim.advance(800);
    // A client with no key (on the open brokers; on the locked one it cannot connect at all): "Bob plays 22-18" forged for NORTH to see.
    const evil = await mqtt.connectAsync(url, { clientId: 'mallory', clean: true, reconnectPeriod: 0 }).catch((e: Error) => e);
    if (evil instanceof Error)
      expect(evil.message).toMatch(/Bad username or password|Not authorized/); // (the locked broker)
    else {
      closers.push(() => evil.endAsync());
      // The next record number of SOUTH's game, as anyone reads it from its retained game message.
      const head = new Promise<{ gameId: string; count: number }>((resolve) =>
        evil.on('message', (t, p) => {
          const r = readMessage(t, p);
          if (r.ok && r.m.kind === 'game') resolve(r.m.msg);
        }),
      );
      await evil.subscribeAsync(boardTopic('SOUTH', 'game'), { qos: 1 });
      const { gameId, count } = await head;
      const forged = { v: 1 as const, gameId, seq: count, entry: { k: 'move' as const, at: 1, path: [22, 18] } };
      const told = north.events.filter((e) => e.type === 'remote-move').length;
      await evil.publishAsync(boardTopic('SOUTH', 'entries'), JSON.stringify(forged), { qos: 1 });
      const m = sealMessage('SOUTH', 'entries', forged, ephemeralIdentity(), Date.now() * 1000);
      await evil.publishAsync(m.topic, m.payload, { qos: 1 });
      // And SOUTH's own real records copied onto NORTH's topic (NORTH's far board is SOUTH: nothing there is read as SOUTH's).
      await evil.publishAsync(boardTopic('NORTH', 'entries'), m.payload, { qos: 1 });
      // Bob's real move follows: it is the one NORTH is told, and nothing before it.
      const reply = legalMoves(south.session.game.position)[0]!;
      south.hand.playMove(reply);
      south.sim.advance(800);
      await until(() => north.events.filter((e) => e.type === 'remote-move').length > told, 'Bob’s real move on NORTH');
      const shown = north.events.filter((e) => e.type === 'remote-move').slice(told);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatchObject({ from: reply.from });
    }
  });

  it('honest status: the far station stopped is named on the near page, with since when; back, it is said and cleared', async () => {
    const url = await brokerUrl();
    const north = await board(url, 'NORTH', 43, { board: 'SOUTH', side: 'white' });
    let south = await board(url, 'SOUTH', 44, { board: 'NORTH', side: 'black' });
    await until(() => north.session.snapshot().remote?.link?.state === 'online', 'NORTH hearing of SOUTH');
    expect(north.events.some((e) => e.type === 'remote-link')).toBe(false); // (nothing to say while all is well)
    await south.close();
    await until(() => north.session.snapshot().remote?.link?.state === 'offline', 'NORTH told SOUTH is gone');
    const said = north.events.filter((e) => e.type === 'remote-link').map((e) => e.say);
    expect(said).toEqual(["Bob's board is offline: your move will reach it when it is back."]);
    const remote = north.session.snapshot().remote!;
    expect(farLink(remote, remote.link!.since + 40_000)).toMatch(/Bob(&#39;|')s board has been offline for 40 s: your move will reach it/);
    // SOUTH's station starts again on its own folder (same key): back, said once, and the notice is gone.
    south = await board(url, 'SOUTH', 44, { board: 'NORTH', side: 'black' }, south.dir);
    await until(() => north.session.snapshot().remote?.link?.state === 'online', 'NORTH told SOUTH is back');
    expect(north.events.filter((e) => e.type === 'remote-link').at(-1)?.say).toBe("Bob's board is back.");
    expect(farLink(north.session.snapshot().remote!)).toBe('');
    expect(south.session.remote?.side).toBe('black'); // (the resumed game keeps its sides)
  });
});
