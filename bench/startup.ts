// What a user feels when starting Crownhead, measured as whole processes, the
// built bundle side by side with running from source in the same run:
//   - `crownhead --help` wall time
//   - time from spawn to the page's first HTTP 200 (`serve --board sim`), also via `npm start`
//   - resident memory of the whole process tree (the process and every
//     descendant, e.g. esbuild's service when running from source), idle and
//     after 50 games played on the simulated board through WebSocket hand commands.
// Runs alternate between variants; medians (and the spread) of N runs are printed.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPdn } from '../src/pdn/index.ts';
import { makeFen, START, Game, type Move } from '../src/rules/index.ts';
import { Snapshot } from '../src/protocol/v1.ts';
import { corpusFile } from '../test/harness/corpus.ts';
import { Client } from '../test/harness/ws-client.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/crownhead.js');
const build = spawnSync(process.execPath, [join(ROOT, 'bin/build.js'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('build failed');

const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_') && !k.startsWith('npm_')));
interface Variant {
  name: string;
  cmd: string;
  args: (rest: string[]) => string[];
  env: NodeJS.ProcessEnv;
  /** npm start must run in the package; the others run in a scratch folder */
  inPackage?: boolean;
}
const BUNDLE: Variant = { name: 'built bundle', cmd: process.execPath, args: (r) => [BIN, ...r], env: cleanEnv };
const SOURCE: Variant = {
  name: 'from source (tsx)',
  cmd: process.execPath,
  args: (r) => [BIN, ...r],
  env: { ...cleanEnv, CROWNHEAD_FROM_SOURCE: '1' },
};
const NPM_START: Variant = {
  name: 'npm start',
  cmd: 'npm',
  args: (r) => ['start', '--silent', '--', ...r.slice(1)],
  env: cleanEnv,
  inPackage: true,
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const spread = (xs: number[], unit: (x: number) => string) =>
  `median ${unit(median(xs))} (min ${unit(Math.min(...xs))}, max ${unit(Math.max(...xs))}, n=${xs.length})`;
const secs = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;

/** Resident memory (kB) of pid and all its descendants, from /proc. */
function treeRss(pid: number): { kb: number; processes: string[] } {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      names.set(Number(d), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(Number(d));
    } catch {
      /* gone */
    }
  }
  let kb = 0;
  const processes: string[] = [];
  const visit = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) {
        kb += Number(m[1]);
        processes.push(`${names.get(p)} ${mib(Number(m[1]))}`);
      }
    } catch {
      /* gone */
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { kb, processes };
}

/** Spawns `serve`, resolves when the page has answered 200 (ms since spawn), with the child and its URL. */
async function startServe(v: Variant): Promise<{ child: ChildProcess; url: string; ms: number; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-bench-'));
  const t0 = performance.now();
  const child = spawn(v.cmd, v.args(['serve', '--board', 'sim', '--port', '0', '--games', join(dir, 'games')]), {
    cwd: v.inPackage ? ROOT : dir,
    env: v.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buf = '',
    err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (d) => {
      buf += d;
      const m = /"url":"(http:[^"]+)"/.exec(buf);
      if (m) ok(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`${v.name}: serve exited ${code}: ${err}`)));
  });
  for (;;) {
    const r = await fetch(url).catch(() => null);
    if (r?.status === 200) {
      await r.arrayBuffer();
      break;
    }
  }
  return { child, url, ms: performance.now() - t0, dir };
}

async function stop(s: { child: ChildProcess; dir: string }): Promise<void> {
  await new Promise<void>((done) => {
    if (s.child.exitCode !== null) return done();
    s.child.once('exit', () => done());
    s.child.kill('SIGTERM');
  });
  rmSync(s.dir, { recursive: true, force: true });
}

/** The serving process: for npm start, npm's child (exec replaces the shell). */
const servePid = (s: { child: ChildProcess }) => s.child.pid!;

// ------------------------------------------------------------------ --help
const HELP_RUNS = 15;
const help: Record<string, number[]> = { [BUNDLE.name]: [], [SOURCE.name]: [] };
for (let i = 0; i < HELP_RUNS; i++) {
  for (const v of [BUNDLE, SOURCE]) {
    const t0 = performance.now();
    const r = spawnSync(v.cmd, v.args(['--help']), { env: v.env, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${v.name} --help exited ${r.status}`);
    help[v.name]!.push(performance.now() - t0);
  }
}
for (const [name, xs] of Object.entries(help)) console.log(`crownhead --help, ${name}: ${spread(xs, secs)}`);
console.log(`--help ratio source / bundle (medians): ${(median(help[SOURCE.name]!) / median(help[BUNDLE.name]!)).toFixed(1)}x`);

// --------------------------------------------------------- first HTTP 200
const START_RUNS = 7;
const first: Record<string, number[]> = { [BUNDLE.name]: [], [SOURCE.name]: [], [NPM_START.name]: [] };
const idle: Record<string, number[]> = { [BUNDLE.name]: [], [SOURCE.name]: [], [NPM_START.name]: [] };
const trees: Record<string, string> = {};
for (let i = 0; i < START_RUNS; i++) {
  for (const v of [BUNDLE, SOURCE, NPM_START]) {
    const s = await startServe(v);
    first[v.name]!.push(s.ms);
    await new Promise((r) => setTimeout(r, 1500));
    // npm start: count npm itself too (it stays as the parent for the service's lifetime).
    const t = treeRss(servePid(s));
    idle[v.name]!.push(t.kb);
    trees[v.name] = t.processes.join(' + ');
    await stop(s);
  }
}
for (const [name, xs] of Object.entries(first)) console.log(`first HTTP 200 after start, ${name}: ${spread(xs, secs)}`);
console.log(`first-200 ratio source / bundle (medians): ${(median(first[SOURCE.name]!) / median(first[BUNDLE.name]!)).toFixed(1)}x`);
for (const [name, xs] of Object.entries(idle))
  console.log(`resident memory idle, whole process tree, ${name}: ${spread(xs, mib)} [${trees[name]}]`);

// ------------------------------------------------------- after 50 games
const openings = readPdn(corpusFile('OCA_2.0.pdn')).games.filter((g) => makeFen(g.start) === makeFen(START) && g.moves.length > 0);
const games: Move[][] = Array.from({ length: 50 }, (_, i) => openings[i % openings.length]!.moves.map((m) => m.move));

async function play50(v: Variant): Promise<{ kb: number; tree: string; moves: number }> {
  const s = await startServe(v);
  const c = await Client.connect(s.url.replace(/^http/, 'ws') + 'ws');
  await c.next((m) => m.type === 'hello');
  const stateNow = async () => Snapshot.parse(await (await fetch(s.url + 'api/state')).json());
  let moves = 0;
  for (const [n, list] of games.entries()) {
    if (n > 0) {
      const r = await c.command({ name: 'new-game' });
      if (r.type !== 'ok') throw new Error(`new-game: ${JSON.stringify(r)}`);
    }
    if ((await c.command({ name: 'hand-setup' })).type !== 'ok') throw new Error('hand-setup refused');
    if ((await stateNow()).status.kind !== 'in-sync') {
      await c
        .next((m) => m.type === 'event' && m.event.type === 'ready', `ready for game ${n + 1}`, 20_000)
        .catch(async (e: Error) => {
          throw new Error(`${e.message}\nthe board's status: ${JSON.stringify((await stateNow()).status)}`);
        });
    }
    const game = new Game(START);
    for (const mv of list) {
      const size = game.position.kings & (1 << (mv.from - 1)) ? 2 : 1;
      await c.command({ name: 'hand', action: 'lift', square: mv.from });
      await c.command({ name: 'hand', action: 'set', square: mv.to, coins: size });
      if (mv.crowned) {
        // Crowned the way hands do it: the man down, then the crown coin on top a moment later.
        await new Promise((r) => setTimeout(r, 300));
        await c.command({ name: 'hand', action: 'set', square: mv.to, coins: 2 });
      }
      for (const sq of mv.captures) await c.command({ name: 'hand', action: 'lift', square: sq });
      await c.next(
        (m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === game.plies.length + 1,
        `move ${moves + 1}`,
        20_000,
      );
      game.play(mv);
      moves++;
    }
    c.received.length = 0;
  }
  c.close();
  await new Promise((r) => setTimeout(r, 1500));
  const t = treeRss(servePid(s));
  await stop(s);
  return { kb: t.kb, tree: t.processes.join(' + '), moves };
}
for (const v of [BUNDLE, SOURCE]) {
  const r = await play50(v);
  console.log(
    `resident memory after 50 games (${r.moves} moves by WebSocket hand commands), whole process tree, ${v.name}: ${mib(r.kb)} [${r.tree}]`,
  );
}
