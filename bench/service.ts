// Service bench, end to end. (1) Latency from a serial line arriving at the
// service to the WebSocket message at a page on loopback: a Crownhead board
// on serialport's mock binding (the sensors tests' MockBus) sends the frames
// of a simulated hand playing corpus games; for each move, the time from
// writing the frame line that completes it to the page receiving the move
// event; and the same with the engine searching at full strength in its
// worker thread the whole time (playing the computer must not slow the board
// down), measured side by side. (2) Resident memory after a long session: 50 corpus games played by
// a randomised hand on the simulated board, a page connected throughout.
// Run: node bin/run-ts.js bench/service.ts

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { readPdn, type PdnGame } from '../src/pdn/index.ts';
import { makeFen, START, type Move } from '../src/rules/index.ts';
import { SerialBoardSource } from '../src/sensors/serial.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { startService, type Service } from '../src/server/service.ts';
import { MockBus, crownheadPeer } from '../test/harness/mock-board.ts';
import { RandomHand, handTable } from '../test/harness/table.ts';
import { CORPUS } from '../test/harness/corpus.ts';
import { movesIn } from '../test/harness/ws-client.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const games: PdnGame[] = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8')).games.filter(
  (g) => makeFen(g.start) === makeFen(START),
);
const dirs: string[] = [];
const tempGames = (base = tmpdir()) => {
  const d = mkdtempSync(join(base, 'crownhead-bench-'));
  dirs.push(d);
  return join(d, 'games');
};

/** A page: resolves the next message that matches. */
class Page {
  private waiting: { pred: (m: any) => boolean; resolve: (t: number) => void } | null = null;
  received = 0;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const t = performance.now();
      this.received++;
      if (!this.waiting) return;
      const m = JSON.parse(data.toString());
      if (this.waiting.pred(m)) {
        const w = this.waiting;
        this.waiting = null;
        w.resolve(t);
      }
    });
  }
  static async open(service: Service): Promise<Page> {
    const ws = new WebSocket(service.url.replace(/^http/, 'ws') + 'ws');
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    return new Page(ws);
  }
  /** time (performance.now) at which a matching message arrived */
  next(pred: (m: any) => boolean): Promise<number> {
    return new Promise((resolve) => (this.waiting = { pred, resolve }));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

// ---------------------------------------------------------------- 1. latency
async function latency(minMoves: number, gamesBase: string, label: string, engineLoad = false): Promise<number[]> {
  const bus = new MockBus();
  bus.add('/dev/ttyMOCK0', crownheadPeer({ id: 'BENCH' }), { vendorId: '2341', productId: '0043' });
  const io = bus.io('/dev/ttyMOCK0');
  // The hand plays on a simulated board on the manual clock; its frames go down the mock serial line.
  const gen = new SimBoard({ clock: 'manual', seed: 3 });
  await gen.open();
  // The service stamps each line as it arrives with this clock: the board time of the frame being sent.
  let lineT = 0;
  const source = new SerialBoardSource({ path: '/dev/ttyMOCK0', binding: bus.binding, clock: () => lineT, silenceMs: 0 });
  const service = await startService({
    board: { source },
    storage: { gamesDir: tempGames(gamesBase) },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  const page = await Page.open(service);
  // The engine thinking the whole time, as while the computer plays: back-to-back 5 s searches.
  let searching = engineLoad;
  let searches = 0;
  const engine = engineLoad ? new (await import('../src/engine-host/client.ts')).EngineClient() : null;
  const load = (async () => {
    while (searching && engine) {
      await engine.think({ position: START, limits: { timeMs: 5000 } });
      searches++;
    }
  })();

  let seen: (() => void) | null = null;
  source.onFrame(() => seen?.());
  let committed = 0;
  service.session.on((e) => {
    if (e.type === 'move') committed++;
  });
  const samples: number[] = [];
  const pending: { seq: number; t: number; readings: Uint16Array }[] = [];
  gen.onFrame((f) => pending.push({ seq: f.seq, t: f.t, readings: Uint16Array.from(f.readings) }));

  /** Sends the frames of `ms` of board time, one line at a time; times the line that completes a move. */
  async function run(msOfFrames: number): Promise<void> {
    gen.advance(msOfFrames);
    for (const f of pending.splice(0)) {
      const before = committed;
      const arrived = new Promise<void>((r) => (seen = r));
      lineT = f.t;
      const t0 = performance.now();
      io.send({ type: 'frame', seq: f.seq, readings: f.readings });
      await arrived;
      if (committed > before) {
        const want = service.session.game.plies.length;
        const t1 = await page.next((m) => m.type === 'event' && m.event.type === 'move' && movesIn(m) === want);
        samples.push(t1 - t0);
      }
    }
  }
  const setUpStart = async () => {
    gen.setupStart();
    await run(700);
  };
  let g = 0;
  while (samples.length < minMoves) {
    const game = games[g++ % games.length];
    service.session.newGame();
    await setUpStart();
    for (const node of game.moves) {
      const mv: Move = node.move;
      const size = gen.coinsAt(mv.from);
      gen.lift(mv.from);
      await run(120);
      gen.set(mv.to, mv.crowned ? 2 : size);
      await run(120);
      for (const c of mv.captures) {
        gen.lift(c);
        await run(60);
      }
      await run(700);
    }
  }
  searching = false;
  const median = pct(samples, 50),
    p99 = pct(samples, 99);
  console.log(
    `e2e latency serial→websocket${label}: median ${ms(median)}, p99 ${ms(p99)}, max ${ms(Math.max(...samples))} (${samples.length} moves, ${g} games)`,
  );
  page.ws.terminate();
  await service.close();
  await gen.close();
  if (engine) {
    engine.stop();
    await load.catch(() => undefined);
    await engine.close();
  }
  void searches;
  return samples;
}

// ---------------------------------------------------------------- 2. memory
async function memory(nGames: number): Promise<void> {
  const sim = new SimBoard({ clock: 'manual', seed: 11 });
  const service = await startService({
    board: { source: sim },
    storage: { gamesDir: tempGames() },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  const page = await Page.open(service);
  const table = handTable(sim, service.session);
  const hand = new RandomHand(table, 99);
  let moves = 0,
    alerts = 0;
  service.session.on((e) => {
    if (e.type === 'move') moves++;
    if (e.type === 'alert') alerts++;
  });
  const settle = async () => {
    // let the page read what was sent (the service stays responsive under the load)
    await new Promise((r) => setImmediate(r));
  };
  const rss = () => process.memoryUsage().rss / 2 ** 20;
  gc();
  const rss0 = rss();
  const marks: string[] = [];
  const t0 = performance.now();
  for (let k = 0; k < nGames; k++) {
    const game = games[k % games.length];
    if (k > 0) service.session.newGame();
    sim.setupStart();
    sim.advance(700);
    for (const node of game.moves) {
      hand.playMove(node.move);
      await settle();
    }
    sim.advance(3000);
    if (!service.session.game.outcome) service.session.resign(service.session.game.turn);
    await settle();
    if (k === 0 || k === 9 || k === nGames - 1) {
      gc();
      marks.push(`after game ${k + 1}: ${rss().toFixed(0)} MiB`);
    }
  }
  const secs = (performance.now() - t0) / 1000;
  const played = (await service.store.list()).games.length;
  console.log(
    `long session: ${nGames} games, ${moves} moves (${alerts} alerts), ${played} saved, ${(nGames / secs).toFixed(1)} games/s on the manual clock; page got ${page.received} messages`,
  );
  console.log(
    `resident memory (RSS): at start ${rss0.toFixed(0)} MiB, ${marks.join(', ')}; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
  );
  page.ws.terminate();
  await service.close();
}

try {
  // The journal entry of a move is fsynced before the move is announced (crash safety), so the
  // disk under the games directory is part of the path; on tmpfs the rest of the service shows.
  // Say what each line's fsync waits for: the file system type under the games directory.
  const fsType = (dir: string) => spawnSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' }).stdout.trim() || 'unknown file system';
  const onDisk = (t: string) => (t === 'tmpfs' || t === 'ramfs' ? 'memory: fsync costs nothing' : 'fsync waits for the disk');
  const tmpType = fsType(tmpdir());
  await latency(Number(process.argv[2] ?? 300), tmpdir(), ` (WITH journal fsync, games dir ${tmpdir()} on ${tmpType}: ${onDisk(tmpType)})`);
  if (existsSync('/dev/shm')) {
    // Side by side, in memory (so the disk does not hide it): idle, then with the engine searching at full strength.
    const shm = ` (games dir /dev/shm on ${fsType('/dev/shm')}: ${onDisk(fsType('/dev/shm'))})`;
    const idle = await latency(Number(process.argv[2] ?? 300), '/dev/shm', `${shm}, engine idle`);
    const busy = await latency(Number(process.argv[2] ?? 300), '/dev/shm', `${shm}, engine searching at full strength in its worker`, true);
    console.log(
      `  engine searching / idle: median ×${(pct(busy, 50) / pct(idle, 50)).toFixed(2)}, p99 ×${(pct(busy, 99) / pct(idle, 99)).toFixed(2)}`,
    );
  }
  await memory(Number(process.argv[3] ?? 50));
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
