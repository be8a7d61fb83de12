// The model (src/model/): the domain's vocabulary as zod schemas. Its types
// stay interchangeable with the rules core's own (Color, Outcome,
// GameOptions, PdnResult: checked by the type checker, `npx tsc`), and the
// journal record's one check accepts every kind of record as written and
// names what is wrong with a bad one, by kind and field.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Color, GameOptions as RulesOptions, Outcome as RulesOutcome } from '../../src/rules/index.ts';
import type { PdnResult } from '../../src/pdn/index.ts';
import type { GameOptions, Outcome, Result, Side } from '../../src/model/game.ts';
import { checkJournalEntry, journalEntryProblem, type JournalEntry } from '../../src/model/journal.ts';

const START = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const clock = {
  remaining: { black: 300_000, white: 299_000 },
  movesMade: { black: 1, white: 1 },
  period: { black: 0, white: 0 },
  nextAt: { black: null, white: null },
  flagged: null,
};

describe('the model', () => {
  it('names the same things as the rules core (side, outcome, options, result)', () => {
    expectTypeOf<Side>().toEqualTypeOf<Color>();
    expectTypeOf<Result>().toEqualTypeOf<PdnResult>();
    expectTypeOf<Outcome>().toExtend<RulesOutcome>();
    expectTypeOf<RulesOutcome>().toExtend<Outcome>();
    expectTypeOf<GameOptions>().toExtend<RulesOptions>();
    expectTypeOf<RulesOptions>().toExtend<GameOptions>();
    const o: RulesOutcome = { winner: null, reason: 'agreement' };
    expect(journalEntryProblem({ k: 'result', at: 1, result: '1/2-1/2', outcome: o })).toBeNull();
  });
});

describe('a journal record', () => {
  const good: JournalEntry[] = [
    {
      k: 'new',
      id: 'G1',
      at: 1,
      fen: START,
      options: { huffing: true },
      tags: { Event: 'Club night' },
      ballot: 12,
      moves: [
        [11, 15],
        [23, 19],
      ],
      remote: { side: 'white', name: 'Bob', link: 'friend', where: 'browser' },
      tournament: false,
    },
    { k: 'new', id: 'G2', at: 1, fen: START, options: {}, tags: {}, ballot: null, moves: [] },
    { k: 'move', at: 2, path: [14, 23, 30], huff: 9 },
    { k: 'takeback', at: 3 },
    { k: 'crown', at: 4, square: 29 },
    { k: 'tags', at: 5, tags: { Black: 'Ann' } },
    { k: 'result', at: 6, result: '0-1', outcome: { winner: 'white', reason: 'time' } },
    { k: 'result', at: 6, result: '*', outcome: null },
    { k: 'draw-offer', at: 7, side: null },
    { k: 'takeback-offer', at: 8, side: 'black' },
    { k: 'clock', at: 9, clock },
    { k: 'clock', at: 9, clock: { ...clock, current: 'black', forced: true, called: null } },
    { k: 'correction', at: 10, by: 'Arbiter', reason: 'misread', say: 'move 3 was 9-14' },
  ];

  it('reads back every kind as written (a JSON round trip)', () => {
    for (const e of good) expect(checkJournalEntry(JSON.parse(JSON.stringify(e)))).toEqual({ entry: e });
  });

  it('names what is wrong with a bad one, by kind and field', () => {
    const why = (e: unknown) => journalEntryProblem(e);
    expect(why('move')).toBe('not a journal entry');
    expect(why([1, 2])).toBe('not a journal entry');
    expect(why({ at: 1 })).toBe('not a journal entry');
    expect(why({ k: 'castle', at: 1 })).toBe('unknown entry kind "castle"');
    expect(why({ k: 'move', path: [11, 15] })).toBe('a move entry needs a time "at"');
    expect(why({ k: 'move', at: 1, path: [11] })).toBe('a move needs a path of squares 1-32');
    expect(why({ k: 'move', at: 1, path: [11, 15], huff: 0 })).toBe('a move needs a path of squares 1-32');
    expect(why({ k: 'crown', at: 1, square: 33 })).toBe('a crown entry needs a square 1-32');
    expect(why({ k: 'tags', at: 1, tags: { Round: 3 } })).toBe('a tags entry needs text tags');
    expect(why({ k: 'draw-offer', at: 1, side: 'red' })).toBe('a draw offer needs a side');
    expect(why({ k: 'takeback-offer', at: 1 })).toBe('a takeback offer needs a side');
    expect(why({ k: 'correction', at: 1, by: 'A', say: 'x' })).toBe('a correction entry needs who, why and what (by, reason, say)');
    expect(why({ k: 'result', at: 1, result: '2-1', outcome: null })).toBe(
      'a result entry needs a result (1-0, 0-1, 1/2-1/2, *, 2-0, 0-2, 1-1, 0-0)',
    );
    expect(why({ k: 'result', at: 1, result: '1-0', outcome: { winner: 'black' } })).toBe(
      'a result entry needs its outcome (the winner or null, and the reason), or null',
    );
    expect(why({ k: 'clock', at: 1, clock: { ...clock, nextAt: { black: 'soon', white: null } } })).toMatch(
      /^a clock entry needs the clock \(nextAt\.black: /,
    );
    expect(why({ k: 'clock', at: 1 })).toMatch(/^a clock entry needs the clock \(an object: /);
  });

  it('names the field of a bad new-game record', () => {
    const start = good[1]!;
    const why = (change: Record<string, unknown>) => journalEntryProblem({ ...start, ...change });
    expect(why({ id: '' })).toBe('a new-game entry needs an id');
    expect(why({ fen: 3 })).toBe('a new-game entry needs a FEN');
    expect(why({ options: null })).toBe('a new-game entry needs options and tags');
    expect(why({ tags: { Event: 1 } })).toBe('a new-game entry needs options and tags');
    expect(why({ moves: [[11, 40]] })).toBe('a new-game entry needs its opening moves as paths of squares 1-32');
    expect(why({ ballot: 'one' })).toBe("a new-game entry's ballot is a whole number or null");
    expect(why({ remote: { side: 'red', name: 'Bob' } })).toBe(
      "a new-game entry's remote player needs a side (black or white), a name and, if any, a link that is text",
    );
    expect(why({ tournament: 'yes' })).toBe("a new-game entry's tournament mode is true or false");
  });
});
