// Club bench (#21 item 5): N simulated boards in one service, played at once
// in real time by a scripted hand (lift, put down, take the captured coins off,
// crown, with human gaps drawn from a seeded generator), corpus games on every
// board, one spectator on /watch/ws. For N = 1, 4, 16, 32: frames per second
// handled, CPU share (of one core) and resident memory per board, commit
// latency (wall time from the hand's last action of a move to the session's
// move event: the tracker's settling time plus any waiting for the event
// loop) and commit → spectator latency, p50/p99. Then 1,000 spectators (in a
// child process) on 4 boards. The boards run on the manual clock driven by
// wall time every 10 ms: when the process falls behind, frames arrive late
// and in bursts, as from a real serial buffer. Commit latency is therefore
// measured in two parts and added: the tracker's settling (board time from
// the hand's last action to the frame that commits) and the lag (wall time
// from when that frame was due to when it was handled).
// Run: node bin/run-ts.js bench/club.ts [--seconds 20] [--boards 1,4,16,32]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { mulberry32 } from '../src/common/prng.ts';
import { readPdn } from '../src/pdn/index.ts';
import { makeFen, START, type Move } from '../src/rules/index.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { startService, type Service } from '../src/server/service.ts';
import { CORPUS } from '../test/harness/corpus.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const SECONDS = Number(arg('seconds', '20'));
const SIZES = arg('boards', '1,4,16,32').split(',').map(Number);

const games: Move[][] = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8'))
  .games.filter((g) => makeFen(g.start) === makeFen(START) && g.moves.length >= 30)
  .map((g) => g.moves.map((m) => m.move));

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A board's hand: actions at board times, from a corpus game, with human gaps. */
interface Action {
  t: number;
  act: (sim: SimBoard) => void;
  /** the move's last action: its pieces are in place */
  completes?: number;
}
function script(moves: Move[], seed: number): Action[] {
  const rng = mulberry32(seed);
  const gap = (lo: number, hi: number) => lo + rng() * (hi - lo);
  const out: Action[] = [];
  let t = 800 + gap(0, 1000);
  moves.forEach((m, k) => {
    let held = 1;
    out.push({
      t,
      act: (s) => {
        held = s.coinsAt(m.from);
        s.lift(m.from);
      },
    });
    t += gap(150, 450);
    out.push({ t, act: (s) => s.set(m.to, m.crowned ? 2 : held) });
    for (const c of m.captures) {
      t += gap(150, 400);
      out.push({ t, act: (s) => s.lift(c) });
    }
    out[out.length - 1]!.completes = k + 1;
    t += gap(700, 2500); // the opponent thinks
  });
  return out;
}

/**
 * Plays the scripts on the boards in real time for `seconds`: every 10 ms each
 * board's clock is brought up to wall time, each action at its own board time
 * (frames before it, the action, frames after). `started` gets the wall time
 * the boards' script time counts from; `completed` hears of each move whose
 * pieces are in place. Returns the hand actions refused (a coin not there).
 */
async function drive(
  boards: SimBoard[],
  scripts: Action[][],
  seconds: number,
  started: (wall0: number) => void,
  completed?: (board: number, ply: number) => void,
): Promise<number> {
  const next = boards.map(() => 0);
  let refused = 0;
  const wall0 = performance.now();
  started(wall0);
  let boardT = 0;
  while (performance.now() - wall0 < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 10));
    const target = performance.now() - wall0;
    const step = target - boardT;
    boardT = target;
    boards.forEach((b, i) => {
      let done = 0;
      const s = scripts[i]!;
      while (next[i]! < s.length && s[next[i]!]!.t <= boardT) {
        const a = s[next[i]!++]!;
        const dt = Math.max(0, a.t - (boardT - step) - done);
        if (dt > 0) b.advance(dt);
        done += dt;
        try {
          a.act(b);
        } catch {
          refused++;
        }
        if (a.completes !== undefined) completed?.(i, a.completes);
      }
      if (step - done > 0) b.advance(step - done);
    });
  }
  return refused;
}

interface Run {
  n: number;
  frames: number;
  seconds: number;
  cpu: number;
  rssPerBoard: number;
  commit: number[];
  lags: number[];
  spectator: number[];
  moves: number;
  missed: number;
}

async function runClub(n: number, seconds: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-club-'));
  gc();
  const mem = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  const mem0 = mem();
  const boards = Array.from(
    { length: n },
    (_, i) => new SimBoard({ clock: 'manual', seed: 100 + i, id: `B${i + 1}`, startPosition: true }),
  );
  const service: Service = await startService({
    club: n > 1 ? { sources: boards } : undefined,
    board: n === 1 ? { source: boards[0] } : undefined,
    storage: { gamesDir: join(dir, 'games') },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  // Settle the start position on every board.
  for (const b of boards) b.advance(700);
  gc();
  const rssPerBoard = (mem() - mem0) / n;
  const scripts = boards.map((_, i) => script(games[i % games.length]!, 7 + i));
  /** per board: board time each ply's pieces were in place, and wall time it was committed */
  const inPlace = boards.map(() => new Map<number, number>());
  const base = boards.map((b) => b.now());
  const lags: number[] = [];
  const committedAt = boards.map(() => new Map<number, number>());
  const commit: number[] = [];
  const spectator: number[] = [];
  let frames = 0;
  let missed = 0;
  let wall0 = performance.now();
  service.rooms.forEach((room, i) =>
    room.session.on((e) => {
      if (e.type !== 'move') return;
      const now = performance.now();
      const ply = room.session.game.plies.length;
      committedAt[i]!.set(ply, now);
      const placed = inPlace[i]!.get(ply);
      const frameT = boards[i]!.now();
      const lag = Math.max(0, now - (wall0 + (frameT - base[i]!)));
      if (placed !== undefined) {
        commit.push(frameT - placed + lag);
        lags.push(lag);
      }
    }),
  );
  for (const b of boards) b.onFrame(() => frames++);
  // One spectator (club mode): commit → its 'board' message.
  let ws: WebSocket | null = null;
  if (n > 1) {
    ws = new WebSocket(service.url.replace(/^http/, 'ws') + 'watch/ws');
    ws.on('message', (data) => {
      const now = performance.now();
      const m = JSON.parse(String(data));
      if (m.type !== 'board') return;
      const i = m.board.number - 1;
      const at = committedAt[i]?.get(m.board.plies);
      if (at !== undefined) {
        spectator.push(now - at);
        committedAt[i]!.delete(m.board.plies);
      }
    });
    await new Promise((r) => ws!.once('open', r));
  }
  const cpu0 = process.cpuUsage();
  frames = 0;
  missed = await drive(
    boards,
    scripts,
    seconds,
    (t) => (wall0 = t),
    (i, ply) => inPlace[i]!.set(ply, boards[i]!.now()),
  );
  const wall = (performance.now() - wall0) / 1000;
  const c = process.cpuUsage(cpu0);
  const moves = service.rooms.reduce((k, r) => k + r.session.game.plies.length, 0);
  ws?.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  return { n, frames, seconds: wall, cpu: (c.user + c.system) / 1e6 / wall, rssPerBoard, commit, lags, spectator, moves, missed };
}

/** 1,000 spectators in a child process on a club of 4 boards: commit → the last spectator's message. */
async function spectators(
  count: number,
  seconds: number,
): Promise<{ p50: number; p99: number; samples: number; connected: number; lags: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-club-'));
  const boards = Array.from(
    { length: 4 },
    (_, i) => new SimBoard({ clock: 'manual', seed: 300 + i, id: `S${i + 1}`, startPosition: true }),
  );
  const service = await startService({
    club: { sources: boards },
    storage: { gamesDir: join(dir, 'games') },
    http: { port: 0 },
    log: { level: 'silent' },
  });
  for (const b of boards) b.advance(700);
  const child = fork(join(import.meta.dirname, 'club-spectators.mjs'), [service.url.replace(/^http/, 'ws') + 'watch/ws', String(count)], {
    stdio: 'inherit',
  });
  const ready = await new Promise<number>((r) => child.once('message', (m: any) => r(m.connected)));
  const samples: number[] = [];
  const committed = new Map<string, number>();
  child.on('message', (m: any) => {
    if (m.type !== 'last') return;
    const at = committed.get(`${m.board}:${m.plies}`);
    // the child's clock is its own: it reports the delay after its first copy; add the time to that copy
    if (at !== undefined) samples.push(m.t - at);
  });
  // The boards' own lag with the spectators watching (frames handled late), to set beside the run without them.
  const lags: number[] = [];
  const base = boards.map((b) => b.now());
  let wall0 = performance.now();
  service.rooms.forEach((room, i) =>
    room.session.on((e) => {
      if (e.type !== 'move') return;
      const now = performance.now();
      committed.set(`${i + 1}:${room.session.game.plies.length}`, performance.timeOrigin + now);
      lags.push(Math.max(0, now - (wall0 + (boards[i]!.now() - base[i]!))));
    }),
  );
  const scripts = boards.map((_, i) => script(games[(i + 9) % games.length]!, 50 + i));
  await drive(boards, scripts, seconds, (t) => (wall0 = t));
  child.kill();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  return { p50: pct(samples, 50), p99: pct(samples, 99), samples: samples.length, connected: ready, lags };
}

const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
console.log(`club: ${SECONDS} s per run, boards ${SIZES.join(', ')}; scripted hand on corpus games; one spectator on /watch/ws`);
const runs: Run[] = [];
for (const n of SIZES) {
  const r = await runClub(n, SECONDS);
  runs.push(r);
  console.log(
    `  N=${String(n).padStart(2)}: ${(r.frames / r.seconds).toFixed(0)} frames/s handled, CPU ${(r.cpu * 100).toFixed(0)} % of a core, ` +
      `${(r.rssPerBoard / 1048576).toFixed(1)} MiB heap per board (the service's own share included, divided by N); ${r.commit.length} commits (of ${r.moves} plies${r.missed ? `, ${r.missed} hand actions refused` : ''}): ` +
      `commit latency p50 ${f(pct(r.commit, 50))} / p99 ${f(pct(r.commit, 99))} ms (of which lag p50 ${f(pct(r.lags, 50))} / p99 ${f(pct(r.lags, 99))}); spectator p50 ${f(pct(r.spectator, 50))} / p99 ${f(pct(r.spectator, 99))} ms`,
  );
}
const one = runs.find((r) => r.n === 1);
const big = runs.at(-1);
if (one && big && big !== one) {
  const ratio = pct(big.commit, 99) / pct(one.commit, 99);
  console.log(`  commit p99, ${big.n} boards ÷ 1 board: ${ratio.toFixed(2)}× (must stay within 2×: ${ratio <= 2 ? 'yes' : 'NO'})`);
}
const sp = await spectators(1000, SECONDS);
const four = runs.find((r) => r.n === 4);
console.log(
  `  1,000 spectators (${sp.connected} connected, another process) on 4 boards: commit → last spectator p50 ${f(sp.p50)} / p99 ${f(sp.p99)} ms (${sp.samples} moves); ` +
    `the boards' lag meanwhile p50 ${f(pct(sp.lags, 50))} / p99 ${f(pct(sp.lags, 99))} ms` +
    (four ? ` (4 boards with one spectator: p50 ${f(pct(four.lags, 50))} / p99 ${f(pct(four.lags, 99))} ms)` : ''),
);
process.exit(0);
