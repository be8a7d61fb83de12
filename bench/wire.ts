// What a move costs on the wire and in the spectators' feed — the figures
// the "deltas on the wire" change (#38) is to be judged by, before and after:
// 1. The page's socket: one board, one page connected to /ws, a 40-ply corpus
//    game carried out by the simulated hand; every byte the page receives
//    while the game is played, per ply and by message type (how much of it
//    is whole-game snapshots).
// 2. The spectators' feed of 32 boards, each 40 plies into its game: the CPU
//    of one change as the feed meets it — the board's summary for /watch and
//    the whole broadcast PDN made again for the next /broadcast.pdn poll —
//    median of `--runs` changes, each a real move on a board; beside it the
//    CPU of the changed board's own PDN text, made once per change of its
//    record for its games-folder file (and, now, kept by
//    its room for the broadcast too: so the feed's figure is what the
//    spectators cost on top of it).
// Run: node bin/run-ts.js bench/wire.ts [--plies 40] [--boards 32] [--runs 40]

import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { readPdn } from '../src/pdn/index.ts';
import { makeFen, START, type Move } from '../src/rules/index.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { startService } from '../src/server/service.ts';
import { countsOf } from '../src/tracking/boards.ts';
import { CORPUS } from '../test/harness/corpus.ts';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return Number(i > 0 ? process.argv[i + 1]! : dflt);
};
const PLIES = arg('plies', '40');
const BOARDS = arg('boards', '32');
const RUNS = arg('runs', '40');

const games: Move[][] = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8'))
  .games.filter((g) => makeFen(g.start) === makeFen(START) && g.moves.length >= PLIES + RUNS)
  .map((g) => g.moves.map((m) => m.move));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function setUp(sim: SimBoard): void {
  const counts = countsOf(START);
  for (let s = 1; s <= 32; s++) sim.set(s, counts[s - 1]!);
  sim.advance(600);
}

/** The hand carries out a move: lift, put down (a crowned man arrives stacked), take the captured coins, let it settle. */
function play(sim: SimBoard, m: Move): void {
  const size = sim.coinsAt(m.from);
  sim.lift(m.from);
  sim.advance(120);
  sim.set(m.to, m.crowned ? 2 : size);
  sim.advance(120);
  for (const c of m.captures) {
    sim.lift(c);
    sim.advance(120);
  }
  sim.advance(600);
}

const settle = () => new Promise((r) => setImmediate(r));

async function pageSocket(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-wire-'));
  const sim = new SimBoard({ clock: 'manual', seed: 7 });
  const service = await startService({ board: { source: sim }, storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } });
  const ws = new WebSocket(service.url.replace(/^http/, 'ws') + 'ws');
  const byType = new Map<string, { n: number; bytes: number }>();
  let counting = false;
  let snapshotBytes = 0;
  ws.on('message', (data: Buffer) => {
    if (!counting) return;
    const msg = JSON.parse(String(data)) as { type: string; event?: { type: string }; state?: unknown };
    const type = msg.event ? `${msg.type}:${msg.event.type}` : msg.type;
    if (msg.state !== undefined) snapshotBytes += Buffer.byteLength(JSON.stringify(msg.state));
    const e = byType.get(type) ?? { n: 0, bytes: 0 };
    e.n++;
    e.bytes += data.length;
    byType.set(type, e);
  });
  await new Promise((r) => ws.once('open', r));
  setUp(sim);
  await settle();
  const moves = games[0]!.slice(0, PLIES);
  counting = true;
  for (const m of moves) {
    play(sim, m);
    await settle();
  }
  await new Promise((r) => setTimeout(r, 200));
  counting = false;
  const plies = service.session.game.plies.length;
  const total = [...byType.values()].reduce((a, b) => a + b.bytes, 0);
  console.log(
    `page socket: ${plies} plies played by the hand; ${total} bytes received, ${Math.round(total / plies)} bytes a ply, ` +
      `${((100 * snapshotBytes) / total).toFixed(1)} % of them whole-game snapshots`,
  );
  for (const [type, e] of [...byType].sort((a, b) => b[1].bytes - a[1].bytes))
    console.log(
      `  ${type.padEnd(24)} ${String(e.n).padStart(4)} messages, ${String(e.bytes).padStart(8)} bytes (${((100 * e.bytes) / total).toFixed(1)} %)`,
    );
  ws.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

async function feed(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-wire-'));
  const sims = Array.from({ length: BOARDS }, (_, i) => new SimBoard({ clock: 'manual', seed: 100 + i, id: `B${i + 1}` }));
  const service = await startService({
    club: { sources: sims },
    storage: { gamesDir: dir },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  const feed = service.feed!;
  for (const [i, sim] of sims.entries()) {
    setUp(sim);
    for (const m of games[i % games.length]!.slice(0, PLIES)) play(sim, m);
  }
  await settle();
  const plies = service.rooms.map((r) => r.session.game.plies.length);
  feed.pdn();
  const cpu: number[] = [];
  const own: number[] = [];
  let bytes = 0;
  for (let k = 0; k < RUNS; k++) {
    const i = k % BOARDS;
    const room = service.rooms[i]!;
    play(sims[i]!, games[i % games.length]![room.session.game.plies.length]!);
    await settle();
    const t0 = process.cpuUsage();
    const summary = JSON.stringify(room.summary());
    const text = feed.pdn();
    const d = process.cpuUsage(t0);
    cpu.push((d.user + d.system) / 1000);
    bytes = text.length + summary.length;
    const t1 = process.cpuUsage();
    room.session.pdn();
    const d1 = process.cpuUsage(t1);
    own.push((d1.user + d1.system) / 1000);
  }
  console.log(
    `spectators' feed, ${BOARDS} boards at ${median(plies)} plies: one change (the board's summary + the broadcast PDN rebuilt) ` +
      `median ${median(cpu).toFixed(2)} ms CPU over ${RUNS} moves (min ${Math.min(...cpu).toFixed(2)}, max ${Math.max(...cpu).toFixed(2)}); ` +
      `${bytes} bytes made`,
  );
  console.log(
    `  the changed board's own PDN text (its file's; made once per change of its record): median ${median(own).toFixed(2)} ms CPU`,
  );
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}

await pageSocket();
await feed();
