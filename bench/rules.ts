// Rules and PDN benchmarks: perft speed (depth 12 from the start), the same
// perft measured for the `rapid-draughts` npm engine in the same run (ratio),
// and the time to read and replay the whole shared corpus.
// Run: node bin/run-ts.js bench/rules.ts   (or npm run bench)

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { START, perft } from '../src/rules/index.ts';
import { readPdn } from '../src/pdn/index.ts';

const EXPECTED: Record<number, number> = { 9: 3963680, 10: 18391564, 12: 388623673 };

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

// Side by side with rapid-draughts at a depth it finishes in seconds (it runs ~40× slower).
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
const cmpDepth = 9;
const [ours, oursSecs] = timed(() => perft(START, cmpDepth));
const [theirs, theirsSecs] = timed(() => rdPerft(EnglishDraughtsEngineFactory.setup(), cmpDepth));
console.log(`perft ${cmpDepth} (crownhead): ${fmt(ours)} nodes in ${oursSecs.toFixed(2)} s = ${(ours / oursSecs / 1e6).toFixed(1)} M nodes/s`);
console.log(`perft ${cmpDepth} (rapid-draughts 1.0.6): ${fmt(theirs)} nodes in ${theirsSecs.toFixed(2)} s = ${(theirs / theirsSecs / 1e6).toFixed(2)} M nodes/s`);
console.log(`perft speed ratio crownhead / rapid-draughts: ${((ours / oursSecs) / (theirs / theirsSecs)).toFixed(1)}x`);

// Corpus replay.
const here = import.meta.dirname;
const corpus = [resolve(here, '../../shared/corpus'), resolve(here, '../shared/corpus')].find(existsSync);
if (corpus) {
  const files = readdirSync(corpus).filter((f) => f.endsWith('.pdn')).map((f) => readFileSync(join(corpus, f), 'utf8'));
  const replay = () => timed(() => {
    let games = 0, moves = 0;
    for (const text of files) {
      const r = readPdn(text);
      games += r.games.length + r.errors.length;
      moves += r.games.reduce((n, g) => n + g.moves.length, 0);
    }
    return { games, moves };
  });
  const [stats, cold] = replay();
  const warm = Math.min(replay()[1], replay()[1]);
  console.log(`corpus replay: ${fmt(stats.games)} games, ${fmt(stats.moves)} moves read and replayed in ${(cold * 1000).toFixed(0)} ms cold, ${(warm * 1000).toFixed(0)} ms warm (${fmt(Math.round(stats.moves / warm))} moves/s)`);
} else console.log('corpus replay: skipped (shared/corpus not found beside the checkout)');
