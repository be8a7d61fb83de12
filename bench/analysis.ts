// After-game analysis, as the page asks for it: a 40-move game (80 plies,
// 81 positions) analysed by the coach's plan — a lane per core (here at most
// 2), each an engine worker, level 10: a first pass at analysisTimeMs a
// position, then the close calls' positions again at confirmPlan's time —
// timed as a whole (wall clock, from asking to the last verdict), beside
// (--baseline REF, default 4709f1a) that revision's page analysis: its
// analyseLine at the coach's 2 s a position, one search at a time, in one
// thread as its single worker ran them. Then how good each is: on --games N
// fixed games (default 3; each of Tinsley's games cut at 80 plies), the moves
// each marks (? or ??) against those a reference analysis marks — every
// position searched to --reference-nodes nodes (default 12,000,000, about four
// times the deeper look; a node count, so the machine's load does not change
// it), kept in --reference FILE (default in ~/.cache/crownhead/, named by the
// shipped network's digest, so a new network gets a reference of its own
// rather than being judged by another engine's marks) and read from it on
// later runs: how many of the reference's marks each finds, and how many
// of its own the reference shares; --compare FILE (repeatable) adds another
// reference kept so before (e.g. another revision's engine's) to compare with;
// --one-pass also runs this tree's analysis as one pass of the whole time (no
// deeper look at the close calls), to show what that look adds.
// Run: node bin/run-ts.js bench/analysis.ts [--baseline REF] [--games N] [--no-baseline] [--reference-only] [--compare FILE] [--one-pass]

import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gameName, readPdn, type PdnGame } from '../src/pdn/index.ts';
import { analyseLine, type MoveVerdict } from '../src/engine/index.ts';
import { AnalysisPool, analysisLanes } from '../src/engine-host/pool.ts';
import { ANALYSIS_MS, analysisTimeMs, confirmPlan } from '../src/game/coach.ts';
import { corpusFile } from '../test/harness/corpus.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: '4709f1a' },
    games: { type: 'string', default: '3' },
    'no-baseline': { type: 'boolean' },
    'reference-nodes': { type: 'string', default: '12000000' },
    reference: { type: 'string' },
    'reference-only': { type: 'boolean' },
    compare: { type: 'string', multiple: true },
    'one-pass': { type: 'boolean' },
  },
});
const PLIES = 80;
const FULL_MS = 2000;
const lanes = Math.min(2, analysisLanes());
const n = Math.max(1, Number(values.games));
const games = readPdn(corpusFile('tinsley.pdn'))
  .games.filter((g) => g.moves.length >= PLIES)
  .slice(0, n);
const cut = (g: PdnGame) => g.moves.slice(0, PLIES).map((m) => m.move);
const tag = (g: PdnGame, k: string) => g.tags.find(([name]) => name === k)?.[1] ?? '?';
const marked = (vs: readonly MoveVerdict[]) => new Set(vs.filter((v) => v.mark).map((v) => v.ply));

/** The reference: every position to a fixed node count, on two lanes (their order does not change a fixed-node search's answer much; it is not timed). */
const refNodes = Number(values['reference-nodes']);
/** The shipped network's first 12 hex digits of SHA-256: the engine the reference was computed with. */
const netDigest = createHash('sha256')
  .update(readFileSync(resolve(import.meta.dirname, '../data/engine/net.bin')))
  .digest('hex')
  .slice(0, 12);
const refFile = values.reference ?? join(homedir(), '.cache/crownhead', `analysis-reference-net-${netDigest}-${refNodes}.json`);
const reference: Record<string, number[]> = existsSync(refFile)
  ? (JSON.parse(readFileSync(refFile, 'utf8')) as Record<string, number[]>)
  : {};
const refPool = new AnalysisPool(lanes);
for (const [k, g] of games.entries()) {
  const key = `${gameName(g)} ${PLIES}`;
  if (reference[key]) continue;
  const t0 = performance.now();
  const v = (await analyseLine(g.start, cut(g), { level: 10, nodes: refNodes }, (req) => refPool.think(req), { lanes }))!;
  reference[key] = [...marked(v)];
  mkdirSync(dirname(refFile), { recursive: true });
  writeFileSync(refFile, JSON.stringify(reference, null, 1) + '\n');
  console.log(
    `  reference for game ${k + 1} (${refNodes} nodes a position): ${((performance.now() - t0) / 1000).toFixed(0)} s, kept in ${refFile}`,
  );
}
await refPool.close();
if (values['reference-only']) process.exit(0);
const refMarks = (g: PdnGame) => new Set(reference[`${gameName(g)} ${PLIES}`]!);
/** Found of the reference's marks, and shared of its own. */
function against(mine: Set<number>, ref: Set<number>): { found: number; refs: number; shared: number; own: number } {
  return {
    found: [...ref].filter((p) => mine.has(p)).length,
    refs: ref.size,
    shared: [...mine].filter((p) => ref.has(p)).length,
    own: mine.size,
  };
}
const total = { found: 0, refs: 0, shared: 0, own: 0 };
const add = (t: typeof total, x: typeof total) => Object.keys(t).forEach((k) => (t[k as keyof typeof t] += x[k as keyof typeof t]));
const summary = (t: typeof total) =>
  `found ${t.found} of the reference's ${t.refs} marks; ${t.shared} of its own ${t.own} the reference shares`;

/** Every reference the marks are compared with: this one first, then each --compare file's. */
const references: { name: string; marks: (g: PdnGame) => Set<number> }[] = [
  { name: refFile, marks: refMarks },
  ...(values.compare ?? []).map((file) => {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
    return { name: file, marks: (g: PdnGame) => new Set(r[`${gameName(g)} ${PLIES}`] ?? []) };
  }),
];
/** One analysis' marks, game by game, against every reference. */
function report(who: string, marks: readonly Set<number>[]): void {
  for (const r of references) {
    const t = { ...total };
    games.forEach((g, k) => add(t, against(marks[k]!, r.marks(g))));
    console.log(`  ${who} against ${r.name}: ${summary(t)} (its marks: ${games.map((g) => `[${[...r.marks(g)].join(' ')}]`).join(' ')})`);
  }
}

/** The one-pass analysis' time a position: the page's whole ANALYSIS_MS spread over the positions on every lane. */
const ONE_PASS_MS = Math.round((ANALYSIS_MS * lanes) / (PLIES + 1));

/** The page's analysis; `single`: one pass only, the whole ANALYSIS_MS spread over it (the plan before close calls were looked at again). */
async function quick(g: PdnGame, pool: AnalysisPool, single = false): Promise<{ ms: number; verdicts: MoveVerdict[] }> {
  const plan = confirmPlan(PLIES + 1, lanes, FULL_MS);
  const confirm = { limits: { level: 10, timeMs: plan.timeMs }, positions: plan.positions };
  const limits = {
    level: 10,
    timeMs: single ? ONE_PASS_MS : analysisTimeMs(PLIES + 1, lanes, FULL_MS),
  };
  const t0 = performance.now();
  const verdicts = await analyseLine(g.start, cut(g), limits, (req) => pool.think(req), { lanes, ...(single ? {} : { confirm }) });
  return { ms: performance.now() - t0, verdicts: verdicts! };
}

const pool = new AnalysisPool(lanes);
const plan = confirmPlan(PLIES + 1, lanes, FULL_MS);
console.log(
  `analysis of a 40-move game (${PLIES} plies): ${lanes} lanes, ${analysisTimeMs(PLIES + 1, lanes, FULL_MS)} ms a position, then at most ${plan.positions} positions at ${plan.timeMs} ms`,
);
const times: number[] = [];
const mineMarks: Set<number>[] = [];
for (const [k, g] of games.entries()) {
  const q = await quick(g, pool);
  times.push(q.ms);
  mineMarks.push(marked(q.verdicts));
  console.log(
    `  this tree, game ${k + 1} (${tag(g, 'White')} – ${tag(g, 'Black')}): ${(q.ms / 1000).toFixed(1)} s, marks [${[...marked(q.verdicts)].join(' ')}], the reference [${[...refMarks(g)].join(' ')}]`,
  );
}
if (values['one-pass']) {
  const oneMarks: Set<number>[] = [];
  for (const g of games) {
    const q = await quick(g, pool, true);
    oneMarks.push(marked(q.verdicts));
    console.log(`  this tree, one pass of ${ONE_PASS_MS} ms a position: ${(q.ms / 1000).toFixed(1)} s`);
  }
  report('this tree, one pass', oneMarks);
}
await pool.close();
console.log(`  this tree over ${games.length} games: ${times.map((t) => (t / 1000).toFixed(1) + ' s').join(', ')}`);
report('this tree', mineMarks);

if (!values['no-baseline']) {
  const ref = values.baseline!;
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-baseline-'));
  execSync(
    `git -C ${JSON.stringify(resolve(import.meta.dirname, '..'))} archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`,
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const base = (await import(pathToFileURL(join(dir, 'src/engine/index.ts')).href)) as typeof import('../src/engine/index.ts');
  const baseMarks: Set<number>[] = [];
  const baseTimes: number[] = [];
  for (const [k, g] of games.entries()) {
    const searcher = new base.Searcher();
    const t0 = performance.now();
    const old = (await base.analyseLine(g.start, cut(g), { level: 10, timeMs: FULL_MS }, (req) => base.think(req, { searcher })))!;
    baseTimes.push(performance.now() - t0);
    baseMarks.push(marked(old));
    console.log(
      `  ${ref}, game ${k + 1}: ${(baseTimes[k]! / 1000).toFixed(1)} s (one search at a time, ${FULL_MS} ms a position), marks [${[...marked(old)].join(' ')}]`,
    );
  }
  console.log(`  ${ref} over ${games.length} games: ${baseTimes.map((t) => (t / 1000).toFixed(1) + ' s').join(', ')}`);
  report(ref, baseMarks);
  console.log(`  time ratio ${ref} / this tree, game by game: ${baseTimes.map((t, k) => (t / times[k]!).toFixed(2)).join(', ')}`);
}
