// A file-system seam for the games store that behaves like a disk filling
// up: while "full", writes put down what space is left (a short write, as
// the kernel does) and then fail with ENOSPC; the data really goes to the
// real files, so what a failed write leaves on disk is what tests read back.
// Truncating still works when full (it frees space), as on ext4 and tmpfs.

import * as fs from 'node:fs';
import type { StoreFs } from '../../src/storage/disk.ts';

export const enospc = (syscall: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });

export class FaultyFs {
  /** bytes that can still be written while full (Infinity when not full) */
  left = Infinity;
  /** ftruncate fails too (a worse file system) */
  truncateFails = false;
  writes = 0;
  fsyncs = 0;
  failedWrites = 0;

  /** Fills the disk, leaving `bytes` free. */
  fill(bytes = 0): void {
    this.left = bytes;
  }

  free(): void {
    this.left = Infinity;
    this.truncateFails = false;
  }

  get full(): boolean {
    return this.left !== Infinity;
  }

  readonly fs: StoreFs = {
    ...fs,
    writeSync: ((fd: number, data: string | NodeJS.ArrayBufferView, a?: unknown, b?: unknown, c?: unknown): number => {
      this.writes++;
      const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const offset = typeof data === 'string' ? 0 : typeof a === 'number' ? a : 0;
      const length = typeof data === 'string' ? buf.length : typeof b === 'number' ? b : buf.length - offset;
      if (this.left <= 0) {
        this.failedWrites++;
        throw enospc('write');
      }
      const n = Math.min(length, this.left);
      const written = fs.writeSync(fd, buf, offset, n, typeof c === 'number' ? c : null);
      if (this.full) this.left -= written;
      return written;
    }) as StoreFs['writeSync'],
    fsyncSync: (fd: number) => {
      this.fsyncs++;
      fs.fsyncSync(fd);
    },
    ftruncateSync: (fd: number, len?: number) => {
      if (this.truncateFails) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
      fs.ftruncateSync(fd, len);
    },
  };
}
