// The catalogue (src/storage/catalogue.ts): the saved games listed
// asynchronously from a cache, junk skipped and listed, the archive streamed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folder, open } from './helpers.ts';

describe('the catalogue', () => {
  it('lists games asynchronously, skipping and listing what is not a readable game (a folder named x.pdn, junk), from a cache', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'x.pdn'), { recursive: true });
    writeFileSync(join(dir, 'junk.pdn'), '\u0000\u0001 not a game');
    writeFileSync(join(dir, 'a.pdn'), '[Event "A"]\n[Black "Ann"]\n[Result "1-0"]\n1. 11-15 1-0\n');
    writeFileSync(join(dir, 'b.pdn'), '[Event "B"]\n1. 11-15 *\n');
    const { store } = open(dir, { listTtlMs: 60_000 });
    const list = await store.list();
    expect(list.games.map((g) => [g.id, g.event, g.black, g.result])).toEqual([
      ['b', 'B', '', '*'],
      ['a', 'A', 'Ann', '1-0'],
    ]);
    expect(list.skipped).toEqual([
      { file: 'junk.pdn', why: 'not a PDN game (no tags or moves)' },
      { file: 'x.pdn', why: 'a folder, not a game file' },
    ]);
    writeFileSync(join(dir, 'c.pdn'), '[Event "C"]\n*\n');
    expect((await store.list()).games).toHaveLength(2); // cached
    store.writePdn('d', '[Event "D"]\n*\n'); // its own writes update the cache
    expect((await store.list()).games.map((g) => g.id)).toEqual(['d', 'b', 'a']);
    const archive: string[] = [];
    for await (const g of store.archive()) archive.push(g.id);
    expect(archive).toEqual(['a', 'b', 'd']);
  });
});
