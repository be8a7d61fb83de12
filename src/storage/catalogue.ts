// The catalogue of saved games: lists the games folder asynchronously, from a
// cache (each file summarised from its first bytes, kept while its size and
// mtime are unchanged; patched by the store's own writes), skipping and
// listing whatever is not a readable game; reads one saved game (or one game
// of a PDN collection, by its byte range: collection.ts) and streams the
// archive a file at a time, a big file a few games at a time. Nothing here
// reads a whole large file into memory or parses it on the event loop.
// Deleted games wait in the trash (a `.trash` folder inside the games folder,
// each file named by when it was deleted) for TRASH_DAYS, to be restored from
// the archive view; older ones are emptied whenever the trash is listed.

import type { Dirent } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CollectionIndex } from './collection.ts';
import { describeCode } from './disk.ts';
import type { GameList, SavedGame, SkippedFile } from '../model/storage.ts';

// The listing's types are declared once, in the model (GET /api/games sends them as they are: src/protocol/v1.ts).
export type { GameList, SavedGame, SkippedFile } from '../model/storage.ts';

interface Listed {
  mtimeMs: number;
  size: number;
  game: SavedGame | null;
  why?: string;
}

/** Days a deleted game waits in the trash before it is emptied. */
export const TRASH_DAYS = 30;
const TRASH = '.trash';
const DAY_MS = 24 * 3600 * 1000;

/** A deleted game in the trash. */
export interface TrashedGame extends SavedGame {
  /** when it was deleted (ms since 1970) */
  deleted: number;
}

/** Files of the archive read whole (bigger ones are streamed a few games at a time). */
const WHOLE = 256 * 1024;
/** Bytes of a file's head its list entry is read from. */
const HEAD = 16 * 1024;

/** A game id as a file name: letters, digits, `_ . -`, never `..`. */
export const isGameId = (id: string) => /^[A-Za-z0-9_.-]+$/.test(id) && !id.includes('..');

export class Catalogue {
  private cache: { at: number; games: Map<string, Listed>; skipped: SkippedFile[] } | null = null;
  private listing: Promise<GameList> | null = null;
  readonly collections = new CollectionIndex();

  constructor(
    readonly dir: string,
    private readonly listTtlMs: number,
    /** a file's text still waiting to be written (newer than the disk's) */
    private readonly waiting: (file: string) => string | undefined,
  ) {}

  /** The store wrote (`text`) or removed (null) a game file: the cached list follows. */
  touched(file: string, text: string | null): void {
    this.collections.forget(join(this.dir, file));
    if (!this.cache) return;
    if (text === null) this.cache.games.delete(file);
    else this.cache.games.set(file, { mtimeMs: Date.now(), size: Buffer.byteLength(text), game: summarise(file, text, Date.now()) });
  }

  /** Files came into the folder from elsewhere (a game restored from the trash): the next list reads the folder again. */
  rescan(): void {
    if (this.cache) this.cache.at = -Infinity;
  }

  /** Every saved game, newest first, and what was skipped. Reads the folder at most every `listTtlMs`, asynchronously. */
  list(): Promise<GameList> {
    const c = this.cache;
    if (c && Date.now() - c.at < this.listTtlMs) return Promise.resolve(listed(c));
    return (this.listing ??= this.scan().finally(() => (this.listing = null)));
  }

  private async scan(): Promise<GameList> {
    const old = this.cache?.games ?? new Map<string, Listed>();
    const games = new Map<string, Listed>();
    const skipped: SkippedFile[] = [];
    let entries: Dirent[];
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
    } catch (e) {
      // No folder yet, or one that cannot be read: no saved games, and why.
      this.cache = null;
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT'
        ? { games: [], skipped: [] }
        : { games: [], skipped: [], error: `cannot read the games folder ${this.dir}: ${describeCode(e).why}` };
    }
    const pdns = entries.filter((d) => d.name.endsWith('.pdn'));
    for (const d of pdns)
      if (!d.isFile() && !d.isSymbolicLink())
        skipped.push({ file: d.name, why: d.isDirectory() ? 'a folder, not a game file' : 'not a regular file' });
    const files = pdns.filter((d) => d.isFile() || d.isSymbolicLink()).map((d) => d.name);
    // A few at a time: the folder may hold thousands of games, play must not wait for them.
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++];
        const got = await this.summary(file, old.get(file));
        if ('skip' in got) skipped.push({ file, why: got.skip });
        else games.set(file, got);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    this.cache = { at: Date.now(), games, skipped };
    return listed(this.cache);
  }

  /** A file's list entry: the cached one while the file is unchanged, else from its head. */
  private async summary(file: string, prev: Listed | undefined): Promise<Listed | { skip: string }> {
    const path = join(this.dir, file);
    try {
      const st = await stat(path);
      if (!st.isFile()) return { skip: 'not a regular file' };
      if (prev && prev.mtimeMs === st.mtimeMs && prev.size === st.size) return prev;
      const game = summarise(file, await readHead(path, HEAD), st.mtimeMs);
      return game
        ? { mtimeMs: st.mtimeMs, size: st.size, game }
        : { mtimeMs: st.mtimeMs, size: st.size, game: null, why: 'not a PDN game (no tags or moves)' };
    } catch (e) {
      return { skip: `cannot be read: ${describeCode(e).why}` };
    }
  }

  /** A saved game's whole PDN text, or null (no such game, or not a readable file). For small files: a collection is opened a game at a time (`game`). */
  async readPdn(id: string): Promise<string | null> {
    if (!isGameId(id)) return null;
    const waiting = this.waiting(`${id}.pdn`);
    if (waiting !== undefined) return waiting;
    try {
      return await readFile(join(this.dir, `${id}.pdn`), 'utf8');
    } catch {
      return null;
    }
  }

  /**
   * Game `n` (1-based) of a saved file, read by its byte range from an index
   * kept while the file is unchanged, and how many games the file holds.
   * Null when there is no such file; throws CollectionError when there is no
   * such game in it or the game is over the size one request may read.
   */
  async game(id: string, n = 1): Promise<{ text: string; games: number } | null> {
    if (!isGameId(id)) return null;
    const waiting = this.waiting(`${id}.pdn`);
    if (waiting !== undefined && n === 1) return { text: waiting, games: 1 };
    try {
      return await this.collections.game(join(this.dir, `${id}.pdn`), n);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw e;
    }
  }

  /** A saved file's text in pieces: whole when small, else a few games at a time (never the whole of a big file in memory). */
  async *pieces(id: string): AsyncGenerator<string> {
    if (!isGameId(id)) return;
    const waiting = this.waiting(`${id}.pdn`);
    if (waiting !== undefined) return yield waiting;
    const path = join(this.dir, `${id}.pdn`);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return;
    }
    if (size <= WHOLE) {
      const text = await this.readPdn(id);
      if (text) yield text;
      return;
    }
    try {
      yield* this.collections.pieces(path, WHOLE);
    } catch {
      /* gone or unreadable meanwhile: left out */
    }
  }

  /** Every saved game, oldest first, one at a time (for streaming the archive); a big file comes as several pieces with the same id. */
  async *archive(): AsyncGenerator<{ id: string; text: string }> {
    const ids = (await this.list()).games.map((g) => g.id).reverse();
    // A few files read ahead, handed out in order.
    const ahead: Promise<string | null>[] = [];
    let next = 0;
    const fill = () => {
      while (ahead.length < 8 && next < ids.length) ahead.push(this.small(ids[next++]));
    };
    fill();
    for (let k = 0; k < ids.length; k++) {
      const text = await ahead.shift()!;
      fill();
      if (text) yield { id: ids[k], text };
      else if (text === '') for await (const piece of this.pieces(ids[k])) yield { id: ids[k], text: piece };
    }
  }

  /** A small file's text; '' for a big one (streamed in pieces), null when unreadable. */
  private async small(id: string): Promise<string | null> {
    if (this.waiting(`${id}.pdn`) === undefined) {
      try {
        if ((await stat(join(this.dir, `${id}.pdn`))).size > WHOLE) return '';
      } catch {
        return null;
      }
    }
    return this.readPdn(id);
  }
}

/** "1764120000000-20261126-002718-343.pdn" → when it was deleted, and the game's file name. */
function trashName(name: string): { deleted: number; file: string } | null {
  const m = /^(\d{10,16})-(.+\.(?:pdn|journal))$/.exec(name);
  return m ? { deleted: Number(m[1]), file: m[2]! } : null;
}

/**
 * The trash of one games folder: a game's files are copied in before the
 * store removes them, listed (the expired ones emptied) and restored.
 */
export class Trash {
  readonly dir: string;
  constructor(
    private readonly games: Catalogue,
    readonly days = TRASH_DAYS,
  ) {
    this.dir = join(games.dir, TRASH);
  }

  /** Copies a saved game's files into the trash (throws with the reason if one cannot be kept: then nothing is deleted). */
  async keep(id: string, now = Date.now()): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const file of [`${id}.pdn`, `${id}.journal`]) {
      try {
        await copyFile(join(this.games.dir, file), join(this.dir, `${now}-${file}`));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  }

  /** The games in the trash, newest deletion first; files older than `days` are removed on the way. */
  async list(now = Date.now()): Promise<TrashedGame[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const games: TrashedGame[] = [];
    for (const name of names) {
      const t = trashName(name);
      if (!t) continue;
      if (now - t.deleted > this.days * DAY_MS) {
        await unlink(join(this.dir, name)).catch(() => undefined);
        continue;
      }
      if (!t.file.endsWith('.pdn')) continue;
      const path = join(this.dir, name);
      const st = await stat(path).catch(() => null);
      const game = st ? summarise(t.file, await readHead(path, HEAD), st.mtimeMs) : null;
      if (game) games.push({ ...game, deleted: t.deleted });
    }
    return games.sort((a, b) => b.deleted - a.deleted);
  }

  /**
   * Puts a game back in the games folder (its latest deletion). Returns false
   * when the trash has no such game; throws when a game of that id is there.
   */
  async restore(id: string): Promise<boolean> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const mine = names.map((n) => ({ n, t: trashName(n) })).filter((x) => x.t && x.t.file.replace(/\.(pdn|journal)$/, '') === id);
    if (!mine.length) return false;
    const latest = Math.max(...mine.map((x) => x.t!.deleted));
    const back = mine.filter((x) => x.t!.deleted === latest);
    for (const { t } of back)
      if (
        await stat(join(this.games.dir, t!.file)).then(
          () => true,
          () => false,
        )
      )
        throw new Error(`a game ${id} is already in the games folder`);
    for (const { n, t } of back) {
      await rename(join(this.dir, n), join(this.games.dir, t!.file));
    }
    this.games.rescan();
    return true;
  }
}

function listed(c: { games: Map<string, Listed>; skipped: SkippedFile[] }): GameList {
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

async function readHead(path: string, bytes: number): Promise<string> {
  const fh = await open(path, 'r');
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
