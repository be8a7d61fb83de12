// The game journal: one record per line, appended (and fsynced) before a
// change is announced; replaying it rebuilds the game exactly. Every record
// can be recognised on its own: `~CRC32 JSON\n`, the checksum (8 hex digits)
// over the JSON text. The reader keeps every good record around damage (a
// fragment left by a failed write, a line garbled on disk, a record glued to
// a fragment) and reports exactly what it dropped: line, byte offset, size,
// why, and a short excerpt. Lines written before checksums (plain JSON) are
// still read, and so are lines ending CRLF (a journal copied through Windows
// tools or an editor): the reader counts them so recovery can say so.

import { crc32 } from 'node:zlib';
import { checkJournalEntry, journalEntryProblem, type JournalEntry } from '../model/journal.ts';
import type { JournalDamage } from '../model/storage.ts';
import { journalLines } from './append.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, type Result } from '../common/result.ts';

// The record itself is the model's (one zod schema, src/model/journal.ts): its type and its check are re-exported here for storage's users.
export type { JournalEntry } from '../model/journal.ts';
export type { SavedClock } from '../model/clock.ts';
/** What the reader dropped: where, how much, and why (the model's: the page shows it in the storage health). */
export type { JournalDamage } from '../model/storage.ts';

/** A journal that cannot be read or written as a whole. */
export class JournalError extends CrownheadError<'bad-journal'> {
  override readonly name = 'JournalError';
  constructor(message: string) {
    super('bad-journal', message);
  }
}

export interface JournalRead {
  entries: JournalEntry[];
  /** everything dropped, in file order (a torn last line is not listed here: see `torn`) */
  damage: JournalDamage[];
  /** true when an unfinished last line (the process stopped mid-write) was dropped */
  torn: boolean;
  /** byte offset just after the last good record (and its newline): appending from here never follows a fragment */
  goodEnd: number;
  /** the last good record is the file's last line and lacks its newline (write one before appending) */
  missingNewline: boolean;
  /** bytes in the file */
  size: number;
  /** good records whose line ended CRLF (a journal copied through Windows tools or an editor) */
  crlf: number;
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
const checksum = (json: string) => hex8(crc32(Buffer.from(json, 'utf8')));

/** One journal record as written: `~CRC32 JSON\n`. */
export function makeJournalLine(e: JournalEntry): string {
  const json = JSON.stringify(e);
  return `~${checksum(json)} ${json}\n`;
}

/** Why a parsed object is not a journal entry, or null when it is one (the model's check: src/model/journal.ts). */
export const entryProblem = journalEntryProblem;

const RECORD = /~([0-9a-f]{8}) /g;

/** A record starting at `at` in `line` (which must run to the end of the line), or why not. */
function recordAt(line: string, at: number): { entry: JournalEntry } | { why: string } {
  const m = /^~([0-9a-f]{8}) (.*)$/s.exec(line.slice(at));
  if (!m) return { why: 'not a journal record' };
  if (checksum(m[2]) !== m[1]) return { why: 'checksum mismatch (damaged or incomplete record)' };
  let e: unknown;
  try {
    e = JSON.parse(m[2]);
  } catch {
    return { why: 'not JSON' };
  }
  return checkJournalEntry(e);
}

function legacyLine(line: string): { entry: JournalEntry } | { why: string } {
  let e: unknown;
  try {
    e = JSON.parse(line);
  } catch {
    return { why: 'not JSON' };
  }
  return checkJournalEntry(e);
}

const excerpt = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s).replace(/[^\x20-\x7e]/g, '?');

/**
 * Reads a journal, keeping every good record and reporting what was dropped.
 * Never throws: a journal with no readable new-game entry comes back with
 * `entries[0]?.k !== 'new'` (see `journalStart`).
 */
export function readJournal(data: Buffer | string): JournalRead {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const entries: JournalEntry[] = [];
  const damage: JournalDamage[] = [];
  let torn = false;
  let goodEnd = 0;
  let missingNewline = false;
  let crlf = 0;
  // (The lines as the one journal appender writes them, append.ts: a CR before the LF is part of the line end.)
  for (const { no: lineNo, start, end, text: line, unterminated: last, cr } of journalLines(buf)) {
    if (line.trim() === '') {
      if (!last) continue;
      break;
    }
    // Whole line first: a record, or an old plain-JSON line.
    let got = line.startsWith('~') ? recordAt(line, 0) : line.startsWith('{') ? legacyLine(line) : { why: 'not a journal record' };
    let skipped = 0;
    let fragment = '';
    if (!('entry' in got)) {
      // A fragment followed by a record on the same line (a failed write then a retry): find the record.
      for (const m of line.matchAll(RECORD)) {
        if (m.index === 0) continue;
        const r = recordAt(line, m.index);
        if ('entry' in r) {
          fragment = line.slice(0, m.index);
          skipped = Buffer.byteLength(fragment);
          got = r;
          break;
        }
      }
    }
    if ('entry' in got) {
      if (skipped)
        damage.push({ line: lineNo, offset: start, bytes: skipped, why: 'a fragment of an unfinished record', excerpt: excerpt(fragment) });
      entries.push(got.entry);
      if (cr) crlf++;
      goodEnd = last ? end : end + 1;
      missingNewline = last;
      continue;
    }
    if (last) {
      torn = true;
      break;
    }
    damage.push({ line: lineNo, offset: start, bytes: end - start, why: got.why, excerpt: excerpt(line) });
  }
  return { entries, damage, torn, goodEnd, missingNewline, size: buf.length, crlf };
}

/** Strict reading for tools and tests: the entries, or the JournalError naming the first damage (a torn last line is no error). */
export const parseJournal = (text: string, name = 'journal'): Result<{ entries: JournalEntry[]; torn: boolean }, JournalError> =>
  attempt(JournalError, () => readStrict(text, name));

function readStrict(text: string, name: string): { entries: JournalEntry[]; torn: boolean } {
  const r = readJournal(text);
  if (r.damage.length) {
    const d = r.damage[0];
    throw new JournalError(`${name} line ${d.line}: ${d.why}`);
  }
  if (r.entries.length && r.entries[0].k !== 'new') throw new JournalError(`${name}: does not start with a new-game entry`);
  return { entries: r.entries, torn: r.torn };
}

/** The journal's new-game entry and everything after it, or null when its start is lost. */
export function journalStart(entries: readonly JournalEntry[]): JournalEntry[] | null {
  const i = entries.findIndex((e) => e.k === 'new');
  return i < 0 ? null : entries.slice(i);
}

/** A game's journal is finished once its last result entry gives a result other than '*'. */
export function isFinished(entries: readonly JournalEntry[]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.k === 'result') return e.result !== '*';
    if (e.k === 'move' || e.k === 'takeback') return false;
  }
  return false;
}

/** True when the game has no move, takeback or result: nothing but its start (and names, clock). */
export function isEmptyGame(entries: readonly JournalEntry[]): boolean {
  const start = entries.find((e) => e.k === 'new');
  if (!start || start.k !== 'new' || start.moves.length) return false;
  return entries.every((e) => e.k === 'new' || e.k === 'tags' || e.k === 'clock' || e.k === 'draw-offer' || e.k === 'takeback-offer');
}
