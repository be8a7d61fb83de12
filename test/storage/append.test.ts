// The one journal appender (src/storage/append.ts), which the games' writer
// and the tournaments' journal both write through: each record fsynced at
// the good end; on a full disk the error thrown and the fragment cut (now,
// or before the next write when the cut fails too), so no record ever
// follows a fragment — the same for a game's checksummed lines and a
// tournament's JSON lines; and the lines both readers split a journal into.

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalAppender, journalLines } from '../../src/storage/append.ts';
import { makeJournalLine, readJournal, type JournalEntry } from '../../src/storage/journal.ts';
import { makeTournamentEvent, type TournamentEvent } from '../../src/tournament/events.ts';
import { TournamentJournal, readTournamentJournal, tournamentFile } from '../../src/tournament/journal.ts';
import { FaultyFs } from './faulty-fs.ts';
import { addPlayer, create } from '../tournament/helpers.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'append-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The two journals' codecs, each with a long record and two short ones. */
const CODECS = [
  {
    name: "a game's journal",
    format: makeJournalLine as (r: unknown) => string,
    records: [
      { k: 'tags', at: 1, tags: { Event: 'x'.repeat(300) } },
      { k: 'move', at: 2, path: [11, 15] },
      { k: 'move', at: 3, path: [22, 18] },
    ] as JournalEntry[],
    read: (buf: Buffer) => readJournal(buf).entries as unknown[],
  },
  {
    name: "a tournament's journal",
    format: ((e: TournamentEvent) => `${makeTournamentEvent(e)}\n`) as (r: unknown) => string,
    records: [create({ name: 'y'.repeat(40) }), addPlayer('Ann', 1), addPlayer('Bo', 2)] as TournamentEvent[],
    read: (buf: Buffer) => readTournamentJournal(buf).events as unknown[],
  },
];

describe('the one journal appender', () => {
  for (const c of CODECS) {
    it(`${c.name}: on a full disk the write throws and leaves no fragment; once there is room the record follows the last whole one`, () => {
      const file = join(tempDir(), 'j');
      const disk = new FaultyFs();
      const a = new JournalAppender<unknown>(disk.fs, openSync(file, 'w+'), { offset: 0, dirty: false }, c.format);
      a.append(c.records[1]);
      const whole = readFileSync(file);
      disk.fill(40);
      expect(() => a.append(c.records[0])).toThrow(/ENOSPC/);
      expect(readFileSync(file).equals(whole)).toBe(true);
      expect(a.size).toBe(whole.length);
      disk.free();
      a.append(c.records[0], c.records[2]);
      closeSync(a.fd);
      expect(c.read(readFileSync(file))).toEqual([c.records[1], c.records[0], c.records[2]]);
      expect(readFileSync(file, 'utf8')).toBe([c.records[1], c.records[0], c.records[2]].map(c.format).join(''));
    });

    it(`${c.name}: when the cut fails too, the fragment is cut before the next write, so no record follows it`, () => {
      const file = join(tempDir(), 'j');
      const disk = new FaultyFs();
      const a = new JournalAppender<unknown>(disk.fs, openSync(file, 'w+'), { offset: 0, dirty: false }, c.format);
      a.append(c.records[1]);
      disk.fill(120);
      disk.truncateFails = true;
      expect(() => a.append(c.records[0])).toThrow(/ENOSPC/);
      // (The fragment is still on disk: 120 bytes of the long record.)
      expect(readFileSync(file).length).toBe(c.format(c.records[1]).length + 120);
      expect(a.end.dirty).toBe(true);
      disk.free();
      // A short record after the long one's fragment: it must not leave the fragment's tail behind it.
      a.append(c.records[2]);
      closeSync(a.fd);
      expect(readFileSync(file, 'utf8')).toBe(c.format(c.records[1]) + c.format(c.records[2]));
    });
  }

  it('a torn tail after the good end (a killed write) is cut before the first write', () => {
    const file = join(tempDir(), 'j');
    const good = makeJournalLine({ k: 'move', at: 1, path: [11, 15] });
    writeFileSync(file, `${good}~0000`);
    const a = new JournalAppender<JournalEntry>(
      new FaultyFs().fs,
      openSync(file, 'r+'),
      { offset: good.length, dirty: true },
      makeJournalLine,
    );
    a.append({ k: 'move', at: 2, path: [22, 18] });
    closeSync(a.fd);
    expect(readJournal(readFileSync(file)).entries.map((e) => e.at)).toEqual([1, 2]);
  });

  it('splits a journal into lines: numbers, byte offsets, CR line ends and an unterminated last line', () => {
    const lines = [...journalLines(Buffer.from('ab\r\n\nçd\nxy', 'utf8'))];
    expect(lines).toEqual([
      { no: 1, start: 0, end: 3, text: 'ab', unterminated: false, cr: true },
      { no: 2, start: 4, end: 4, text: '', unterminated: false, cr: false },
      { no: 3, start: 5, end: 8, text: 'çd', unterminated: false, cr: false },
      { no: 4, start: 9, end: 11, text: 'xy', unterminated: true, cr: false },
    ]);
  });

  it("the tournament's journal writes through it: a fragment its failed cut left is gone before its next event", () => {
    const dir = tempDir();
    const disk = new FaultyFs();
    const j = TournamentJournal.create(dir, create({ id: 'club' }), { fs: disk.fs });
    j.append(addPlayer('Ann', 1));
    const whole = readFileSync(tournamentFile(dir, 'club'), 'utf8');
    disk.fill(90);
    disk.truncateFails = true;
    // (90 bytes of a 114-byte line stay on disk: longer than the next event's whole line.)
    expect(() => j.append(addPlayer(`B${'o'.repeat(60)}`, 2))).toThrow(/ENOSPC/);
    expect(j.state.players.map((p) => p.name)).toEqual(['Ann']);
    disk.free();
    j.append(addPlayer('Cy', 3));
    j.close();
    expect(readFileSync(tournamentFile(dir, 'club'), 'utf8')).toBe(`${whole}${makeTournamentEvent(addPlayer('Cy', 3))}\n`);
    const again = TournamentJournal.open(tournamentFile(dir, 'club'));
    expect(again.torn).toBeNull();
    expect(again.state.players.map((p) => p.name)).toEqual(['Ann', 'Cy']);
    again.close();
  });
});
