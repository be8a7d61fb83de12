// The games directory: each game's journal (appended and fsynced entry by
// entry) and its PDN (rewritten atomically: temp file, fsync, rename). Finds
// the game in progress after a restart, lists saved games and builds the
// archive. When the disk is full or the directory unwritable it says so
// loudly, keeps what could not be written in memory and retries on the next
// write, so play goes on.

import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, writeSync, unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeJournalLine, parseJournal, isFinished, type JournalEntry } from './journal.ts';

export interface SavedGame {
  id: string;
  file: string;
  event: string;
  black: string;
  white: string;
  date: string;
  result: string;
  modified: number;
}

export class GameStore {
  private fd: number | null = null;
  private currentId: string | null = null;
  private pending: string[] = [];
  /** The last storage error (null when writes succeed). */
  lastError: string | null = null;

  constructor(readonly dir: string, private readonly onError: (message: string) => void = (m) => console.error(m)) {}

  private fail(what: string, e: unknown): void {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOSPC' ? 'the disk is full' : err.code === 'EACCES' || err.code === 'EPERM' ? 'permission denied' : err.code === 'EROFS' ? 'read-only file system' : err.message;
    const message = `cannot ${what} in ${this.dir}: ${why}. Play goes on; the game is kept in memory and will be written when possible.`;
    if (message !== this.lastError) this.onError(message);
    this.lastError = message;
  }

  private ensureDir(): boolean {
    try {
      mkdirSync(this.dir, { recursive: true });
      return true;
    } catch (e) {
      this.fail('create the games directory', e);
      return false;
    }
  }

  /** Appends (and fsyncs) a journal entry; a 'new' entry starts a new journal file. */
  append(entry: JournalEntry): void {
    if (entry.k === 'new') {
      this.closeJournal();
      this.currentId = entry.id;
      this.pending = [];
    }
    this.pending.push(makeJournalLine(entry));
    this.flush();
  }

  /** Resumes appending to an existing game's journal (after a restart). */
  resume(id: string): void {
    this.closeJournal();
    this.currentId = id;
    this.pending = [];
  }

  private flush(): void {
    if (!this.currentId || this.pending.length === 0) return;
    if (!this.ensureDir()) return;
    try {
      if (this.fd === null) this.fd = openSync(join(this.dir, `${this.currentId}.journal`), 'a');
      const text = this.pending.join('');
      const buf = Buffer.from(text);
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off);
      fsyncSync(this.fd);
      this.pending = [];
      if (this.lastError) this.onError(`storage works again: ${this.dir}`);
      this.lastError = null;
    } catch (e) {
      this.fail('write the game journal', e);
      if (this.fd !== null) {
        try {
          closeSync(this.fd);
        } catch {
          /* already gone */
        }
        this.fd = null;
      }
      // A partial line may have been written: the journal reader drops a torn last line, and the
      // retry starts on a fresh line.
      if (this.pending.length && !this.pending[0].startsWith('\n')) this.pending[0] = '\n' + this.pending[0];
    }
  }

  /** Rewrites a game's PDN atomically. */
  writePdn(id: string, text: string): void {
    if (!this.ensureDir()) return;
    const file = join(this.dir, `${id}.pdn`);
    const tmp = `${file}.tmp-${process.pid}`;
    try {
      const fd = openSync(tmp, 'w');
      try {
        const buf = Buffer.from(text);
        let off = 0;
        while (off < buf.length) off += writeSync(fd, buf, off);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
      try {
        const dfd = openSync(this.dir, 'r');
        fsyncSync(dfd);
        closeSync(dfd);
      } catch {
        /* directory fsync is best effort on some file systems */
      }
    } catch (e) {
      this.fail('write the PDN file', e);
      try {
        if (existsSync(tmp)) unlinkSync(tmp);
      } catch {
        /* nothing more to do */
      }
    }
  }

  closeJournal(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        /* ignore */
      }
    }
    this.fd = null;
  }

  /** The most recent unfinished game's journal, if any. */
  findInProgress(): { id: string; entries: JournalEntry[]; torn: boolean } | null {
    if (!existsSync(this.dir)) return null;
    const journals = readdirSync(this.dir)
      .filter((f) => f.endsWith('.journal'))
      .map((f) => ({ f, m: statSync(join(this.dir, f)).mtimeMs }))
      .sort((a, b) => b.m - a.m || (a.f < b.f ? 1 : -1));
    for (const { f } of journals) {
      try {
        const { entries, torn } = parseJournal(readFileSync(join(this.dir, f), 'utf8'), f);
        if (entries.length && !isFinished(entries)) return { id: f.replace(/\.journal$/, ''), entries, torn };
        return null; // the newest game is finished: start afresh
      } catch (e) {
        this.onError(`skipping unreadable journal ${f}: ${(e as Error).message}`);
      }
    }
    return null;
  }

  list(): SavedGame[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.pdn'))
      .map((f) => {
        const text = readFileSync(join(this.dir, f), 'utf8');
        const tag = (n: string) => new RegExp(`^\\[${n} "((?:[^"\\\\]|\\\\.)*)"\\]`, 'm').exec(text)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
        return {
          id: f.replace(/\.pdn$/, ''),
          file: f,
          event: tag('Event'),
          black: tag('Black'),
          white: tag('White'),
          date: tag('Date'),
          result: tag('Result') || '*',
          modified: statSync(join(this.dir, f)).mtimeMs,
        };
      })
      .sort((a, b) => (a.id < b.id ? 1 : -1));
  }

  readPdn(id: string): string | null {
    if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.includes('..')) return null;
    const file = join(this.dir, `${id}.pdn`);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }

  /** Every saved game, oldest first, as one PDN file. */
  archive(): string {
    return this.list()
      .reverse()
      .map((g) => this.readPdn(g.id) ?? '')
      .filter(Boolean)
      .join('\n');
  }
}
