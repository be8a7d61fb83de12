// What every storage module shares about the disk: the synchronous
// file-system seam the store writes through (tests inject ENOSPC, short
// writes…), the plain-words reading of a file-system error (disk full,
// permission, read-only…), atomic whole-file writes (temp file, fsync,
// rename, directory fsync), the clean-up of temp files a kill left behind,
// and the time stamp put in the names of files kept aside.

import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import type { StorageProblem } from '../model/storage.ts';

/** The synchronous file operations the store writes with: a seam so tests can inject ENOSPC, short writes… */
export type StoreFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'linkSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'fstatSync'
  | 'closeSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'mkdirSync'
  | 'readFileSync'
  | 'readdirSync'
  | 'statSync'
  | 'copyFileSync'
  | 'existsSync'
>;

export const realFs: StoreFs = nodeFs;

/** A file-system error in the words the pages show, and the problem it is. */
export function describeCode(e: unknown): { problem: StorageProblem; why: string } {
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

/** "20250101T120000Z": for the names of files kept aside. */
export const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** Writes a whole buffer, however short the single writes. */
export function writeAll(fs: StoreFs, fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off);
}

/**
 * Replaces `file` (in `dir`) with `text` atomically: temp file (created with
 * `mode`: 0o600 for a key or a pin only its owner may read), fsync, rename,
 * then the folder fsynced (best effort). Throws the file system's error.
 */
export function atomicWrite(fs: StoreFs, dir: string, file: string, text: string, mode = 0o666): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      writeAll(fs, fd, Buffer.from(text, 'utf8'));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* nothing more to do */
    }
    throw e;
  }
  syncFolder(fs, dir);
}

/** The folder fsynced, so a new or renamed file's name survives a power cut too (best effort: not every system can open or fsync a folder). */
export function syncFolder(fs: StoreFs, dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    /* not every file system fsyncs a folder */
  } finally {
    fs.closeSync(fd);
  }
}

const TEMP = /(\.tmp-\d+|\.tmp)$/;

/** Removes the temp files a killed process left in `dir` (only with the lock held). Returns the names removed. */
export function removeTempFiles(fs: StoreFs, dir: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir) as string[];
  } catch {
    return removed;
  }
  for (const f of names) {
    if (!TEMP.test(f)) continue;
    try {
      fs.unlinkSync(join(dir, f));
      removed.push(f);
    } catch {
      /* a directory, or not ours to remove */
    }
  }
  return removed;
}
