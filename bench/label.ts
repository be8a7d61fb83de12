// `npx tsx bench/label.ts`: labels the positions of bench/selfplay.ts' files
// with a fixed-depth search's score, for bench/tune.ts --labels (a target
// from the search rather than the game's result alone: a position's result in
// a 4000-node self-play game says more about the players than the position).
// Each line of the output is `file b w k turn result score`: the index of the
// input file it came from, the input line as it stood (hex bitboards, b/w,
// Black's result) and the search's score for Black in hundredths of a man
// (a forced win or loss as ±1500). The search is this tree's with the linear
// table of label-weights.ts (the one the shipped labels were made with, not
// the engine's own, which was fitted to them), the 4-piece endgame database
// and one hash table kept across the positions, so
// the same flags give the same file, and a run stopped part-way is a prefix of
// the full one (--limit stops it at a count). The shipped tables' label files
// (label-d6.0-2.txt, 244,000 lines; label-d6.1-2.txt, 240,000) were made by the
// search of c5b2328, before it stopped extending single replies past its
// horizon: this tree's search scores them differently (the first line: −44, not
// −79). To remake those files exactly, run this script in a checkout of c5b2328.
//
//   npx tsx bench/label.ts --part 0/2 --out /tmp/lab-0.txt & npx tsx bench/label.ts --part 1/2 --out /tmp/lab-1.txt
//   --data FILE,FILE,… (default bench/tune.ts' with --patterns: seed 1's two parts and seed 2's file)
//   --take N,N,… (the first N lines of each, default 113363,106753,409868)  --depth D (default 6)
//   --part K/N (every N-th line from the K-th, 0-based)  --limit N (stop after N positions)  --out FILE
//
// About 145 positions a second a process at depth 6 on this machine.

import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EGDB_PIECES, Searcher, WIN_BOUND } from '../src/engine/index.ts';
import { loadEgdb } from '../src/engine-host/egdb-cache.ts';
import { LABEL_WEIGHTS } from './label-weights.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    take: { type: 'string' },
    part: { type: 'string' },
    depth: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
  },
});
const cache = join(homedir(), '.cache/crownhead-tune');
const files = values.data
  ? values.data.split(',')
  : [0, 1].map((i) => join(cache, `selfplay-1-6000-4000-6.${i}-2.txt`)).concat(join(cache, 'selfplay-2-40000-4000-6.txt'));
const take = (values.take ?? '113363,106753,409868').split(',').map(Number);
const part = /^(\d+)\/(\d+)$/.exec(values.part ?? '0/1');
if (!part || Number(part[1]) >= Number(part[2])) throw new Error(`--part must be K/N with 0 ≤ K < N, not "${values.part}"`);
const [K, N] = [Number(part[1]), Number(part[2])];
const depth = Number(values.depth ?? 6);
if (!Number.isInteger(depth) || depth < 1) throw new Error(`--depth must be a whole number of plies, not "${values.depth}"`);
const limit = Number(values.limit ?? Infinity);
if (!(limit === Infinity || (Number.isInteger(limit) && limit > 0)))
  throw new Error(`--limit must be a positive whole number of positions, not "${values.limit}"`);
if (take.some((t) => !Number.isInteger(t) || t < 0)) throw new Error(`--take must be whole numbers of lines, not "${values.take}"`);
for (const file of files)
  if (!existsSync(file)) throw new Error(`no self-play data at ${file}: run bench/selfplay.ts first (bench/tune.ts' header says how)`);
if (!values.out) throw new Error('--out FILE is needed');
const out = values.out;

const egdb = loadEgdb(EGDB_PIECES);
const searcher = new Searcher(20);
writeFileSync(out, '');
let n = 0,
  i = 0,
  buf: string[] = [];
const t0 = performance.now();
outer: for (const [f, file] of files.entries()) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, take[f] ?? Infinity);
  for (const line of lines) {
    if (!line) continue;
    if (i++ % N !== K) continue;
    const [b, w, k, t] = line.split(' ');
    if (t !== 'b' && t !== 'w') throw new Error(`${file}: "${line}" is not a position line (black white kings b|w result)`);
    const pos = {
      black: parseInt(b!, 16) | 0,
      white: parseInt(w!, 16) | 0,
      kings: parseInt(k!, 16) | 0,
      turn: t === 'b' ? 'black' : 'white',
    } as const;
    const r = searcher.search(pos, { depth, egdb, weights: LABEL_WEIGHTS });
    let score = t === 'b' ? r.score : -r.score;
    if (score > WIN_BOUND) score = 1500;
    else if (score < -WIN_BOUND) score = -1500;
    buf.push(`${f} ${line} ${score}`);
    if (buf.length >= 1000) {
      appendFileSync(out, buf.join('\n') + '\n');
      buf = [];
    }
    if (++n >= limit) break outer;
    if (n % 20000 === 0) console.log(`${n} positions, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
}
if (buf.length) appendFileSync(out, buf.join('\n') + '\n');
console.log(`${n} positions labelled at depth ${depth} in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${out}`);
