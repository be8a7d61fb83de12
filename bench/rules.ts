// Rules and PDN benchmarks: perft speed (depth 12 from the start), perft
// rates beside the `rapid-draughts` npm engine in the same run (ratios of
// medians over repeated runs of at least 2 s), and the time to read and
// replay the whole corpus (data/corpus).
// Run: node bin/run-ts.js bench/rules.ts   (or npm run bench)

import { corpusFile, corpusPdnFiles } from '../test/harness/corpus.ts';
import { START, legalMoves, perft, playMove, type Position } from '../src/rules/index.ts';
import { readPdn } from '../src/pdn/index.ts';

const EXPECTED: Record<number, number> = { 6: 36768, 7: 179740, 8: 845931, 9: 3963680, 10: 18391564, 11: 85242128, 12: 388623673 };

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, (performance.now() - t) / 1000];
}

const fmt = (n: number) => n.toLocaleString('en-US');

// Our engine, depth 12.
const depth = Number(process.env.PERFT_DEPTH ?? 12);
perft(START, 7); // warm up the JIT
const [nodes, secs] = timed(() => perft(START, depth));
if (EXPECTED[depth] !== undefined && nodes !== EXPECTED[depth]) {
  console.error(`perft(${depth}) = ${nodes}, expected ${EXPECTED[depth]}`);
  process.exit(1);
}
console.log(`perft ${depth} (crownhead): ${fmt(nodes)} nodes in ${secs.toFixed(2)} s = ${(nodes / secs / 1e6).toFixed(1)} M nodes/s`);

// Side by side with rapid-draughts (1.0.6), in the same run. Each contender
// runs at the smallest depth where a warm run takes at least 2 s, 5 runs each,
// interleaved; the ratio is of the median node rates. Two ratios: our
// allocation-free perft against their public API, and — like for like — our
// own public API (legalMoves/playMove, a Move object per move) against theirs.
// rapid-draughts' .d.ts files use extensionless relative imports that NodeNext
// resolution cannot follow, so describe the little we use here.
interface RdEngine {
  readonly moves: unknown[];
  clone(): RdEngine;
  move(m: unknown): void;
}
const { EnglishDraughtsEngineFactory } = (await import('rapid-draughts/english')) as unknown as {
  EnglishDraughtsEngineFactory: { setup(): RdEngine };
};
function rdPerft(e: RdEngine, d: number): number {
  const moves = e.moves;
  if (d === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const c = e.clone();
    c.move(m);
    n += rdPerft(c, d - 1);
  }
  return n;
}
function apiPerft(pos: Position, d: number): number {
  const moves = legalMoves(pos);
  if (d === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += apiPerft(playMove(pos, m), d - 1);
  return n;
}
const contenders: { name: string; run: (d: number) => number }[] = [
  { name: 'crownhead perft', run: (d) => perft(START, d) },
  { name: 'crownhead public API (legalMoves/playMove)', run: (d) => apiPerft(START, d) },
  { name: 'rapid-draughts 1.0.6 public API', run: (d) => rdPerft(EnglishDraughtsEngineFactory.setup(), d) },
];
const RUNS = 5;
const rates = new Map<string, { depth: number; nodes: number; secs: number[] }>();
for (const c of contenders) {
  // The depth where a warm run (the second at that depth) takes at least 2 s.
  let d = 6;
  for (;;) {
    c.run(d);
    const [, t] = timed(() => c.run(d));
    if (t >= 2) break;
    d++;
  }
  rates.set(c.name, { depth: d, nodes: 0, secs: [] });
}
// Interleaved rounds; a contender whose median run came under 2 s goes one
// depth deeper and is measured again (all contenders again, still interleaved).
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;
for (;;) {
  for (const r of rates.values()) r.secs = [];
  for (let i = 0; i < RUNS; i++) {
    for (const c of contenders) {
      const r = rates.get(c.name)!;
      const [n, t] = timed(() => c.run(r.depth));
      if (EXPECTED[r.depth] !== undefined && n !== EXPECTED[r.depth])
        throw new Error(`${c.name}: perft ${r.depth} = ${n}, expected ${EXPECTED[r.depth]}`);
      r.nodes = n;
      r.secs.push(t);
    }
  }
  const short = [...rates.values()].filter((r) => median(r.secs) < 2);
  if (!short.length) break;
  for (const r of short) r.depth++;
}
const rate = (name: string) => rates.get(name)!.nodes / median(rates.get(name)!.secs);
for (const [name, r] of rates) {
  console.log(
    `${name}: perft ${r.depth} = ${fmt(r.nodes)} nodes, median ${median(r.secs).toFixed(2)} s of ${RUNS} (${Math.min(...r.secs).toFixed(2)}–${Math.max(...r.secs).toFixed(2)} s) = ${(r.nodes / median(r.secs) / 1e6).toFixed(2)} M nodes/s`,
  );
}
console.log(
  `perft speed ratio, crownhead perft / rapid-draughts API: ${(rate(contenders[0]!.name) / rate(contenders[2]!.name)).toFixed(1)}x (median rates)`,
);
console.log(
  `perft speed ratio, crownhead public API / rapid-draughts API (like for like): ${(rate(contenders[1]!.name) / rate(contenders[2]!.name)).toFixed(1)}x (median rates)`,
);

// Corpus replay.
{
  const files = corpusPdnFiles().map(corpusFile);
  const replay = () =>
    timed(() => {
      let games = 0,
        moves = 0;
      for (const text of files) {
        const r = readPdn(text);
        games += r.games.length + r.errors.length;
        moves += r.games.reduce((n, g) => n + g.moves.length, 0);
      }
      return { games, moves };
    });
  const [stats, cold] = replay();
  const warm = Math.min(replay()[1], replay()[1]);
  console.log(
    `corpus replay: ${fmt(stats.games)} games, ${fmt(stats.moves)} moves read and replayed in ${(cold * 1000).toFixed(0)} ms cold, ${(warm * 1000).toFixed(0)} ms warm (${fmt(Math.round(stats.moves / warm))} moves/s)`,
  );
}
