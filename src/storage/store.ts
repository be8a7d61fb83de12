// The games store: the one object the service holds for the games folder,
// putting its parts together behind one interface: the folder's lock
// (lock.ts), the writer of journals and whole files with its retries
// (writer.ts), the catalogue of saved games (catalogue.ts, collection.ts),
// recovery at start-up (recovery.ts), and the boards' calibration files.
// Its health and events are typed (`StorageHealth`, `StorageEvent`): the
// writer's trouble (disk full, unwritable) and recovery's damage report,
// combined here.

import { join } from 'node:path';
import type { DamageReport, StorageEvent, StorageHealth } from '../model/storage.ts';
import { Catalogue, type GameList } from './catalogue.ts';
import { realFs, removeTempFiles, type StoreFs } from './disk.ts';
import { type JournalEntry, type JournalRead } from './journal.ts';
import { FolderLock } from './lock.ts';
import { Recovery, type Found } from './recovery.ts';
import { JournalWriter } from './writer.ts';

/** What each option is when it is not given. */
const DEFAULTS = { listTtlMs: 2000, retryMs: 2000, tagsDelayMs: 100 } as const;

// The types are declared once, in the model (src/model/storage.ts), which the page–server protocol carries.
export type { DamageReport, StorageHealth, StorageProblem } from '../model/storage.ts';

/** Sent to pages as `{type:'event', event: StorageEvent, state}` whenever the health changes (one of the page's game events). */
export type { StorageEvent } from '../model/storage.ts';

export interface StoreOptions {
  /** file operations (tests inject failures) */
  fs?: StoreFs;
  /** every storage event: health changes (for pages) and notes (for the log) */
  onEvent?: (e: StorageEvent | { type: 'storage-note'; say: string }) => void;
  /** retry period while writes wait in memory (default 2 s) */
  retryMs?: number;
  /** tag changes within this window go down as one journal record (default 100 ms) */
  tagsDelayMs?: number;
  /** how long a game list stays fresh before the folder is read again (default 2 s) */
  listTtlMs?: number;
}

export class GameStore {
  private readonly fs: StoreFs;
  private readonly onEvent: NonNullable<StoreOptions['onEvent']>;
  private readonly writer: JournalWriter;
  private readonly folderLock: FolderLock;
  private readonly recovery: Recovery;
  readonly catalogue: Catalogue;

  constructor(
    readonly dir: string,
    opts: StoreOptions = {},
  ) {
    this.fs = opts.fs ?? realFs;
    this.onEvent = opts.onEvent ?? (() => {});
    this.catalogue = new Catalogue(dir, opts.listTtlMs ?? DEFAULTS.listTtlMs, (file) => this.writer.waiting(file));
    this.writer = new JournalWriter(dir, this.fs, {
      retryMs: opts.retryMs ?? DEFAULTS.retryMs,
      tagsDelayMs: opts.tagsDelayMs ?? DEFAULTS.tagsDelayMs,
      emit: (say) => this.emitHealth(say),
      touched: (file, text) => this.catalogue.touched(file, text),
    });
    this.folderLock = new FolderLock(dir, this.fs, (say) => this.note(say));
    this.recovery = new Recovery(dir, this.fs, {
      fail: (what, e) => this.writer.fail(what, e),
      rewritten: (id, size) => this.writer.rewritten(id, size),
      note: (say) => this.note(say),
      emit: (say) => this.emitHealth(say),
    });
  }

  // ---------------------------------------------------------------- health

  health(): StorageHealth {
    const base = { ok: true, message: `games are saved in ${this.dir}` } as StorageHealth;
    const damage = this.recovery.damage;
    const trouble = this.writer.trouble;
    if (damage)
      Object.assign(base, {
        ok: false,
        message: damage.message,
        problem: damage.problem,
        damaged: damage.report,
        choice: this.recovery.choice(),
      });
    if (trouble) {
      Object.assign(base, { ok: false, message: trouble.message, problem: trouble.problem, since: trouble.since, unsaved: this.unsaved() });
      if (damage) base.message += ` Also: ${damage.message}`;
    }
    return base;
  }

  /** records and files waiting in memory */
  unsaved(): number {
    return this.writer.unsaved();
  }

  private emitHealth(say: string): void {
    const storage = this.health();
    this.onEvent({ type: 'storage', ok: storage.ok, say, ...(storage.problem ? { problem: storage.problem } : {}), storage });
  }

  /** A line for the log (not a change of health). */
  note(say: string): void {
    this.onEvent({ type: 'storage-note', say });
  }

  // ---------------------------------------------------------------- the lock

  /** Takes the folder's lock; throws GamesFolderLocked naming the holder. A lock whose owner is gone is taken over, with a note of what was found. */
  lock(): void {
    this.folderLock.take();
  }

  /** Writes the address being served into the lock, for the message a second service shows. */
  lockServing(url: string): void {
    this.folderLock.serving(url);
  }

  unlock(): void {
    this.folderLock.release();
  }

  /** Removes temp files left by a killed process (only call with the lock held). Returns the names removed. */
  cleanTemp(): string[] {
    const removed = removeTempFiles(this.fs, this.dir);
    if (removed.length)
      this.note(
        `removed ${removed.length} temp file${removed.length > 1 ? 's' : ''} left by an earlier stop: ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', …' : ''}`,
      );
    return removed;
  }

  // ---------------------------------------------------------------- writing

  /** Appends (and fsyncs) a journal record; a 'new' record starts the next game's journal. Earlier games' unwritten records stay queued. */
  append(entry: JournalEntry): void {
    if (entry.k === 'new' && this.recovery.newGame(entry.id) && !this.writer.trouble) this.emitHealth(`games are saved in ${this.dir}`);
    this.writer.append(entry);
  }

  /** Carries on with a game's journal after a restart: cuts what follows its last good record. */
  resume(id: string, read: Pick<JournalRead, 'goodEnd' | 'size' | 'missingNewline' | 'entries'>): void {
    this.writer.resume(id, read);
  }

  /** True when nothing waits in memory. */
  get flushed(): boolean {
    return this.writer.flushed;
  }

  /** Writes everything waiting: journal records in order (each game to its file), then files. */
  flush(): void {
    this.writer.flush();
  }

  /** Rewrites a game's PDN atomically (kept in memory and retried if it cannot be written); never for a game replaced while empty. */
  writePdn(id: string, text: string): void {
    this.writer.writeFile(`${id}.pdn`, text);
  }

  /**
   * Deletes a saved game's files (not the game being written). Returns false
   * when it has none; throws with the file system's reason when one cannot go.
   */
  remove(id: string): boolean {
    return this.writer.remove(id);
  }

  closeJournal(): void {
    this.writer.closeJournal();
  }

  /** Last attempt to write what waits, then closes; the lock is released. */
  close(): void {
    this.writer.close();
    this.unlock();
  }

  // ---------------------------------------------------------------- calibration files

  /** Saves a board's calibration beside the games (atomically; retried like the rest). */
  saveCalibration(boardId: string, data: unknown): string {
    const file = calibrationName(boardId);
    this.writer.writeFile(file, JSON.stringify(data, null, 1) + '\n');
    return join(this.dir, file);
  }

  /** A board's saved calibration, or null; throws when the file is there but unreadable. */
  loadCalibration(boardId: string): { file: string; data: unknown } | null {
    const file = join(this.dir, calibrationName(boardId));
    if (!this.fs.existsSync(file)) return null;
    return { file, data: JSON.parse(this.fs.readFileSync(file, 'utf8') as string) };
  }

  // ---------------------------------------------------------------- recovery (resumeNewest in recovery.ts drives these)

  /** The newest game's journal and what reading it found (older games are never considered). */
  findInProgress(): Found {
    return this.recovery.findInProgress();
  }

  /** Keeps a copy of a damaged journal beside it; returns its path (null if it could not be kept). */
  keepAside(id: string): string | null {
    return this.recovery.copyAside(this.recovery.journalPath(id));
  }

  /** Keeps a copy of a game's PDN before it is rewritten from a damaged journal (it may hold moves the journal lost). */
  keepAsidePdn(id: string): string | null {
    return this.recovery.copyAside(join(this.dir, `${id}.pdn`));
  }

  pdnExists(id: string): boolean {
    return this.fs.existsSync(join(this.dir, `${id}.pdn`));
  }

  /** Replaces a game's journal with the records given (after its damaged original was kept aside). */
  rewriteJournal(id: string, entries: readonly JournalEntry[]): number {
    return this.recovery.rewriteJournal(id, entries);
  }

  /** Moves a journal that cannot be resumed out of the way (it is kept, renamed). */
  setAside(id: string): string | null {
    return this.recovery.setAside(id);
  }

  /** Records what a damaged journal lost, for the page and /api/info. */
  reportDamage(report: DamageReport): void {
    this.recovery.reportDamage(report);
  }

  // ---------------------------------------------------------------- saved games (catalogue.ts)

  /** Every saved game, newest first, and what was skipped. */
  list(): Promise<GameList> {
    return this.catalogue.list();
  }

  /** A saved game's whole PDN text, or null. */
  readPdn(id: string): Promise<string | null> {
    return this.catalogue.readPdn(id);
  }

  /** Game `n` (1-based) of a saved file, read by its byte range (see Catalogue.game). */
  game(id: string, n = 1): Promise<{ text: string; games: number } | null> {
    return this.catalogue.game(id, n);
  }

  /** A saved file's text in pieces (a big file a few games at a time), for streaming it as a download. */
  pieces(id: string): AsyncGenerator<string> {
    return this.catalogue.pieces(id);
  }

  /** Every saved game, oldest first (a big file in pieces), for streaming the archive. */
  archive(): AsyncGenerator<{ id: string; text: string }> {
    return this.catalogue.archive();
  }
}

function calibrationName(boardId: string): string {
  return `calibration-${boardId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
}
