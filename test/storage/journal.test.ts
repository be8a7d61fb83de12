// The journal's records and its reader: every record recognisable on its own
// (checksum), every good record kept around damage in any place (a garbled
// middle line, a fragment before a record on the same line, a torn last
// line), and exactly what was dropped reported: line, offset, bytes, why.

import { describe, expect, it } from 'vitest';
import { GameSession } from '../../src/game/session.ts';
import {
  isFinished,
  journalStart,
  makeJournalLine,
  parseJournal,
  readJournal,
  JournalError,
  type JournalEntry,
} from '../../src/storage/journal.ts';
import { unwrap } from '../../src/common/result.ts';

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const entries: JournalEntry[] = [
  { k: 'new', id: 'g1', at: 1, fen: START_FEN, options: {}, tags: { Event: 'E' }, ballot: null, moves: [] },
  { k: 'move', at: 2, path: [11, 15] },
  { k: 'tags', at: 3, tags: { Event: 'E', Black: 'Ann' } },
  { k: 'move', at: 4, path: [22, 18] },
  { k: 'move', at: 5, path: [15, 22] },
];
const lines = entries.map(makeJournalLine);
const text = lines.join('');
const offsetOfLine = (k: number) => Buffer.byteLength(lines.slice(0, k).join(''));

describe('journal records', () => {
  it('carry a checksum of their JSON and read back exactly', () => {
    expect(lines[1]).toMatch(/^~[0-9a-f]{8} \{"k":"move","at":2,"path":\[11,15\]\}\n$/);
    const r = readJournal(text);
    expect(r).toMatchObject({ entries, damage: [], torn: false, goodEnd: Buffer.byteLength(text), missingNewline: false });
    const s = new GameSession();
    s.restore(r.entries);
    expect(s.snapshot().moves.map((m) => m.text)).toEqual(['11-15', '22-18', '15x22']);
    expect(s.tags.Black).toBe('Ann');
  });

  it('still reads journals written before checksums (plain JSON lines)', () => {
    const legacy = entries.map((e) => JSON.stringify(e) + '\n').join('');
    expect(readJournal(legacy).entries).toEqual(entries);
    expect(readJournal(legacy + lines[1]).entries).toEqual([...entries, entries[1]]);
  });
});

describe('the journal reader', () => {
  it('drops a torn last line (killed mid-write) and says where the good records end', () => {
    const torn = text + lines[1].slice(0, 14);
    const r = readJournal(torn);
    expect(r.torn).toBe(true);
    expect(r.entries).toEqual(entries);
    expect(r.damage).toEqual([]);
    expect(r.goodEnd).toBe(Buffer.byteLength(text));
    expect(unwrap(parseJournal(torn)).torn).toBe(true);
  });

  // A journal copied through Windows tools or an editor used to be rejected whole: every line failed its checksum.
  it('reads lines ending CRLF as records, counting them, and appends after them', () => {
    const crlf = text.replace(/\n/g, '\r\n');
    const r = readJournal(crlf);
    expect(r).toMatchObject({
      entries,
      damage: [],
      torn: false,
      crlf: entries.length,
      goodEnd: Buffer.byteLength(crlf),
      missingNewline: false,
    });
    expect(unwrap(parseJournal(crlf)).entries).toEqual(entries);
    // mixed: CRLF records followed by plain ones (appended after a resume)
    expect(readJournal(crlf + makeJournalLine({ k: 'takeback', at: 9 }))).toMatchObject({
      damage: [],
      crlf: entries.length,
      entries: [...entries, { k: 'takeback', at: 9 }],
    });
    expect(readJournal(text).crlf).toBe(0);
  });

  it('keeps a complete last record that lost only its newline', () => {
    const r = readJournal(text.slice(0, -1));
    expect(r.entries).toEqual(entries);
    expect(r.torn).toBe(false);
    expect(r.missingNewline).toBe(true);
    expect(r.goodEnd).toBe(Buffer.byteLength(text) - 1);
  });

  it('keeps every good record around a garbled middle line and reports exactly what it dropped', () => {
    const garbled = lines[2].replace('Ann', 'Anx'); // one byte changed on disk: the checksum no longer matches
    const damaged = [lines[0], lines[1], garbled, lines[3], lines[4]].join('');
    const r = readJournal(damaged);
    expect(r.entries).toEqual([entries[0], entries[1], entries[3], entries[4]]);
    expect(r.damage).toEqual([
      {
        line: 3,
        offset: offsetOfLine(2),
        bytes: lines[2].length - 1,
        why: expect.stringMatching(/checksum/),
        excerpt: expect.stringContaining('"k":"tags"'),
      },
    ]);
    expect(() => unwrap(parseJournal(damaged))).toThrow(/line 3: checksum mismatch/);
  });

  it('recovers a record glued to the fragment a failed write left (no newline between), reporting the fragment', () => {
    const fragment = lines[3].slice(0, 20);
    const damaged = lines[0] + lines[1] + lines[2] + fragment + lines[3] + lines[4];
    const r = readJournal(damaged);
    expect(r.entries).toEqual(entries);
    expect(r.damage).toEqual([
      { line: 4, offset: offsetOfLine(3), bytes: 20, why: 'a fragment of an unfinished record', excerpt: fragment },
    ]);
  });

  it('keeps records after a fragment followed by a newline (what the old writer left after a disk-full episode)', () => {
    const damaged = lines[0] + lines[1] + '{"k":"move","at":4,"pa' + '\n' + lines[3] + lines[4];
    const r = readJournal(damaged);
    expect(r.entries).toEqual([entries[0], entries[1], entries[3], entries[4]]);
    expect(r.damage).toMatchObject([{ line: 3, bytes: 22, why: 'not JSON' }]);
  });

  it('drops records that are well formed but make no sense, and binary junk, naming why', () => {
    const bad = makeJournalLine({ k: 'move', at: 5, path: [40] } as unknown as JournalEntry);
    const junk = Buffer.concat([Buffer.from(lines[0] + lines[1]), Buffer.from([0, 0xff, 0xfe, 0x0a]), Buffer.from(bad + lines[3])]);
    const r = readJournal(junk);
    expect(r.entries).toEqual([entries[0], entries[1], entries[3]]);
    expect(r.damage.map((d) => [d.line, d.why])).toEqual([
      [3, 'not a journal record'],
      [4, 'a move needs a path of squares 1-32'],
    ]);
  });

  it('finds no start when the new-game record is lost; strict parsing names the problem', () => {
    const r = readJournal(lines[0].replace('"g1"', '"g2"') + lines[1]);
    expect(journalStart(r.entries)).toBeNull();
    expect(r.damage[0]).toMatchObject({ line: 1, why: expect.stringMatching(/checksum/) });
    expect(() => unwrap(parseJournal(lines[1]))).toThrow(JournalError);
    expect(() => unwrap(parseJournal('nope\n'))).toThrow(/line 1: not a journal record/);
  });

  it('a game is finished once its last result says so (a takeback after it reopens it)', () => {
    const over: JournalEntry = { k: 'result', at: 9, result: '1-0', outcome: { winner: 'black', reason: 'resignation' } };
    expect(isFinished(entries)).toBe(false);
    expect(isFinished([...entries, over])).toBe(true);
    expect(isFinished([...entries, over, { k: 'takeback', at: 10 }])).toBe(false);
  });
});
