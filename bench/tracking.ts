// Move-tracking benchmarks.
// 1. Throughput: frames per second through readings → board → moves (the
//    recorded sim frames of every OCA game, played by the hand with all its
//    habits, pushed through a fresh tracker at full speed; median of 5 runs).
// 2. Commit latency over corpus games played by that hand: commit time − the
//    moment the hand last left the board (its last action's motion over), on
//    the frame clock, signed and unclamped. A move can be committed before the
//    hand has left: the board already showed the legal result and the hand
//    went on crowning, nudging the coin to the centre, knocking a neighbour or
//    turning a magnet-up coin over; those are counted with their reason. Also
//    commit time − the moment the move's pieces were in place.
// Run: node bin/run-ts.js bench/tracking.ts   (or npm run bench tracking)
// --baseline REF: the throughput also of git revision REF's tracker (its src/
// unpacked to a temporary folder) on exactly the same recorded frames, run in
// turn with this one (7 runs each), and the ratio.
// BENCH_TINSLEY=n sets how many tinsley games (spread over the file) join the 43 OCA games (default 150).

import { execSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readPdn } from '../src/pdn/index.ts';
import { Game } from '../src/rules/index.ts';
import { BoardTracking } from '../src/tracking/board-tracking.ts';
import { corpusFile } from '../test/harness/corpus.ts';
import { HUMAN, RandomHand, Table, writerOn } from '../test/harness/table.ts';

// 1. Record the frames of every OCA game as the sim emits them.
const games = readPdn(corpusFile('OCA_2.0.pdn')).games;
const recorded: { t: Float64Array; r: Uint16Array; n: number }[] = [];
for (const [k, g] of games.entries()) {
  const table = new Table({ seed: k + 1 });
  const ts: number[] = [];
  const rs: number[] = [];
  table.sim.onFrame((f) => {
    ts.push(f.t);
    for (let i = 0; i < 32; i++) rs.push(f.readings[i]);
  });
  await table.open();
  table.setUp();
  const hand = new RandomHand(table, 1000 + k, HUMAN);
  for (const node of g.moves) hand.playMove(node.move);
  table.wait(500);
  recorded.push({ t: Float64Array.from(ts), r: Uint16Array.from(rs), n: ts.length });
}

type Tracker = { push(t: number, readings: Uint16Array): unknown };
type Make = (game: Game) => Tracker;
const ours: Make = (game) =>
  new BoardTracking(
    game,
    writerOn(() => game),
  );

function run(make: Make = ours): { frames: number; moves: number; secs: number } {
  let frames = 0,
    moves = 0;
  const t0 = performance.now();
  for (const rec of recorded) {
    const game = Game.standard();
    const tracker = make(game);
    for (let k = 0; k < rec.n; k++) tracker.push(rec.t[k], rec.r.subarray(k * 32, k * 32 + 32));
    frames += rec.n;
    moves += game.plies.length;
  }
  return { frames, moves, secs: (performance.now() - t0) / 1000 };
}

/** Another revision's tracker: its src/ unpacked into a temporary folder; before the table became the game's one writer (constructor (game, options)) it played on the game itself. */
async function baselineTracker(ref: string): Promise<Make> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-baseline-'));
  const root = resolve(import.meta.dirname, '..');
  execSync(`git -C ${JSON.stringify(root)} archive ${JSON.stringify(ref)} src hardware | tar -x -C ${JSON.stringify(dir)}`);
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const mod = (await import(pathToFileURL(join(dir, 'src/tracking/board-tracking.ts')).href)) as {
    BoardTracking: new (game: Game, ...rest: unknown[]) => Tracker;
  };
  const Ctor = mod.BoardTracking;
  return Ctor.length >= 2
    ? (game) =>
        new Ctor(
          game,
          writerOn(() => game),
        )
    : (game) => new Ctor(game);
}

const rate = (x: { frames: number; secs: number }) => Math.round(x.frames / x.secs).toLocaleString('en-US');
const { values: flags } = parseArgs({ options: { baseline: { type: 'string' } }, allowPositionals: true });
if (flags.baseline) {
  const theirs = await baselineTracker(flags.baseline);
  run();
  run(theirs); // warm up both
  const mine: ReturnType<typeof run>[] = [],
    base: ReturnType<typeof run>[] = [];
  for (let i = 0; i < 7; i++) {
    mine.push(run());
    base.push(run(theirs));
  }
  const median = (xs: ReturnType<typeof run>[]) => [...xs].sort((a, b) => a.secs - b.secs)[3]!;
  const [a, b] = [median(mine), median(base)];
  console.log(
    `tracking throughput side by side on the same ${a.frames.toLocaleString('en-US')} frames: this tree ${rate(a)} frames/s (${a.moves} moves), ${flags.baseline} ${rate(b)} (${b.moves} moves); ratio ${(b.secs / a.secs).toFixed(3)} (runs ${mine.map(rate).join(', ')} / ${base.map(rate).join(', ')})`,
  );
} else {
  run(); // warm up
  const runs = Array.from({ length: 5 }, () => run()).sort((a, b) => a.secs - b.secs);
  const med = runs[2];
  console.log(
    `tracking throughput: median ${rate(med)} frames/s on one core (runs: ${runs.map(rate).join(', ')}; ${med.frames.toLocaleString('en-US')} frames of ${games.length} games, ${med.moves} moves)`,
  );
}

// 2. Commit latency (not with --baseline: each tree's own hand and sim would differ, not only its tracker).
if (flags.baseline) process.exit(0);
const fromLeft: number[] = [],
  fromInPlace: number[] = [];
const early: Record<string, number> = {};
let missing = 0;
async function play(file: string, index: number, seed: number): Promise<void> {
  const game = readPdn(corpusFile(file)).games[index];
  const table = new Table({ seed });
  await table.open();
  table.setUp();
  const hand = new RandomHand(table, 1000 + seed - 1, HUMAN);
  for (const node of game.moves) {
    const before = table.of('move').length;
    hand.playMove(node.move);
    const commit = table.of('move').slice(before).at(0);
    if (!commit) {
      missing++; // committed later (a fast reply: with the next move)
      continue;
    }
    const { rest, inPlace, after } = hand.lastMove;
    fromLeft.push(commit.t - rest);
    fromInPlace.push(commit.t - inPlace);
    if (commit.t < rest) {
      const why = after.length
        ? after.join(' + ')
        : 'nothing after: the last coin was counted gone while the hand was still taking it away (a lift counts once the reading drops past the threshold)';
      early[why] = (early[why] ?? 0) + 1;
    }
  }
}
for (let k = 0; k < games.length; k++) await play('OCA_2.0.pdn', k, k + 1);
const n = Number(process.env.BENCH_TINSLEY ?? 150);
const total = readPdn(corpusFile('tinsley.pdn')).games.length;
for (let k = 0; k < Math.min(n, total); k++) {
  const idx = Math.floor((k * total) / n);
  await play('tinsley.pdn', idx, idx + 1);
}
const dist = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `min ${s[0].toFixed(0)}, p1 ${q(0.01).toFixed(0)}, p5 ${q(0.05).toFixed(0)}, p25 ${q(0.25).toFixed(0)}, median ${q(0.5).toFixed(0)}, p75 ${q(0.75).toFixed(0)}, p95 ${q(0.95).toFixed(0)}, p99 ${q(0.99).toFixed(0)}, max ${s[s.length - 1].toFixed(0)} ms`;
};
console.log(
  `commit latency, commit − the hand last left the board (frame clock, 100 frames/s, signed, unclamped), over ${fromLeft.length.toLocaleString('en-US')} moves of ${games.length} OCA + ${Math.min(n, total)} tinsley games:`,
);
console.log(`  ${dist(fromLeft)}`);
const nEarly = fromLeft.filter((x) => x < 0).length;
console.log(
  `  committed before the hand had left: ${nEarly} (${((100 * nEarly) / fromLeft.length).toFixed(1)} %), because the hand went on after the legal result stood:`,
);
for (const [why, c] of Object.entries(early).sort((a, b) => b[1] - a[1])) console.log(`    ${c}  ${why}`);
console.log(`commit − the move's pieces were in place: ${dist(fromInPlace)}`);
if (missing) console.log(`(${missing} moves were committed together with the next one: fast replies)`);
