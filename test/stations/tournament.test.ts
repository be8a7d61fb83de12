// A tournament on station boards ("the tournament works the same
// whether a board is local or a station"): the hub's director starts each
// pairing's game on its station (a signed command), takes it as the
// tournament's when the station's new game arrives with the round's tags,
// records the result played on the station's board, and starts the ballot's
// other side there. The round's broadcast has every game of it, live or
// saved, with the hub's tags (its Site) as club mode's boards have them.

import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { legalMoves, parseFen } from '../../src/rules/index.ts';
import { join } from 'node:path';
import { Hub } from '../../src/stations/hub.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { SECRET, removeTempDirs, station, tempDir, until, type TestStation } from './fixture.ts';
import { setUp } from '../server/helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

async function api(h: Hub, path: string, body?: unknown): Promise<any> {
  const url = h.service!.url + path;
  const res =
    body === undefined
      ? await fetch(url)
      : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The station's board set to its game's position, then one move played by hand. */
function oneMove(st: TestStation): void {
  const pos = unwrap(parseFen(st.service.session.snapshot().fen));
  setUp(st.sim, pos);
  st.sim.advance(800);
  st.hand.playMove(legalMoves(pos)[0]!);
  st.sim.advance(800);
  expect(st.service.session.game.plies.length).toBeGreaterThan(0);
}

describe('a tournament on station boards', () => {
  it('the hub starts each game on its station, records the result played there, and starts the ballot’s other side', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const s1 = await station(b.url, 'ST-1', 5);
    closers.push(() => s1.close());
    const s2 = await station(b.url, 'ST-2', 6);
    closers.push(() => s2.close());
    // (The hub's own tags: its site, as a club's service has; the round's games on its broadcast carry it as club mode's do.)
    const h = await Hub.start({
      mqtt: { url: b.url, reconnectMs: 100 },
      secret: SECRET,
      retryMs: 300,
      service: {
        storage: { gamesDir: join(tempDir(), 'hub') },
        http: { port: 0 },
        log: { level: 'silent' },
        game: { tags: { Site: 'Hull' } },
      },
    });
    closers.push(() => h.close());
    await until(() => h.room('ST-1') !== null && h.room('ST-2') !== null, 'both stations on the hub');
    const byBoard = new Map([
      [h.room('ST-1')!.number, s1],
      [h.room('ST-2')!.number, s2],
    ]);
    await api(h, 'api/tournament', {
      settings: { id: 'two-halls', name: 'Two Halls', system: 'round-robin', rounds: 3, ballots: 'acf', seed: 7 },
      by: 'TD',
    });
    for (const name of ['Ann', 'Bo', 'Cy', 'Di']) await api(h, 'api/tournament/players', { name });
    await api(h, 'api/tournament/pair', {});
    const { games } = await api(h, 'api/tournament');
    expect(games).toHaveLength(2);
    await api(h, 'api/tournament/start-round', {});
    for (const board of games as any[]) {
      const st = byBoard.get(board.board)!;
      const g = board.games[0];
      // The station plays exactly this game: its tags say so, and the hub has it as the tournament's.
      await until(
        () => st.service.session.tags.Round === '1' && st.service.session.tags.Game === '1',
        `board ${board.board}'s game on its station`,
      );
      expect(st.service.session.tags).toMatchObject({ Event: 'Two Halls', Board: String(board.board), Black: g.black, White: g.white });
      await until(
        () => h.room(st.service.board.identity.id)!.session.gameId === st.service.session.gameId,
        `the hub following board ${board.board}'s game`,
      );
    }
    const started = await api(h, 'api/tournament');
    for (const board of started.games as any[]) expect(board.games[0].gameId).toBe(byBoard.get(board.board)!.service.session.gameId);

    // Board 1's first game is played on its station and resigned there: the hub records it and the ballot's other side begins.
    const first = games.find((x: any) => x.board === 1);
    const st = byBoard.get(1)!;
    const firstId = st.service.session.gameId;
    oneMove(st);
    st.service.session.resign('white');
    await until(() => st.service.session.tags.Game === '2', 'the second game of the ballot pair on the station');
    expect(st.service.session.gameId).not.toBe(firstId);
    expect(st.service.session.tags).toMatchObject({ Black: first.games[1].black, White: first.games[1].white });
    await until(() => h.room(st.service.board.identity.id)!.session.gameId === st.service.session.gameId, 'the hub following game 2');
    const after = await api(h, 'api/tournament');
    const one = after.games.find((x: any) => x.board === 1);
    expect(one.games[0]).toMatchObject({ result: '1-0', gameId: firstId });
    expect(one.games[1].gameId).toBe(st.service.session.gameId);
    // The round's broadcast has the station's game with its Round and Board tags.
    const feed = await (await fetch(`${h.service!.url}broadcast/1.pdn`)).text();
    expect(feed).toContain('[Event "Two Halls"]');
    expect(feed).toContain('[Board "1"]');
    // Every game of the round, live or saved (board 1's first, resigned), with the hub's tags the station's record lacks.
    const round = readPdn(feed).games;
    expect(round.length).toBe(3);
    for (const g of round) expect(g.tags).toContainEqual(['Site', 'Hull']);
    expect(st.service.session.pdn()).not.toContain('Hull');
  });
});
