// A station's presence as its readers take it (src/stations/presence.ts): the
// newest status, or the will its last online status named; an old status sent
// again — an "offline" replayed to make a live station look gone, an
// "online" replayed to hide that it went — changes nothing. Then on a broker:
// SOUTH's own sealed goodbye, captured by a client with no key and published
// again (retained) once SOUTH is back, is refused by NORTH (the far board)
// and by the hub; NORTH still shows SOUTH online, and the game goes on.

import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { Presence } from '../../src/stations/presence.ts';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { startStation } from '../../src/stations/station.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import { readMessage } from '../../src/stations/messages.ts';
import type { Color } from '../../src/rules/index.ts';
import type { SessionEvent } from '../../src/game/index.ts';
import { SECRET, hub, removeTempDirs, tempDir, until } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

describe('a station’s presence', () => {
  it('takes the newest status or the named will; refuses an old one sent again', () => {
    const p = new Presence();
    expect(p.take(100, true, 50)).toBe('taken'); // online, its connection's will sealed at 50
    expect(p.take(100, true, 50)).toBe('same'); // (the retained copy read again)
    expect(p.take(40, false)).toBe('replay'); // an older goodbye
    expect(p.take(50, false)).toBe('taken'); // the will it named: gone
    expect(p.take(50, false)).toBe('same');
    expect(p.take(90, true, 50)).toBe('replay'); // an old online, to hide that it went
    expect(p.take(300, true, 250)).toBe('taken'); // back (a new connection, a new will)
    expect(p.take(50, false)).toBe('replay'); // the old will
    expect(p.take(120, false)).toBe('replay'); // an old goodbye
    expect(p.take(400, false)).toBe('taken'); // its goodbye now
  });

  it('on the broker: SOUTH’s old goodbye published again is refused by the far board and the hub', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const h = await hub(b.url, join(tempDir(), 'hub'));
    closers.push(() => h.close());
    const board = async (id: string, seed: number, far: { board: string; side: Color }, dir = join(tempDir(), id)) => {
      const sim = new SimBoard({ clock: 'manual', seed, id });
      const s = await startStation({
        mqtt: { url: b.url, reconnectMs: 100 },
        secret: SECRET,
        opponent: far,
        service: {
          board: { source: sim },
          storage: { gamesDir: dir },
          http: { port: 0 },
          log: { level: 'silent' },
          game: { tags: { Black: 'Ann', White: 'Bob' } },
        },
      });
      closers.push(() => s.close());
      const events: SessionEvent[] = [];
      s.service.session.on((e) => events.push(e));
      return Object.assign(s, { dir, events });
    };
    const north = await board('NORTH', 95, { board: 'SOUTH', side: 'white' });
    let south = await board('SOUTH', 96, { board: 'NORTH', side: 'black' });
    const link = () => north.service.session.snapshot().remote?.link?.state;
    await until(() => link() === 'online', 'NORTH hearing of SOUTH');
    // Mallory keeps every status SOUTH says.
    const evil = await mqtt.connectAsync(b.url, { clientId: 'mallory', clean: true, reconnectPeriod: 0 });
    closers.push(() => evil.endAsync());
    const said: { payload: Buffer; online: boolean }[] = [];
    evil.on('message', (t, payload) => {
      const r = readMessage(t, payload);
      if (r.ok && r.m.kind === 'status') said.push({ payload, online: r.m.msg.online });
    });
    await evil.subscribeAsync(boardTopic('SOUTH', 'status'), { qos: 1 });
    await south.close();
    await until(() => said.some((s) => !s.online) && link() === 'offline', 'SOUTH’s goodbye, kept by Mallory');
    const goodbye = said.find((s) => !s.online)!.payload;
    south = await board('SOUTH', 96, { board: 'NORTH', side: 'black' }, south.dir);
    await until(() => link() === 'online', 'SOUTH back');
    const refusedBefore = north.far!.refused;
    const hubBefore = h.refusals.get('SOUTH')?.count ?? 0;
    await evil.publishAsync(boardTopic('SOUTH', 'status'), goodbye, { qos: 1, retain: true });
    await until(() => north.far!.refused > refusedBefore, 'the replay refused at NORTH');
    await until(() => (h.refusals.get('SOUTH')?.count ?? 0) > hubBefore, 'the replay refused at the hub');
    expect(h.refusals.get('SOUTH')?.last).toMatch(/status: sent before \(a replay\)/);
    expect(link()).toBe('online');
    expect(north.events.filter((e) => e.type === 'remote-link').at(-1)?.say).toBe("Bob's board is back.");
    const listed = (await (await fetch(h.service!.url + 'api/stations')).json()) as { stations: { board: string; online: boolean }[] };
    expect(listed.stations.find((x) => x.board === 'SOUTH')?.online).toBe(true);
  });
});
