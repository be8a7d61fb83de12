// The model's fast check (src/model/check.ts) says yes exactly when zod's
// parse does: on every kind of journal record as written, and on thousands
// of them mutated at random (a field at any depth replaced by another JSON
// value, dropped, or joined by an unknown one), a seeded generator making
// them; every schema of the model compiles, and a schema it cannot check
// faithfully is refused when compiled, not misjudged later.

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { mulberry32, type Rng } from '../../src/common/prng.ts';
import { compileCheck } from '../../src/model/check.ts';
import { JournalEntry } from '../../src/model/journal.ts';
import * as game from '../../src/model/game.ts';
import * as board from '../../src/model/board.ts';
import * as clock from '../../src/model/clock.ts';
import * as storage from '../../src/model/storage.ts';

const START = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const saved = {
  remaining: { black: 300_000, white: 299_000 },
  movesMade: { black: 1, white: 1 },
  period: { black: 0, white: 0 },
  nextAt: { black: null, white: 5 },
  flagged: null,
  current: 'white',
  forced: false,
  called: null,
};
const RECORDS: unknown[] = [
  {
    k: 'new',
    id: 'G1',
    at: 1,
    fen: START,
    options: { huffing: true, autoDraw: false },
    tags: { Event: 'Club night', Black: 'Ann' },
    ballot: 12,
    moves: [
      [11, 15],
      [23, 19],
    ],
    remote: { side: 'white', name: 'Bob', link: 'friend', where: 'browser' },
    tournament: false,
  },
  { k: 'move', at: 2, path: [14, 23, 30], huff: 9 },
  { k: 'takeback', at: 3 },
  { k: 'crown', at: 4, square: 29 },
  { k: 'tags', at: 5, tags: { Black: 'Ann' } },
  { k: 'result', at: 6, result: '0-1', outcome: { winner: 'white', reason: 'time' } },
  { k: 'draw-offer', at: 7, side: 'black' },
  { k: 'takeback-offer', at: 8, side: null },
  { k: 'clock', at: 9, clock: saved },
  { k: 'correction', at: 10, by: 'Arbiter', reason: 'misread', say: 'move 3 was 9-14' },
];

/** JSON values a field might wrongly hold: edges of the model's bounds, other types, empties. */
const JUNK: unknown[] = [
  null,
  0,
  -1,
  1,
  1.5,
  32,
  33,
  2 ** 53,
  -0.5,
  '',
  'x',
  'black',
  '1-0',
  'new',
  true,
  false,
  [],
  [11],
  [11, 15],
  {},
  { k: 'move' },
];

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** One random change somewhere in the value: a field (or item) replaced, dropped, or an unknown field added. */
function mutate(rng: Rng, v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return pick(rng, JUNK);
  const keys = Object.keys(v);
  const o = v as Record<string, unknown>;
  const r = rng();
  if (keys.length === 0 || r < 0.1) {
    if (Array.isArray(v)) v.push(pick(rng, JUNK));
    else o[pick(rng, ['extra', 'k', 'at', 'where'])] = pick(rng, JUNK);
    return v;
  }
  const k = pick(rng, keys);
  if (r < 0.2) {
    if (Array.isArray(v)) v.splice(Number(k), 1);
    else delete o[k];
  } else if (r < 0.55) o[k] = pick(rng, JUNK);
  else o[k] = mutate(rng, o[k]);
  return v;
}

describe("the model's fast check", () => {
  const fits = compileCheck(JournalEntry);
  const zodSays = (v: unknown) => z.safeParse(JournalEntry, v).success;

  it('accepts every kind of record as written', () => {
    for (const r of RECORDS) expect([fits(r), zodSays(r)]).toEqual([true, true]);
  });

  it('agrees with zod on thousands of records mutated at random', () => {
    const rng = mulberry32(38);
    const disagree: string[] = [];
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      let v: unknown = clone(pick(rng, RECORDS));
      for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) v = mutate(rng, v);
      const [mine, theirs] = [fits(v), zodSays(v)];
      if (!theirs) refused++;
      if (mine !== theirs && disagree.length < 5) disagree.push(`${JSON.stringify(v)}: fast ${mine}, zod ${theirs}`);
    }
    expect(disagree).toEqual([]);
    // (both kinds were tried: most mutations break a record, and many do not)
    expect(refused).toBeGreaterThan(5_000);
    expect(refused).toBeLessThan(19_000);
  });

  it('compiles every schema of the model, and refuses one it could misjudge', () => {
    for (const m of [game, board, clock, storage])
      for (const [name, s] of Object.entries(m))
        if (s && typeof s === 'object' && '_zod' in s) expect(() => compileCheck(s as z.core.$ZodType), name).not.toThrow();
    expect(() => compileCheck(z.string().check(z.regex(/^a/)))).toThrow(/not supported/);
    expect(() => compileCheck(z.union([z.string(), z.number()]))).toThrow(/discriminated/);
    expect(() => compileCheck(z.number().check(z.gt(0)))).toThrow(/not supported/);
  });
});
