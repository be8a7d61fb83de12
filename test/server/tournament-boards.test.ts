// A tournament's word reaching its boards: the tournament's
// own time control and rules (no hints, no evaluation bar, no takeback but
// the arbiter's) on every board's game when its round starts, on a service
// started without --time-control or --tournament; an arbiter's result set in
// the tournament reaching the game's PDN ([Result] and the result token), its
// saved record and /broadcast.pdn together with the standings — for the game
// still on its board and for one the board has moved on from; and the edit
// call taking the change with or without its {"change": …} wrapper, bad input
// refused with a 400 naming the problem.

import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { legalMoves, parseFen } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { startService, type Service } from '../../src/server/service.ts';
import { playOnSim, post, removeTempDirs, setUp, tempDir, until } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const running: Service[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
  removeTempDirs();
});

async function api(s: Service, path: string, body?: unknown): Promise<any> {
  const res = body === undefined ? await fetch(s.url + path) : await post(s.url + path, body);
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function club(ids: string[], settings: Record<string, unknown>): Promise<{ s: Service; sims: SimBoard[] }> {
  const sims = ids.map((id, i) => new SimBoard({ clock: 'manual', seed: 60 + i, id }));
  const s = await startService({
    club: { sources: sims },
    storage: { gamesDir: join(tempDir(), 'games') },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  running.push(s);
  await api(s, 'api/tournament', { settings: { id: 't40', name: 'Club Night', system: 'round-robin', rounds: 3, seed: 3, ...settings } });
  for (const name of ['Ann', 'Bo', 'Cy', 'Di']) await api(s, 'api/tournament/players', { name });
  await api(s, 'api/tournament/pair', {});
  await api(s, 'api/tournament/start-round', {});
  return { s, sims };
}

const command = (s: Service, id: string, c: object) => post(`${s.url}boards/${id}/api/command`, c);

/** One legal move on the board's game, carried out on its simulated board. */
function oneMove(s: Service, sim: SimBoard): void {
  const room = s.rooms.find((r) => r.board!.source === sim)!;
  const pos = unwrap(parseFen(room.session.snapshot().fen));
  setUp(sim, pos);
  playOnSim(sim, legalMoves(pos)[0]!);
  expect(room.session.snapshot().moves.length).toBeGreaterThan(0);
}

const standingOf = async (s: Service, name: string) =>
  ((await api(s, 'api/tournament')).standings as any[]).find((x) => x.name === name).points as number;

describe('a tournament’s settings on its boards', () => {
  it('sets its time control and tournament rules on each board’s game at round start, without --time-control or --tournament', async () => {
    const { s, sims } = await club(['TC1', 'TC2'], { ballots: 'none', timeControl: '5m+3s' });
    for (const [i, room] of s.rooms.entries()) {
      const snap = room.session.snapshot();
      expect(snap.tags.Round).toBe('1');
      expect(snap.tags.TimeControl).toBe('300+3');
      expect(snap.clock).not.toBeNull();
      expect(snap.options.tournament).toBe(true);
      const id = `TC${i + 1}`;
      const hint = await command(s, id, { name: 'hint' });
      expect(hint.status).toBe(409);
      expect((await hint.json()).message).toMatch(/no hints in tournament mode/);
      const evaluation = await command(s, id, { name: 'evaluation', on: true });
      expect(evaluation.status).toBe(409);
      expect((await evaluation.json()).message).toMatch(/no evaluation bar in tournament mode/);
      oneMove(s, sims[i]!);
      const takeback = await command(s, id, { name: 'takeback' });
      expect(takeback.status).toBe(409);
      expect((await takeback.json()).message).toMatch(/takebacks are not allowed in tournament mode/);
      // The arbiter may still take a move back (a correction, journalled with who and why).
      expect((await command(s, id, { name: 'correct', correction: { kind: 'delete-moves', ply: 0 }, reason: 'touch-move' })).status).toBe(
        200,
      );
      expect(room.session.snapshot().moves).toHaveLength(0);
      // The game's record carries the time control.
      expect(room.session.pdn()).toMatch(/\[TimeControl "300\+3"\]/);
    }
  });

  it('refuses a time control it cannot read, naming it', async () => {
    const sims = [new SimBoard({ clock: 'manual', id: 'TX1' }), new SimBoard({ clock: 'manual', id: 'TX2' })];
    const s = await startService({
      club: { sources: sims },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    running.push(s);
    const r = await post(s.url + 'api/tournament', {
      settings: { id: 'bad', name: 'Bad', system: 'swiss', rounds: 3, ballots: 'none', seed: 1, timeControl: 'five minutes' },
    });
    expect(r.status).toBe(400);
    expect((await r.json()).message).toMatch(/time control "five minutes"/);
  });
});

describe('a result corrected in the tournament', () => {
  it('changes the standings, the game’s PDN and /broadcast.pdn together (the game still on its board)', async () => {
    const { s, sims } = await club(['CR1', 'CR2'], { ballots: 'none' });
    const room = s.rooms[0]!;
    const { games } = await api(s, 'api/tournament');
    const g = games[0].games[0];
    oneMove(s, sims[0]!);
    // The board's result: White resigns, 1-0.
    expect((await command(s, 'CR1', { name: 'resign', side: 'white' })).status).toBe(200);
    await until(() => room.session.result === '1-0', 'the board’s result');
    const before = await fetch(s.url + 'broadcast.pdn');
    const etag = before.headers.get('etag')!;
    expect(await before.text()).toMatch(/\[Result "1-0"\]/);
    expect(await standingOf(s, g.black)).toBe(1);
    // A long poll waiting on the broadcast is woken by the correction.
    const polled = fetch(s.url + 'broadcast.pdn', { headers: { 'If-None-Match': etag } });
    await api(s, 'api/tournament/edit', {
      change: { t: 'set-result', round: 1, board: 1, game: 1, result: '0-1', reason: 'the arbiter saw White win on time' },
      by: 'TD',
    });
    expect(await standingOf(s, g.black)).toBe(0);
    expect(await standingOf(s, g.white)).toBe(1);
    const pdn = room.session.pdn();
    expect(pdn).toMatch(/\[Result "0-1"\]/);
    expect(pdn.trimEnd()).toMatch(/ 0-1$/);
    expect(pdn.replace(/\s+/g, ' ')).toMatch(/the arbiter saw White win on time/);
    const woke = await polled;
    expect(woke.status).toBe(200);
    const cast = await woke.text();
    expect(cast).toMatch(/\[Result "0-1"\]/);
    expect(cast).not.toMatch(/\[Result "1-0"\]/);
    await until(() => room.store.pdnExists(room.session.gameId), 'the saved record');
    await until(() => /\[Result "0-1"\]/.test(String(readSaved(room))), 'the saved record corrected');
  });

  it('reaches the saved record and the broadcast of a game its board has moved on from', async () => {
    const { s, sims } = await club(['CS1', 'CS2'], { ballots: 'acf' });
    const room = s.rooms[0]!;
    const first = room.session.gameId;
    oneMove(s, sims[0]!);
    expect((await command(s, 'CS1', { name: 'resign', side: 'black' })).status).toBe(200);
    // The other side of the ballot starts on the board.
    await until(() => room.session.gameId !== first && room.session.tags.Game === '2', 'game 2 of the pairing');
    const { games } = await api(s, 'api/tournament');
    const g1 = games[0].games[0];
    expect(await standingOf(s, g1.white)).toBe(1);
    const etag = (await fetch(s.url + 'broadcast.pdn')).headers.get('etag')!;
    const res = await post(s.url + 'api/tournament/edit', {
      change: { t: 'set-result', round: 1, board: 1, game: 1, result: '1/2-1/2', reason: 'a draw was agreed before the resignation' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await standingOf(s, g1.white)).toBe(0.5);
    const saved = (await room.store.readPdn(first)) ?? '';
    expect(saved).toMatch(/\[Result "1\/2-1\/2"\]/);
    expect(saved.trimEnd()).toMatch(/ 1\/2-1\/2$/);
    expect(saved.replace(/\s+/g, ' ')).toMatch(/a draw was agreed before the resignation/);
    const cast = await fetch(s.url + 'broadcast.pdn');
    expect(cast.headers.get('etag')).not.toBe(etag);
    const text = await cast.text();
    expect(text).toMatch(/\[Game "1"\][\s\S]*?\[Result "1\/2-1\/2"\]|\[Result "1\/2-1\/2"\][\s\S]*?\[Game "1"\]/);
    expect(await (await fetch(s.url + 'broadcast/1.pdn')).text()).toMatch(/\[Result "1\/2-1\/2"\]/);
  });
});

describe('the edit call', () => {
  it('takes the change bare or wrapped, and answers bad input with a 400 naming the problem', async () => {
    const { s } = await club(['ED1', 'ED2'], { ballots: 'none' });
    const wrapped = await post(s.url + 'api/tournament/edit', { change: { t: 'rename-player', player: 1, name: 'Annie' } });
    expect(wrapped.status).toBe(200);
    const bare = await post(s.url + 'api/tournament/edit', { t: 'rename-player', player: 2, name: 'Bob', by: 'TD' });
    expect(bare.status).toBe(200);
    const names = (await api(s, 'api/tournament')).tournament.players.map((p: any) => p.name);
    expect(names.slice(0, 2)).toEqual(['Annie', 'Bob']);
    const empty = await post(s.url + 'api/tournament/edit', {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/no change: send the change/);
    const noReason = await post(s.url + 'api/tournament/edit', { t: 'set-result', round: 1, board: 1, game: 1, result: '1-0' });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).message).toBe('not a tournament event: reason is missing');
    const unknown = await post(s.url + 'api/tournament/edit', { change: { t: 'forfeit', round: 1 } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toMatch(/t: no such change \("forfeit"\): one of set-result, withdraw-player/);
    const badSettings = await post(s.url + 'api/tournament', { name: 'no settings' });
    expect(badSettings.status).toBe(400);
    expect((await badSettings.json()).message).toMatch(/settings/);
  });
});

function readSaved(room: Service['rooms'][number]): string | null {
  return readFileSync(join(room.store.dir, `${room.session.gameId}.pdn`), 'utf8');
}
