// The tournament survives kill -9: `crownhead serve
// --sim-boards 2` in a child process runs a four-player round robin with
// ballot pairs, the players' hands driving the simulated boards through the
// page's commands; the process is killed (SIGKILL) in the middle of round 2,
// with a move on board 1, started again on the same games folder, and the
// tournament is finished: the round resumes where it was (board 1's game with
// its move), nothing acknowledged is lost, and the standings add up.

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { legalMoves, parseFen } from '../../src/rules/index.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const ROOT = join(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  removeTempDirs();
});

/** `crownhead serve --sim-boards 2` on a free port; resolves with its address once it says it is ready. */
function serve(games: string): Promise<{ url: string; child: ChildProcess }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/crownhead.js'), 'serve', '--sim-boards', '2', '--games', games, '--port', '0', '--log-level', 'warn'],
    {
      env: clean,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /Crownhead is ready: open (http:\/\/\S+) in a browser/.exec(err);
      if (m) resolve({ url: m[1]!.replace(/\?.*$/, ''), child });
    });
    child.stdout!.resume();
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready: ${err}`)));
  });
}

async function call(url: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(
    url + path,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const state = (url: string, board: string) => call(url, `boards/${board}/api/state`);
const command = (url: string, board: string, c: object) => call(url, `boards/${board}/api/command`, c);

/** The hand: the game's position put on the board, then one legal move, lifted and put down. Resolves with the game's moves after it. */
async function oneMove(url: string, board: string): Promise<number> {
  const s0 = await state(url, board);
  await command(url, board, { name: 'hand-setup' });
  await until(
    `board ${board} in sync`,
    () => state(url, board),
    (s) => s.status.kind === 'in-sync',
  );
  const m = legalMoves(unwrap(parseFen(s0.fen)))[0]!;
  await command(url, board, { name: 'hand', action: 'lift', square: m.from });
  await new Promise((r) => setTimeout(r, 150));
  await command(url, board, { name: 'hand', action: 'place', square: m.to });
  for (const c of m.captures) await command(url, board, { name: 'hand', action: 'lift', square: c });
  const s = await until(
    `a move on board ${board}`,
    () => state(url, board),
    (s) => s.moves.length === s0.moves.length + 1,
  );
  return s.moves.length;
}

/** The planned ending of a game, by round, board and game. */
const resultOf = (round: number, board: number, game: number) => (['0-1', '1-0', '1/2-1/2'] as const)[(round * 2 + board + game) % 3]!;

async function finish(url: string, board: string, result: string): Promise<void> {
  if (result === '1/2-1/2') {
    await command(url, board, { name: 'offer-draw', side: 'black' });
    await command(url, board, { name: 'accept-draw', side: 'white' });
  } else await command(url, board, { name: 'resign', side: result === '1-0' ? 'white' : 'black' });
}

/** Plays every unfinished game of the current round on its board, in order (game 2 of a ballot pair follows game 1 there). */
async function playRound(url: string, round: number): Promise<void> {
  const { games } = await call(url, 'api/tournament');
  for (const b of games) {
    const board = `SIM-${b.board}`;
    for (const g of b.games) {
      if (g.result !== '*') continue;
      const s = await until(
        `round ${round} game ${g.game} on ${board}`,
        () => state(url, board),
        (s) => s.tags.Round === String(round) && s.tags.Game === String(g.game),
      );
      if (s.moves.length <= 3) await oneMove(url, board);
      await finish(url, board, resultOf(round, b.board, g.game));
    }
  }
  await until(
    `round ${round} complete`,
    () => call(url, 'api/tournament'),
    (t) => t.games.every((b: any) => b.games.every((g: any) => g.result !== '*')),
  );
}

describe('a tournament through kill -9', () => {
  it('is killed in the middle of round 2 and finished with nothing lost', async () => {
    const games = join(tempDir(), 'games');
    let { url, child } = await serve(games);
    await call(url, 'api/tournament', {
      settings: { id: 'night', name: 'Night', system: 'round-robin', rounds: 3, ballots: 'acf', seed: 9 },
    });
    for (const name of ['Ann', 'Bo', 'Cy', 'Di']) await call(url, 'api/tournament/players', { name });
    await call(url, 'api/tournament/pair', {});
    await call(url, 'api/tournament/start-round', {});
    await playRound(url, 1);
    await call(url, 'api/tournament/pair', {});
    await call(url, 'api/tournament/start-round', {});
    // Round 2: a move on board 1, a finished game on board 2, then the power goes.
    const before1 = await state(url, 'SIM-1');
    const played = await oneMove(url, 'SIM-1'); // the ballot's opening moves and one more
    await until(
      'round 2 on SIM-2',
      () => state(url, 'SIM-2'),
      (s) => s.tags.Round === '2',
    );
    await oneMove(url, 'SIM-2');
    await finish(url, 'SIM-2', resultOf(2, 2, 1));
    await until(
      'the result noted',
      () => call(url, 'api/tournament'),
      (t) => t.games[1].games[0].result !== '*',
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    ({ url, child } = await serve(games));
    const t = await call(url, 'api/tournament');
    expect(t.round).toBe(2);
    expect(t.games[1].games[0].result).toBe(resultOf(2, 2, 1));
    const s1 = await state(url, 'SIM-1');
    expect(s1.gameId).toBe(before1.gameId);
    expect(s1.moves).toHaveLength(played);
    expect(played).toBe(before1.moves.length + 1);
    expect(s1.tags).toMatchObject({ Event: 'Night', Round: '2', Board: '1', Game: '1' });
    await playRound(url, 2);
    await call(url, 'api/tournament/pair', {});
    await call(url, 'api/tournament/start-round', {});
    await playRound(url, 3);
    const end = await call(url, 'api/tournament');
    const points = new Map<string, number>();
    for (const r of end.tournament.played)
      for (const p of r.pairings)
        for (const g of p.games) {
          const names = end.tournament.players;
          const [b, w] = [names[g.black - 1].name, names[g.white - 1].name];
          const [pb, pw] = g.result === '1-0' ? [1, 0] : g.result === '0-1' ? [0, 1] : [0.5, 0.5];
          points.set(b, (points.get(b) ?? 0) + pb);
          points.set(w, (points.get(w) ?? 0) + pw);
          expect(g.result).toBe(resultOf(r.round, p.board, g.game));
        }
    for (const st of end.standings) expect(st.points).toBe(points.get(st.name));
    expect([...points.values()].reduce((a, b) => a + b, 0)).toBe(12);
  }, 240_000);
});
