// The endgame database's disk cache (the engine's edge: files and the
// environment). Where it lives ($CROWNHEAD_CACHE, else $XDG_CACHE_HOME or
// ~/.cache, /crownhead), loading it once per process, and building and writing
// it (atomically: a temporary file, fsynced, renamed) — the 4-piece one when
// it is absent or damaged (first use), the compressed 5-piece one only when
// asked (`crownhead egdb build --pieces 5`). The engine probes the 5-piece
// one when its file is there and whole, else the 4-piece one (loadEndgame).
// The databases themselves and their byte formats are pure (src/engine/egdb.ts,
// src/engine/egdb-pack.ts).

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync } from 'node:fs';
import { rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { Egdb, EGDB_PIECES, type EndgameProbe, type SliceProgress } from '../engine/egdb.ts';
import { packEgdb, PackedEgdb } from '../engine/egdb-pack.ts';

/** Where the database is cached: $CROWNHEAD_CACHE, else $XDG_CACHE_HOME/crownhead, else ~/.cache/crownhead. */
export function defaultCacheDir(): string {
  if (process.env.CROWNHEAD_CACHE) return process.env.CROWNHEAD_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crownhead');
}

/** The cache file of the database of so many pieces (up to 4: a byte a value; 5: compressed). */
export const egdbFile = (pieces: number, dir: string = defaultCacheDir()): string => join(dir, `egdb-${pieces}.bin`);

/**
 * Pieces on the board from which an engine process loads the endgame
 * database (the CLI, the line engine, the workers): from 10, the search
 * reaches the exchanges into it, and probes it at the leaves where 5 (or 4)
 * are left. Not from the start: the 4-piece one may have to be built first
 * (10–25 s), and the opening has no use for it.
 */
export const ENDGAME_PIECES = 10;

const loaded = new Map<string, Egdb>();
const packed = new Map<string, PackedEgdb>();
type Log = (message: string) => void;
const stderrLog: Log = (m) => process.stderr.write(`${m}\n`);

/** Writes bytes to `file` atomically: a temporary file beside it (this process's own), fsynced, renamed, the folder fsynced. */
function writeAtomically(file: string, dir: string, fill: (fd: number) => void): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`; // two processes building at once each write their own
  const fd = openSync(tmp, 'w');
  try {
    fill(fd);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
  try {
    const dfd = openSync(dir, 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    // (some systems cannot open a folder to fsync it; the rename is done)
  }
}

/**
 * Loads the cached database (up to 4 pieces) from dir, or solves it and
 * writes it (atomically). A damaged cache is reported through `log` and
 * rebuilt. Loaded once per process and directory.
 */
export function loadEgdb(maxPieces: number = EGDB_PIECES, dir: string = defaultCacheDir(), log: Log = stderrLog): Egdb {
  const key = `${maxPieces}:${dir}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  if (maxPieces > 4) throw new RangeError('the 5-piece database is built by buildPackedEgdb and read by loadEndgame');
  const file = egdbFile(maxPieces, dir);
  const db = new Egdb(maxPieces);
  let why: string | null = 'absent';
  if (existsSync(file)) {
    why = db.adopt(readFileSync(file));
    if (why) log(`endgame database ${file} is damaged (${why}): rebuilding it`);
  } else log(`building the ${maxPieces}-piece endgame database (first use; cached in ${file})`);
  if (why) {
    db.solve();
    const bytes = db.serialize();
    writeAtomically(file, dir, (fd) => writeFileSync(fd, bytes));
    log(`endgame database built: ${db.data.length} indices in ${(db.buildMs / 1000).toFixed(1)} s, ${bytes.length} bytes`);
  }
  loaded.set(key, db);
  return db;
}

/** What a build did: the file, its size, the solving time. */
export interface PackedBuild {
  readonly file: string;
  readonly bytes: number;
  readonly solveMs: number;
  readonly packMs: number;
  readonly maxValue: number;
  /** Slices read back from the checkpoints of a build stopped part-way. */
  readonly resumed: number;
}

const CHECKPOINT_MAGIC = 'CHEGDBS1';
const checkpointFile = (partial: string, k: number, name: string): string => join(partial, `${String(k).padStart(2, '0')}-${name}.slice`);

/** A solved slice's values, kept while the build goes on (deflated, with a CRC-32), written atomically. */
function writeCheckpoint(partial: string, file: string, values: Uint16Array): void {
  const z = deflateRawSync(Buffer.from(values.buffer, values.byteOffset, values.byteLength), { level: 1 });
  const head = Buffer.alloc(16);
  head.write(CHECKPOINT_MAGIC, 0, 'latin1');
  head.writeUInt32LE(crc32(z), 8);
  head.writeUInt32LE(values.length, 12);
  writeAtomically(file, partial, (fd) => {
    writeFileSync(fd, head);
    writeFileSync(fd, z);
  });
}

/** A checkpoint's values when the file is whole and of the slice's size, else null (the slice is solved again). */
function readCheckpoint(file: string, size: number): Uint16Array | null {
  let b: Buffer;
  try {
    b = readFileSync(file);
  } catch {
    return null;
  }
  if (b.length < 16 || b.toString('latin1', 0, 8) !== CHECKPOINT_MAGIC || b.readUInt32LE(12) !== size) return null;
  const z = b.subarray(16);
  if (crc32(z) !== b.readUInt32LE(8)) return null;
  try {
    const raw = inflateRawSync(z);
    return raw.length === size * 2 ? new Uint16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)) : null;
  } catch {
    return null;
  }
}

/**
 * Builds the compressed database of `pieces` pieces (5 in use; fewer in tests)
 * into dir: starts from the cached database of one piece fewer (built if need
 * be), solves the rest slice by slice (progress through `onSlice`), each
 * solved slice kept in a checkpoint (FILE.partial/) so that a build stopped
 * part-way resumes where it stopped; then packs it into a temporary file,
 * fsyncs and renames it, and removes the checkpoints.
 */
export function buildPackedEgdb(
  pieces: number,
  dir: string = defaultCacheDir(),
  onSlice?: SliceProgress,
  log: Log = stderrLog,
): PackedBuild {
  const db = new Egdb(pieces);
  if (pieces > 2) db.seed(loadEgdb(pieces - 1, dir, log));
  const file = egdbFile(pieces, dir);
  const partial = `${file}.partial`;
  mkdirSync(partial, { recursive: true });
  let resumed = 0;
  while (db.slicesSolved < db.sliceCount) {
    const k = db.slicesSolved;
    const { values, name } = db.sliceValues(k);
    const kept = readCheckpoint(checkpointFile(partial, k, name), values.length);
    if (!kept || !db.adoptSlice(k, kept)) break;
    resumed++;
  }
  if (resumed) log(`resuming the build: ${resumed} solved slices read back from ${partial}`);
  db.solve((done, total, name) => {
    writeCheckpoint(partial, checkpointFile(partial, done - 1, name), db.sliceValues(done - 1).values);
    onSlice?.(done, total, name);
  });
  const t0 = performance.now();
  let bytes = 0;
  writeAtomically(file, dir, (fd) => {
    bytes = packEgdb(db, (b, at) => {
      let off = 0;
      while (off < b.length) off += writeSync(fd, b, off, b.length - off, at + off);
    });
  });
  rmSync(partial, { recursive: true, force: true });
  packed.delete(file);
  return { file, bytes, solveMs: db.buildMs, packMs: performance.now() - t0, maxValue: db.maxValue, resumed };
}

/**
 * Opens a compressed database file and checks every block's checksum; the
 * database, or why it cannot be trusted. Kept open (and loaded once) per process.
 */
export function openPackedEgdb(file: string): PackedEgdb | string {
  const known = packed.get(file);
  if (known) return known;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : (e as Error).message;
  }
  const size = statSync(file).size;
  const read = (at: number, length: number): Uint8Array => {
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, at + got);
      if (n === 0) throw new Error(`endgame database ${file} ended early (at ${at + got} of ${size} bytes)`);
      got += n;
    }
    return buf;
  };
  const db = PackedEgdb.open(read, size);
  const why = typeof db === 'string' ? db : db.verifyBlocks();
  if (why !== null || typeof db === 'string') {
    closeSync(fd);
    return why ?? 'unreadable';
  }
  packed.set(file, db);
  return db;
}

/**
 * Whether a compressed database file holds together — its header, its table
 * and its size (not every block's checksum: the engine checks those when it
 * opens it) — cheaply, without keeping it open: null, or why not. For a
 * status shown on a page (egdb-build.ts).
 */
export function packedEgdbShape(file: string, pieces = 5): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : (e as Error).message;
  }
  try {
    const size = statSync(file).size;
    const read = (at: number, length: number): Uint8Array => {
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, at);
      return n === length ? buf : buf.subarray(0, n);
    };
    const db = PackedEgdb.open(read, size);
    return typeof db === 'string' ? db : db.maxPieces !== pieces ? `made for ${db.maxPieces} pieces` : null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    closeSync(fd);
  }
}

/**
 * The endgame database the engine probes: the compressed 5-piece one when its
 * file is in dir and whole (a damaged one is reported through `log`, naming
 * it, and left alone), else the 4-piece one (built on first use). (`pieces`:
 * the compressed one's piece count, 5 but in tests.)
 */
export function loadEndgame(dir: string = defaultCacheDir(), log: Log = stderrLog, pieces = 5): EndgameProbe {
  const file = egdbFile(pieces, dir);
  if (existsSync(file)) {
    const db = openPackedEgdb(file);
    const why = typeof db === 'string' ? db : db.maxPieces !== pieces ? `made for ${db.maxPieces} pieces` : null;
    if (why === null && typeof db !== 'string') return db;
    log(`endgame database ${file} is damaged (${why}): not used; rebuild it with crownhead egdb build --pieces ${pieces}`);
  }
  return loadEgdb(EGDB_PIECES, dir, log);
}

/** Forget databases loaded in this process (tests that damage the cache). */
export function forgetEgdbs(): void {
  loaded.clear();
  packed.clear();
}
