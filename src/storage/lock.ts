// The games folder's lock, so one service at a time uses the folder: a
// second service on the same folder would resume the same game and both
// would write it. The lock file (`crownhead.lock`) holds the owner's process
// id, machine, start time, address served and a nonce; it is put down whole
// (written to a temp file, then linked into place; in place, as before, on a
// file system without hard links), so a live owner's lock is never seen empty
// or half-written. A lock whose owner is gone is taken over
// whatever it holds (a dead process's id, nothing, garbage, even a folder),
// with a note saying what was found.

import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { atomicWrite, describeCode, stamp, writeAll, type StoreFs } from './disk.ts';
import { CrownheadError } from '../common/errors.ts';

export const LOCK_FILE = 'crownhead.lock';

export interface LockInfo {
  pid: number;
  machine: string;
  started: string;
  url: string | null;
  nonce: string;
}

export class GamesFolderLocked extends CrownheadError<'folder-locked'> {
  override readonly name = 'GamesFolderLocked';
  constructor(
    message: string,
    readonly holder: LockInfo,
  ) {
    super('folder-locked', message);
  }
}

/** What stands at the lock's path. */
type Found = { kind: 'none' } | { kind: 'lock'; info: LockInfo } | { kind: 'folder' } | { kind: 'unreadable'; what: string };

/** How long an empty or garbled lock is watched for an older Crownhead (which wrote its lock in place) finishing it. */
const SETTLE_MS = 300;

export class FolderLock {
  private nonce: string | null = null;

  constructor(
    readonly dir: string,
    private readonly fs: StoreFs,
    private readonly note: (say: string) => void,
  ) {}

  private get file(): string {
    return join(this.dir, LOCK_FILE);
  }

  /** Takes the lock; throws GamesFolderLocked naming the holder when a live service has it. */
  take(): void {
    try {
      this.fs.mkdirSync(this.dir, { recursive: true });
    } catch {
      return; // the folder cannot be made: nothing can be written, the trouble is reported on the first write
    }
    const me: LockInfo = {
      pid: process.pid,
      machine: hostname(),
      started: new Date().toISOString(),
      url: null,
      nonce: randomBytes(8).toString('hex'),
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      const put = this.put(me);
      if (put === 'taken') {
        this.nonce = me.nonce;
        return;
      }
      if (put === 'no-lock') return;
      const found = this.settle(this.read());
      if (found.kind === 'none') continue; // released meanwhile
      if (found.kind === 'lock') this.refuseIfAlive(found.info);
      this.clear(found);
    }
    throw new Error(
      `cannot take the lock ${this.file}: another Crownhead took it each time it was freed (several starting on the same folder?)`,
    );
  }

  /** Puts the lock down whole: a temp file linked into place (fails if a lock is there). */
  private put(me: LockInfo): 'taken' | 'exists' | 'no-lock' {
    const text = JSON.stringify(me) + '\n';
    const tmp = `${this.file}.tmp-${process.pid}`;
    try {
      this.writeFile(tmp, 'w', text);
      this.fs.linkSync(tmp, this.file);
      return 'taken';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // EEXIST: a lock is there; ENOENT: our temp file went (a service starting alongside cleaned its temp files): look again
      if (code === 'EEXIST' || code === 'ENOENT') return 'exists';
      // A file system without hard links (FAT on a memory stick): the lock is written in place.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return this.putInPlace(text);
      this.note(`cannot lock the games folder ${this.dir}: ${describeCode(e).why}; go on without the lock`);
      return 'no-lock';
    } finally {
      try {
        this.fs.unlinkSync(tmp);
      } catch {
        /* never made */
      }
    }
  }

  private putInPlace(text: string): 'taken' | 'exists' | 'no-lock' {
    try {
      this.writeFile(this.file, 'wx', text);
      return 'taken';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
      this.note(`cannot lock the games folder ${this.dir}: ${describeCode(e).why}; go on without the lock`);
      return 'no-lock';
    }
  }

  private writeFile(file: string, flags: string, text: string): void {
    const fd = this.fs.openSync(file, flags);
    try {
      writeAll(this.fs, fd, Buffer.from(text));
      this.fs.fsyncSync(fd);
    } finally {
      this.fs.closeSync(fd);
    }
  }

  private read(): Found {
    let text: string;
    try {
      text = this.fs.readFileSync(this.file, 'utf8') as string;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'none' };
      if (code === 'EISDIR') return { kind: 'folder' };
      return { kind: 'unreadable', what: `a lock that cannot be read (${describeCode(e).why})` };
    }
    if (text.trim() === '') return { kind: 'unreadable', what: 'an empty lock file' };
    try {
      const info = JSON.parse(text) as LockInfo;
      if (info && typeof info.pid === 'number' && Number.isInteger(info.pid) && info.pid > 0)
        return { kind: 'lock', info: { ...info, machine: String(info.machine ?? hostname()) } };
    } catch {
      /* garbled */
    }
    const shown = text.slice(0, 40).replace(/[^\x20-\x7e]/g, '?');
    return { kind: 'unreadable', what: `a garbled lock file ("${shown}${text.length > 40 ? '…' : ''}")` };
  }

  /** An empty or garbled lock may be an older Crownhead writing it in place this instant: watch it briefly. */
  private settle(found: Found): Found {
    if (found.kind !== 'unreadable') return found;
    const until = Date.now() + SETTLE_MS;
    while (Date.now() < until) {
      sleepSync(50);
      const again = this.read();
      if (again.kind !== 'unreadable') return again;
    }
    return found;
  }

  private refuseIfAlive(holder: LockInfo): void {
    const elsewhere = holder.machine !== hostname();
    if (!elsewhere && !processAlive(holder.pid)) return;
    const where = elsewhere ? ` on ${holder.machine}` : '';
    throw new GamesFolderLocked(
      `the games folder ${this.dir} is in use by another Crownhead (process ${holder.pid}${where}${holder.url ? `, serving ${holder.url}` : ''}, since ${holder.started}). ` +
        `Two services on one folder would both write the same game: stop that one first, or give this one its own folder with --games.`,
      holder,
    );
  }

  /** Removes a lock whose owner is gone, saying what was found. */
  private clear(found: Exclude<Found, { kind: 'none' }>): void {
    try {
      if (found.kind === 'folder') {
        const aside = `${this.file}.found-${stamp(Date.now())}`;
        this.fs.renameSync(this.file, aside);
        this.note(
          `found a folder where the lock file of ${this.dir} belongs (no Crownhead makes one): moved it aside to ${aside} and took the lock`,
        );
        return;
      }
      this.fs.unlinkSync(this.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else cleared it: try again
      throw new Error(
        `cannot take over the lock ${this.file} (${found.kind === 'lock' ? `left by process ${found.info.pid}` : found.kind === 'folder' ? 'a folder' : found.what}): ${describeCode(e).why}`,
      );
    }
    this.note(
      found.kind === 'lock'
        ? `removed a stale lock on ${this.dir}: process ${found.info.pid} that held it is no longer running`
        : `removed ${found.what} from ${this.file}: no Crownhead was writing it (a live one puts its lock down whole), so it was left by a stop mid-write`,
    );
  }

  /** Writes the address being served into the lock, for the message a second service shows. */
  serving(url: string): void {
    if (!this.nonce) return;
    try {
      const info = JSON.parse(this.fs.readFileSync(this.file, 'utf8') as string) as LockInfo;
      if (info.nonce !== this.nonce) return;
      atomicWrite(this.fs, this.dir, this.file, JSON.stringify({ ...info, url }) + '\n');
    } catch {
      /* the lock keeps its first form */
    }
  }

  release(): void {
    if (!this.nonce) return;
    try {
      const info = JSON.parse(this.fs.readFileSync(this.file, 'utf8') as string) as LockInfo;
      if (info.nonce === this.nonce) this.fs.unlinkSync(this.file);
    } catch {
      /* gone already */
    }
    this.nonce = null;
  }
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
