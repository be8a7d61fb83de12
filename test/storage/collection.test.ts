// PDN collections in the games folder (src/storage/collection.ts, through the
// catalogue): games are found where the PDN reader finds them, one game is
// opened by its byte range alone, the index is made once and kept while the
// file is unchanged, a game over the size one request may read is refused,
// and the archive streams a big file a few games at a time.

import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPdn } from '../../src/pdn/index.ts';
import { CollectionError, GameStartScanner, MAX_GAME_BYTES } from '../../src/storage/collection.ts';
import { CORPUS } from '../harness/corpus.ts';
import { folder, open } from './helpers.ts';

const corpusFiles = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.pdn'))
  .sort();

describe('the game index of a PDN file', () => {
  it('finds every game of every corpus file where the PDN reader does, whatever the chunk size', () => {
    for (const f of corpusFiles) {
      const buf = readFileSync(join(CORPUS, f));
      const whole = readPdn(buf.toString('utf8'));
      const spansOf = (chunk: number) => {
        const scanner = new GameStartScanner();
        for (let i = 0; i < buf.length; i += chunk) scanner.feed(buf.subarray(i, i + chunk));
        return scanner.spans(buf.length);
      };
      const spans = spansOf(64 * 1024);
      expect(spansOf(7).slice(0, 50), f).toEqual(spans.slice(0, 50)); // chunk edges anywhere
      expect(spans.length, f).toBe(whole.games.length + whole.errors.length);
      // each range reads as exactly one game (or one error), the same as in the whole file (every game of the small files, a sample of the big ones)
      const step = buf.length > 50_000 ? 25 : 1;
      const sample = spans.filter((_, k) => k % step === 0).map((s) => readPdn(buf.subarray(s.start, s.end).toString('utf8')));
      for (const r of sample) expect(r.games.length + r.errors.length, f).toBe(1);
      if (step === 1)
        expect(
          sample.map((r) => r.games[0]?.moves.length),
          f,
        ).toEqual(spans.map((_, k) => whole.games[k]?.moves.length));
    }
  });

  it('is not fooled by brackets in comments, line comments or tag values, nor by a byte-order mark', () => {
    const text = '\uFEFF[Event "a ] b"]\n1. 11-15 {see [this]} 22-18 *\n; [not a tag\n[Event "two"]\n% [skipped\n1. 9-13 *\n';
    const scanner = new GameStartScanner();
    scanner.feed(Buffer.from(text));
    const spans = scanner.spans(Buffer.byteLength(text));
    expect(spans).toHaveLength(2);
    expect(readPdn(Buffer.from(text).subarray(spans[1].start, spans[1].end).toString()).games[0].tags).toEqual([['Event', 'two']]);
  });
});

// A big PDN file in the games folder used to be read and parsed whole on every open.
describe('a PDN collection in the games folder', () => {
  const collection = () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const text = ['tinsley.pdn', '11_man_english.pdn', 'OCA_2.0.pdn'].map((f) => readFileSync(join(CORPUS, f), 'utf8')).join('\n');
    writeFileSync(join(dir, 'big.pdn'), text);
    return { dir, all: readPdn(text) };
  };

  it('opens game N by its byte range alone: the text handed back is that game, nothing around it', async () => {
    const { dir, all } = collection();
    const { store } = open(dir);
    const count = all.games.length + all.errors.length;
    for (const n of [1, 2, 500, count]) {
      const got = (await store.game('big', n))!;
      expect(got.games).toBe(count);
      const read = readPdn(got.text);
      expect(read.games.length + read.errors.length).toBe(1);
      expect(Buffer.byteLength(got.text)).toBeLessThan(8 * 1024);
    }
    const g2 = readPdn((await store.game('big', 2))!.text).games[0];
    expect(g2.moves.map((m) => m.move)).toEqual(all.games[1].moves.map((m) => m.move));
    await expect(store.game('big', count + 1)).rejects.toThrow(new RegExp(`holds ${count} games, not ${count + 1}`));
    expect(await store.game('nope', 1)).toBeNull();
    expect(await store.game('../big', 1)).toBeNull();
  });

  it('indexes a file once and keeps the index while the file is unchanged; a change is indexed again', async () => {
    const { dir } = collection();
    const { store } = open(dir);
    const counts = store.catalogue.collections.counts;
    await Promise.all([store.game('big', 3), store.game('big', 4)]); // two opens at once share one scan
    expect(counts.scans).toBe(1);
    await store.game('big', 5);
    await store.game('big', 1);
    expect(counts).toEqual({ scans: 1, hits: 2 });
    appendFileSync(join(dir, 'big.pdn'), '\n[Event "added"]\n1. 11-15 *\n');
    const before = (await store.game('big', 1))!.games;
    expect(counts.scans).toBe(2);
    expect(readPdn((await store.game('big', before))!.text).games[0].tags).toContainEqual(['Event', 'added']);
  });

  it('refuses a game over the size one request may read', async () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'huge.pdn'), `[Event "huge"]\n{${'x'.repeat(MAX_GAME_BYTES)}}\n1. 11-15 *\n[Event "small"]\n1. 9-13 *\n`);
    const { store } = open(dir);
    await expect(store.game('huge', 1)).rejects.toSatisfy((e) => e instanceof CollectionError && e.code === 'too-large');
    expect(readPdn((await store.game('huge', 2))!.text).games[0].tags).toEqual([['Event', 'small']]);
  });

  it('streams a big file in the archive a few games at a time, every game there once', async () => {
    const { dir, all } = collection();
    const { store } = open(dir);
    const pieces: string[] = [];
    for await (const g of store.archive()) pieces.push(g.text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(256 * 1024 + 8 * 1024);
    const again = readPdn(pieces.join('\n'));
    expect(again.games.length).toBe(all.games.length);
    // the same pieces for one file's download
    const download: string[] = [];
    for await (const p of store.pieces('big')) download.push(p);
    expect(download).toEqual(pieces);
    for await (const p of store.pieces('../big')) download.push(p);
    expect(download).toHaveLength(pieces.length);
  });
});
