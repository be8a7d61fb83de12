// The games folder's lock (src/storage/lock.ts): a second service is
// refused, naming the process; a lock whose owner is gone is taken over
// whatever it holds, with a note of what was found; temp files are cleaned.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { GamesFolderLocked } from '../../src/storage/lock.ts';
import { folder, open } from './helpers.ts';

describe('the lock', () => {
  it('is locked by one service: a second is refused, naming the process; a stale lock is taken over; temp files are cleaned', () => {
    const dir = folder();
    const { store } = open(dir);
    store.lock();
    store.lockServing('http://127.0.0.1:8123/');
    const second = open(dir).store;
    expect(() => second.lock()).toThrow(GamesFolderLocked);
    expect(() => second.lock()).toThrow(
      new RegExp(`in use by another Crownhead \\(process ${process.pid}, serving http://127\\.0\\.0\\.1:8123/`),
    );
    store.unlock();
    expect(existsSync(join(dir, 'crownhead.lock'))).toBe(false);

    // A lock left by a process that is gone (killed) is stale.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(
      join(dir, 'crownhead.lock'),
      JSON.stringify({ pid: Number(dead.stdout.trim()), machine: hostname(), started: 'earlier', url: null, nonce: 'x' }),
    );
    writeFileSync(join(dir, 'g1.pdn.tmp-12345'), 'half a PDN');
    writeFileSync(join(dir, 'calibration-B1.json.tmp'), '{');
    const third = open(dir);
    third.store.lock();
    expect(third.notes.join('\n')).toMatch(new RegExp(`removed a stale lock .*process ${dead.stdout.trim()}`));
    expect(third.store.cleanTemp().sort()).toEqual(['calibration-B1.json.tmp', 'g1.pdn.tmp-12345']);
    expect(readdirSync(dir)).toEqual(['crownhead.lock']);
  });

  // A lock under 2 s old that is empty or garbled (a stop mid-write) used to block start-up with
  // "it keeps changing", and a lock that is a folder was refused for ever.
  it('an empty lock file just left behind is taken over, with a note saying it was empty', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'crownhead.lock'), '');
    const { store, notes } = open(dir);
    expect(() => store.lock()).not.toThrow();
    expect(notes.join('\n')).toMatch(/removed an empty lock file/);
    expect(JSON.parse(readFileSync(join(dir, 'crownhead.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a garbled lock file just left behind is taken over, the note quoting what it held', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'crownhead.lock'), '{"pid": 12');
    const { store, notes } = open(dir);
    expect(() => store.lock()).not.toThrow();
    expect(notes.join('\n')).toMatch(/removed a garbled lock file \("\{"pid": 12"\)/);
    // and the lock now holds this service, so a second one is refused
    expect(() => open(dir).store.lock()).toThrow(GamesFolderLocked);
  });

  it('a folder standing where the lock belongs is moved aside, not refused for ever', () => {
    const dir = folder();
    mkdirSync(join(dir, 'crownhead.lock'), { recursive: true });
    writeFileSync(join(dir, 'crownhead.lock', 'something'), 'kept');
    const { store, notes } = open(dir);
    expect(() => store.lock()).not.toThrow();
    expect(notes.join('\n')).toMatch(/found a folder where the lock file .* belongs .*moved it aside to .*crownhead\.lock\.found-/);
    const aside = readdirSync(dir).find((f) => f.startsWith('crownhead.lock.found-'))!;
    expect(readFileSync(join(dir, aside, 'something'), 'utf8')).toBe('kept');
    expect(JSON.parse(readFileSync(join(dir, 'crownhead.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a lock held by a live process on another machine is respected, whatever its age', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'crownhead.lock'), JSON.stringify({ pid: 1, machine: 'elsewhere', started: 'earlier', url: null, nonce: 'x' }));
    expect(() => open(dir).store.lock()).toThrow(/process 1 on elsewhere/);
  });

  it('on a file system without hard links (FAT) the lock is written in place, and still refuses a second service', () => {
    const dir = folder();
    const noLinks = {
      ...fs,
      linkSync: () => {
        throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      },
    };
    const { store, notes } = open(dir, { fs: noLinks });
    store.lock();
    expect(notes).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'crownhead.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(readdirSync(dir)).toEqual(['crownhead.lock']);
    expect(() => open(dir, { fs: noLinks }).store.lock()).toThrow(GamesFolderLocked);
  });
});
