// Preloaded into a `crownhead serve` child process by the crash test
// (node --import): makes the games folder's disk "full" while the flag file
// named by CH_TEST_DISK_FULL exists. Its content is how many bytes may still
// be written; writes then put down what fits (a short write) and fail with
// ENOSPC, like a real full disk. Only files opened under CH_TEST_GAMES are
// affected (never the log on stdout). Test-only: nothing in src/ knows of it.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const flag = process.env.CH_TEST_DISK_FULL;
const games = process.env.CH_TEST_GAMES;
if (flag && games) {
  const ours = new Set();
  const { openSync, writeSync, closeSync } = fs;
  let left = null; // bytes left while full
  const full = () => {
    if (!fs.existsSync(flag)) {
      left = null;
      return false;
    }
    if (left === null) left = Number(fs.readFileSync(flag, 'utf8')) || 0;
    return true;
  };
  fs.openSync = function (path, ...rest) {
    const fd = openSync.call(this, path, ...rest);
    if (String(path).startsWith(games)) ours.add(fd);
    return fd;
  };
  fs.closeSync = function (fd) {
    ours.delete(fd);
    return closeSync.call(this, fd);
  };
  fs.writeSync = function (fd, data, a, b, c) {
    if (!ours.has(fd) || !full()) return writeSync.call(this, fd, data, a, b, c);
    if (left <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const offset = typeof data === 'string' ? 0 : typeof a === 'number' ? a : 0;
    const length = typeof data === 'string' ? buf.length : typeof b === 'number' ? b : buf.length - offset;
    const n = writeSync.call(this, fd, buf, offset, Math.min(length, left), typeof c === 'number' ? c : null);
    left -= n;
    return n;
  };
  syncBuiltinESMExports();
}
