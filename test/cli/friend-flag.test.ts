// `crownhead serve --friend NAME[:white|black]` and `--public-url URL`: the
// friend's seat asked for at start (side White unless said, the board's
// player named by the other side's tag), the public address the link is made
// on; a bad value named with its flag; and the real command printing the
// link, which then opens the seat's page.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/cli/serve-settings.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const opts = (...argv: string[]) => resolveServeSettings(['--games', '/tmp/crownhead-friend-flag', ...argv], {})!.options;

describe('serve --friend and --public-url', () => {
  it('--friend NAME plays White; :black takes Black; the board player is the other side tag', () => {
    expect(opts('--friend', 'Bea').friend).toEqual({ name: 'Bea', side: 'white' });
    expect(opts('--friend', 'Bea Lee:black', '--white', 'Ann').friend).toEqual({ name: 'Bea Lee', side: 'black', host: 'Ann' });
    expect(opts('--friend', 'Bea:WHITE', '--black', 'Ann').friend).toEqual({ name: 'Bea', side: 'white', host: 'Ann' });
    expect(opts().friend).toBeUndefined();
  });

  it('refuses an empty name and a friend with the computer, naming the flag', () => {
    expect(() => opts('--friend', ':white')).toThrow(/--friend: give the friend's name/);
    expect(() => opts('--friend', 'Bea', '--computer', 'white:3')).toThrow(/--friend: .*no computer/);
  });

  it('--public-url is an http(s) address, kept without its trailing slash', () => {
    expect(opts('--public-url', 'https://club.example:8443/').http?.publicUrl).toBe('https://club.example:8443');
    expect(() => opts('--public-url', 'club.example')).toThrow(/--public-url: "club.example" is not an address/);
    expect(() => opts('--public-url', 'ftp://club.example')).toThrow(/--public-url: .*http:\/\/ or https:\/\//);
  });

  it('crownhead serve --friend prints the seat link on the public URL, and the link opens the seat page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-friend-cli-'));
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
    const args = ['serve', '--board', 'sim', '--port', '0', '--games', join(dir, 'games'), '--friend', 'Bea', '--black', 'Ann'];
    const child = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...args, '--public-url', 'http://10.1.2.3:8080'], {
      cwd: dir,
      env: { ...clean, CROWNHEAD_FROM_SOURCE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      // (Piped, the plain lines come on standard error: wait for them, no fixed delay.)
      while (!/^Friend: /m.test(err))
        await Promise.race([new Promise((r) => child.stderr.once('data', r)), exited.then(() => Promise.reject(new Error(err)))]);
      const friend = /^Friend: Bea plays White from a browser — their link: http:\/\/10\.1\.2\.3:8080\/play\/([A-Za-z0-9_-]{24})$/m.exec(
        err,
      );
      expect(friend, err).not.toBeNull();
      const port = /Crownhead is ready: open http:\/\/127\.0\.0\.1:(\d+)\//.exec(err)![1];
      expect((await fetch(`http://127.0.0.1:${port}/play/${friend![1]}`)).status).toBe(200);
      const state = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as {
        tags: Record<string, string>;
        remote: { side: string };
      };
      expect(state.tags).toMatchObject({ Black: 'Ann', White: 'Bea' });
      expect(state.remote.side).toBe('white');
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
