// The endgame database's disk cache (the engine's edge: files and the
// environment). Where it lives ($CROWNHEAD_CACHE, else $XDG_CACHE_HOME or
// ~/.cache, /crownhead), loading it once per process, and building and writing
// it (atomically) when it is absent or damaged. The database itself and its
// byte format are pure (src/engine/egdb.ts).

import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { Egdb, EGDB_PIECES } from '../engine/egdb.ts';

/** Where the database is cached: $CROWNHEAD_CACHE, else $XDG_CACHE_HOME/crownhead, else ~/.cache/crownhead. */
export function defaultCacheDir(): string {
  if (process.env.CROWNHEAD_CACHE) return process.env.CROWNHEAD_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crownhead');
}

const loaded = new Map<string, Egdb>();

/**
 * Loads the cached database from dir, or solves it and writes it
 * (atomically). A damaged cache is reported through `log` and rebuilt.
 * Loaded once per process and directory.
 */
export function loadEgdb(
  maxPieces: number = EGDB_PIECES,
  dir: string = defaultCacheDir(),
  log: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
): Egdb {
  const key = `${maxPieces}:${dir}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const file = join(dir, `egdb-${maxPieces}.bin`);
  const db = new Egdb(maxPieces);
  let why: string | null = 'absent';
  if (existsSync(file)) {
    why = db.adopt(readFileSync(file));
    if (why) log(`endgame database ${file} is damaged (${why}): rebuilding it`);
  } else log(`building the ${maxPieces}-piece endgame database (first use; cached in ${file})`);
  if (why) {
    db.solve();
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`; // two processes building at once each write their own
    const bytes = db.serialize();
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
    log(`endgame database built: ${db.data.length} indices in ${(db.buildMs / 1000).toFixed(1)} s, ${bytes.length} bytes`);
  }
  loaded.set(key, db);
  return db;
}

/** Forget databases loaded in this process (tests that damage the cache). */
export function forgetEgdbs(): void {
  loaded.clear();
}
