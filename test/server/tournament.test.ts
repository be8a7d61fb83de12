// A tournament on simulated boards: four players,
// a round robin with ACF ballot pairs, played to the end through the service —
// the arbiter creates it, adds the players, pairs and starts each round over
// HTTP; the boards play, each game's end is the board's result and the other
// side of the ballot follows on the same board; results, standings and
// crosstable come out right; every game is one PDN with its Event, Round,
// Board, players and ballot; the round's broadcast holds them all.

import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { legalMoves, parseFen } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { startService, type Service } from '../../src/server/service.ts';
import { TournamentView } from '../../src/protocol/tournament-v1.ts';
import { playOnSim, post, removeTempDirs, setUp, tempDir } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const running: Service[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  removeTempDirs();
});

const PLAYERS = ['Ann', 'Bo', 'Cy', 'Di'];
const tick = () => new Promise((r) => setImmediate(r));

/** The result each game gets: by its round, board and game number (a resignation either way, or a draw). */
function outcomeOf(round: number, board: number, game: number): '1-0' | '0-1' | '1/2-1/2' {
  return (['0-1', '1-0', '1/2-1/2'] as const)[(round + board + game) % 3]!;
}

async function api(s: Service, path: string, body?: unknown): Promise<any> {
  const res = body === undefined ? await fetch(s.url + path) : await post(s.url + path, body);
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Plays the board's current game: its start position set on the sim, one legal move, then the planned ending. */
async function playGame(s: Service, sim: SimBoard, result: '1-0' | '0-1' | '1/2-1/2'): Promise<void> {
  const room = s.rooms.find((r) => r.board!.source === sim)!;
  const pos = unwrap(parseFen(room.session.snapshot().fen));
  setUp(sim, pos);
  playOnSim(sim, legalMoves(pos)[0]!);
  expect(room.session.snapshot().moves.length).toBeGreaterThan(0);
  const c = (command: object) => api(s, `boards/${room.board!.identity.id}/api/command`, command);
  if (result === '1/2-1/2') {
    await c({ name: 'offer-draw', side: 'black' });
    await c({ name: 'accept-draw', side: 'white' });
  } else await c({ name: 'resign', side: result === '1-0' ? 'white' : 'black' });
  await tick();
  await tick();
}

describe('a tournament on simulated boards', () => {
  it('a four-player round robin with ballot pairs, played to the end: results, standings, crosstable, PDN', async () => {
    const sims = [1, 2].map((i) => new SimBoard({ clock: 'manual', seed: 40 + i, id: `T${i}` }));
    const s = await startService({
      club: { sources: sims },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    await api(s, 'api/tournament', {
      settings: { id: 'club-night', name: 'Club Night', system: 'round-robin', rounds: 3, ballots: 'acf', seed: 5 },
      by: 'TD',
    });
    for (const name of PLAYERS) await api(s, 'api/tournament/players', { name });
    const points = new Map(PLAYERS.map((p) => [p, 0]));
    const pdns: string[] = [];
    for (let round = 1; round <= 3; round++) {
      await api(s, 'api/tournament/pair', {});
      const { games } = await api(s, 'api/tournament');
      expect(games).toHaveLength(2);
      await api(s, 'api/tournament/start-round', {});
      for (const b of games as any[]) {
        const sim = sims[b.board - 1]!;
        const room = s.rooms[b.board - 1]!;
        for (const g of b.games) {
          // The board is playing exactly this game: its tags say so.
          const tags = room.session.snapshot().tags;
          expect(tags).toMatchObject({
            Event: 'Club Night',
            Round: String(round),
            Board: String(b.board),
            Black: g.black,
            White: g.white,
            Game: String(g.game),
          });
          expect(tags.Ballot).toMatch(/^ACF \d+/);
          const result = outcomeOf(round, b.board, g.game);
          const id = room.session.gameId;
          await playGame(s, sim, result);
          pdns.push(room.session.gameId === id ? room.session.pdn() : ((await room.store.readPdn(id)) ?? ''));
          const [pb, pw] = result === '1-0' ? [1, 0] : result === '0-1' ? [0, 1] : [0.5, 0.5];
          points.set(g.black, points.get(g.black)! + pb);
          points.set(g.white, points.get(g.white)! + pw);
        }
      }
      const after = await api(s, 'api/tournament');
      expect(after.games.flatMap((b: any) => b.games.map((g: any) => g.result))).toEqual(
        after.games.flatMap((b: any) => b.games.map((g: any) => outcomeOf(round, b.board, g.game))),
      );
      // The round's broadcast holds its four games with their Round and Board tags.
      const feed = await (await fetch(`${s.url}broadcast/${round}.pdn`)).text();
      expect(feed.match(/\[Round "(\d)"\]/g)).toEqual(Array(4).fill(`[Round "${round}"]`));
    }
    // Every pair met once, with both sides of one ballot.
    const view = await api(s, 'api/tournament');
    // The answer is the protocol's shape, field for field, as the arbiter's panel reads it.
    expect(TournamentView.safeParse(view).error?.issues).toBeUndefined();
    const { standings, tournament } = view;
    for (const st of standings) {
      expect(st.points).toBe(points.get(st.name));
      expect(st.played).toBe(6);
    }
    expect(tournament.played).toHaveLength(3);
    const csv = await (await fetch(s.url + 'api/tournament/crosstable.csv')).text();
    for (const p of PLAYERS) expect(csv).toMatch(new RegExp(`${p}.*${String(points.get(p)).replace('.', '\\.')}`));
    expect(await (await fetch(s.url + 'api/tournament/crosstable.html')).text()).toMatch(/<table/);
    expect(pdns).toHaveLength(12);
    for (const text of pdns) expect(text).toMatch(/\[Event "Club Night"\][\s\S]*\[Round "\d"\][\s\S]*\[Board "\d"\]/);
  });

  it('refuses what the arbiter cannot do yet, naming it', async () => {
    const s = await startService({
      club: { sources: [1, 2].map((i) => new SimBoard({ clock: 'manual', id: `R${i}` })) },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    const start = await post(s.url + 'api/tournament/start-round', {});
    expect(start.status).toBe(400);
    expect((await start.json()).message).toMatch(/there is no tournament: create one first/);
    expect((await fetch(s.url + 'api/tournament')).status).toBe(404);
  });

  // A list naming a board the room does not have was accepted, and that round could never be started or finished.
  it('refuses a pairing list or a hand pairing on a board that is not here, naming it and the boards that are', async () => {
    const s = await startService({
      club: { sources: [1, 2].map((i) => new SimBoard({ clock: 'manual', id: `L${i}` })) },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    await api(s, 'api/tournament', { settings: { id: 'lists', name: 'Lists', system: 'list', rounds: 2, ballots: 'none', seed: 1 } });
    for (const name of PLAYERS) await api(s, 'api/tournament/players', { name });
    const list = ['round,board,white,black', '1,1,Ann,Bo', '1,999999999,Cy,Di'].join('\n');
    const pair = await post(s.url + 'api/tournament/pair', { list });
    expect(pair.status).toBe(400);
    expect((await pair.json()).message).toBe('line 3: there is no board 999999999 here: the boards are 1 and 2');
    const byHand = await post(s.url + 'api/tournament/edit', {
      change: { t: 'pair-round', round: 1, bye: null, pairings: [{ board: 999999999, black: 1, white: 2, ballot: null }] },
    });
    expect(byHand.status).toBe(400);
    expect((await byHand.json()).message).toBe('round 1: there is no board 999999999 here: the boards are 1 and 2');
    expect((await api(s, 'api/tournament')).round).toBe(0);
    // The same list on the boards that are here pairs the round.
    await api(s, 'api/tournament/pair', { list: list.replace('999999999', '2') });
    expect((await api(s, 'api/tournament')).games.map((b: any) => b.board)).toEqual([1, 2]);
  });

  // A board here starts its game at once; a tournament that cannot note it (its journal refused the change: a full disk) is
  // said to the arbiter who started the round, not only logged.
  it('a round whose game the tournament cannot note as begun answers why', async () => {
    const s = await startService({
      club: { sources: [1, 2].map((i) => new SimBoard({ clock: 'manual', id: `F${i}` })) },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    await api(s, 'api/tournament', { settings: { id: 'full', name: 'Full', system: 'round-robin', rounds: 1, ballots: 'none', seed: 1 } });
    for (const name of PLAYERS) await api(s, 'api/tournament/players', { name });
    await api(s, 'api/tournament/pair', {});
    s.director!.tournament!.startGame = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const start = await post(s.url + 'api/tournament/start-round', {});
    expect(start.status).toBe(500);
    expect(await start.json()).toMatchObject({ ok: false, code: 'disk-full', message: expect.stringMatching(/was not made: ENOSPC/) });
  });
});
