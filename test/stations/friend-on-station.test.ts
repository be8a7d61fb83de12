// A friend who has no board, playing a station's board: the seat is the
// station's own service's (its page's "Play a friend online"), and the hub
// that follows the station mirrors the game as it is played — the friend's
// moves carried out on the board, the hub's record the same PDN as the
// station's, the friend named in it.

import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { legalMoves, type Move } from '../../src/rules/index.ts';
import { Client, type Msg } from '../harness/ws-client.ts';
import { playOnSim } from '../server/helpers.ts';
import { hub, removeTempDirs, samePdn, station, until } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  removeTempDirs();
});

const pathOf = (m: Move) => [m.from, ...m.path];

describe('a friend who has no board, on a station followed by a hub', () => {
  it("the station's seat plays; the board carries the moves out; the hub's record is the station's", async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const h = await hub(b.url);
    closers.push(() => h.close());
    const st = await station(b.url, 'EAST', 9);
    closers.push(() => st.close());
    await until(() => h.room('EAST') !== null, 'the hub follows EAST');

    const r = await fetch(st.service.url + 'api/friend', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bea', host: 'Ann', side: 'white' }),
    });
    expect(r.status).toBe(200);
    const link = ((await r.json()) as { seat: { link: string } }).seat.link;
    const token = link.split('/play/')[1]!;
    const seat = await Client.connect(st.service.url.replace(/^http/, 'ws') + `play/${token}/ws`);
    closers.push(async () => seat.ws.close());
    await seat.next((m) => m.type === 'seat', 'the seat');
    const session = st.service.session;
    st.sim.setupStart();
    st.sim.advance(700);

    let ids = 0;
    const act = async (a: Record<string, unknown>): Promise<Msg> => {
      const id = `a${++ids}`;
      seat.send({ v: 1, type: 'act', id, act: a });
      return seat.next((m) => (m.type === 'ok' || m.type === 'error') && m.id === id, `reply to ${String(a.name)}`);
    };
    for (let ply = 0; ply < 6; ply++) {
      const m = legalMoves(session.game.position)[0]!;
      if (ply % 2 === 1) {
        // Bea's move, from her page: the board's player carries it out.
        expect(await act({ name: 'move', ply, path: pathOf(m) })).toMatchObject({ type: 'ok' });
        await until(() => session.remote?.state().move !== null, `Bea's move ${ply + 1} shown on the board`);
      }
      playOnSim(st.sim, m);
      expect(session.game.plies).toHaveLength(ply + 1);
    }
    await until(() => samePdn(h, st), "the hub's record equals the station's");
    expect(session.pdn()).toContain('[White "Bea"]');
    expect(h.room('EAST')!.session.pdn()).toContain('[White "Bea"]');
  });
});
