// The games store on a disk that fills up (an injected ENOSPC with short
// writes, the data really written), with a damaged journal, with a second
// service, with junk in the folder: nothing announced is lost, a fragment is
// never followed by records, the newest game is the one resumed (or the
// loss is reported, never another game picked), one notice per episode.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeJournalLine, readJournal, type JournalEntry } from '../../src/storage/journal.ts';
import { resumeNewest } from '../../src/storage/recovery.ts';
import { GameSession } from '../../src/game/session.ts';
import { GamesFolderLocked } from '../../src/storage/lock.ts';
import { GameStore, type StorageEvent } from '../../src/storage/store.ts';
import { mulberry32 } from '../../src/sensors/sim/prng.ts';
import { corpusMoves } from '../server/helpers.ts';
import { FaultyFs } from './faulty-fs.ts';

const dirs: string[] = [];
const stores: GameStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'crownhead-store-'));
  dirs.push(d);
  return join(d, 'games');
}
function open(dir: string, opts: ConstructorParameters<typeof GameStore>[1] = {}) {
  const events: StorageEvent[] = [];
  const notes: string[] = [];
  const store = new GameStore(dir, { retryMs: 60_000, tagsDelayMs: 20, ...opts, onEvent: (e) => (e.type === 'storage' ? events.push(e) : notes.push(e.say)) });
  stores.push(store);
  return { store, events, notes };
}

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const newGame = (id: string, tags: Record<string, string> = {}): JournalEntry => ({ k: 'new', id, at: 1, fen: START_FEN, options: {}, tags, ballot: null, moves: [] });
const movesOf = (n: number): JournalEntry[] => corpusMoves(n).map((m, k) => ({ k: 'move', at: 10 + k, path: [m.from, ...m.path] }));
const journalOf = (dir: string, id: string) => readJournal(readFileSync(join(dir, `${id}.journal`)));

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
    await new Promise((r) => setTimeout(r, 100));
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
    await new Promise((r) => setTimeout(r, 60));
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
    expect(readdirSync(dir).filter((f) => f.endsWith('.journal')).sort()).toEqual(['g0.journal', 'g1000.journal']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdn'))).toEqual(['g1000.pdn']);
  });
});

describe('the games folder', () => {
  it('is locked by one service: a second is refused, naming the process; a stale lock is taken over; temp files are cleaned', () => {
    const dir = folder();
    const { store } = open(dir);
    store.lock();
    store.lockServing('http://127.0.0.1:8123/');
    const second = open(dir).store;
    expect(() => second.lock()).toThrow(GamesFolderLocked);
    expect(() => second.lock()).toThrow(new RegExp(`in use by another Crownhead \\(process ${process.pid}, serving http://127\\.0\\.0\\.1:8123/`));
    store.unlock();
    expect(existsSync(join(dir, 'crownhead.lock'))).toBe(false);

    // A lock left by a process that is gone (killed) is stale.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'crownhead.lock'), JSON.stringify({ pid: Number(dead.stdout.trim()), machine: hostname(), started: 'earlier', url: null, nonce: 'x' }));
    writeFileSync(join(dir, 'g1.pdn.tmp-12345'), 'half a PDN');
    writeFileSync(join(dir, 'calibration-B1.json.tmp'), '{');
    const third = open(dir);
    third.store.lock();
    expect(third.notes.join('\n')).toMatch(new RegExp(`removed a stale lock .*process ${dead.stdout.trim()}`));
    expect(third.store.cleanTemp().sort()).toEqual(['calibration-B1.json.tmp', 'g1.pdn.tmp-12345']);
    expect(readdirSync(dir)).toEqual(['crownhead.lock']);
  });

  it('lists games asynchronously, skipping and listing what is not a readable game (a folder named x.pdn, junk), from a cache', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'x.pdn'), { recursive: true });
    writeFileSync(join(dir, 'junk.pdn'), '\u0000\u0001 not a game');
    writeFileSync(join(dir, 'a.pdn'), '[Event "A"]\n[Black "Ann"]\n[Result "1-0"]\n1. 11-15 1-0\n');
    writeFileSync(join(dir, 'b.pdn'), '[Event "B"]\n1. 11-15 *\n');
    const { store } = open(dir, { listTtlMs: 60_000 });
    const list = await store.list();
    expect(list.games.map((g) => [g.id, g.event, g.black, g.result])).toEqual([['b', 'B', '', '*'], ['a', 'A', 'Ann', '1-0']]);
    expect(list.skipped).toEqual([{ file: 'junk.pdn', why: 'not a PDN game (no tags or moves)' }, { file: 'x.pdn', why: 'a folder, not a game file' }]);
    writeFileSync(join(dir, 'c.pdn'), '[Event "C"]\n*\n');
    expect((await store.list()).games).toHaveLength(2); // cached
    store.writePdn('d', '[Event "D"]\n*\n'); // its own writes update the cache
    expect((await store.list()).games.map((g) => g.id)).toEqual(['d', 'b', 'a']);
    const archive: string[] = [];
    for await (const g of store.archive()) archive.push(g.id);
    expect(archive).toEqual(['a', 'b', 'd']);
  });
});

describe('resuming', () => {
  const probe = () => new GameSession();
  const write = (dir: string, id: string, text: string | Buffer, mtime: number) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.journal`), text);
    utimesSync(join(dir, `${id}.journal`), mtime, mtime);
  };
  const moves = movesOf(12);
  const lines = (id: string, es: JournalEntry[]) => [newGame(id), ...es].map(makeJournalLine);

  it('a damaged middle record: the rest is resumed, the loss reported, the original kept aside and the journal rewritten clean', () => {
    const dir = folder();
    const l = lines('new', [...moves.slice(0, 5), { k: 'tags', at: 50, tags: { Black: 'Ann' } }, ...moves.slice(5)]);
    l[6] = l[6].replace('Ann', 'A\u0000n'); // the tags record garbled
    write(dir, 'old', lines('old', moves.slice(0, 3)).join(''), 1000); // an older unfinished game
    write(dir, 'new', l.join(''), 2000);
    writeFileSync(join(dir, 'new.pdn'), '[Event "as last saved"]\n*\n');
    const { store, events } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: true, id: 'new', moves: 12 });
    expect(session.game.plies).toHaveLength(12);
    expect(r.damage).toMatchObject({ game: 'new', dropped: [{ line: 7, why: expect.stringMatching(/checksum/) }], unreplayed: 0, resumed: true, moves: 12 });
    expect(readFileSync(r.damage!.keptAt!, 'utf8')).toBe(l.join(''));
    expect(readFileSync(r.damage!.pdn!, 'utf8')).toContain('as last saved');
    expect(journalOf(dir, 'new')).toMatchObject({ damage: [], entries: [newGame('new'), ...moves] });
    const h = store.health();
    expect(h).toMatchObject({ ok: false, problem: 'damaged-journal', damaged: { keptAt: r.damage!.keptAt } });
    expect(h.message).toMatch(/journal of game new was damaged: 1 record could not be read \(line 7: checksum mismatch.*resumed from what could be read: 12 moves/);
    expect(h.choice).toMatch(/Play on .* or start a new game .* kept at/);
    expect(events).toHaveLength(1);
    // play goes on in the same journal; a new game clears the report
    session.newGame();
    expect(store.health()).toMatchObject({ ok: true });
  });

  it('a lost move record: the game is resumed up to it, and what no longer fits is counted as dropped', () => {
    const dir = folder();
    const l = lines('g', moves);
    l[5] = l[5].slice(0, 12) + '\n'; // move 5 cut short, then the rest
    write(dir, 'g', l.join(''), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: true, moves: 4, damage: { unreplayed: 7, dropped: [{ line: 6 }] } });
    expect(store.health().message).toMatch(/7 after them no longer fit the game.*4 moves/);
  });

  it('a journal that lost its start is not resumed, and no older game is picked instead: it is moved aside and a new game is due', () => {
    const dir = folder();
    write(dir, 'old', lines('old', moves.slice(0, 3)).join(''), 1000);
    const l = lines('new', moves);
    l[0] = 'garbage\n';
    write(dir, 'new', l.join(''), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: false, id: 'new', damage: { resumed: false, dropped: [{ line: 1, why: 'not a journal record' }] } });
    expect(existsSync(join(dir, 'new.journal'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('new.journal.damaged-'))).toHaveLength(1);
    expect(store.health()).toMatchObject({ ok: false, problem: 'unresumable' });
    expect(store.health().message).toMatch(/newest game, new, cannot be resumed.*no older game was resumed in its place/);
  });

  it('a torn last line is cut off before appending, so the next record does not follow a fragment', () => {
    const dir = folder();
    const l = lines('g', moves.slice(0, 4));
    write(dir, 'g', l.join('') + l[4].slice(0, 9), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    expect(resumeNewest(store, session, probe)).toMatchObject({ resumed: true, torn: true, damage: null });
    store.append(moves[4]);
    expect(journalOf(dir, 'g')).toMatchObject({ damage: [], torn: false, entries: [newGame('g'), ...moves.slice(0, 5)] });
    expect(store.health().ok).toBe(true);
  });
});
