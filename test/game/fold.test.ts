// The one fold of a journal into its rules game (src/game/fold.ts): a game's
// start from its new-game record (a ballot's opening moves played), then a
// record at a time — a move (a huff with it), a takeback, a clock reading for
// the ply it follows, anything else nothing to the moves — and a record that
// does not apply throws, changing nothing.

import { describe, expect, it } from 'vitest';
import { foldRecord, gameOf, type NewGameEntry } from '../../src/game/fold.ts';
import { Game, makeFen } from '../../src/rules/index.ts';
import type { SavedClock } from '../../src/storage/journal.ts';

const start = (over: Partial<NewGameEntry> = {}): NewGameEntry => ({
  k: 'new',
  id: 'G1',
  at: 0,
  fen: makeFen(Game.standard().position),
  options: {},
  tags: {},
  ballot: null,
  moves: [],
  ...over,
});

const clock: SavedClock = {
  remaining: { black: 61_000, white: 59_000 },
  movesMade: { black: 1, white: 0 },
  period: { black: 0, white: 0 },
  nextAt: { black: null, white: null },
  flagged: null,
};

describe('the journal fold', () => {
  it('starts a game from its record, its opening moves played', () => {
    const g = gameOf(
      start({
        moves: [
          [9, 13],
          [22, 18],
        ],
      }),
    );
    expect(g.plies.map((p) => [p.move.from, ...p.move.path])).toEqual([
      [9, 13],
      [22, 18],
    ]);
    expect(g.turn).toBe('black');
  });

  it('folds a move, a clock reading after it, a takeback, and nothing for the rest', () => {
    const g = gameOf(start());
    const moved = foldRecord(g, { k: 'move', at: 1, path: [9, 13] });
    expect(moved.k === 'move' && [moved.ply.move.from, ...moved.ply.move.path]).toEqual([9, 13]);
    const read = foldRecord(g, { k: 'clock', at: 2, clock });
    expect(read.k === 'clock' && read.ply === g.plies[0] && read.clock.remaining.black).toBe(61_000);
    expect(foldRecord(g, { k: 'tags', at: 3, tags: { Black: 'Ann' } })).toEqual({ k: 'none' });
    expect(g.plies).toHaveLength(1);
    const back = foldRecord(g, { k: 'takeback', at: 4 });
    expect(back.k === 'takeback' && back.ply.move.from).toBe(9);
    expect(g.plies).toHaveLength(0);
  });

  it('refuses a move that is not legal, a takeback of nothing, and an opening that does not play, changing nothing', () => {
    const g = gameOf(start());
    const fen = makeFen(g.position);
    expect(() => foldRecord(g, { k: 'move', at: 1, path: [11, 40] })).toThrow(/journal move 11-40 is not legal/);
    expect(() => foldRecord(g, { k: 'takeback', at: 2 })).toThrow();
    expect(makeFen(g.position)).toBe(fen);
    expect(() => gameOf(start({ moves: [[9, 18]] }))).toThrow(/journal move 9-18 is not legal/);
  });
});
