// Move-tracking benchmarks: frames per second through readings → board →
// moves (recorded sim frames of real games pushed through a fresh tracker at
// full speed), and the commit latency — frame-clock time from the frame
// where the pieces come to rest to the commit — median and p99 over corpus
// games played by the randomised hand.
// Run: node bin/run-ts.js bench/tracking.ts   (or npm run bench)

import { readPdn } from '../src/pdn/index.ts';
import { Game } from '../src/rules/index.ts';
import { MoveTracker } from '../src/tracking/tracker.ts';
import { corpusFile } from '../test/corpus.ts';
import { RandomHand, Table } from '../test/tracking/table.ts';
import { playCorpusGame, corpusGameCount } from '../test/tracking/corpus-games.ts';

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
  const hand = new RandomHand(table, 1000 + k);
  for (const node of g.moves) hand.playMove(node.move);
  table.wait(500);
  recorded.push({ t: Float64Array.from(ts), r: Uint16Array.from(rs), n: ts.length });
}

// 2. Push them through readings → board → moves, timed.
function run(): { frames: number; moves: number; secs: number } {
  let frames = 0, moves = 0;
  const t0 = performance.now();
  for (const rec of recorded) {
    const game = Game.standard();
    const tracker = new MoveTracker(game);
    for (let k = 0; k < rec.n; k++) tracker.push(rec.t[k], rec.r.subarray(k * 32, k * 32 + 32));
    frames += rec.n;
    moves += game.plies.length;
  }
  return { frames, moves, secs: (performance.now() - t0) / 1000 };
}
run(); // warm up
const best = [run(), run(), run()].sort((a, b) => a.secs - b.secs)[0];
console.log(`tracking throughput: ${Math.round(best.frames / best.secs).toLocaleString('en-US')} frames/s on one core (${best.frames.toLocaleString('en-US')} frames of ${games.length} games, ${best.moves} moves, in ${best.secs.toFixed(2)} s)`);

// 3. Commit latency over corpus games (frame clock: 100 frames/s).
const lat: number[] = [];
for (let k = 0; k < games.length; k++) lat.push(...(await playCorpusGame('OCA_2.0.pdn', k)).latencies);
const n = Number(process.env.BENCH_TINSLEY ?? 150);
const total = corpusGameCount('tinsley.pdn');
for (let k = 0; k < Math.min(n, total); k++) lat.push(...(await playCorpusGame('tinsley.pdn', Math.floor((k * total) / n))).latencies);
lat.sort((a, b) => a - b);
const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
console.log(`commit latency (frame clock, 100 frames/s): median ${q(0.5).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms, max ${lat[lat.length - 1].toFixed(0)} ms over ${lat.length.toLocaleString('en-US')} moves`);
