// What the service keeps on disk: the journal and PDN after every move, the
// unfinished game resumed after a restart, storage failures reported loudly
// while play goes on in memory (and the recovery), and the frame recording.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/storage/journal.ts';
import { readOnePdn, readPdn } from '../../src/pdn/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { readRecording } from '../../src/tracking/recording.ts';
import { corpusMoves, playOnSim, setUp, startSimService, tempDir, until, useServices } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const services = useServices();
const start = services.watched;
const paths = (text: string) => readOnePdn(text).moves.map((m) => [m.move.from, ...m.move.path].join('-'));
const pathOf = (m: { from: number; path: readonly number[] }) => [m.from, ...m.path].join('-');

describe('storage', () => {
  it("a new game started in the same tick as the previous game's last change still gets that game's final PDN", async () => {
    const s = await start();
    const first = s.service.session.gameId;
    setUp(s.sim);
    await s.c.event('ready');
    playOnSim(s.sim, corpusMoves(1)[0]!);
    await s.c.next((m) => m.type === 'event' && m.event.type === 'move', 'the first move');
    // Both in one tick: a last change to the first game, then a new game.
    s.service.session.setTags({ Round: '7' });
    s.service.session.newGame({});
    expect(s.service.session.gameId).not.toBe(first);
    await until(
      () => existsSync(join(s.dir, `${first}.pdn`)) && readFileSync(join(s.dir, `${first}.pdn`), 'utf8').includes('[Round "7"]'),
      "the first game's final PDN",
    );
    expect(paths(readFileSync(join(s.dir, `${first}.pdn`), 'utf8'))).toHaveLength(1);
  });

  it('journals and rewrites the PDN after every move; a restart resumes the game', async () => {
    const s = await start();
    const id = s.service.session.gameId;
    const journal = join(s.dir, `${id}.journal`),
      pdn = join(s.dir, `${id}.pdn`);
    setUp(s.sim);
    await s.c.event('ready');
    const moves = corpusMoves(8);
    for (const [k, mv] of moves.slice(0, 6).entries()) {
      playOnSim(s.sim, mv);
      await s.c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === k + 1, `move ${k + 1}`);
      // the journal was fsynced before the event went out
      const entries = unwrap(parseJournal(readFileSync(journal, 'utf8'))).entries;
      expect(entries.filter((e) => e.k === 'move').map((e) => (e as { path: number[] }).path.join('-'))).toEqual(
        moves.slice(0, k + 1).map(pathOf),
      );
      await until(() => existsSync(pdn) && paths(readFileSync(pdn, 'utf8')).length === k + 1, `PDN with ${k + 1} moves`);
      expect(paths(readFileSync(pdn, 'utf8'))).toEqual(moves.slice(0, k + 1).map(pathOf));
    }
    await s.service.close();

    // The board restarts empty; the game comes back from the journal.
    const again = await start({ board: { source: new SimBoard({ clock: 'manual', seed: 9 }) }, storage: { gamesDir: s.dir } });
    expect(again.service.session.gameId).toBe(id);
    const hello = again.c.received[0];
    expect(hello.state.moves).toHaveLength(6);
    expect(hello.state.status.kind).toBe('setup');
    setUp(again.sim, again.service.session.game.position);
    await again.c.event('ready');
    playOnSim(again.sim, moves[6]);
    await again.c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 7, 'move 7');
    await until(() => paths(readFileSync(pdn, 'utf8')).length === 7, 'PDN with 7 moves');
    expect(paths(readFileSync(pdn, 'utf8'))).toEqual(moves.slice(0, 7).map(pathOf));
  });

  it('a finished game is not resumed: a restart starts a new one', async () => {
    const s = await start();
    expect((await s.c.command({ name: 'resign', side: 'white' })).type).toBe('ok');
    const id = s.service.session.gameId;
    await s.service.close();
    const again = await start({ board: { source: new SimBoard({ clock: 'manual' }) }, storage: { gamesDir: s.dir } });
    expect(again.service.session.gameId).not.toBe(id);
    expect(again.service.session.result).toBe('*');
  });

  it('reports an unwritable games directory loudly and goes on playing in memory; says so when storage works again', async () => {
    const base = tempDir();
    const blocker = join(base, 'not-a-dir');
    writeFileSync(blocker, 'a file where the games directory should be');
    const dir = join(blocker, 'games');
    const s = await start({ storage: { gamesDir: dir } });
    expect(s.service.storage().ok).toBe(false);
    const hello = s.c.received[0];
    expect(hello.server.storage.ok).toBe(false);
    expect(hello.server.storage.message).toMatch(/cannot create the games folder.*Play goes on/);
    setUp(s.sim);
    await s.c.event('ready');
    const moves = corpusMoves(3);
    for (const [k, mv] of moves.slice(0, 2).entries()) {
      playOnSim(s.sim, mv);
      await s.c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === k + 1, `move ${k + 1}`);
    }
    const cur = await (await fetch(s.service.url + 'api/current.pdn')).text();
    expect(paths(cur)).toEqual(moves.slice(0, 2).map(pathOf));
    const archive = readPdn(await (await fetch(s.service.url + 'api/archive.pdn')).text());
    expect(archive.games).toHaveLength(1);
    expect((await (await fetch(s.service.url + 'api/games')).json()).games).toEqual([]);

    // The disk comes back: the next write puts the whole journal down and says so.
    rmSync(blocker);
    mkdirSync(blocker);
    playOnSim(s.sim, moves[2]);
    const back = await s.c.next((m) => m.type === 'event' && m.event.type === 'storage' && m.event.ok === true, 'storage recovered');
    expect(back.event.say).toMatch(/saved in .* again/);
    await s.c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 3, 'move 3');
    expect(s.service.storage().ok).toBe(true);
    const journal = join(dir, `${s.service.session.gameId}.journal`);
    const entries = unwrap(parseJournal(readFileSync(journal, 'utf8'))).entries;
    expect(entries[0].k).toBe('new');
    expect(entries.filter((e) => e.k === 'move')).toHaveLength(3);
    await until(() => existsSync(join(dir, `${s.service.session.gameId}.pdn`)), 'the PDN file');
  });

  it('records the raw frames and the new games', async () => {
    const file = join(tempDir(), 'session.rec');
    const s = await start({ board: { record: file } });
    setUp(s.sim);
    await s.c.event('ready');
    playOnSim(s.sim, corpusMoves(1)[0]);
    await s.c.event('move');
    expect((await s.c.command({ name: 'new-game', firstPlayer: 'white' })).type).toBe('ok');
    await s.service.close();
    const items = [...readRecording(readFileSync(file, 'utf8'))];
    expect(items[0]).toMatchObject({ kind: 'header', header: { board: 'sim', id: 'SIM' } });
    const frames = items.filter((i) => i.kind === 'frame');
    expect(frames.length).toBeGreaterThan(100);
    const games = items.filter((i) => i.kind === 'new-game');
    expect(games).toHaveLength(2);
    expect((games[1] as { fen: string }).fen.startsWith('W:')).toBe(true);
  });
});
