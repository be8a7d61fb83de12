// The writer (src/storage/writer.ts) on a disk that fills up (an injected
// ENOSPC with short writes, the data really written): nothing announced is
// lost, a fragment is never followed by records, one notice per episode,
// retries on its own; tag bursts coalesce; games replaced while empty leave
// nothing behind.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/common/prng.ts';
import { FaultyFs } from './faulty-fs.ts';
import { folder, journalOf, movesOf, newGame, open, until } from './helpers.ts';

describe('the journal writer on a full disk', () => {
  it('cuts a short write back to the last good record, so the file never holds a fragment; everything lands once space is freed', () => {
    const dir = folder();
    const disk = new FaultyFs();
    const { store, events } = open(dir, { fs: disk.fs });
    const moves = movesOf(40);
    store.append(newGame('g1'));
    const rng = mulberry32(99);
    for (const [k, m] of moves.entries()) {
      if (k % 10 === 3) disk.fill(Math.floor(rng() * 60)); // a few bytes left: the next record is cut mid-line
      if (k % 10 === 7) {
        disk.free();
        store.flush(); // the retry (timer or next write)
      }
      store.append(m);
      const r = journalOf(dir, 'g1');
      // Whatever happened, the file is good records only: no fragment, nothing after one.
      expect(r.damage).toEqual([]);
      expect(r.torn).toBe(false);
      expect(r.entries).toEqual([newGame('g1'), ...moves.slice(0, r.entries.length - 1)]);
    }
    disk.free();
    store.flush();
    expect(journalOf(dir, 'g1').entries).toEqual([newGame('g1'), ...moves]);
    // one notice when it fails, one when it works again, per episode (4 episodes), never one per write
    expect(events.map((e) => `${e.ok}:${e.problem ?? ''}`)).toEqual(Array(4).fill(['false:disk-full', 'true:']).flat());
    expect(events[0].storage).toMatchObject({ ok: false, problem: 'disk-full', unsaved: expect.any(Number), since: expect.any(Number) });
    expect(events[0].say).toMatch(/the disk is full\. Play goes on/);
  });

  it('cuts the fragment before the next write when the cut itself failed', () => {
    const dir = folder();
    const disk = new FaultyFs();
    const { store } = open(dir, { fs: disk.fs });
    store.append(newGame('g1'));
    disk.fill(7);
    disk.truncateFails = true;
    store.append(movesOf(1)[0]);
    expect(readFileSync(join(dir, 'g1.journal'), 'utf8')).toMatch(/\n~[0-9a-f]{6}$/); // a 7-byte fragment is on disk
    disk.free();
    store.append(movesOf(2)[1]);
    expect(journalOf(dir, 'g1')).toMatchObject({ entries: [newGame('g1'), ...movesOf(2)], damage: [], torn: false });
  });

  it('keeps the unwritten moves of a game when a new game starts during the failure (nothing announced is dropped)', () => {
    const dir = folder();
    const disk = new FaultyFs();
    const { store, events } = open(dir, { fs: disk.fs });
    const a = movesOf(30);
    store.append(newGame('gA'));
    store.append(a[0]);
    disk.fill(0);
    for (const m of a.slice(1)) store.append(m);
    store.writePdn('gA', '[Event "A"]\n1. 11-15 *\n');
    store.append(newGame('gB'));
    store.append(a[0]);
    expect(store.unsaved()).toBe(29 + 1 + 2);
    expect(store.health()).toMatchObject({ ok: false, problem: 'disk-full', unsaved: 32 });
    disk.free();
    store.flush();
    expect(store.flushed).toBe(true);
    expect(journalOf(dir, 'gA').entries).toEqual([newGame('gA'), ...a]);
    expect(journalOf(dir, 'gB').entries).toEqual([newGame('gB'), a[0]]);
    expect(readFileSync(join(dir, 'gA.pdn'), 'utf8')).toContain('[Event "A"]');
    expect(events.map((e) => e.ok)).toEqual([false, true]);
    expect(store.health()).toEqual({ ok: true, message: `games are saved in ${dir}` });
  });

  it('retries on its own while writes wait (no new move needed)', async () => {
    const dir = folder();
    const disk = new FaultyFs();
    const { store, events } = open(dir, { fs: disk.fs, retryMs: 20 });
    store.append(newGame('g1'));
    disk.fill(0);
    store.append(movesOf(1)[0]);
    disk.free();
    await until(() => store.flushed, 'the retry');
    expect(store.flushed).toBe(true);
    expect(events.at(-1)).toMatchObject({ ok: true, say: expect.stringMatching(/saved in .* again/) });
  });

  it('coalesces a burst of tag changes into one journal record', async () => {
    const dir = folder();
    const disk = new FaultyFs();
    const { store } = open(dir, { fs: disk.fs });
    store.append(newGame('g1'));
    const before = disk.fsyncs;
    for (let k = 0; k < 200; k++) store.append({ k: 'tags', at: k, tags: { Round: String(k) } });
    await until(() => store.flushed, 'the burst written');
    expect(disk.fsyncs - before).toBe(1);
    expect(journalOf(dir, 'g1').entries).toEqual([newGame('g1'), { k: 'tags', at: 199, tags: { Round: '199' } }]);
    // a move right after tags puts both down, in order
    store.append({ k: 'tags', at: 300, tags: { Round: 'x' } });
    store.append(movesOf(1)[0]);
    expect(journalOf(dir, 'g1').entries.slice(-2)).toEqual([{ k: 'tags', at: 300, tags: { Round: 'x' } }, movesOf(1)[0]]);
  });

  it('reuses nothing-yet games: a new game replacing one with no move leaves one journal, not one per command', () => {
    const dir = folder();
    const { store } = open(dir);
    store.append(newGame('g0'));
    store.append(movesOf(1)[0]);
    for (let k = 1; k <= 1000; k++) {
      store.append(newGame(`g${k}`));
      store.writePdn(`g${k}`, '[Event "x"]\n*\n');
    }
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.journal'))
        .sort(),
    ).toEqual(['g0.journal', 'g1000.journal']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdn'))).toEqual(['g1000.pdn']);
  });

  // Two new-game commands in one event-loop turn: the service writes the first (empty) game's PDN
  // after the second game has started, and that game used to land in the archive.
  it('never archives a game replaced while empty, even when its PDN write comes after the next game started', () => {
    const dir = folder();
    const { store } = open(dir);
    store.append(newGame('g0'));
    store.append(movesOf(1)[0]);
    for (let k = 1; k <= 5; k++) {
      // one turn: a new game, and another at once; the PDN writes follow, in order
      store.append(newGame(`a${k}`));
      store.append(newGame(`b${k}`));
      store.writePdn(`a${k}`, '[Event "a"]\n*\n');
      store.writePdn(`b${k}`, '[Event "b"]\n*\n');
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdn'))).toEqual(['b5.pdn']);
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.journal'))
        .sort(),
    ).toEqual(['b5.journal', 'g0.journal']);
  });

  it('keeps a replaced game that had a move, and its PDN written late', () => {
    const dir = folder();
    const { store } = open(dir);
    store.append(newGame('g1'));
    store.append(movesOf(1)[0]);
    store.append(newGame('g2'));
    store.writePdn('g1', '[Event "one move"]\n1. 11-15 *\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdn'))).toEqual(['g1.pdn']);
    expect(readFileSync(join(dir, 'g1.pdn'), 'utf8')).toContain('one move');
  });
});
