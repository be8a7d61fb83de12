// Storage bench: does a big games folder delay play? A folder of 5,000 saved
// games (corpus games written as Crownhead writes them), the service on the
// simulated board with a page connected, and a "watcher" in a worker thread
// asking for the game list and the whole archive over and over while moves
// are played. Measured: the delay of each move's broadcast, from the moment
// the frame completing the move was due (a timer, as serial data would
// arrive) to the page receiving the move event; medians and p99 over
// repeated runs, with and without the folder and the watcher. Also: how long
// one /api/games (cold and cached) and one archive download take. And a big
// PDN collection in the folder (about 20 MB of corpus games, concatenated):
// its games opened from the archive view (/api/games/ID.json?game=N, cold
// then from the index, and the archive list) while 50 pages ping the server
// over their sockets: the worst ping and the growth of the process's memory
// (RSS) are reported; the goal is a worst ping under 50 ms and under 50 MB.
// The worst ping over an idle stretch before is printed beside it: on a busy
// machine it is the scheduler's, not the server's.
// Run: node bin/run-ts.js bench/storage.ts [games=5000] [moves=40] [runs=3]

import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { makePdn, readPdn, type PdnGame } from '../src/pdn/index.ts';
import { makeFen, START, type Move } from '../src/rules/index.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { startService } from '../src/server/service.ts';
import { CORPUS } from '../test/harness/corpus.ts';
import { movesIn } from '../test/harness/ws-client.ts';

const nGames = Number(process.argv[2] ?? 5000);
const nMoves = Number(process.argv[3] ?? 40);
const runs = Number(process.argv[4] ?? 3);
const collectionMiB = Number(process.env.BENCH_COLLECTION_MIB ?? 20);
const corpus: PdnGame[] = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8')).games.filter(
  (g) => makeFen(g.start) === makeFen(START) && g.moves.length >= 20,
);

const base = mkdtempSync(join(tmpdir(), 'crownhead-bench-storage-'));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs: number[]) => pct(xs, 50);
const ms = (x: number) => `${x.toFixed(2)} ms`;

function folderOf(n: number): string {
  const dir = join(base, `games-${n}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const text = makePdn(corpus[k % corpus.length]);
    const id = `2025${String(1 + (k % 12)).padStart(2, '0')}${String(1 + (k % 28)).padStart(2, '0')}-${String(k % 24).padStart(2, '0')}0000-${String(k).padStart(4, '0')}`;
    writeFileSync(join(dir, `${id}.pdn`), text);
    bytes += text.length;
  }
  if (n) console.log(`folder: ${n} saved games, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  return dir;
}

const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false, lists = 0, archives = 0, bytes = 0;
parentPort.on('message', () => { stop = true; });
(async () => {
  while (!stop) {
    const l = await fetch(workerData.url + 'api/games'); bytes += (await l.arrayBuffer()).byteLength; lists++;
    const a = await fetch(workerData.url + 'api/archive.pdn'); bytes += (await a.arrayBuffer()).byteLength; archives++;
    if (archives === 1) parentPort.postMessage('under way');
  }
  parentPort.postMessage({ lists, archives, bytes });
})();
`;

async function run(dir: string, watcher: boolean): Promise<{ delays: number[]; load: string }> {
  const sim = new SimBoard({ clock: 'manual', seed: 5 });
  const service = await startService({
    board: { source: sim },
    storage: { gamesDir: join(dir) },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  const ws = new WebSocket(service.url.replace(/^http/, 'ws') + 'ws');
  let waiting: { want: number; resolve: (t: number) => void } | null = null;
  ws.on('message', (data) => {
    const t = performance.now();
    if (!waiting) return;
    const m = JSON.parse(data.toString());
    if (m.type === 'event' && m.event.type === 'move' && movesIn(m) === waiting.want) {
      const w = waiting;
      waiting = null;
      w.resolve(t);
    }
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  const worker = watcher ? new Worker(WATCHER, { eval: true, workerData: { url: service.url } }) : null;
  worker?.on('error', (e) => console.error('watcher failed:', e));
  const delays: number[] = [];
  let g = 0;
  if (worker) await new Promise((r) => worker.once('message', r)); // the watcher has read the list and the archive once
  const warmUp = 10;
  while (delays.length < nMoves + warmUp) {
    const game = corpus[g++ % corpus.length];
    service.session.newGame(); // a run on a folder used before resumes its game: start afresh
    sim.setupStart();
    sim.advance(700);
    for (const node of game.moves.slice(0, 40)) {
      if (delays.length >= nMoves + warmUp) break;
      const mv: Move = node.move;
      const size = sim.coinsAt(mv.from);
      sim.lift(mv.from);
      sim.advance(120);
      const want = service.session.game.plies.length + 1;
      // The frames that put the piece down (and take the captured ones) are due in 5 ms, as serial
      // data would arrive; the move commits on them. A stalled event loop delays them.
      const due = performance.now() + 5;
      const got = new Promise<number>((resolve) => (waiting = { want, resolve }));
      setTimeout(() => {
        sim.set(mv.to, mv.crowned ? 2 : size);
        sim.advance(120);
        for (const c of mv.captures) {
          sim.lift(c);
          sim.advance(60);
        }
        sim.advance(200); // the move commits in here
      }, 5);
      const t = await got;
      sim.advance(500);
      await new Promise((r) => setTimeout(r, 100)); // players take their time: the watcher keeps reading meanwhile
      delays.push(t - due);
    }
  }
  let load = '';
  if (worker) {
    const done = new Promise<{ lists: number; archives: number; bytes: number }>((r) => worker.once('message', r));
    worker.postMessage('stop');
    const s = await done;
    await worker.terminate();
    load = ` (watcher meanwhile: ${s.lists} game lists, ${s.archives} archives, ${(s.bytes / 2 ** 20).toFixed(0)} MiB)`;
  }
  ws.terminate();
  await service.close();
  return { delays: delays.slice(warmUp), load };
}

async function timeRequests(dir: string): Promise<void> {
  const sim = new SimBoard({ clock: 'manual', seed: 5 });
  const service = await startService({ board: { source: sim }, storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } });
  const t = async (path: string) => {
    const t0 = performance.now();
    const r = await fetch(service.url + path);
    const n = (await r.arrayBuffer()).byteLength;
    return { ms: performance.now() - t0, n };
  };
  const cold = await t('api/games');
  const warm: number[] = [];
  for (let k = 0; k < 5; k++) warm.push((await t('api/games')).ms);
  const archive: number[] = [];
  let size = 0;
  for (let k = 0; k < 3; k++) {
    const a = await t('api/archive.pdn');
    archive.push(a.ms);
    size = a.n;
  }
  console.log(
    `/api/games: first ${ms(cold.ms)} (${(cold.n / 1024).toFixed(0)} KiB), cached median ${ms(median(warm))}; /api/archive.pdn streamed: median ${ms(median(archive))} (${(size / 2 ** 20).toFixed(1)} MiB)`,
  );
  await service.close();
}

/** A folder holding one PDN collection of about `mib` MiB: the corpus files, concatenated over and over. */
function collectionFolder(mib: number): { dir: string; bytes: number; games: number } {
  const dir = join(base, `collection-${mib}`);
  mkdirSync(dir, { recursive: true });
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.pdn'))
    .sort();
  const texts = files.map((f) => readFileSync(join(CORPUS, f), 'utf8'));
  const perRound = texts.reduce((n, t) => n + Buffer.byteLength(t) + 1, 0);
  const gamesPerRound = texts.reduce((n, t) => n + readPdn(t).games.length, 0);
  let bytes = 0,
    games = 0;
  while (bytes < mib * 2 ** 20) {
    appendFileSync(join(dir, 'collection.pdn'), texts.join('\n') + '\n');
    bytes += perRound;
    games += gamesPerRound;
  }
  return { dir, bytes, games };
}

/** Opens games of a big collection while 50 pages ping over their sockets: the worst ping and the memory grown. */
async function bigCollection(): Promise<void> {
  const { dir, bytes, games } = collectionFolder(collectionMiB);
  const sim = new SimBoard({ clock: 'manual', seed: 5 });
  const service = await startService({ board: { source: sim }, storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } });
  const pages = await Promise.all(
    Array.from(
      { length: 50 },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(service.url.replace(/^http/, 'ws') + 'ws');
          ws.once('open', () => resolve(ws)).once('error', reject);
        }),
    ),
  );
  let worst = 0,
    pings = 0,
    stop = false;
  const pinging = pages.map(async (ws) => {
    while (!stop) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const on = (data: WebSocket.RawData) => {
          if (JSON.parse(data.toString()).type !== 'pong') return;
          ws.off('message', on);
          resolve();
        };
        ws.on('message', on);
        ws.send(JSON.stringify({ v: 1, type: 'ping' }));
      });
      worst = Math.max(worst, performance.now() - t0);
      pings++;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  await new Promise((r) => setTimeout(r, 300)); // every page connected and pinging
  worst = 0;
  await new Promise((r) => setTimeout(r, 2000));
  const idle = worst;
  (globalThis as { gc?: () => void }).gc?.();
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
  worst = 0;
  const open = async (path: string) => {
    const t0 = performance.now();
    const r = await fetch(service.url + path);
    await r.arrayBuffer();
    return { ms: performance.now() - t0, status: r.status };
  };
  const cpu0 = process.cpuUsage();
  const cold = await open(`api/games/collection.json?game=${Math.floor(games / 2)}`);
  const cpu = process.cpuUsage(cpu0);
  const warm: number[] = [];
  for (let k = 1; k <= 20; k++) warm.push((await open(`api/games/collection.json?game=${Math.floor((k * games) / 21)}`)).ms);
  const first = await open('api/games/collection.json');
  const list = await open('api/archive.json');
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  clearInterval(sampler);
  stop = true;
  await Promise.all(pinging);
  for (const ws of pages) ws.terminate();
  await service.close();
  console.log(
    `a ${(bytes / 2 ** 20).toFixed(1)} MiB PDN collection (${games} games) in the folder, 50 pages pinging: first open (indexes the file) ${ms(cold.ms)} [${cold.status}] (CPU meanwhile, pings included: ${ms((cpu.user + cpu.system) / 1000)}), ` +
      `then median ${ms(median(warm))} per game; first game ${ms(first.ms)}; archive list ${ms(list.ms)}; worst ping ${ms(worst)} (${ms(idle)} over 2 s before, with no file opened; ${pings} pings in all); RSS ${(rss0 / 2 ** 20).toFixed(0)} MiB → peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB (+${((rssPeak - rss0) / 2 ** 20).toFixed(0)} MiB)`,
  );
}

try {
  await bigCollection();
  const empty = folderOf(0);
  const big = folderOf(nGames);
  await timeRequests(big);
  for (const [label, dir, watcher] of [
    ['empty folder, no watcher', empty, false],
    [`${nGames} games, no watcher`, big, false],
    [`${nGames} games, watcher reading list + archive non-stop`, big, true],
  ] as const) {
    const medians: number[] = [],
      p99s: number[] = [],
      maxes: number[] = [];
    let load = '';
    for (let r = 0; r < runs; r++) {
      const res = await run(dir, watcher);
      medians.push(median(res.delays));
      p99s.push(pct(res.delays, 99));
      maxes.push(Math.max(...res.delays));
      load = res.load;
    }
    console.log(
      `move broadcast delay, ${label}: median ${ms(median(medians))}, p99 ${ms(median(p99s))}, max ${ms(Math.max(...maxes))} (median of ${runs} runs × ${nMoves} moves)${load}`,
    );
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
