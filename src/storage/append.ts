// The one append-and-fsync writer of the journals on disk, the games'
// (writer.ts) and the tournaments' (src/tournament/journal.ts) alike: typed
// records, one a line, each formatted by its journal's own codec, written at
// the file's good end (just after its last whole record) and fsynced before
// the caller goes on. A failed write — a full disk puts down part of a line,
// then fails — is cut back to the good end at once or, if even the cut fails,
// before the next write, so a fragment is never followed by a record; the
// file system's error is then thrown for the caller to decide what it means
// (the games' writer keeps the record in memory and retries; a tournament
// refuses the change). A torn last line found on reading (the process was
// killed mid-write) is recovered the same way: its reader gives the good end,
// and the appender cuts the torn tail before it writes. Also how a journal's
// bytes split into lines, for both readers. File I/O through the store's
// seam (disk.ts), so tests inject a full disk.

import type { StoreFs } from './disk.ts';

/** Where a journal's whole records end, and whether bytes after it (a fragment, a torn line) must be cut before the next write. */
export interface GoodEnd {
  offset: number;
  dirty: boolean;
}

/** A journal file open for appending: records of type T, each one line as `format` writes it (with its newline). */
export class JournalAppender<T> {
  constructor(
    private readonly fs: StoreFs,
    readonly fd: number,
    /** the good end: shared with the owner, which may keep it across descriptors (writer.ts) */
    readonly end: GoodEnd,
    private readonly format: (record: T) => string,
  ) {}

  /** Bytes of whole records in the file. */
  get size(): number {
    return this.end.offset;
  }

  /** Appends records, fsynced; throws the file system's error with the file cut back to its last whole record (or marked to be). */
  append(...records: T[]): void {
    this.appendText(records.map(this.format).join(''));
  }

  /** Appends text already formatted as whole lines (a batch, or the newline a last record lacked). */
  appendText(text: string): void {
    const g = this.end;
    if (g.dirty) this.cut();
    const buf = Buffer.from(text, 'utf8');
    try {
      // Positioned writes: the lines go right after the last whole record whatever a failed write left.
      let off = 0;
      while (off < buf.length) off += this.fs.writeSync(this.fd, buf, off, buf.length - off, g.offset + off);
      this.fs.fsyncSync(this.fd);
    } catch (e) {
      // Cut the fragment off now (or before the next write) so no record ever follows one.
      g.dirty = true;
      try {
        this.cut();
      } catch {
        /* retried before the next write */
      }
      throw e;
    }
    g.offset += buf.length;
  }

  /** Cuts whatever follows the last whole record (a fragment, a torn last line), fsynced. */
  cut(): void {
    this.fs.ftruncateSync(this.fd, this.end.offset);
    this.fs.fsyncSync(this.fd);
    this.end.dirty = false;
  }
}

/** One line of a journal's bytes: its number (from 1), where it starts and ends (before the newline, and before a CR ending it), and whether it is the last, with no newline. */
export interface JournalLine {
  no: number;
  start: number;
  end: number;
  text: string;
  /** no newline ends it: the last bytes of the file (a torn line, unless its format can tell a whole record) */
  unterminated: boolean;
  /** it ended with a CR, not part of `text` (CRLF line ends: a journal copied through Windows tools or an editor) */
  cr: boolean;
}

/** The lines of a journal's bytes, in order (empty ones included: each reader decides what a blank line is). */
export function* journalLines(buf: Buffer): Generator<JournalLine> {
  let pos = 0;
  let no = 0;
  while (pos < buf.length) {
    no++;
    const nl = buf.indexOf(0x0a, pos);
    const unterminated = nl < 0;
    const end = unterminated ? buf.length : nl;
    // A CR before the LF (Windows line ends) is part of the line end, not of the record.
    const cr = end > pos && buf[end - 1] === 0x0d;
    yield { no, start: pos, end, text: buf.subarray(pos, cr ? end - 1 : end).toString('utf8'), unterminated, cr };
    pos = unterminated ? buf.length : nl + 1;
  }
}
