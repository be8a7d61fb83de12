// Stations and a hub through the embedded broker (aedes): two
// simulated stations played by the test hand, the hub mirroring both as club
// boards (the board list, /broadcast.pdn, /watch), every station's PDN equal
// to the hub's; the hub restarted in the middle rebuilds from its own files
// and the stations' republishing.

import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/stations/broker.ts';
import type { Hub } from '../../src/stations/hub.ts';
import { GAMES, hub, play, removeTempDirs, samePdn, setUpStart, station, tempDir, until, type TestStation } from './fixture.ts';
import { join } from 'node:path';

const closers: (() => Promise<void>)[] = [];
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
async function hubAt(url: string, dir?: string): Promise<Hub> {
  const h = await hub(url, dir);
  closers.push(() => h.close());
  return h;
}

describe('stations through the embedded broker', () => {
  it('two stations play; the hub mirrors both games move for move, the same PDN on both sides', async () => {
    const b = await broker();
    const a = await st(b.url, 'ST-A', 3);
    const c = await st(b.url, 'ST-C', 4);
    const h = await hubAt(b.url);
    await until(() => h.room('ST-A') !== null && h.room('ST-C') !== null, 'both stations joining the hub');
    setUpStart(a);
    setUpStart(c);
    expect(play(a, GAMES[0]!, 0, 12)).toBe(12);
    expect(play(c, GAMES[1]!, 0, 9)).toBe(9);
    await until(() => samePdn(h, a) && samePdn(h, c), 'the hub having both games');
    expect(h.room('ST-A')!.session.game.plies.length).toBe(12);
    // The club sees them as boards: the list, the broadcast.
    const boards = (await (await fetch(h.service!.url + 'api/boards')).json()) as { boards: { id: string; plies: number }[] };
    expect(boards.boards.map((x) => [x.id, x.plies]).sort()).toEqual([
      ['ST-A', 12],
      ['ST-C', 9],
    ]);
    const pdn = await (await fetch(h.service!.url + 'broadcast.pdn')).text();
    expect(pdn).toContain(
      a.service.session
        .pdn()
        .split('\n')
        .find((l) => l.startsWith('1.'))!,
    );
    // More moves after the first burst: still equal.
    play(a, GAMES[0]!, 12, 20);
    await until(() => samePdn(h, a), 'the hub following the next moves');
    const mirror = h.boards.get('ST-A')!.mirror!;
    expect(mirror.failures).toBe(0);
  });

  it('a hub restarted mid-game rebuilds from its own journal and the stations fill in what it missed', async () => {
    const b = await broker();
    const a = await st(b.url, 'ST-R', 5);
    const dir = join(tempDir(), 'hub');
    let h = await hubAt(b.url, dir);
    await until(() => h.room('ST-R') !== null, 'the station joining');
    setUpStart(a);
    play(a, GAMES[2]!, 0, 8);
    await until(() => samePdn(h, a), 'the first moves mirrored');
    await h.close();
    play(a, GAMES[2]!, 8, 14); // played while the hub is down
    h = await hubAt(b.url, dir);
    // From its own files at once (8 plies at least), then the station's records fill in the rest.
    await until(() => (h.room('ST-R')?.session.game.plies.length ?? 0) >= 8, 'the hub rebuilding from its files');
    await until(() => samePdn(h, a), 'the moves made while the hub was down');
    play(a, GAMES[2]!, 14, 18);
    await until(() => samePdn(h, a), 'the moves after the restart');
    expect(h.boards.get('ST-R')!.mirror!.failures).toBe(0);
  });

  it('a station stops promptly when its broker is already gone (the will speaks for it)', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    const a = await station(b.url, 'ST-GONE', 6);
    await until(() => a.client.connected, 'the station connecting');
    await b.close();
    await until(() => !a.client.connected, 'the station noticing');
    const stopped = await Promise.race([a.close().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(stopped).toBe('stopped');
  });
});
