// Stations bench (#22 item 6): N simulated stations (default 50, ten to a
// child process) playing corpus games with the test hand, one move per station per
// second, through one broker — Mosquitto and the hub's embedded aedes side by
// side — to one hub with a spectator on /watch/ws. Measured: commit → hub →
// spectator latency (the station's session announcing the move, to the
// spectator's page receiving the board's summary with that ply; the feed's
// 50 ms summary throttle included, as a page gets it), p50/p99; every ply
// seen exactly once; the hub's CPU share and memory (aedes is inside it when
// embedded) and Mosquitto's.
// The stations' boards are simulated on manual clocks: a move's hand and
// settling run at once in the station's process, so the figures include the
// queueing of the boards sharing a process (fewer per process, less of it).
// Run: node bin/run-ts.js bench/stations.ts [--stations 50] [--seconds 30] [--broker both|aedes|mosquitto] [--per-process 10]

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import WebSocket from 'ws';
import { readPdn } from '../src/pdn/index.ts';
import { makeFen, START } from '../src/rules/index.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { startStation } from '../src/stations/station.ts';
import { Hub } from '../src/stations/hub.ts';
import { startEmbeddedBroker } from '../src/stations/broker.ts';
import { RandomHand, handTable } from '../test/harness/table.ts';
import { CORPUS } from '../test/harness/corpus.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const SECRET = 'bench-pairing-secret';
const now = () => performance.timeOrigin + performance.now();
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};

// ---------------------------------------------------------------- child: stations
async function stations(url: string, first: number, count: number): Promise<void> {
  const games = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8')).games.filter((g) => makeFen(g.start) === makeFen(START));
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-bench-st-'));
  const running: { close(): Promise<void> }[] = [];
  for (let i = first; i < first + count; i++) {
    const sim = new SimBoard({ clock: 'manual', seed: i + 1, id: `B${String(i + 1).padStart(2, '0')}` });
    const s = await startStation({
      mqtt: { url, reconnectMs: 500 },
      secret: SECRET,
      service: { board: { source: sim }, storage: { gamesDir: join(dir, String(i)) }, http: { port: 0 }, log: { level: 'silent' } },
    });
    running.push(s);
    const session = s.service.session;
    const table = handTable(sim, session);
    const hand = new RandomHand(table, i + 7);
    session.on((e) => {
      if (e.type === 'move') process.send!({ board: sim.identity().id, ply: session.game.plies.length, gameId: session.gameId, t: now() });
    });
    let g = i % games.length;
    let k = 0;
    sim.setupStart();
    sim.advance(700);
    const step = () => {
      const game = games[g]!;
      if (k >= game.moves.length || session.game.outcome) {
        session.newGame();
        g = (g + 7) % games.length;
        k = 0;
        sim.setupStart();
        sim.advance(700);
        return;
      }
      hand.playMove(game.moves[k++]!.move);
      sim.advance(800);
    };
    // One move a second per station, the stations spread over the second.
    setTimeout(() => setInterval(step, 1000), Math.round((1000 * (i - first)) / count));
  }
  process.send!({ ready: true });
  process.on('message', async (m: { stop?: boolean }) => {
    if (!m.stop) return;
    for (const s of running) await s.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

// ---------------------------------------------------------------- parent: broker, hub, spectator
async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
}

function procStat(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 100; // USER_HZ
  const cpuMs = ((Number(stat[11]) + Number(stat[12])) * 1000) / tick;
  const rssMiB = (Number(stat[21]) * 4096) / 2 ** 20;
  return { cpuMs, rssMiB };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function run(kind: 'aedes' | 'mosquitto', n: number, seconds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-bench-hub-'));
  let mosquitto: ChildProcess | null = null;
  let embedded: Awaited<ReturnType<typeof startEmbeddedBroker>> | null = null;
  let url: string;
  if (kind === 'mosquitto') {
    const port = await freePort();
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n`);
    mosquitto = spawn('/usr/sbin/mosquitto', ['-c', conf], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    url = `mqtt://127.0.0.1:${port}`;
  } else {
    embedded = await startEmbeddedBroker({ port: 0 });
    url = embedded.url;
  }
  const commits = new Map<string, number>();
  const latencies: number[] = [];
  let seenTwice = 0;
  const children: ChildProcess[] = [];
  const per = Math.max(1, Number(arg('per-process', '10')));
  for (let first = 0; first < n; first += per) {
    const c = spawn(
      process.execPath,
      [join(ROOT, 'bin/run-ts.js'), join(ROOT, 'bench/stations.ts'), '--child', url, String(first), String(Math.min(per, n - first))],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    children.push(c);
  }
  const readyAll = Promise.all(
    children.map((c) => new Promise<void>((ok) => c.on('message', (m: { ready?: boolean }) => m.ready && ok()))),
  );
  for (const c of children)
    c.on('message', (m: { board?: string; ply?: number; gameId?: string; t?: number }) => {
      if (m.board) commits.set(`${m.board}/${m.gameId}/${m.ply}`, m.t!);
    });
  const hub = await Hub.start({
    mqtt: { url, reconnectMs: 500 },
    secret: SECRET,
    service: { storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } },
  });
  await readyAll;
  // Measured once every station has its room on the hub and a few moves went by (the start-up's joins and catch-up left out).
  while ([...hub.boards.values()].filter((b) => b.mirror).length < n) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 3000));
  const from = now();
  const seen = new Set<string>();
  const ws = new WebSocket(hub.service!.url.replace(/^http/, 'ws') + 'watch/ws');
  ws.on('message', (data) => {
    const t = now();
    const m = JSON.parse(String(data)) as { type: string; board?: { id: string; gameId: string; plies: number } };
    if (m.type !== 'board' || !m.board) return;
    const key = `${m.board.id}/${m.board.gameId}/${m.board.plies}`;
    if (seen.has(key)) return void seenTwice++;
    seen.add(key);
    const c = commits.get(key);
    if (c !== undefined && c >= from && m.board.plies > 0) latencies.push(t - c);
  });
  await new Promise((r) => ws.on('open', r));
  const hubCpu0 = process.cpuUsage();
  const mq0 = mosquitto ? procStat(mosquitto.pid!) : null;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const wall = performance.now() - t0;
  const hubCpu = process.cpuUsage(hubCpu0);
  const mq1 = mosquitto ? procStat(mosquitto.pid!) : null;
  const rss = process.memoryUsage().rss / 2 ** 20;
  for (const c of children) c.send({ stop: true });
  await Promise.all(children.map((c) => new Promise((r) => c.on('exit', r))));
  // Every board's copy against what the stations committed (the last moves given a few seconds to arrive).
  const behind = () =>
    [...commits.keys()].filter((key) => {
      const [board, gameId, ply] = key.split('/');
      const room = hub.room(board!);
      return !room || (room.session.gameId === gameId && room.session.game.plies.length < Number(ply));
    }).length;
  for (let i = 0; i < 100 && behind() > 0; i++) await new Promise((r) => setTimeout(r, 50));
  const missing = behind();
  ws.close();
  await hub.close();
  await embedded?.close();
  mosquitto?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  const hubShare = ((hubCpu.user + hubCpu.system) / 1000 / wall) * 100;
  const mqShare = mq0 && mq1 ? ((mq1.cpuMs - mq0.cpuMs) / wall) * 100 : null;
  console.log(
    `${kind.padEnd(9)} ${n} stations, ${(wall / 1000).toFixed(0)} s measured: ${commits.size} moves committed in all, ${latencies.length} measured; ` +
      `commit → hub → spectator p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(0)} ms; ` +
      `hub${embedded ? ' (with aedes)' : ''} CPU ${hubShare.toFixed(1)}% of a core, RSS ${rss.toFixed(0)} MiB` +
      (mq1 ? `; mosquitto CPU ${mqShare!.toFixed(1)}%, RSS ${mq1.rssMiB.toFixed(1)} MiB` : '') +
      `; summaries seen twice ${seenTwice}, boards behind ${missing}`,
  );
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  await stations(process.argv[i + 1]!, Number(process.argv[i + 2]), Number(process.argv[i + 3]));
} else {
  const n = Number(arg('stations', '50'));
  const seconds = Number(arg('seconds', '30'));
  const which = arg('broker', 'both');
  if ((which === 'both' || which === 'mosquitto') && existsSync('/usr/sbin/mosquitto')) await run('mosquitto', n, seconds);
  if (which === 'both' || which === 'aedes') await run('aedes', n, seconds);
  process.exit(0);
}
