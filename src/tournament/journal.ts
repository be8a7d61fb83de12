// The tournament's journal on disk: `tournament-ID.jsonl` in the games
// folder, one event per line as JSON, appended and fsynced before the change
// is announced by the storage's one journal appender (src/storage/append.ts,
// the games' journals' too), never rewritten (a correction is a new line).
// What is the tournament's own here: the file's name, the event codec
// (events.ts) and the replay through the pure core. Loading replays
// every line through the pure core: a torn last line (the process stopped
// mid-write: no newline) is dropped, reported and cut off before the next
// append; a damaged line anywhere else, or an event the core refuses, stops
// the load with its line number (nothing is guessed); a full disk refuses the
// change, leaving no fragment. File I/O goes through the store's synchronous
// file-system seam (src/storage/disk.ts), so tests inject a full disk.

import { join } from 'node:path';
import { realFs, syncFolder, type StoreFs } from '../storage/disk.ts';
import { JournalAppender, journalLines } from '../storage/append.ts';
import { TournamentError, makeTournamentEvent, parseTournamentEvent, type TournamentEvent } from './events.ts';
import { applyTournamentEvent, replayTournament, type TournamentState } from './tournament.ts';

/** The file of a tournament in the games folder. */
export const tournamentFile = (dir: string, id: string): string => join(dir, `tournament-${id}.jsonl`);

/** The unfinished last line a load dropped. */
export interface TornLine {
  line: number;
  /** byte offset where it started (the file is cut back to here) */
  offset: number;
  bytes: number;
  excerpt: string;
}

export interface TournamentRead {
  events: TournamentEvent[];
  /** each event's line number in the file (blank lines are skipped) */
  lines: number[];
  torn: TornLine | null;
  /** bytes of the good lines (with their newlines) */
  goodEnd: number;
}

const excerpt = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s).replace(/[^\x20-\x7e]/g, '?');

/** Reads a journal's text: its events, and a torn last line if any; throws TournamentError 'bad-journal' naming a damaged line. */
export function readTournamentJournal(data: Buffer | string, name = 'tournament journal'): TournamentRead {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const events: TournamentEvent[] = [];
  const lines: number[] = [];
  // (The lines as the one journal appender writes them: src/storage/append.ts.)
  for (const { no, start, end, text, unterminated } of journalLines(buf)) {
    // No newline: the last write did not finish (a whole event always ends with its newline).
    if (unterminated)
      return { events, lines, torn: { line: no, offset: start, bytes: end - start, excerpt: excerpt(text) }, goodEnd: start };
    if (text.trim() === '') continue;
    const read = parseTournamentEvent(text);
    if (!read.ok) throw new TournamentError('bad-journal', `${name} line ${no}: ${read.error.message} ("${excerpt(text)}")`);
    events.push(read.value);
    lines.push(no);
  }
  return { events, lines, torn: null, goodEnd: buf.length };
}

/** Replays events from nothing; throws TournamentError 'bad-journal' naming the first refused line (`lines`: each event's line, default one a line). */
export function replayEvents(events: readonly TournamentEvent[], name = 'tournament journal', lines?: readonly number[]): TournamentState {
  const { state, refused } = replayTournament(events);
  if (refused) {
    const e = events[refused.index];
    const line = lines?.[refused.index] ?? refused.index + 1;
    throw new TournamentError('bad-journal', `${name} line ${line} (${e.t}): ${refused.error.message}`);
  }
  if (!state) throw new TournamentError('bad-journal', `${name} is empty: it has no create event`);
  return state;
}

/** The tournament journals in the games folder, by file name. */
export function tournamentFiles(dir: string, fs: StoreFs = realFs): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^tournament-[A-Za-z0-9_-]{1,40}\.jsonl$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export interface JournalOptions {
  fs?: StoreFs;
}

/**
 * One tournament's journal, open for appending. `append` checks the event
 * against the state (a refusal throws the TournamentError, writing nothing),
 * writes and fsyncs its line through the storage's one journal appender
 * (src/storage/append.ts, the games' journals' too), and only then takes the
 * new state: a caller announces a change after `append` returns. A failed
 * write is cut back and thrown (the state unchanged): on a full disk the
 * change is refused, and the file never holds half an event before a whole one.
 */
export class TournamentJournal {
  private open_ = true;

  private constructor(
    readonly file: string,
    private state_: TournamentState,
    /** the torn last line dropped on load, if any */
    readonly torn: TornLine | null,
    private readonly fs: StoreFs,
    private readonly appender: JournalAppender<TournamentEvent>,
  ) {}

  get state(): TournamentState {
    return this.state_;
  }

  /**
   * Starts a new tournament's journal with its create event; refuses to
   * replace a file holding an event (a file with nothing but a torn line, a
   * creation that never finished, is taken over and reported in `torn`).
   */
  static create(dir: string, event: Extract<TournamentEvent, { t: 'create' }>, o: JournalOptions = {}): TournamentJournal {
    const fs = o.fs ?? realFs;
    const state = applyTournamentEvent(null, event);
    if (state instanceof TournamentError) throw state;
    const file = tournamentFile(dir, event.id);
    fs.mkdirSync(dir, { recursive: true });
    let fd: number;
    let torn: TornLine | null = null;
    let takenOver = false;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A creation killed before its line was whole left a file with no event: it was never acknowledged, so it is taken over.
      const read = readTournamentJournal(fs.readFileSync(file), file);
      if (read.events.length)
        throw new TournamentError('already-created', `a tournament with the id "${event.id}" already exists (${file})`);
      torn = read.torn;
      takenOver = true;
      fd = fs.openSync(file, 'r+');
    }
    const j = new TournamentJournal(file, state, torn, fs, new JournalAppender(fs, fd, { offset: 0, dirty: takenOver }, lineOf));
    try {
      j.appender.append(event);
      syncFolder(fs, dir);
    } catch (e) {
      j.close();
      fs.unlinkSync(file);
      throw e;
    }
    return j;
  }

  /** Opens a tournament's journal: replays it, drops (and cuts off) a torn last line; throws on a damaged line. */
  static open(file: string, o: JournalOptions = {}): TournamentJournal {
    const fs = o.fs ?? realFs;
    const read = readTournamentJournal(fs.readFileSync(file), file);
    const state = replayEvents(read.events, file, read.lines);
    const appender = new JournalAppender(fs, fs.openSync(file, 'r+'), { offset: read.goodEnd, dirty: read.torn !== null }, lineOf);
    try {
      if (read.torn) appender.cut();
    } catch (e) {
      fs.closeSync(appender.fd);
      throw e;
    }
    return new TournamentJournal(file, state, read.torn, fs, appender);
  }

  /** Checks, journals (fsynced) and applies one event; returns the new state. */
  append(event: TournamentEvent): TournamentState {
    if (!this.open_) throw new TournamentError('bad-journal', `${this.file} is closed`);
    const next = applyTournamentEvent(this.state_, event);
    if (next instanceof TournamentError) throw next;
    this.appender.append(event);
    this.state_ = next;
    return next;
  }

  close(): void {
    if (!this.open_) return;
    this.fs.closeSync(this.appender.fd);
    this.open_ = false;
  }
}

/** One event as its journal line. */
const lineOf = (event: TournamentEvent): string => `${makeTournamentEvent(event)}\n`;
