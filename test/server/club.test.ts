// Club mode: several boards in one
// service, each with its own game, folder, page and socket, known by its id;
// the board list, the broadcast PDN with its ETag and long polling, and the
// spectators' socket; one board's trouble never stops another; a board
// plugged back into another port keeps its game.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { START, resolveMove } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import type { Service } from '../../src/server/service.ts';
import { playOnSim, setUp, tempDir, useServices, type TestClubOptions } from './helpers.ts';
import { Client } from '../harness/ws-client.ts';
import { MockBus, crownheadPeer, until } from '../harness/mock-board.ts';

const services = useServices();

function sims(n: number): SimBoard[] {
  return Array.from({ length: n }, (_, i) => new SimBoard({ clock: 'manual', seed: 11 + i, id: `CLUB-${i + 1}` }));
}

/** The boards as a club (in a temp games folder unless `gamesDir` names one), its feed quick to summarise and patient with a long poll. */
const club = (boards: SimBoard[], gamesDir?: string, http: TestClubOptions['http'] = {}): Promise<Service> =>
  services.club({ sources: boards, feed: { summaryMs: 10, longPollMs: 20_000 } }, { storage: { gamesDir }, http });

async function watch(s: Service, path: string): Promise<Client> {
  const c = await Client.connect(s.url.replace(/^http/, 'ws') + path);
  services.clients.push(c);
  return c;
}

const boardsOf = async (s: Service) => ((await (await fetch(s.url + 'api/boards')).json()) as { boards: any[] }).boards;
const move = (text: string) => resolveMove(START, text);

describe('club mode: several boards in one service', () => {
  it('lists every board by id and number, each with its own game, folder, page and socket', async () => {
    const boards = sims(4);
    const dir = join(tempDir(), 'games');
    const s = await club(boards, dir);
    for (const b of boards) setUp(b);
    const list = await boardsOf(s);
    expect(list.map((b) => [b.id, b.number, b.tags.Board])).toEqual([
      ['CLUB-1', 1, '1'],
      ['CLUB-2', 2, '2'],
      ['CLUB-3', 3, '3'],
      ['CLUB-4', 4, '4'],
    ]);
    expect(list.every((b) => b.state === 'in-sync' && b.plies === 0 && b.say === 'Black to move')).toBe(true);
    expect(new Set(list.map((b) => b.gameId)).size).toBe(4);
    // Each board's games live in its own folder, named by its id.
    for (const b of boards) expect(existsSync(join(dir, 'boards', b.identity().id))).toBe(true);

    // Board 3's page follows board 3 only; a command there changes board 3 only.
    const page3 = await watch(s, 'boards/CLUB-3/ws');
    const hello = await page3.next((m) => m.type === 'hello');
    expect(hello.state.gameId).toBe(list[2].gameId);
    expect(hello.state.tags.Board).toBe('3');
    const ok = await page3.command({ name: 'set-tags', tags: { Black: 'Ann', White: 'Bo' } });
    expect(ok.type).toBe('ok');
    const after = await boardsOf(s);
    expect(after[2].tags).toMatchObject({ Black: 'Ann', White: 'Bo', Board: '3' });
    expect(after[1].tags.Black).not.toBe('Ann');
    // The board's page and API are served under its folder; an unknown board is a clear 404.
    expect((await fetch(s.url + 'boards/CLUB-3/')).status).toBe(200);
    expect(((await (await fetch(s.url + 'boards/CLUB-3/api/state')).json()) as any).tags.Black).toBe('Ann');
    const none = await fetch(s.url + 'boards/NOPE/api/state');
    expect(none.status).toBe(404);
    expect(((await none.json()) as any).message).toMatch(/no board "NOPE"/);
    // /ws and /api/state stay the first board's (a one-board user's URLs).
    expect(((await (await fetch(s.url + 'api/state')).json()) as any).tags.Board).toBe('1');
  });

  it('a move on board 3 reaches the broadcast (ETag, long polling) and the spectators, and nothing else moves', async () => {
    const boards = sims(4);
    const s = await club(boards, undefined, { requireToken: true });
    for (const b of boards) setUp(b);
    const token = s.token!;
    // Spectators on this machine need no token (the broadcast is read access).
    const spectator = await watch(s, 'watch/ws');
    const first = await spectator.next((m) => m.type === 'boards');
    expect(first.boards.map((b: any) => b.number)).toEqual([1, 2, 3, 4]);
    const feed0 = await fetch(s.url + 'broadcast.pdn');
    const etag0 = feed0.headers.get('etag')!;
    const pdn0 = await feed0.text();
    expect(pdn0.match(/\[Board "\d"\]/g)).toEqual(['[Board "1"]', '[Board "2"]', '[Board "3"]', '[Board "4"]']);
    // A relay following with the current ETag waits for the change…
    const polled = fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': etag0 } });
    playOnSim(boards[2]!, move('11-15'));
    const res = await polled;
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag0);
    const pdn1 = await res.text();
    const game3 = pdn1.split(/(?=\[Event )/).find((g) => g.includes('[Board "3"]'))!;
    expect(game3).toMatch(/1\. 11-15/);
    for (const other of pdn1.split(/(?=\[Event )/).filter((g) => !g.includes('[Board "3"]'))) expect(other).not.toMatch(/1\. \d/);
    // …and the spectators get board 3's new summary.
    const upd = await spectator.next((m) => m.type === 'board' && m.board.number === 3 && m.board.plies === 1, 'board 3 after 11-15');
    expect(upd.board.last).toEqual({ text: '11-15', from: 11, to: 15 });
    expect(upd.board.turn).toBe('white');
    // Nothing a spectator loads holds the control token, and a spectator can't command.
    expect(pdn1).not.toContain(token);
    expect(JSON.stringify(spectator.received)).not.toContain(token);
    expect(JSON.stringify(await boardsOf(s))).not.toContain(token);
    spectator.send({ v: 1, type: 'command', command: { name: 'resign', side: 'black' } });
    const refused = await spectator.next((m) => m.type === 'error');
    expect(refused.code).toBe('read-only');
    expect((await boardsOf(s))[2].result).toBe('*');
    // A poll with an old ETag is answered at once with the current feed.
    const stale = await fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': etag0 } });
    expect(stale.status).toBe(200);
  });

  it('an illegal board leaves the others playing', async () => {
    const boards = sims(2);
    const s = await club(boards);
    for (const b of boards) setUp(b);
    // An illegal move on board 1 (a man moved backwards is impossible from the start: lift two men)
    boards[0]!.lift(9);
    boards[0]!.lift(10);
    boards[0]!.advance(3000);
    playOnSim(boards[1]!, move('9-14'));
    const list = await boardsOf(s);
    expect(list[1].plies).toBe(1);
    expect(list[1].state).toBe('in-sync');
    expect(list[0].plies).toBe(0);
    expect(['illegal', 'moving', 'reminder']).toContain(list[0].state);
  });

  it('a restart finds every board game again by board id', async () => {
    const dir = join(tempDir(), 'games');
    const first = sims(3);
    const s1 = await club(first, dir);
    for (const b of first) setUp(b);
    playOnSim(first[1]!, move('11-15'));
    const before = await boardsOf(s1);
    await s1.close();
    // The same boards in another order: games follow the ids, not the order.
    const again = [2, 0, 1].map((i) => new SimBoard({ clock: 'manual', seed: 5, id: `CLUB-${i + 1}` }));
    const s2 = await club(again, dir);
    const after = await boardsOf(s2);
    const byId = (l: any[], id: string) => l.find((b) => b.id === id);
    for (const id of ['CLUB-1', 'CLUB-2', 'CLUB-3']) expect(byId(after, id).gameId).toBe(byId(before, id).gameId);
    expect(byId(after, 'CLUB-2').plies).toBe(1);
  });

  it('two boards with one id are refused, naming the id', async () => {
    const twins = [new SimBoard({ clock: 'manual', id: 'TWIN' }), new SimBoard({ clock: 'manual', id: 'TWIN' })];
    await expect(club(twins)).rejects.toThrow(/both say they are board TWIN/);
  });

  it('one board found is a single board: its games where they always were', async () => {
    const dir = join(tempDir(), 'games');
    const s = await club(sims(1), dir);
    expect(s.rooms).toHaveLength(1);
    expect(s.feed).toBeNull();
    expect(existsSync(join(dir, 'boards'))).toBe(false);
    expect((await fetch(s.url + 'api/boards')).status).toBe(404);
  });
});

describe('club mode on serial boards', () => {
  it('a board unplugged and plugged into another port keeps its game; the other board plays on', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer({ id: 'BRD-A' }));
    bus.add('/dev/ttyACM1', crownheadPeer({ id: 'BRD-B' }));
    const s = await services.club({
      specs: ['serial:/dev/ttyACM0', 'serial:/dev/ttyACM1'],
      binding: bus.binding,
      serial: { resetDelayMs: 0, timeoutMs: 500, silenceMs: 0, reconnect: { minMs: 10, maxMs: 50 } },
    });
    const [a, b] = s.rooms;
    const gameB = b!.session.gameId;
    bus.unplug('/dev/ttyACM1');
    await until(() => b!.summary().state === 'disconnected', 'board B lost');
    expect(a!.summary().state).not.toBe('disconnected');
    // Another board appears first: board B's room must not take it.
    bus.add('/dev/ttyACM3', crownheadPeer({ id: 'BRD-C' }));
    bus.add('/dev/ttyACM2', crownheadPeer({ id: 'BRD-B' }));
    await until(() => b!.summary().state !== 'disconnected', 'board B back', 8000);
    expect(b!.board!.source.path).toBe('/dev/ttyACM2');
    expect(b!.session.gameId).toBe(gameB);
    expect(a!.board!.source.path).toBe('/dev/ttyACM0');
    expect(a!.summary().state).not.toBe('disconnected');
  });
});

describe('the broadcast feed', () => {
  it('answers 304 with the same ETag when nothing changed within the wait, and refuses other devices without a token', async () => {
    const boards = sims(2);
    const s = await services.club({ sources: boards, feed: { longPollMs: 200 } });
    const first = await fetch(s.url + 'broadcast.pdn');
    const etag = first.headers.get('etag')!;
    const again = await fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(s.feed!.etag).toBe(etag);
  });

  // A weak tag of the current version, or *, was answered 200 at once: RFC 9110 compares If-None-Match weakly, and * matches any.
  it('long-polls for If-None-Match with the current ETag weak, in a list, or *; answers a stale one at once', async () => {
    const boards = sims(2);
    const s = await services.club({ sources: boards, feed: { longPollMs: 200 } });
    const etag = (await fetch(s.url + 'broadcast.pdn')).headers.get('etag')!;
    for (const since of [`W/${etag}`, '*', `"b0-0", W/${etag}`, ` ${etag} `]) {
      const again = await fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': since } });
      expect(again.status, since).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
    }
    const stale = await fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': 'W/"b0-0", "other"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(etag);
  });
});

describe('club mode with --board auto', () => {
  it('finds every board at the start, adds a board plugged in later, and leaves a known board to its own room', async () => {
    const bus = new MockBus();
    bus.add('/dev/ttyACM0', crownheadPeer({ id: 'BRD-A' }));
    bus.add('/dev/ttyACM1', crownheadPeer({ id: 'BRD-B' }));
    const dir = join(tempDir(), 'games');
    const s = await services.club(
      {
        specs: ['auto'],
        binding: bus.binding,
        serial: { resetDelayMs: 0, timeoutMs: 500, silenceMs: 0, reconnect: { minMs: 10, maxMs: 50 } },
        scanMs: 30,
      },
      { storage: { gamesDir: dir } },
    );
    expect(s.rooms.map((r) => r.board!.identity.id).sort()).toEqual(['BRD-A', 'BRD-B']);
    bus.add('/dev/ttyACM2', crownheadPeer({ id: 'BRD-C' }));
    await until(() => s.rooms.length === 3, 'board C added', 8000);
    const c = s.rooms[2]!;
    expect(c.board!.identity.id).toBe('BRD-C');
    expect(c.number).toBe(3);
    expect(existsSync(join(dir, 'boards', 'BRD-C'))).toBe(true);
    const list = await boardsOf(s);
    expect(list.map((b) => [b.id, b.number])).toContainEqual(['BRD-C', 3]);
    // Its page and socket are there too.
    expect((await fetch(s.url + 'boards/BRD-C/api/state')).status).toBe(200);
    const page = await watch(s, 'boards/BRD-C/ws');
    expect((await page.next((m) => m.type === 'hello')).state.tags.Board).toBe('3');
    // A known board plugged back elsewhere is its own room's again, not a fourth board.
    const a = s.rooms.find((r) => r.board!.identity.id === 'BRD-A')!;
    const game = a.session.gameId;
    bus.unplug('/dev/ttyACM0');
    await until(() => a.summary().state === 'disconnected', 'board A lost');
    bus.add('/dev/ttyACM3', crownheadPeer({ id: 'BRD-A' }));
    await until(() => a.summary().state !== 'disconnected', 'board A back', 8000);
    expect(a.session.gameId).toBe(game);
    expect(s.rooms).toHaveLength(3);
  });
});
