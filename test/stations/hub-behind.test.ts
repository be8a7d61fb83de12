// A station whose hub stops taking its records says so on its own page: with
// the broker up and a hub paired, records the hub has acknowledged none of
// for HUB_SILENT_MS are "kept here … is it running?"; the hub back (its
// games folder kept), it takes them and the words clear. A station no hub has
// paired with never says it (a game between two boards needs no hub).

import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { startStation } from '../../src/stations/station.ts';
import { HUB_SILENT_MS } from '../../src/stations/station-link.ts';
import { renderHubLink } from '../../src/web/far-board.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { RandomHand, handTable } from '../harness/table.ts';
import { Client } from '../harness/ws-client.ts';
import { GAMES, SECRET, hub, removeTempDirs, samePdn, tempDir, until } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  removeTempDirs();
});

/** A station on a clock the test can move on (the wait for the hub is time, not frames). */
async function station(url: string, id: string, skip: { ms: number }) {
  const sim = new SimBoard({ clock: 'manual', seed: 5, id });
  const dir = join(tempDir(), id);
  const s = await startStation({
    mqtt: { url, reconnectMs: 100 },
    secret: SECRET,
    now: () => Date.now() + skip.ms,
    service: { board: { source: sim }, storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } },
  });
  closers.push(() => s.close());
  return { ...s, sim, dir, hand: new RandomHand(handTable(sim, s.service.session), 5) };
}

describe('a station says when its hub takes none of its records', () => {
  it('behind for HUB_SILENT_MS with the broker up: said on the page; the hub back: taken, and cleared', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const hubDir = join(tempDir(), 'hub');
    let h = await hub(b.url, hubDir);
    closers.push(() => h.close());
    const skip = { ms: 0 };
    const st = await station(b.url, 'EAST', skip);
    const room = st.service.rooms[0]!;
    const page = await Client.connect(st.service.url.replace(/^http/, 'ws') + 'ws');
    closers.push(async () => page.ws.close());
    await page.next((m) => m.type === 'hello');
    await until(() => h.room('EAST') !== null, 'the hub follows EAST');
    st.sim.setupStart();
    st.sim.advance(700);
    const moves = GAMES[0]!.moves.map((m) => m.move);
    st.hand.playMove(moves[0]!);
    st.sim.advance(800);
    await until(() => samePdn(h, st), 'the hub has the first move');
    expect(room.hubLink!().behind ?? null).toBeNull();

    await h.close();
    st.hand.playMove(moves[1]!);
    st.sim.advance(800);
    expect(st.service.session.game.plies).toHaveLength(2);
    // Not yet: a hub may take a moment.
    await new Promise((r) => setTimeout(r, 1500));
    expect(room.hubLink!().behind ?? null).toBeNull();
    skip.ms += HUB_SILENT_MS;
    const said = await page.next(
      (m) => m.type === 'event' && m.event.type === 'hub-link' && m.event.hub.behind,
      'the hub-link event',
      20_000,
    );
    expect(said.event.say).toMatch(
      /^The hub has taken none of your last (record|\d records) for \d+ s — is it running\? They are kept here and sent when it is\.$/,
    );
    expect(said.event.hub).toMatchObject({ connected: true, behind: { records: expect.any(Number) } });
    // The station's page draws it as a banner while it lasts.
    expect(renderHubLink(room.hubLink!(), Date.now() + skip.ms)).toMatch(
      /data-hub-link="hub-behind".*The hub has taken none of your last .* — is it running\?/s,
    );

    h = await hub(b.url, hubDir);
    await until(() => samePdn(h, st), 'the hub back takes the second move');
    const cleared = await page.next(
      (m) => m.type === 'event' && m.event.type === 'hub-link' && !m.event.hub.behind,
      'the hub-link event clearing it',
      20_000,
    );
    expect(cleared.event.say).toBe('The hub is taking the moves kept here again.');
    expect(room.hubLink!().behind ?? null).toBeNull();
  });

  it('a station no hub has paired with never says it', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const skip = { ms: 0 };
    const st = await station(b.url, 'WEST', skip);
    await until(() => st.client.connected, 'on the broker');
    st.sim.setupStart();
    st.sim.advance(700);
    st.hand.playMove(GAMES[0]!.moves[0]!.move);
    st.sim.advance(800);
    skip.ms += 3 * HUB_SILENT_MS;
    await new Promise((r) => setTimeout(r, 2500)); // the station looks every second: two looks at least
    expect(st.service.rooms[0]!.hubLink!().behind ?? null).toBeNull();
  });
});
