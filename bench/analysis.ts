// After-game analysis, as the page asks for it: a 40-move game (80 plies,
// 81 positions) analysed by the coach's settings — a lane per core (here at
// most 2), each an engine worker, level 10 at analysisTimeMs a position —
// timed as a whole (wall clock, from asking to the last verdict), beside
// (--baseline REF, default 4709f1a) that revision's page analysis: its
// analyseLine at the coach's 2 s a position, one search at a time, in one
// thread as its single worker ran them. Then how good the quick analysis is:
// on --games N fixed games (default 2; each of Tinsley's games cut at 80
// plies), the moves the quick analysis marks (? or ??) against those a search
// of four times the time a position marks (one lane): how many of the deeper
// search's marks it finds, and how many of its own the deeper search shares.
// Run: node bin/run-ts.js bench/analysis.ts [--baseline REF] [--games N] [--no-baseline]

import { execSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readPdn, type PdnGame } from '../src/pdn/index.ts';
import { analyseLine, type MoveVerdict } from '../src/engine/index.ts';
import { AnalysisPool, analysisLanes } from '../src/engine-host/pool.ts';
import { analysisTimeMs } from '../src/game/coach.ts';
import { corpusFile } from '../test/harness/corpus.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: '4709f1a' },
    games: { type: 'string', default: '2' },
    'no-baseline': { type: 'boolean' },
  },
});
const PLIES = 80;
const FULL_MS = 2000;
const lanes = Math.min(2, analysisLanes());
const games = readPdn(corpusFile('tinsley.pdn')).games.filter((g) => g.moves.length >= PLIES);
const cut = (g: PdnGame) => g.moves.slice(0, PLIES).map((m) => m.move);
const tag = (g: PdnGame, k: string) => g.tags.find(([name]) => name === k)?.[1] ?? '?';
const marked = (vs: readonly MoveVerdict[]) => new Set(vs.filter((v) => v.mark).map((v) => v.ply));

async function quick(g: PdnGame, pool: AnalysisPool): Promise<{ ms: number; verdicts: MoveVerdict[] }> {
  const limits = { level: 10, timeMs: analysisTimeMs(PLIES + 1, lanes, FULL_MS) };
  const t0 = performance.now();
  const verdicts = await analyseLine(g.start, cut(g), limits, (req) => pool.think(req), { lanes });
  return { ms: performance.now() - t0, verdicts: verdicts! };
}

const pool = new AnalysisPool(lanes);
const first = games[0]!;
console.log(
  `analysis of a 40-move game (${tag(first, 'White')} – ${tag(first, 'Black')}, ${PLIES} plies): ${lanes} lanes, ${analysisTimeMs(PLIES + 1, lanes, FULL_MS)} ms a position`,
);
const mine = await quick(first, pool);
console.log(`  this tree: ${(mine.ms / 1000).toFixed(1)} s, ${marked(mine.verdicts).size} moves marked`);

if (!values['no-baseline']) {
  const ref = values.baseline!;
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-baseline-'));
  execSync(
    `git -C ${JSON.stringify(resolve(import.meta.dirname, '..'))} archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`,
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const base = (await import(pathToFileURL(join(dir, 'src/engine/index.ts')).href)) as typeof import('../src/engine/index.ts');
  const searcher = new base.Searcher();
  const t0 = performance.now();
  const old = await base.analyseLine(first.start, cut(first), { level: 10, timeMs: FULL_MS }, (req) => base.think(req, { searcher }));
  const ms = performance.now() - t0;
  console.log(`  ${ref}: ${(ms / 1000).toFixed(1)} s (one search at a time, ${FULL_MS} ms a position), ${marked(old!).size} moves marked`);
  console.log(`  ratio ${ref} / this tree: ${(ms / mine.ms).toFixed(2)}`);
}

const n = Math.max(1, Number(values.games));
let found = 0,
  deepMarks = 0,
  shared = 0,
  quickMarks = 0;
const deepPool = new AnalysisPool(1);
for (const [k, g] of games.slice(0, n).entries()) {
  const q = k === 0 ? mine : await quick(g, pool);
  const deepMs = 4 * analysisTimeMs(PLIES + 1, lanes, FULL_MS);
  const deep = (await analyseLine(g.start, cut(g), { level: 10, timeMs: deepMs }, (req) => deepPool.think(req)))!;
  const [a, b] = [marked(q.verdicts), marked(deep)];
  found += [...b].filter((p) => a.has(p)).length;
  shared += [...a].filter((p) => b.has(p)).length;
  deepMarks += b.size;
  quickMarks += a.size;
  console.log(
    `  game ${k + 1}: quick marks plies [${[...a].join(' ')}], the deeper search (${deepMs} ms a position) [${[...b].join(' ')}]`,
  );
}
console.log(
  `  over ${n} games: the quick analysis found ${found} of the deeper search's ${deepMarks} marks; ${shared} of its own ${quickMarks} the deeper search shares`,
);
await Promise.all([pool.close(), deepPool.close()]);
