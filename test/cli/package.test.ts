// The package as a user runs it: the built bundle (dist/, made by `npm install`
// and kept fresh by the test set-up) serves the page with no tsx and no
// esbuild at run time and without loading serialport for the simulated board;
// `npm start` stops on SIGTERM with no process left behind; --version says which
// build runs; errors are one line with a suggestion for a typo.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../server/helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/crownhead.js');
const env = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_') && !k.startsWith('npm_'))),
  ...extra,
});
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  removeTempDirs();
});

const cli = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: env(extra), cwd: tempDir() });

/** Starts `serve` on the simulated board; resolves with the child, its URL and the pid that serves. */
function serve(
  cmd: string,
  args: string[],
  cwd?: string,
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; pid: number }> {
  const dir = tempDir();
  const child = spawn(
    cmd,
    args.map((a) => a.replace('GAMES', join(dir, 'games'))),
    { cwd: cwd ?? dir, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  let out = '',
    err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((ok, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /"pid":(\d+)[^\n]*"url":"(http:[^"]+)"/.exec(out);
      if (m) ok({ child, url: m[2]!, pid: Number(m[1]) });
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}: ${err}`)));
  });
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
const childrenOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
  );

describe('the built package', () => {
  it('dist/ holds the command and the page, and the bundle loads neither tsx nor esbuild', () => {
    expect(existsSync(join(ROOT, 'dist/node/crownhead.js'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/page/manifest.json'), 'utf8')) as { path: string }[];
    expect(manifest.map((m) => m.path).sort()).toEqual([
      '/',
      '/arbiter',
      '/assets/app.css',
      '/assets/app.js',
      '/assets/club.css',
      '/assets/club.js',
      '/assets/egdb.js',
      '/assets/friend.js',
      '/assets/play.css',
      '/assets/play.js',
      '/play',
      '/watch',
    ]);
    for (const f of readdirSync(join(ROOT, 'dist/node')).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(ROOT, 'dist/node', f), 'utf8');
      expect(text, f).not.toMatch(/from\s*["'](tsx|esbuild)[/"']|import\(\s*["'](tsx|esbuild)/);
    }
  });

  it('--version says the version and that the built bundle runs; CROWNHEAD_FROM_SOURCE=1 runs the sources', () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const built = cli(['--version']);
    expect(built.status).toBe(0);
    expect(built.stdout.trim()).toBe(`crownhead ${version} (built bundle, Node ${process.version})`);
    const source = cli(['--version'], { CROWNHEAD_FROM_SOURCE: '1' });
    expect(source.stdout.trim()).toBe(`crownhead ${version} (from source, Node ${process.version})`);
  });

  it('a mistyped option or command gets one error line with a suggestion, exit 2', () => {
    const flag = cli(['serve', '--prot', '9000']);
    expect(flag.status).toBe(2);
    expect(flag.stderr.split('\n')[0]).toBe('crownhead serve: unknown option --prot (did you mean --port?)');
    const cmd = cli(['perf', '3']);
    expect(cmd.status).toBe(2);
    expect(cmd.stderr.split('\n')[0]).toBe('crownhead: unknown command "perf" (did you mean perft?)');
    const far = cli(['serve', '--zzzzzz']);
    expect(far.stderr.split('\n')[0]).toBe('crownhead serve: unknown option --zzzzzz');
  });

  it('perft reports its rate in M nodes/s', () => {
    const r = cli(['perft', '6']);
    expect(r.stdout.trim()).toBe('36768');
    expect(r.stderr).toMatch(/^perft 6: 36768 nodes in \d+\.\d\d s \(\d+\.\d M nodes\/s\)\n$/);
  });

  it('a start-up failure is one line on standard error and nothing on standard output', async () => {
    const first = await serve(process.execPath, [BIN, 'serve', '--board', 'sim', '--port', '0', '--games', 'GAMES']);
    const port = new URL(first.url).port;
    const second = cli(['serve', '--board', 'sim', '--port', port, '--games', join(tempDir(), 'g')]);
    expect(second.status).toBe(1);
    const lines = second.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^crownhead serve: cannot start: .*port/i);
    expect(second.stdout).not.toMatch(/cannot start|"level":60/);
    first.child.kill('SIGTERM');
  });

  it('serves the page from dist/ with no child process and without loading serialport for the simulated board', async () => {
    const s = await serve(process.execPath, [BIN, 'serve', '--board', 'sim', '--port', '0', '--games', 'GAMES']);
    const html = await fetch(s.url);
    expect(html.status).toBe(200);
    const body = await html.text();
    const js = /src="(\/assets\/app\.js\?v=[0-9a-f]+)"/.exec(body)![1]!;
    const asset = await fetch(new URL(js, s.url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(html.headers.get('cache-control')).toBe('no-cache');
    expect(await asset.text()).toBe(readFileSync(join(ROOT, 'dist/page/assets/app.js'), 'utf8'));
    expect(childrenOf(s.pid)).toEqual([]);
    const maps = readFileSync(`/proc/${s.pid}/maps`, 'utf8');
    expect(maps).not.toMatch(/bindings-cpp|serialport/);
    s.child.kill('SIGTERM');
  });

  it('from source (CROWNHEAD_FROM_SOURCE=1) the page is bundled in memory and served the same way', async () => {
    const s = await serve(process.execPath, [BIN, 'serve', '--board', 'sim', '--port', '0', '--games', 'GAMES'], undefined, {
      CROWNHEAD_FROM_SOURCE: '1',
    });
    const html = await fetch(s.url);
    expect(html.status).toBe(200);
    expect(await html.text()).toMatch(/<script type="module" src="\/assets\/app\.js\?v=[0-9a-f]+"><\/script>/);
    s.child.kill('SIGTERM');
  });

  it('npm start stops the service on SIGTERM and leaves no process behind', async () => {
    const s = await serve('npm', ['start', '--silent', '--', '--board', 'sim', '--port', '0', '--games', 'GAMES'], ROOT);
    expect(alive(s.pid)).toBe(true);
    const exited = new Promise<void>((r) => s.child.once('exit', () => r()));
    s.child.kill('SIGTERM');
    await exited;
    for (let i = 0; i < 40 && alive(s.pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(s.pid)).toBe(false);
  });
});
