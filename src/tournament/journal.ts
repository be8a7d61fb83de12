// The tournament's journal on disk: `tournament-ID.jsonl` in the games
// folder, one event per line as JSON, appended and fsynced before the change
// is announced, never rewritten (a correction is a new line). Loading replays
// every line through the pure core: a torn last line (the process stopped
// mid-write: no newline) is dropped, reported and cut off before the next
// append; a damaged line anywhere else, or an event the core refuses, stops
// the load with its line number (nothing is guessed). File I/O goes through
// the store's synchronous file-system seam (src/storage/disk.ts), so tests
// inject a full disk.

import { join } from 'node:path';
import { realFs, type StoreFs } from '../storage/disk.ts';
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
  let pos = 0;
  let lineNo = 0;
  while (pos < buf.length) {
    lineNo++;
    const nl = buf.indexOf(0x0a, pos);
    const end = nl < 0 ? buf.length : nl;
    const line = buf.subarray(pos, end).toString('utf8').replace(/\r$/, '');
    if (nl < 0) {
      // No newline: the last write did not finish (a whole event always ends with its newline).
      return { events, lines, torn: { line: lineNo, offset: pos, bytes: end - pos, excerpt: excerpt(line) }, goodEnd: pos };
    }
    if (line.trim() !== '') {
      try {
        events.push(parseTournamentEvent(line));
        lines.push(lineNo);
      } catch (e) {
        const why = e instanceof TournamentError ? e.message : String(e);
        throw new TournamentError('bad-journal', `${name} line ${lineNo}: ${why} ("${excerpt(line)}")`);
      }
    }
    pos = nl + 1;
  }
  return { events, lines, torn: null, goodEnd: pos };
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

/** The folder fsynced, so a new file's name survives a power cut too (best effort: some systems cannot open a folder). */
function syncFolder(fs: StoreFs, dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // (not every file system fsyncs a folder)
  } finally {
    fs.closeSync(fd);
  }
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
 * writes and fsyncs its line, and only then takes the new state: a caller
 * announces a change after `append` returns. A failed write is cut back and
 * thrown (the state unchanged), so the file never holds half an event before
 * a whole one.
 */
export class TournamentJournal {
  private fd: number | null;
  private size: number;

  private constructor(
    readonly file: string,
    private state_: TournamentState,
    /** the torn last line dropped on load, if any */
    readonly torn: TornLine | null,
    private readonly fs: StoreFs,
    fd: number,
    size: number,
  ) {
    this.fd = fd;
    this.size = size;
  }

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
    try {
      fd = fs.openSync(file, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A creation killed before its line was whole left a file with no event: it was never acknowledged, so it is taken over.
      const read = readTournamentJournal(fs.readFileSync(file), file);
      if (read.events.length)
        throw new TournamentError('already-created', `a tournament with the id "${event.id}" already exists (${file})`);
      torn = read.torn;
      fd = fs.openSync(file, 'r+');
      fs.ftruncateSync(fd, 0);
    }
    const j = new TournamentJournal(file, state, torn, fs, fd, 0);
    try {
      j.write(event);
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
    const fd = fs.openSync(file, 'r+');
    try {
      if (read.torn) {
        fs.ftruncateSync(fd, read.goodEnd);
        fs.fsyncSync(fd);
      }
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    return new TournamentJournal(file, state, read.torn, fs, fd, read.goodEnd);
  }

  /** Checks, journals (fsynced) and applies one event; returns the new state. */
  append(event: TournamentEvent): TournamentState {
    if (this.fd === null) throw new TournamentError('bad-journal', `${this.file} is closed`);
    const next = applyTournamentEvent(this.state_, event);
    if (next instanceof TournamentError) throw next;
    this.write(event);
    this.state_ = next;
    return next;
  }

  private write(event: TournamentEvent): void {
    const fd = this.fd!;
    const buf = Buffer.from(`${makeTournamentEvent(event)}\n`, 'utf8');
    try {
      // Positioned writes: the line goes right after the last good one whatever a failed write left.
      let off = 0;
      while (off < buf.length) off += this.fs.writeSync(fd, buf, off, buf.length - off, this.size + off);
      this.fs.fsyncSync(fd);
    } catch (e) {
      try {
        this.fs.ftruncateSync(fd, this.size);
      } catch {
        // (the next write starts at the last good line anyway, and a load drops a torn tail)
      }
      throw e;
    }
    this.size += buf.length;
  }

  close(): void {
    if (this.fd === null) return;
    this.fs.closeSync(this.fd);
    this.fd = null;
  }
}
