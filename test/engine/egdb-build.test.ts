// Building the 5-piece endgame database from the page
// (src/engine-host/egdb-build.ts): a child process whose progress lines are
// read as slices done; what is on disk afterwards decides the status (built
// and whole, damaged, absent); a failed or stopped build is said, with the
// line it failed on; a second build, a built database and a machine with too
// little memory are refused with why. The child here is a small script that
// writes the lines the real build writes (the real one takes 13 minutes).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EgdbBuilder, type EgdbStatus } from '../../src/engine-host/egdb-build.ts';
import { buildPackedEgdb } from '../../src/engine-host/egdb-cache.ts';
import { until } from '../harness/until.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'crownhead-egdb-build-'));
  dirs.push(d);
  return d;
};

/** A child that says "slice k/3 … solved" as the build does, waiting for a file named go-k before each, then does `end`. */
function fakeBuild(dir: string, end: string): { cmd: string; args: string[] } {
  const script = `
const fs = require('node:fs'), path = require('node:path');
const dir = ${JSON.stringify(dir)};
const wait = (k) => new Promise((r) => { const t = setInterval(() => { if (fs.existsSync(path.join(dir, 'go-' + k))) { clearInterval(t); r(); } }, 10); });
(async () => {
  process.stderr.write('building the 5-piece endgame database into ' + path.join(dir, 'egdb-5.bin') + ' (374220600 indices)\\n');
  for (let k = 1; k <= 3; k++) { await wait(k); process.stderr.write('slice ' + k + '/3 p' + k + ' solved, ' + k + '.0 s elapsed\\n'); }
  await wait(4);
  ${end}
})();`;
  return { cmd: process.execPath, args: ['-e', script] };
}
const go = (dir: string, k: number) => writeFileSync(join(dir, `go-${k}`), '');
const state = (b: EgdbBuilder): EgdbStatus['state'] => b.status().state;

describe('building the endgame database from the page', () => {
  it('reads the progress, refuses a second build, and when the child is done says what is on disk (here a damaged file)', async () => {
    const dir = folder();
    let built = 0;
    const b = new EgdbBuilder({
      dir,
      memory: () => 8 * 1024 ** 3,
      command: fakeBuild(dir, `fs.writeFileSync(path.join(dir, 'egdb-5.bin'), 'not a database'); process.exit(0);`),
      onBuilt: () => built++,
    });
    expect(b.status()).toMatchObject({ state: 'absent', message: expect.stringMatching(/not built: the engine uses the 4-piece one/) });
    expect(b.start()).toMatchObject({ state: 'building', done: 0, total: 0 });
    expect(() => b.start()).toThrow(/being built already/);
    go(dir, 1);
    await until(() => b.status().done === 1, 'the first slice');
    expect(b.status()).toMatchObject({
      state: 'building',
      done: 1,
      total: 3,
      message: 'Building the 5-piece endgame database: slice 1 of 3.',
    });
    go(dir, 2);
    go(dir, 3);
    go(dir, 4);
    await until(() => state(b) !== 'building', 'the build to end');
    expect(built).toBe(1);
    expect(b.status()).toMatchObject({
      state: 'damaged',
      message: expect.stringMatching(/damaged \(truncated|damaged \(not a compressed/),
    });
  });

  it('a failed build names the line it failed on; a stopped one says it goes on from its last slice', async () => {
    const dir = folder();
    const failing = new EgdbBuilder({
      dir,
      memory: () => 8 * 1024 ** 3,
      command: fakeBuild(dir, `process.stderr.write('FATAL ERROR: Reached heap limit\\n'); process.exit(134);`),
    });
    failing.start();
    for (let k = 1; k <= 4; k++) go(dir, k);
    await until(() => state(failing) === 'failed', 'the failure');
    expect(failing.status().message).toMatch(/^The build failed: FATAL ERROR: Reached heap limit\. Building again goes on/);
    const dir2 = folder();
    const stopped = new EgdbBuilder({ dir: dir2, memory: () => 8 * 1024 ** 3, command: fakeBuild(dir2, 'process.exit(0);') });
    stopped.start();
    go(dir2, 1);
    await until(() => stopped.status().done === 1, 'a slice');
    stopped.stop();
    await until(() => state(stopped) === 'stopped', 'the stop');
    expect(stopped.status().message).toBe('The build was stopped at slice 1: building again goes on from there.');
  });

  it('refuses on a machine with too little memory, and when the database is built and whole', () => {
    const dir = folder();
    const small = new EgdbBuilder({ dir, memory: () => 2 * 1024 ** 3, command: fakeBuild(dir, 'process.exit(0);') });
    expect(() => small.start()).toThrow(/has 2\.0 GB of memory; building the 5-piece endgame database needs about 2\.4 GB free/);
    expect(state(small)).toBe('absent');
    // A real (small) compressed database: whole, so built.
    buildPackedEgdb(3, dir, undefined, () => undefined);
    const whole = new EgdbBuilder({ dir, pieces: 3, memory: () => 8 * 1024 ** 3 });
    expect(whole.status()).toMatchObject({ state: 'built', message: expect.stringMatching(/is built \(\d+ MB\) and in use/) });
    expect(() => whole.start()).toThrow(/built already/);
  });
});
