// PDN files of any size, one game at a time: an index of where each game
// starts in a file, found by scanning its bytes a chunk at a time (each
// chunk an asynchronous read, so the event loop keeps serving while a 20 MB
// collection is indexed) and kept while the file's size and mtime are
// unchanged; then one game is opened by reading its byte range alone. A game
// starts where the PDN reader would start one: at a tag that follows
// movetext (outside {comments}, `;` and `%` line comments and tag values).
// What one request may cost is capped: a game over MAX_GAME_BYTES is refused.

import { open, readFile, stat } from 'node:fs/promises';
import { CrownheadError } from '../common/errors.ts';

/** Bytes of one game's text a request may read and parse. */
export const MAX_GAME_BYTES = 256 * 1024;
/** Bytes read per step while indexing (one event-loop turn each). */
const CHUNK = 64 * 1024;
/** Files whose index is kept (the least recently used goes first). */
const KEPT = 20_000;

export interface Span {
  start: number;
  end: number;
}

export interface GameIndex {
  size: number;
  mtimeMs: number;
  /** where each game starts, in file order (8 bytes a game: a 20 MB collection's index is about 1 MB) */
  starts: Float64Array;
}

/** Game `k`'s byte range (0-based). */
const spanOf = (index: GameIndex, k: number): Span => ({
  start: index.starts[k],
  end: k + 1 < index.starts.length ? index.starts[k + 1] : index.size,
});

export class CollectionError extends CrownheadError<'no-such-game' | 'too-large'> {
  override readonly name = 'CollectionError';
}

const enum Mode {
  Text,
  Brace,
  Line,
  Tag,
  Quote,
  Escape,
}

/** Byte classes in movetext: 0 other (movetext), 1 blank, 2 newline, 3 '[', 4 '{', 5 ';', 6 '%'. */
const CLASS = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0d, 0x0c, 0x0b]) CLASS[b] = 1;
CLASS[0x0a] = 2;
CLASS[0x5b] = 3;
CLASS[0x7b] = 4;
CLASS[0x3b] = 5;
CLASS[0x25] = 6;

/** Finds game starts in a PDN file's bytes, fed in chunks. */
export class GameStartScanner {
  readonly starts: number[] = [];
  private mode = Mode.Text;
  private lineStart = true;
  private body = false;
  private at = 0;

  feed(buf: Uint8Array): void {
    let { mode, lineStart, body } = this;
    const base = this.at;
    const n = buf.length;
    // a byte-order mark opening the file is not movetext
    let i = base === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    for (; i < n; i++) {
      const b = buf[i];
      if (mode === Mode.Text) {
        const c = CLASS[b];
        if (c === 2) lineStart = true;
        else if (c === 1) continue;
        else if (c === 3) {
          // '[': a tag; after movetext it starts the next game
          if (body || this.starts.length === 0) this.starts.push(base + i);
          body = false;
          lineStart = false;
          mode = Mode.Tag;
        } else if (c === 5 || (c === 6 && lineStart)) mode = Mode.Line;
        else {
          if (this.starts.length === 0) this.starts.push(base + i);
          body = true;
          lineStart = false;
          if (c === 4) mode = Mode.Brace;
        }
      } else if (mode === Mode.Brace || mode === Mode.Line) {
        // jump to the end of the comment
        const end = buf.indexOf(mode === Mode.Brace ? 0x7d : 0x0a, i);
        if (end < 0) break;
        i = end;
        lineStart = mode === Mode.Line;
        mode = Mode.Text;
      } else if (mode === Mode.Escape) mode = Mode.Quote;
      else if (b === 0x0a) {
        // an unclosed tag ends with its line, as the reader takes it
        mode = Mode.Text;
        lineStart = true;
      } else if (mode === Mode.Tag) {
        if (b === 0x22) mode = Mode.Quote;
        else if (b === 0x5d) mode = Mode.Text;
      } else if (b === 0x5c) mode = Mode.Escape;
      else if (b === 0x22) mode = Mode.Tag;
    }
    this.mode = mode;
    this.lineStart = lineStart;
    this.body = body;
    this.at += n;
  }

  index(size: number, mtimeMs: number): GameIndex {
    return { size, mtimeMs, starts: Float64Array.from(this.starts) };
  }

  spans(size: number): Span[] {
    return this.starts.map((start, k) => ({ start, end: this.starts[k + 1] ?? size }));
  }
}

/** The index of one file's games (scanned whole, one chunk per event-loop turn). */
async function scan(path: string): Promise<GameIndex> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    const scanner = new GameStartScanner();
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, st.size)));
    let pos = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      scanner.feed(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    return scanner.index(pos, st.mtimeMs);
  } finally {
    await fh.close();
  }
}

async function readRange(path: string, span: Span): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(span.end - span.start);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, span.start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** Indexes of PDN files, kept while each file is unchanged; one scan at a time per file. */
export class CollectionIndex {
  private kept = new Map<string, GameIndex>();
  private scanning = new Map<string, Promise<GameIndex>>();
  /** figures for tests and benches: scans made, opens answered from a kept index */
  readonly counts = { scans: 0, hits: 0 };

  /** The index of a file's games (throws the file system's error, e.g. ENOENT). */
  async index(path: string): Promise<GameIndex> {
    return (await this.lookup(path)).index;
  }

  /** The kept index when the file is unchanged; else a fresh one (a small file is read whole once, and its bytes handed back). */
  private async lookup(path: string): Promise<{ index: GameIndex; whole?: Buffer }> {
    const st = await stat(path);
    const known = this.kept.get(path);
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) {
      this.counts.hits++;
      this.keep(path, known); // most recently used last
      return { index: known };
    }
    if (st.size <= CHUNK) {
      this.counts.scans++;
      const whole = await readFile(path);
      const scanner = new GameStartScanner();
      scanner.feed(whole);
      const index = scanner.index(whole.length, st.mtimeMs);
      this.keep(path, index);
      return { index, whole };
    }
    let pending = this.scanning.get(path);
    if (!pending) {
      this.counts.scans++;
      pending = scan(path).finally(() => this.scanning.delete(path));
      this.scanning.set(path, pending);
    }
    const index = await pending;
    this.keep(path, index);
    return { index };
  }

  private keep(path: string, index: GameIndex): void {
    this.kept.delete(path);
    this.kept.set(path, index);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The text of game `n` (1-based) of a file and how many games it holds. Throws CollectionError when there is no such game or it is too large. */
  async game(path: string, n = 1): Promise<{ text: string; games: number }> {
    const { index, whole } = await this.lookup(path);
    const count = index.starts.length;
    if (!Number.isInteger(n) || n < 1 || n > count)
      throw new CollectionError(
        'no-such-game',
        count ? `the file holds ${count} game${count === 1 ? '' : 's'}, not ${n}` : 'the file holds no game',
      );
    const span = spanOf(index, n - 1);
    if (span.end - span.start > MAX_GAME_BYTES) {
      throw new CollectionError(
        'too-large',
        `game ${n} is ${((span.end - span.start) / 2 ** 20).toFixed(1)} MiB of text, over the ${MAX_GAME_BYTES / 1024} KiB one request may read`,
      );
    }
    const text = whole ? whole.subarray(span.start, span.end).toString('utf8') : await readRange(path, span);
    return { text, games: count };
  }

  /** A file's games a few at a time, each piece at most about `bytes` long (for streaming it without holding it whole). */
  async *pieces(path: string, bytes = CHUNK): AsyncGenerator<string> {
    const index = await this.index(path);
    const count = index.starts.length;
    let k = 0;
    while (k < count) {
      const start = index.starts[k];
      let end = spanOf(index, k++).end;
      while (k < count && spanOf(index, k).end - start <= bytes) end = spanOf(index, k++).end;
      yield await readRange(path, { start, end });
    }
  }

  forget(path: string): void {
    this.kept.delete(path);
  }
}
