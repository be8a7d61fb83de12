// The table is the game's one writer: the tracker decides on a read-only view
// of the game and hands each move (a change of mind, a takeback) to the table,
// which journals it before the game changes. Played by hand on the simulated
// board, with a real GameTable as the tracker's writer.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { Game, type Move, type ReadonlyGame } from '../../src/rules/index.ts';
import { GameTable } from '../../src/game/table.ts';
import { GameSession } from '../../src/game/session.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { gameIds } from '../../src/game/ids.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import type { BoardTracking } from '../../src/tracking/board-tracking.ts';
import { Table } from '../harness/table.ts';

/** A table journalling into a list (with the game's ply count when each entry was written), and a board tracked with it as the writer. */
async function rig(): Promise<{ t: Table; table: GameTable; journal: { entry: JournalEntry; plies: number }[] }> {
  const journal: { entry: JournalEntry; plies: number }[] = [];
  const table: GameTable = new GameTable({
    now: () => 0,
    tournament: false,
    tags: {},
    journal: (entry) => journal.push({ entry, plies: table.game.plies.length }),
    emit: () => undefined,
    newId: gameIds(0),
  });
  const game = Game.standard();
  table.install('g1', game, {}, null);
  const t = new Table({ game, writer: table });
  await t.open();
  t.setUp();
  expect(t.tracker.phase).toBe('play');
  return { t, table, journal };
}

const move = (g: ReadonlyGame, from: number, to: number): Move => g.legalMoves().find((m) => m.from === from && m.to === to)!;
const moves = (g: ReadonlyGame) => g.plies.map((p) => `${p.move.from}-${p.move.to}`);

describe('the table is the only writer of the game', () => {
  it("the tracker's game is read-only: no play, undo or huffAndPlay on its type", () => {
    expectTypeOf<BoardTracking['currentGame']>().toEqualTypeOf<ReadonlyGame>();
    expectTypeOf<GameTable['game']>().toEqualTypeOf<ReadonlyGame>();
    expectTypeOf<ReadonlyGame>().not.toHaveProperty('play');
    expectTypeOf<ReadonlyGame>().not.toHaveProperty('undo');
    expectTypeOf<ReadonlyGame>().not.toHaveProperty('huffAndPlay');
    expectTypeOf<ReadonlyGame>().not.toHaveProperty('setOutcome');
  });

  it('a move seen on the board is journalled before it is played, by the table, on the one game both read', async () => {
    const { t, table, journal } = await rig();
    t.play(move(table.game, 11, 15));
    t.wait(400);
    t.play(move(table.game, 22, 18));
    t.wait(400);
    expect(moves(table.game)).toEqual(['11-15', '22-18']);
    expect(t.tracker.currentGame).toBe(table.game);
    expect(journal.map((j) => [j.entry.k, j.plies])).toEqual([
      ['move', 0],
      ['move', 1],
    ]);
    expect(journal.map((j) => (j.entry.k === 'move' ? j.entry.path : null))).toEqual([
      [11, 15],
      [22, 18],
    ]);
  });

  it('a change of mind and a takeback on the board go through the table too: journalled, then done', async () => {
    const { t, table, journal } = await rig();
    t.play(move(table.game, 11, 15));
    t.wait(300);
    // Change of mind: 11-15 becomes 11-16.
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(16);
    t.wait(300);
    expect(moves(table.game)).toEqual(['11-16']);
    // Takeback: the man goes back to 11.
    t.sim.lift(16);
    t.wait(200);
    t.sim.place(11);
    t.wait(300);
    expect(moves(table.game)).toEqual([]);
    expect(t.of('takeback')).toHaveLength(1);
    expect(journal.map((j) => [j.entry.k, j.plies])).toEqual([
      ['move', 0],
      ['takeback', 1],
      ['move', 0],
      ['takeback', 1],
    ]);
  });

  it('in the session the table is the writer: a move made on the board is in the journal before the game has it, then announced', async () => {
    const log: string[] = [];
    const s: GameSession = new GameSession({ now: () => 0, journal: (e) => log.push(`${e.k} @${s.game.plies.length}`) });
    s.on((e) => {
      if (e.type === 'move') log.push(`announced @${s.game.plies.length}`);
    });
    const sim = new SimBoard({ seed: 1, startPosition: true });
    sim.onFrame((f) => s.pushFrame(f.t, f.readings));
    await sim.open();
    s.boardStatus(true, 'sim', '');
    sim.advance(1500);
    expect(s.tracker.phase).toBe('play');
    sim.lift(11);
    sim.advance(150);
    sim.place(15);
    sim.advance(500);
    expect(moves(s.game)).toEqual(['11-15']);
    expect(s.tracker.currentGame).toBe(s.game);
    expect(log).toEqual(['move @0', 'announced @1']);
    await sim.close();
  });

  it('the table refuses an illegal move without journalling it, and a takeback with nothing to take back', () => {
    const journal: JournalEntry[] = [];
    const table = new GameTable({
      now: () => 0,
      tournament: false,
      tags: {},
      journal: (e) => journal.push(e),
      emit: () => undefined,
      newId: gameIds(0),
    });
    table.newGame({}, null);
    const before = journal.length;
    expect(() => table.play({ from: 11, to: 18, path: [18], captures: [], crowned: false })).toThrow(/not legal/);
    expect(() => table.undo()).toThrow(/no move to take back/);
    expect(journal.length).toBe(before);
    expect(table.game.plies).toHaveLength(0);
  });
});
