// What a change costs the service, counted (never timed): a move on one of 32
// boards makes that board's PDN text once — the spectators' feed, every poll
// of /broadcast.pdn and the games folder's file read the text its room keeps —
// and the state after each event is taken once, however many read it: the
// board's pages (their patch), the friend's seat page, the spectators' summary
// and the arbiter's list (the room's summary).

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { legalMoves } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { RECORD_EVENTS } from '../../src/server/room.ts';
import { startService, type Service } from '../../src/server/service.ts';
import { pdnRecord, type GameSession, type SessionEvent } from '../../src/game/index.ts';
import { makePdn } from '../../src/pdn/index.ts';
import { Client } from '../harness/ws-client.ts';
import { corpusMoves, playOnSim, removeTempDirs, setUp, startSimService, tempDir, until } from './helpers.ts';

const running: Service[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of running.splice(0)) await s.close();
  removeTempDirs();
});

async function connect(s: Service, path: string): Promise<Client> {
  const c = await Client.connect(s.url.replace(/^http/, 'ws') + path);
  clients.push(c);
  return c;
}

/**
 * Counts a session's events as they are emitted (before any listener hears one) and its snapshots, each noted with the
 * number of events emitted before it: two snapshots with the same number were taken of one change.
 */
function countSnapshots(session: GameSession): { taken: number[]; events: () => number } {
  // (emit is protected: the count wraps it, and snapshot, on this one session's instance)
  const s = session as unknown as { emit(e: SessionEvent): void; snapshot(): unknown };
  const emit = s.emit.bind(session);
  const snapshot = s.snapshot.bind(session);
  let events = 0;
  const taken: number[] = [];
  s.emit = (e) => {
    events++;
    emit(e);
  };
  s.snapshot = () => {
    taken.push(events);
    return snapshot();
  };
  return { taken, events: () => events };
}

const repeated = (xs: number[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

describe('once per change', () => {
  it("a move on one of 32 boards makes that board's PDN text alone, once: the feed and /broadcast.pdn polls read the kept texts", async () => {
    const sims = Array.from({ length: 32 }, (_, i) => new SimBoard({ clock: 'manual', seed: 100 + i, id: `BURST-${i + 1}` }));
    const s = await startService({
      club: { sources: sims, feed: { summaryMs: 5 } },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    const spectator = await connect(s, 'watch/ws');
    await spectator.next((m) => m.type === 'boards', 'the boards');
    for (const sim of sims) setUp(sim);
    await until(() => s.rooms.every((r) => r.session.tracker.phase === 'play'), 'every board set up');
    const rooms = [...s.rooms].sort((a, b) => a.number - b.number);
    const poll = async () => (await fetch(s.url + 'broadcast.pdn')).text();
    await poll();
    // From here every PDN text made is counted, and every change of a record.
    const made = rooms.map(() => 0);
    const changes = rooms.map(() => 0);
    rooms.forEach((r, i) => {
      const pdn = r.session.pdn.bind(r.session);
      r.session.pdn = (opts) => {
        made[i]++;
        return pdn(opts);
      };
      r.session.on((e) => {
        if (RECORD_EVENTS.has(e.type)) changes[i]++;
      });
    });
    const moves = corpusMoves(2);
    const games = () => rooms.map((r) => makePdn(pdnRecord(r.session.table))).join('\n'); // (made here, not counted)
    for (const [k, i] of [
      [0, 4],
      [0, 19],
      [1, 4],
    ] as const) {
      const room = rooms[i]!;
      const plies = room.session.game.plies.length;
      playOnSim(sims[room.number - 1]!, moves[k]!);
      await until(() => room.session.game.plies.length === plies + 1, `the move on board ${room.number}`);
      await spectator.next((m) => m.type === 'board' && m.board.number === room.number && m.board.plies === plies + 1, 'its summary');
      const [a, b] = [await poll(), await poll()];
      expect(b).toBe(a);
      expect(s.feed!.pdn()).toBe(a);
      expect(a).toBe(games()); // the games as they stand
    }
    // Boards 5 and 20 made their text once per change of their record (a move each time); no other board made one.
    expect(changes[4]).toBeGreaterThanOrEqual(2);
    expect(changes[19]).toBeGreaterThanOrEqual(1);
    expect(made).toEqual(changes);
    // …and the games folder's file of each is the text kept.
    await until(() => rooms.every((r) => r.store.flushed), 'the files written');
    for (const r of [rooms[4]!, rooms[19]!]) expect(await r.store.readPdn(r.session.gameId)).toBe(makePdn(pdnRecord(r.session.table)));
  });

  it("the state after each event is taken once, for the board's page, the spectators' summary and the arbiter's list", async () => {
    const sims = [5, 6].map((seed, i) => new SimBoard({ clock: 'manual', seed, id: `ONCE-${i + 1}` }));
    const s = await startService({
      club: { sources: sims, feed: { summaryMs: 5 } },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    const room = s.rooms.find((r) => r.number === 1)!;
    const page = await connect(s, 'boards/ONCE-1/ws');
    await page.next((m) => m.type === 'hello', 'the hello');
    const spectator = await connect(s, 'watch/ws');
    await spectator.next((m) => m.type === 'boards', 'the boards');
    setUp(sims[0]!);
    await until(() => room.session.tracker.phase === 'play', 'the board set up');
    await spectator.next((m) => m.type === 'board' && m.board.state === 'in-sync', 'the board in sync');
    const count = countSnapshots(room.session);
    for (const [k, move] of corpusMoves(4).entries()) {
      playOnSim(sims[0]!, move);
      await page.event('move');
      await spectator.next((m) => m.type === 'board' && m.board.plies === k + 1, `the summary after move ${k + 1}`);
      const listed = (await (await fetch(s.url + 'api/boards')).json()) as { boards: { plies: number }[] };
      expect(listed.boards[0]!.plies).toBe(k + 1);
    }
    expect(count.taken.length).toBeGreaterThanOrEqual(4);
    expect(count.taken.length).toBeLessThanOrEqual(count.events());
    expect(repeated(count.taken)).toEqual([]);
  });

  it("a friend's seat page and the board's page share the state of each change", async () => {
    const s = await startSimService({ http: { requireToken: true, token: 'burst-control-token', publicUrl: 'https://club.example:8443' } });
    running.push(s.service);
    const auth = { authorization: 'Bearer burst-control-token', 'content-type': 'application/json' };
    const r = await fetch(s.service.url + 'api/friend', { method: 'POST', headers: auth, body: '{"name":"Bea","host":"Ann"}' });
    const token = ((await r.json()) as { seat: { link: string } }).seat.link.split('/play/')[1]!;
    const seat = await connect(s.service, `play/${token}/ws`);
    await seat.next((m) => m.type === 'seat', 'the seat');
    const page = await connect(s.service, 'ws?token=burst-control-token');
    await page.next((m) => m.type === 'hello', 'the hello');
    const session = s.service.session;
    setUp(s.sim);
    await until(() => session.tracker.phase === 'play', 'the board set up');
    const count = countSnapshots(session);
    playOnSim(s.sim, legalMoves(session.game.position)[0]!);
    const [atPage, atSeat] = await Promise.all([page.event('move'), seat.next((m) => m.type === 'event' && m.event.type === 'move')]);
    expect(atSeat.state.moves).toHaveLength(1);
    expect(atPage.patch ?? atPage.state).toBeTruthy();
    expect(count.taken.length).toBeGreaterThanOrEqual(1);
    expect(repeated(count.taken)).toEqual([]);
  });
});
