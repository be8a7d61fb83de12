// The room as a unit (src/server/room.ts): one board's source, session,
// journal and pages, made without the HTTP server. Two rooms live side by side
// in one process (what club mode will need): each plays its own game on its
// own board into its own folder, and closing one releases only its folder.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Access } from '../../src/server/access.ts';
import { Room, type RoomOptions } from '../../src/server/room.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { removeTempDirs, setUp, tempDir, playOnSim, corpusMoves } from './helpers.ts';

const logger = pino({ level: 'silent' });
const noEngine = { logger, think: () => Promise.reject(new Error('no engine in this test')), stopThinking: () => {} };
const opened: Room[] = [];
afterEach(async () => {
  for (const r of opened.splice(0)) await r.close();
  removeTempDirs();
});

async function room(opts: Partial<RoomOptions> = {}): Promise<{ room: Room; sim: SimBoard; dir: string }> {
  const sim = new SimBoard({ clock: 'manual', seed: 3 });
  const dir = join(tempDir(), 'games');
  const r = await Room.open({ board: { source: sim }, storage: { gamesDir: dir }, ...opts }, noEngine);
  opened.push(r);
  return { room: r, sim, dir };
}

describe('room', () => {
  it('two rooms in one process play their own games into their own folders', async () => {
    const a = await room({ game: { tags: { Event: 'Table A' } } });
    const b = await room({ game: { tags: { Event: 'Table B' } } });
    expect(a.room.session.gameId).not.toBe(b.room.session.gameId);
    setUp(a.sim);
    setUp(b.sim);
    const [first] = corpusMoves(1);
    playOnSim(a.sim, first!);
    expect(a.room.session.game.plies).toHaveLength(1);
    expect(b.room.session.game.plies).toHaveLength(0);
    const ctxB = b.room.context(new Access({ host: '127.0.0.1' }));
    expect(ctxB.info()).toMatchObject({ name: 'crownhead', sim: true, source: 'sim', gamesDir: b.dir });
    ctxB.command({ name: 'set-tags', tags: { Round: '2' } });
    expect(b.room.session.tags).toMatchObject({ Event: 'Table B', Round: '2' });
    expect(a.room.session.tags.Round).toBeUndefined();
    expect(readdirSync(a.dir).filter((f) => f.endsWith('.journal'))).toEqual([`${a.room.session.gameId}.journal`]);
    expect(readdirSync(b.dir).filter((f) => f.endsWith('.journal'))).toEqual([`${b.room.session.gameId}.journal`]);
  });

  it('closing a room releases its folder: a new room resumes its game there', async () => {
    const a = await room();
    setUp(a.sim);
    playOnSim(a.sim, corpusMoves(1)[0]!);
    const id = a.room.session.gameId;
    await a.room.close();
    const again = await Room.open(
      { board: { source: new SimBoard({ clock: 'manual', seed: 4 }) }, storage: { gamesDir: a.dir } },
      noEngine,
    );
    opened.push(again);
    expect(again.session.gameId).toBe(id);
    expect(again.session.game.plies).toHaveLength(1);
  });

  it('a room that cannot open its board closes what it opened (the folder is free again)', async () => {
    const dir = join(tempDir(), 'games');
    const broken = new SimBoard({ clock: 'manual' });
    broken.open = () => Promise.reject(new Error('no board here'));
    await expect(Room.open({ board: { source: broken }, storage: { gamesDir: dir } }, noEngine)).rejects.toThrow('no board here');
    const next = await Room.open({ board: { source: new SimBoard({ clock: 'manual' }) }, storage: { gamesDir: dir } }, noEngine);
    opened.push(next);
    expect(next.board?.description).toMatch(/^simulated board/);
  });
});
