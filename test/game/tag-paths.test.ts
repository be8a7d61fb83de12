// every path that sets a game's tags goes through one
// validator. The tags the record derives from the game (Result, FEN, SetUp,
// GameType) were refused by set-tags but taken by a new game, so the PDN got
// them twice and the saved record could not be read back.

import { describe, expect, it } from 'vitest';
import { GameSession } from '../../src/game/session.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { readPdn } from '../../src/pdn/index.ts';

const RESERVED = [
  ['FEN', 'W:W18:B14'],
  ['SetUp', '1'],
  ['Result', '1-0'],
  ['GameType', '21'],
  ['fen', 'B:W18:B14'],
] as const;

/** The errors the PDN reader (and `crownhead pdn check`) finds in a record. */
const pdnErrors = (text: string) => readPdn(text).errors.map((e) => e.message);

describe('one tag validator for every path', () => {
  it.each(RESERVED)('a new game refuses the tag %s, like set-tags, and the game in play stays', (name, value) => {
    const s = new GameSession({ now: () => 0 });
    s.newGame({});
    const id = s.gameId;
    expect(() => s.newGame({ tags: { [name]: value } })).toThrow(/set by the game/);
    expect(() => s.setTags({ [name]: value })).toThrow(/set by the game/);
    expect(s.gameId).toBe(id);
    expect(pdnErrors(s.pdn())).toEqual([]);
  });

  it("the service's tags for new games are checked too", () => {
    expect(() => new GameSession({ tags: { Result: '1-0' } })).toThrow(/set by the game/);
    expect(() => new GameSession({ tags: { Event: 'a\nb' } })).toThrow(/line breaks/);
    expect(() => new GameSession({ tags: { Black: 'x'.repeat(81) } })).toThrow(/at most 80/);
  });

  it('a new game takes the same limits as set-tags (names, control characters, length)', () => {
    const s = new GameSession({ now: () => 0 });
    s.newGame({});
    expect(() => s.newGame({ tags: { '1x': 'a' } })).toThrow(/not a tag name/);
    expect(() => s.newGame({ tags: { Site: 'a\nb' } })).toThrow(/line breaks/);
    expect(() => s.newGame({ tags: { White: 'w'.repeat(81) } })).toThrow(/at most 80 characters/);
    s.newGame({ tags: { Black: 'Ann', Event: 'Club night' } });
    expect(s.tags).toMatchObject({ Black: 'Ann', Event: 'Club night' });
  });

  it('a game restored from a journal that holds such tags (written by an older version) gets a readable record', () => {
    const fen = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
    const entries: JournalEntry[] = [
      { k: 'new', id: 'g1', at: 1, fen, options: {}, tags: { Event: 'E', FEN: 'W:W18:B14', SetUp: '1' }, ballot: null, moves: [] },
      { k: 'move', at: 2, path: [11, 15] },
      { k: 'tags', at: 3, tags: { Event: 'E', FEN: 'W:W18:B14', SetUp: '1', Result: '0-1', Black: 'Ann' } },
    ];
    const s = new GameSession({ now: () => 0 });
    s.restore(entries);
    expect(s.tags).toEqual({ Event: 'E', Black: 'Ann' });
    const text = s.pdn();
    expect(pdnErrors(text)).toEqual([]);
    expect(readPdn(text).games[0].moves).toHaveLength(1);
    expect(text.match(/\[FEN /g) ?? []).toHaveLength(0);
  });

  it('the next game keeps the names and still passes the validator', () => {
    const s = new GameSession({ now: () => 0 });
    s.newGame({ tags: { Black: 'Ann', White: 'Bo', Event: 'Club' } });
    s.resign('white');
    s.nextGame('next');
    expect(s.tags).toMatchObject({ Black: 'Bo', White: 'Ann', Event: 'Club', Round: '2' });
    expect(pdnErrors(s.pdn())).toEqual([]);
  });
});
