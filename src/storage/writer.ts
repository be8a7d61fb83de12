// The writer: everything the store puts on disk goes through it. Journal
// records are appended and fsynced record by record, each game to its own
// journal, through the one journal appender (append.ts, the tournaments' too):
// a failed write is cut back to the last good record (now, or before the next
// write) so a fragment is never followed by more records.
// Whole files (PDN, calibration) are rewritten atomically. When the disk is
// full or the folder unwritable it says so once, keeps every unwritten record
// of every game in memory, in order, and retries until they are down. A game
// replaced by a new one before it had anything in it is never archived: its
// journal and PDN go once the new game is on disk, and a late PDN write for
// it is ignored. Owns the "trouble" half of the storage health.

import { join } from 'node:path';
import type { StorageProblem } from '../model/storage.ts';
import { atomicWrite, describeCode, type StoreFs } from './disk.ts';
import { JournalAppender, type GoodEnd } from './append.ts';
import { isEmptyGame, makeJournalLine, type JournalEntry, type JournalRead } from './journal.ts';

export interface WriterOptions {
  /** retry period while writes wait in memory */
  retryMs: number;
  /** tag changes within this window go down as one journal record */
  tagsDelayMs: number;
  /** the health changed (the store emits it with the whole health) */
  emit: (say: string) => void;
  /** a file was written or removed: the catalogue patches its listing */
  touched: (file: string, text: string | null) => void;
}

export interface Trouble {
  problem: StorageProblem;
  message: string;
  since: number;
}

interface Item {
  id: string;
  text: string;
  /** a tags record waiting to be merged with the next ones */
  tags?: boolean;
}

/** How many replaced empty games are remembered, so a PDN write arriving after their removal is ignored. */
const FORGOTTEN_KEPT = 64;

export class JournalWriter {
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
  /** such games already removed: never written again (oldest first) */
  private forgotten = new Set<string>();
  /** per journal: the byte length of its good records, and whether bytes after it must be cut first */
  private good = new Map<string, GoodEnd>();
  private trouble_: Trouble | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private tagsTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly fs: StoreFs,
    private readonly opts: WriterOptions,
  ) {}

  get trouble(): Trouble | null {
    return this.trouble_;
  }

  get current(): string | null {
    return this.currentId;
  }

  /** records and files waiting in memory */
  unsaved(): number {
    return this.queue.filter((i) => i.text !== '\n').length + this.files.size;
  }

  /** True when nothing waits in memory. */
  get flushed(): boolean {
    return this.queue.length === 0 && this.files.size === 0;
  }

  /** A file's text still waiting to be written, if any. */
  waiting(file: string): string | undefined {
    return this.files.get(file);
  }

  /** True while the game is the one being written or has records waiting. */
  writing(id: string): boolean {
    return id === this.currentId || this.queue.some((i) => i.id === id);
  }

  // ---------------------------------------------------------------- trouble and retries

  fail(what: string, e: unknown): void {
    const { problem, why } = describeCode(e);
    const message = `cannot ${what} in ${this.dir}: ${why}. Play goes on; what is not yet written is kept in memory and written as soon as possible (do not stop the server until it is).`;
    const changed = !this.trouble_ || this.trouble_.problem !== problem;
    this.trouble_ = { problem, message, since: this.trouble_?.since ?? Date.now() };
    if (changed) this.opts.emit(message);
    this.scheduleRetry();
  }

  private recovered(): void {
    if (!this.trouble_) return;
    this.trouble_ = null;
    this.opts.emit(`games are saved in ${this.dir} again: everything that waited in memory is written`);
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush();
    }, this.opts.retryMs);
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

  // ---------------------------------------------------------------- the journal

  /** Appends (and fsyncs) a journal record; a 'new' record starts the next game's journal. Earlier games' unwritten records stay queued. */
  append(entry: JournalEntry): void {
    if (entry.k === 'new') {
      if (this.currentId && this.currentId !== entry.id && this.currentEmpty) this.discard.add(this.currentId);
      this.currentId = entry.id;
      this.currentEmpty = entry.moves.length === 0;
    } else if (entry.k !== 'tags' && entry.k !== 'clock' && entry.k !== 'draw-offer' && entry.k !== 'takeback-offer') {
      this.currentEmpty = false;
    }
    const id = this.currentId;
    if (!id) throw new Error('journal record before any new-game record');
    const text = makeJournalLine(entry);
    if (entry.k === 'tags') return this.appendTags(id, text);
    this.queue.push({ id, text });
    this.flush();
  }

  /** Each tags record holds every tag: a burst of changes goes down as its last. */
  private appendTags(id: string, text: string): void {
    const last = this.queue[this.queue.length - 1];
    if (last?.tags && last.id === id) last.text = text;
    else this.queue.push({ id, text, tags: true });
    if (!this.trouble_ && !this.tagsTimer && !this.closed) {
      this.tagsTimer = setTimeout(() => {
        this.tagsTimer = null;
        this.flush();
      }, this.opts.tagsDelayMs);
      this.tagsTimer.unref?.();
    }
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

  /** A journal was rewritten whole (by recovery): appends go after its `size` bytes. */
  rewritten(id: string, size: number): void {
    this.good.set(id, { offset: size, dirty: false });
  }

  /** Queues a whole file to be written atomically (kept in memory and retried if it cannot be). */
  writeFile(file: string, text: string): void {
    if (file.endsWith('.pdn')) {
      const id = file.slice(0, -4);
      if (this.discard.has(id) || this.forgotten.has(id)) return; // a game replaced while empty is never archived
    }
    this.files.set(file, text);
    if (file.endsWith('.pdn')) this.opts.touched(file, text);
    this.flush();
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
      if (
        !this.writeJournal(
          id,
          this.queue
            .slice(0, n)
            .map((i) => i.text)
            .join(''),
        )
      )
        return;
      this.queue.splice(0, n);
    }
    for (const [file, text] of [...this.files]) {
      try {
        atomicWrite(this.fs, this.dir, join(this.dir, file), text);
        this.files.delete(file);
      } catch (e) {
        this.fail(`write ${file}`, e);
        return;
      }
    }
    this.dropDiscarded();
    this.recovered();
  }

  journalPath(id: string): string {
    return join(this.dir, `${id}.journal`);
  }

  /** The journal's descriptor: the current game's stays open, another game's is opened for this write. */
  private openJournal(id: string): number {
    const own = id === this.currentId;
    if (own && this.fd !== null && this.fdId === id) return this.fd;
    if (own) this.closeJournal();
    const fd = this.fs.openSync(this.journalPath(id), 'a');
    if (own) {
      this.fd = fd;
      this.fdId = id;
    }
    return fd;
  }

  /** Appends `text` to a game's journal and fsyncs (append.ts: on failure the file is cut back to its last good record). */
  private writeJournal(id: string, text: string): boolean {
    let fd: number | null = null;
    const own = id === this.currentId;
    try {
      fd = this.openJournal(id);
      let g = this.good.get(id);
      if (!g) {
        g = { offset: this.fs.fstatSync(fd).size, dirty: false };
        this.good.set(id, g);
      }
      new JournalAppender<JournalEntry>(this.fs, fd, g, makeJournalLine).appendText(text);
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

  /** Games replaced while empty: their files go once the new game is on disk, and they are never written again. */
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
      this.files.delete(`${id}.pdn`);
      this.good.delete(id);
      this.opts.touched(`${id}.pdn`, null);
      this.discard.delete(id);
      this.forgotten.add(id);
      if (this.forgotten.size > FORGOTTEN_KEPT) this.forgotten.delete(this.forgotten.values().next().value!);
    }
  }

  /**
   * Deletes a saved game's files (not the game being written). Returns false
   * when it has none; throws with the file system's reason when one cannot go.
   */
  remove(id: string): boolean {
    if (this.writing(id)) throw new Error(`game ${id} is being written`);
    let removed = false;
    for (const f of [`${id}.pdn`, `${id}.journal`]) {
      if (!this.fs.existsSync(join(this.dir, f))) continue;
      this.fs.unlinkSync(join(this.dir, f));
      removed = true;
    }
    this.good.delete(id);
    this.opts.touched(`${id}.pdn`, null);
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

  /** Last attempt to write what waits, then closes. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.flush();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.closeJournal();
  }
}
