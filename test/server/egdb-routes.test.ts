// The endgame database from the page, over HTTP (src/server/egdb-routes.ts):
// any page that may watch reads its state; only the board's player (control
// rights) starts or stops a build — a page from another origin is refused;
// a second start while one runs answers 409 with why; a stop says the build
// goes on from its last slice. The build is a stand-in child (test/engine/
// egdb-build.test.ts has the builder's own tests).

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawRequest, tempDir, useServices } from './helpers.ts';

const { start } = useServices();

describe('the endgame database from the page', () => {
  it('reads for watchers, builds and stops for the board’s player, refuses another origin and a second build', async () => {
    const cache = tempDir('crownhead-egdb-');
    // A child that says one slice, then waits to be stopped.
    const script = `process.stderr.write('slice 1/85 2K1k+1K solved, 3.0 s elapsed\\n'); setInterval(() => {}, 1000);`;
    const s = await start({
      engine: { egdb: { dir: cache, memory: () => 8 * 1024 ** 3, command: { cmd: process.execPath, args: ['-e', script] } } },
    });
    const url = s.service.url + 'api/egdb';
    const get = async () => (await fetch(url)).json();
    /** Asks again until the state says so (a stand-in child's line or exit takes its time). */
    const reaches = async (ok: (st: { state: string; done: number }) => boolean, what: string) => {
      for (let i = 0; i < 5000; i++) {
        if (ok(await get())) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`never: ${what}`);
    };
    expect(await get()).toMatchObject({ state: 'absent', done: 0 });
    const evil = await rawRequest(url + '/build', { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(evil.status).toBe(403);
    expect((await get()).state).toBe('absent');
    const started = await fetch(url + '/build', { method: 'POST' });
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ state: 'building' });
    await reaches((st) => st.done === 1, 'the first slice read');
    expect(await get()).toMatchObject({ state: 'building', done: 1, total: 85, message: expect.stringMatching(/slice 1 of 85/) });
    const again = await fetch(url + '/build', { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, code: 'building', message: expect.stringMatching(/being built already/) });
    expect((await fetch(url + '/build', { method: 'DELETE' })).status).toBe(200);
    await reaches((st) => st.state === 'stopped', 'the build stopped');
    expect((await get()).message).toMatch(/stopped at slice 1: building again goes on from there/);
    expect(existsSync(join(cache, 'egdb-5.bin'))).toBe(false);
  });

  it('a machine with too little memory is told so, and nothing starts', async () => {
    const cache = tempDir('crownhead-egdb-');
    writeFileSync(join(cache, 'marker'), '');
    const s = await start({ engine: { egdb: { dir: cache, memory: () => 2 * 1024 ** 3 } } });
    const r = await fetch(s.service.url + 'api/egdb/build', { method: 'POST' });
    expect(r.status).toBe(409);
    expect(await r.json()).toMatchObject({ code: 'memory', message: expect.stringMatching(/2\.0 GB of memory/) });
    expect((await (await fetch(s.service.url + 'api/egdb')).json()).state).toBe('absent');
  });
});
