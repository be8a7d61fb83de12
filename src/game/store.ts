// The games directory: each game's journal (appended and fsynced record by
// record, truncated back to its last good record after a failed write so a
// fragment is never followed by more records), its PDN and the boards'
// calibrations (rewritten atomically: temp file, fsync, rename), a lock so
// one service at a time uses the folder, and the clean-up of temp files a
// kill left behind. Finds the newest game after a restart (with what its
// journal lost), lists saved games and streams the archive asynchronously,
// from a cache, skipping and listing whatever is not a readable game. When
// the disk is full or the folder unwritable it says so once, keeps every
// unwritten record of every game in memory, in order, and retries until
// they are down. Its health and events are typed (`StorageHealth`,
// `StorageEvent`): the one place the storage shape is defined.

import * as nodeFs from 'node:fs';
import { open as openAsync, readdir, readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { GameEvent } from '../protocol/v1.ts';
import { isEmptyGame, makeJournalLine, readJournal, type JournalEntry, type JournalRead } from './journal.ts';

// ---------------------------------------------------------------- the storage shape (hello, /api/info, events)

// The types are declared once, in the page–server protocol (src/protocol/v1.ts).
export type { DamageReport, StorageHealth, StorageProblem } from '../protocol/v1.ts';
import type { DamageReport, StorageHealth, StorageProblem } from '../protocol/v1.ts';

/** Sent to pages as `{type:'event', event: StorageEvent, state}` whenever the health changes. */
export type StorageEvent = Extract<GameEvent, { type: 'storage' }>;

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

export interface SkippedFile {
  file: string;
  why: string;
}

export interface GameList {
  games: SavedGame[];
  /** entries of the folder that look like games but cannot be read as one */
  skipped: SkippedFile[];
  /** why the folder itself could not be read (then `games` is empty) */
  error?: string;
}

/** The newest journal at start-up and what reading it found. */
export type Found =
  | { kind: 'none' }
  | { kind: 'game'; id: string; file: string; read: JournalRead; finished: boolean };

export class GamesFolderLocked extends Error {
  override readonly name = 'GamesFolderLocked';
  constructor(message: string, readonly holder: LockInfo) {
    super(message);
  }
}

export interface LockInfo {
  pid: number;
  machine: string;
  started: string;
  url: string | null;
  nonce: string;
}

/** The synchronous file operations the store writes with: a seam so tests can inject ENOSPC, short writes… */
export type StoreFs = Pick<typeof nodeFs, 'openSync' | 'writeSync' | 'fsyncSync' | 'ftruncateSync' | 'fstatSync' | 'closeSync' | 'renameSync' | 'unlinkSync' | 'mkdirSync' | 'readFileSync' | 'readdirSync' | 'statSync' | 'copyFileSync' | 'existsSync'>;

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

interface Item {
  id: string;
  text: string;
  /** a tags record waiting to be merged with the next ones */
  tags?: boolean;
}

const LOCK = 'crownhead.lock';
const TEMP = /(\.tmp-\d+|\.tmp)$/;

function describeCode(e: unknown): { problem: StorageProblem; why: string } {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return { problem: 'disk-full', why: 'the disk is full' };
    case 'EACCES':
    case 'EPERM':
      return { problem: 'unwritable', why: 'permission denied' };
    case 'EROFS':
      return { problem: 'unwritable', why: 'read-only file system' };
    case 'ENOTDIR':
    case 'EEXIST':
      return { problem: 'unwritable', why: 'a file stands where the folder should be' };
    default:
      return { problem: 'io-error', why: err?.message ?? String(e) };
  }
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

export class GameStore {
  private readonly fs: StoreFs;
  private readonly onEvent: NonNullable<StoreOptions['onEvent']>;
  private readonly retryMs: number;
  private readonly tagsDelayMs: number;
  private readonly listTtlMs: number;

  /** journal records not yet on disk, every game, in order */
  private queue: Item[] = [];
  /** files (PDN, calibration) waiting to be written: file name → text */
  private files = new Map<string, string>();
  /** the open journal of the current game */
  private fd: number | null = null;
  private fdId: string | null = null;
  private currentId: string | null = null;
  /** the current game has nothing but its start so far */
  private currentEmpty = false;
  /** games with nothing in them replaced by a new game: removed once the new one is on disk */
  private discard = new Set<string>();
  /** per journal: the byte length of its good records, and whether bytes after it must be cut first */
  private good = new Map<string, { offset: number; dirty: boolean }>();
  private trouble: { problem: StorageProblem; message: string; since: number } | null = null;
  private damage: { report: DamageReport; message: string; problem: StorageProblem; replacedBy: string | null } | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private tagsTimer: ReturnType<typeof setTimeout> | null = null;
  private lockNonce: string | null = null;
  private closed = false;

  constructor(readonly dir: string, opts: StoreOptions = {}) {
    this.fs = opts.fs ?? nodeFs;
    this.onEvent = opts.onEvent ?? (() => {});
    this.retryMs = opts.retryMs ?? 2000;
    this.tagsDelayMs = opts.tagsDelayMs ?? 100;
    this.listTtlMs = opts.listTtlMs ?? 2000;
  }

  // ---------------------------------------------------------------- health

  health(): StorageHealth {
    const base = { ok: true, message: `games are saved in ${this.dir}` } as StorageHealth;
    if (this.damage) Object.assign(base, { ok: false, message: this.damage.message, problem: this.damage.problem, damaged: this.damage.report, choice: this.damageChoice() });
    if (this.trouble) {
      Object.assign(base, { ok: false, message: this.trouble.message, problem: this.trouble.problem, since: this.trouble.since, unsaved: this.unsaved() });
      if (this.damage) base.message += ` Also: ${this.damage.message}`;
    }
    return base;
  }

  private damageChoice(): string {
    const r = this.damage!.report;
    const kept = r.keptAt ? ` The damaged file is kept at ${r.keptAt}.` : '';
    return r.resumed
      ? `Play on with the game as resumed (${r.moves} move${r.moves === 1 ? '' : 's'}), or start a new game if it is not the game on the board.${kept}`
      : `A new game was started.${kept}${r.pdn ? ` The lost game's record as last saved is in ${r.pdn}.` : ''}`;
  }

  /** records and files waiting in memory */
  unsaved(): number {
    return this.queue.filter((i) => i.text !== '\n').length + this.files.size;
  }

  private emitHealth(say: string): void {
    const storage = this.health();
    this.onEvent({ type: 'storage', ok: storage.ok, say, ...(storage.problem ? { problem: storage.problem } : {}), storage });
  }

  private note(say: string): void {
    this.onEvent({ type: 'storage-note', say });
  }

  private fail(what: string, e: unknown): void {
    const { problem, why } = describeCode(e);
    const message = `cannot ${what} in ${this.dir}: ${why}. Play goes on; what is not yet written is kept in memory and written as soon as possible (do not stop the server until it is).`;
    const changed = !this.trouble || this.trouble.problem !== problem;
    this.trouble = { problem, message, since: this.trouble?.since ?? Date.now() };
    if (changed) this.emitHealth(message);
    this.scheduleRetry();
  }

  private recovered(): void {
    if (!this.trouble) return;
    this.trouble = null;
    this.emitHealth(`games are saved in ${this.dir} again: everything that waited in memory is written`);
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush();
    }, this.retryMs);
    this.retryTimer.unref?.();
  }

  private ensureDir(): boolean {
    try {
      this.fs.mkdirSync(this.dir, { recursive: true });
      return true;
    } catch (e) {
      this.fail('create the games folder', e);
      return false;
    }
  }

  // ---------------------------------------------------------------- the lock

  /**
   * Takes the folder's lock (a file holding this process's id): a second
   * service on the same folder would resume the same game and both would
   * write it. A lock whose process is gone is stale and taken over.
   * Throws GamesFolderLocked naming the holder.
   */
  lock(): void {
    const file = join(this.dir, LOCK);
    try {
      this.fs.mkdirSync(this.dir, { recursive: true });
    } catch {
      return; // the folder cannot be made: nothing can be written, the trouble is reported on the first write
    }
    const me: LockInfo = { pid: process.pid, machine: hostname(), started: new Date().toISOString(), url: null, nonce: randomBytes(8).toString('hex') };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = this.fs.openSync(file, 'wx');
        try {
          this.fs.writeSync(fd, JSON.stringify(me) + '\n');
          this.fs.fsyncSync(fd);
        } finally {
          this.fs.closeSync(fd);
        }
        this.lockNonce = me.nonce;
        return;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') {
          this.note(`cannot lock the games folder ${this.dir}: ${describeCode(e).why}; go on without the lock`);
          return;
        }
      }
      let holder: LockInfo | null = null;
      try {
        holder = JSON.parse(this.fs.readFileSync(file, 'utf8')) as LockInfo;
      } catch {
        holder = null; // garbled: a lock being written right now, or left half-written by a crash
      }
      if (holder && typeof holder.pid === 'number') {
        const alive = holder.machine !== hostname() || processAlive(holder.pid);
        if (alive) {
          const where = holder.machine !== hostname() ? ` on ${holder.machine}` : '';
          throw new GamesFolderLocked(
            `the games folder ${this.dir} is in use by another Crownhead (process ${holder.pid}${where}${holder.url ? `, serving ${holder.url}` : ''}, since ${holder.started}). ` +
              `Two services on one folder would both write the same game: stop that one first, or give this one its own folder with --games.`,
            holder,
          );
        }
        this.note(`removed a stale lock on ${this.dir}: process ${holder.pid} that held it is no longer running`);
      } else {
        try {
          if (Date.now() - this.fs.statSync(file).mtimeMs < 2000) {
            sleepSync(200);
            continue;
          }
        } catch {
          continue;
        }
        this.note(`removed an unreadable lock file ${file}`);
      }
      try {
        this.fs.unlinkSync(file);
      } catch {
        /* someone else took it over: try again */
      }
    }
    throw new Error(`cannot take the lock ${file}: it keeps changing (another Crownhead starting on the same folder?)`);
  }

  /** Writes the address being served into the lock, for the message a second service shows. */
  lockServing(url: string): void {
    if (!this.lockNonce) return;
    const file = join(this.dir, LOCK);
    try {
      const info = JSON.parse(this.fs.readFileSync(file, 'utf8')) as LockInfo;
      if (info.nonce !== this.lockNonce) return;
      this.atomicWrite(file, JSON.stringify({ ...info, url }) + '\n');
    } catch {
      /* the lock keeps its first form */
    }
  }

  unlock(): void {
    if (!this.lockNonce) return;
    const file = join(this.dir, LOCK);
    try {
      const info = JSON.parse(this.fs.readFileSync(file, 'utf8')) as LockInfo;
      if (info.nonce === this.lockNonce) this.fs.unlinkSync(file);
    } catch {
      /* gone already */
    }
    this.lockNonce = null;
  }

  /** Removes temp files left by a killed process (only call with the lock held). Returns the names removed. */
  cleanTemp(): string[] {
    const removed: string[] = [];
    let names: string[];
    try {
      names = this.fs.readdirSync(this.dir) as string[];
    } catch {
      return removed;
    }
    for (const f of names) {
      if (!TEMP.test(f)) continue;
      try {
        this.fs.unlinkSync(join(this.dir, f));
        removed.push(f);
      } catch {
        /* a directory, or not ours to remove */
      }
    }
    if (removed.length) this.note(`removed ${removed.length} temp file${removed.length > 1 ? 's' : ''} left by an earlier stop: ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', …' : ''}`);
    return removed;
  }

  // ---------------------------------------------------------------- the journal

  /** Appends (and fsyncs) a journal record; a 'new' record starts the next game's journal. Earlier games' unwritten records stay queued. */
  append(entry: JournalEntry): void {
    if (entry.k === 'new') {
      if (this.currentId && this.currentId !== entry.id && this.currentEmpty) this.discard.add(this.currentId);
      // The damage report stays until the user has moved on: a new game after the resumed one
      // (or after the one started in place of a game that could not be resumed).
      if (this.damage && this.damage.report.game !== entry.id && (this.damage.report.resumed || this.damage.replacedBy !== null)) {
        this.damage = null;
        if (!this.trouble) this.emitHealth(`games are saved in ${this.dir}`);
      } else if (this.damage && !this.damage.report.resumed) this.damage.replacedBy = entry.id;
      this.currentId = entry.id;
      this.currentEmpty = entry.moves.length === 0;
    } else if (entry.k !== 'tags' && entry.k !== 'clock' && entry.k !== 'draw-offer') {
      this.currentEmpty = false;
    }
    const id = this.currentId;
    if (!id) throw new Error('journal record before any new-game record');
    const text = makeJournalLine(entry);
    if (entry.k === 'tags') {
      // Each tags record holds every tag: a burst of changes goes down as its last.
      const last = this.queue[this.queue.length - 1];
      if (last?.tags && last.id === id) last.text = text;
      else this.queue.push({ id, text, tags: true });
      if (!this.trouble && !this.tagsTimer && !this.closed) {
        this.tagsTimer = setTimeout(() => {
          this.tagsTimer = null;
          this.flush();
        }, this.tagsDelayMs);
        this.tagsTimer.unref?.();
      }
      return;
    }
    this.queue.push({ id, text });
    this.flush();
  }

  /** Carries on with a game's journal after a restart: cuts what follows its last good record. */
  resume(id: string, read: Pick<JournalRead, 'goodEnd' | 'size' | 'missingNewline' | 'entries'>): void {
    this.closeJournal();
    this.currentId = id;
    this.currentEmpty = isEmptyGame(read.entries);
    this.good.set(id, { offset: read.goodEnd, dirty: read.size !== read.goodEnd });
    if (read.missingNewline) this.queue.push({ id, text: '\n' });
    if (read.size !== read.goodEnd || read.missingNewline) this.flush();
  }

  /** True when nothing waits in memory. */
  get flushed(): boolean {
    return this.queue.length === 0 && this.files.size === 0;
  }

  /** Writes everything waiting: journal records in order (each game to its file), then files. */
  flush(): void {
    if (this.tagsTimer) {
      clearTimeout(this.tagsTimer);
      this.tagsTimer = null;
    }
    if (this.queue.length === 0 && this.files.size === 0) return this.recovered();
    if (!this.ensureDir()) return;
    while (this.queue.length) {
      const id = this.queue[0].id;
      let n = 0;
      while (n < this.queue.length && this.queue[n].id === id) n++;
      if (!this.writeJournal(id, this.queue.slice(0, n).map((i) => i.text).join(''))) return;
      this.queue.splice(0, n);
    }
    for (const [file, text] of [...this.files]) {
      try {
        this.atomicWrite(join(this.dir, file), text);
        this.files.delete(file);
      } catch (e) {
        this.fail(`write ${file}`, e);
        return;
      }
    }
    this.dropDiscarded();
    this.recovered();
  }

  private journalPath(id: string): string {
    return join(this.dir, `${id}.journal`);
  }

  /** Appends `text` to a game's journal and fsyncs; on failure cuts the file back to its last good record. */
  private writeJournal(id: string, text: string): boolean {
    let fd: number | null = null;
    const own = id === this.currentId;
    try {
      if (own && this.fd !== null && this.fdId === id) fd = this.fd;
      else {
        if (own) this.closeJournal();
        fd = this.fs.openSync(this.journalPath(id), 'a');
        if (own) {
          this.fd = fd;
          this.fdId = id;
        }
      }
      let g = this.good.get(id);
      if (!g) {
        g = { offset: this.fs.fstatSync(fd).size, dirty: false };
        this.good.set(id, g);
      }
      if (g.dirty) {
        this.fs.ftruncateSync(fd, g.offset);
        g.dirty = false;
      }
      const buf = Buffer.from(text, 'utf8');
      let off = 0;
      try {
        while (off < buf.length) off += this.fs.writeSync(fd, buf, off);
        this.fs.fsyncSync(fd);
      } catch (e) {
        // Cut the fragment off now (or before the next write) so no record ever follows one.
        g.dirty = true;
        try {
          this.fs.ftruncateSync(fd, g.offset);
          g.dirty = false;
        } catch {
          /* retried before the next write */
        }
        throw e;
      }
      g.offset += buf.length;
      if (!own) this.fs.closeSync(fd);
      return true;
    } catch (e) {
      this.fail(`write the journal of game ${id}`, e);
      if (fd !== null) {
        try {
          this.fs.closeSync(fd);
        } catch {
          /* already gone */
        }
      }
      if (own) {
        this.fd = null;
        this.fdId = null;
      }
      return false;
    }
  }

  /** Games replaced while empty: their files go once the new game is on disk. */
  private dropDiscarded(): void {
    for (const id of this.discard) {
      if (this.queue.some((i) => i.id === id) || id === this.currentId) continue;
      for (const f of [`${id}.journal`, `${id}.pdn`]) {
        try {
          this.fs.unlinkSync(join(this.dir, f));
        } catch {
          /* never written */
        }
      }
      this.good.delete(id);
      this.listCache?.games.delete(`${id}.pdn`);
      this.discard.delete(id);
    }
  }

  /**
   * Deletes a saved game's files (not the game being written). Returns false
   * when it has none; throws with the file system's reason when one cannot go.
   */
  remove(id: string): boolean {
    if (id === this.currentId || this.queue.some((i) => i.id === id)) throw new Error(`game ${id} is being written`);
    let removed = false;
    for (const f of [`${id}.pdn`, `${id}.journal`]) {
      if (!this.fs.existsSync(join(this.dir, f))) continue;
      this.fs.unlinkSync(join(this.dir, f));
      removed = true;
    }
    this.good.delete(id);
    this.listCache?.games.delete(`${id}.pdn`);
    return removed;
  }

  closeJournal(): void {
    if (this.fd !== null) {
      try {
        this.fs.closeSync(this.fd);
      } catch {
        /* ignore */
      }
    }
    this.fd = null;
    this.fdId = null;
  }

  /** Last attempt to write what waits, then closes; the lock is released. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.flush();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.closeJournal();
    this.unlock();
  }

  // ---------------------------------------------------------------- files written whole

  private atomicWrite(file: string, text: string): void {
    const tmp = `${file}.tmp-${process.pid}`;
    try {
      const fd = this.fs.openSync(tmp, 'w');
      try {
        const buf = Buffer.from(text, 'utf8');
        let off = 0;
        while (off < buf.length) off += this.fs.writeSync(fd, buf, off);
        this.fs.fsyncSync(fd);
      } finally {
        this.fs.closeSync(fd);
      }
      this.fs.renameSync(tmp, file);
    } catch (e) {
      try {
        this.fs.unlinkSync(tmp);
      } catch {
        /* nothing more to do */
      }
      throw e;
    }
    try {
      const dfd = this.fs.openSync(this.dir, 'r');
      this.fs.fsyncSync(dfd);
      this.fs.closeSync(dfd);
    } catch {
      /* directory fsync is best effort on some file systems */
    }
  }

  /** Rewrites a game's PDN atomically (kept in memory and retried if it cannot be written). */
  writePdn(id: string, text: string): void {
    if (this.discard.has(id)) return;
    const file = `${id}.pdn`;
    this.files.set(file, text);
    this.patchListing(file, text);
    this.flush();
  }

  /** Saves a board's calibration beside the games (atomically; retried like the rest). */
  saveCalibration(boardId: string, data: unknown): string {
    const file = calibrationName(boardId);
    this.files.set(file, JSON.stringify(data, null, 1) + '\n');
    this.flush();
    return join(this.dir, file);
  }

  /** A board's saved calibration, or null; throws when the file is there but unreadable. */
  loadCalibration(boardId: string): { file: string; data: unknown } | null {
    const file = join(this.dir, calibrationName(boardId));
    if (!this.fs.existsSync(file)) return null;
    return { file, data: JSON.parse(this.fs.readFileSync(file, 'utf8')) };
  }

  // ---------------------------------------------------------------- resuming

  /** The newest game's journal and what reading it found (older games are never considered). */
  findInProgress(): Found {
    let names: string[];
    try {
      names = (this.fs.readdirSync(this.dir) as string[]).filter((f) => f.endsWith('.journal'));
    } catch {
      return { kind: 'none' };
    }
    const journals = names
      .map((f) => {
        try {
          const st = this.fs.statSync(join(this.dir, f));
          return st.isFile() ? { f, m: st.mtimeMs } : null;
        } catch {
          return null;
        }
      })
      .filter((x): x is { f: string; m: number } => x !== null)
      .sort((a, b) => b.m - a.m || (a.f < b.f ? 1 : -1));
    if (!journals.length) return { kind: 'none' };
    const f = journals[0].f;
    const file = join(this.dir, f);
    const read = readJournal(this.fs.readFileSync(file) as Buffer);
    const last = [...read.entries].reverse().find((e) => e.k === 'result' || e.k === 'move' || e.k === 'takeback');
    return { kind: 'game', id: f.replace(/\.journal$/, ''), file, read, finished: last?.k === 'result' && last.result !== '*' };
  }

  /** Keeps a copy of a damaged journal beside it; returns its path (null if it could not be kept). */
  keepAside(id: string): string | null {
    return this.copyAside(this.journalPath(id));
  }

  /** Keeps a copy of a game's PDN before it is rewritten from a damaged journal (it may hold moves the journal lost). */
  keepAsidePdn(id: string): string | null {
    return this.copyAside(join(this.dir, `${id}.pdn`));
  }

  private copyAside(file: string): string | null {
    const aside = `${file}.damaged-${stamp(Date.now())}`;
    try {
      this.fs.copyFileSync(file, aside);
      return aside;
    } catch (e) {
      this.note(`cannot keep a copy of ${file}: ${describeCode(e).why}`);
      return null;
    }
  }

  /** Replaces a game's journal with the records given (after its damaged original was kept aside). */
  rewriteJournal(id: string, entries: readonly JournalEntry[]): number {
    const text = entries.map(makeJournalLine).join('');
    const size = Buffer.byteLength(text);
    try {
      this.atomicWrite(this.journalPath(id), text);
    } catch (e) {
      // The damaged file stays; the reader skips its damage again next time, and appends go after its last good record.
      this.fail(`rewrite the journal of game ${id}`, e);
      return -1;
    }
    this.good.set(id, { offset: size, dirty: false });
    return size;
  }

  /** Moves a journal that cannot be resumed out of the way (it is kept, renamed). */
  setAside(id: string): string | null {
    const file = this.journalPath(id);
    const aside = `${file}.damaged-${stamp(Date.now())}`;
    try {
      this.fs.renameSync(file, aside);
      return aside;
    } catch (e) {
      this.note(`cannot move the damaged journal ${file} aside: ${describeCode(e).why}`);
      return null;
    }
  }

  /** Records what a damaged journal lost, for the page and /api/info. */
  reportDamage(report: DamageReport): void {
    const lost = report.dropped.length + report.unreplayed;
    const where = report.dropped.slice(0, 3).map((d) => `line ${d.line}: ${d.why}`).join('; ');
    const message = report.resumed
      ? `The journal of game ${report.game} was damaged: ${lost} record${lost === 1 ? '' : 's'} could not be read${where ? ` (${where})` : ''}${report.unreplayed ? `, and ${report.unreplayed} after them no longer fit the game` : ''}. The game was resumed from what could be read: ${report.moves} move${report.moves === 1 ? '' : 's'}.`
      : `The newest game, ${report.game}, cannot be resumed: its journal is damaged${where ? ` (${where})` : ''}. A new game was started; no older game was resumed in its place.`;
    this.damage = { report, message, problem: report.resumed ? 'damaged-journal' : 'unresumable', replacedBy: null };
    this.emitHealth(message);
  }

  // ---------------------------------------------------------------- saved games (asynchronous, cached)

  private listCache: { at: number; games: Map<string, { mtimeMs: number; size: number; game: SavedGame | null; why?: string }>; skipped: SkippedFile[] } | null = null;
  private listing: Promise<GameList> | null = null;

  private patchListing(file: string, text: string): void {
    if (!this.listCache) return;
    this.listCache.games.set(file, { mtimeMs: Date.now(), size: Buffer.byteLength(text), game: summarise(file, text, Date.now()) });
  }

  /** Every saved game, newest first, and what was skipped. Reads the folder at most every `listTtlMs`, asynchronously. */
  list(): Promise<GameList> {
    const c = this.listCache;
    if (c && Date.now() - c.at < this.listTtlMs) return Promise.resolve(this.listed(c));
    return (this.listing ??= this.scan().finally(() => (this.listing = null)));
  }

  private listed(c: { games: Map<string, { game: SavedGame | null; why?: string }>; skipped: SkippedFile[] }): GameList {
    const games: SavedGame[] = [];
    const skipped = [...c.skipped];
    for (const [file, v] of c.games) {
      if (v.game) games.push(v.game);
      else skipped.push({ file, why: v.why ?? 'not a readable game' });
    }
    games.sort((a, b) => (a.id < b.id ? 1 : -1));
    skipped.sort((a, b) => (a.file < b.file ? -1 : 1));
    return { games, skipped };
  }

  private async scan(): Promise<GameList> {
    const old = this.listCache?.games ?? new Map();
    const games: NonNullable<GameStore['listCache']>['games'] = new Map();
    const skipped: SkippedFile[] = [];
    let entries: nodeFs.Dirent[];
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
    } catch (e) {
      // No folder yet, or one that cannot be read: no saved games, and why.
      this.listCache = null;
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? { games: [], skipped: [] } : { games: [], skipped: [], error: `cannot read the games folder ${this.dir}: ${describeCode(e).why}` };
    }
    const pdns = entries.filter((d) => d.name.endsWith('.pdn'));
    for (const d of pdns) if (!d.isFile() && !d.isSymbolicLink()) skipped.push({ file: d.name, why: d.isDirectory() ? 'a folder, not a game file' : 'not a regular file' });
    const files = pdns.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
    // A few at a time: the folder may hold thousands of games, play must not wait for them.
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++];
        const path = join(this.dir, file);
        try {
          const st = await stat(path);
          if (!st.isFile()) {
            skipped.push({ file, why: 'not a regular file' });
            continue;
          }
          const prev = old.get(file);
          if (prev && prev.mtimeMs === st.mtimeMs && prev.size === st.size) {
            games.set(file, prev);
            continue;
          }
          const head = await readHead(path, 16 * 1024);
          const game = summarise(file, head, st.mtimeMs);
          games.set(file, game ? { mtimeMs: st.mtimeMs, size: st.size, game } : { mtimeMs: st.mtimeMs, size: st.size, game: null, why: 'not a PDN game (no tags or moves)' });
        } catch (e) {
          skipped.push({ file, why: `cannot be read: ${describeCode(e).why}` });
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    this.listCache = { at: Date.now(), games, skipped };
    return this.listed(this.listCache);
  }

  /** A saved game's PDN text, or null (no such game, or not a readable file). */
  async readPdn(id: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.includes('..')) return null;
    const waiting = this.files.get(`${id}.pdn`);
    if (waiting !== undefined) return waiting;
    try {
      return await readFile(join(this.dir, `${id}.pdn`), 'utf8');
    } catch {
      return null;
    }
  }

  /** Every saved game, oldest first, one at a time (for streaming the archive). */
  async *archive(): AsyncGenerator<{ id: string; text: string }> {
    const ids = (await this.list()).games.map((g) => g.id).reverse();
    // A few files read ahead, handed out in order.
    const ahead: Promise<string | null>[] = [];
    let next = 0;
    const fill = () => {
      while (ahead.length < 8 && next < ids.length) ahead.push(this.readPdn(ids[next++]));
    };
    fill();
    for (let k = 0; k < ids.length; k++) {
      const text = await ahead.shift()!;
      fill();
      if (text) yield { id: ids[k], text };
    }
  }
}

function calibrationName(boardId: string): string {
  return `calibration-${boardId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A reused pid: a live process that is not a Node program cannot be a Crownhead.
  try {
    const cmd = nodeFs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /node|crownhead/i.test(cmd);
  } catch {
    return true;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function readHead(path: string, bytes: number): Promise<string> {
  const fh = await openAsync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** The list entry of a PDN file from its first bytes, or null when it is not a game. */
function summarise(file: string, text: string, modified: number): SavedGame | null {
  const body = text.replace(/^\uFEFF/, '');
  if (!/^\s*\[[A-Za-z]\w*\s+"/m.test(body) && !/(^|\s)1\.\s*\d/.test(body)) return null;
  const tag = (n: string) => new RegExp(`^\\[${n} "((?:[^"\\\\]|\\\\.)*)"\\]`, 'm').exec(body)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
  return {
    id: file.replace(/\.pdn$/, ''),
    file,
    event: tag('Event'),
    black: tag('Black'),
    white: tag('White'),
    date: tag('Date'),
    result: tag('Result') || '*',
    modified,
  };
}
