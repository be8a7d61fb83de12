// Nodes a second at a fixed time a move, another engine and this one in turn,
// from the same middle-game positions: the machine's yardstick for the
// engine's speed. Nodes a second depend on the machine and on what else runs
// on it (the same tree measured 2.0 M nodes/s on one day's machine and 3.2 M
// on another's), so a figure is only worth something beside another engine's
// measured in the same run. A tool, not a figure of `npm run bench`: it needs
// an engine speaking the line protocol of ../shared/opponents/README.md that
// prints `info … nodes N` before its `bestmove` (GuiNN's adapter does; built
// locally, never needed by the tests).
//
//   node bin/run-ts.js bench/yardstick.ts --cmd ~/.cache/crownhead-opponents/bin/guinn-stdio \
//     --cwd ~/.cache/crownhead-opponents/guinn [--ms 1000] [--positions 10] [--runs 2]
//
// Positions: ply 24 of Tinsley's games in the corpus (the first with more than
// 30 moves and a choice there; out of the other engine's opening book). Each
// engine starts each search afresh (`newgame`; a new searcher here).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { legalMoves, makeFen, playMove, type Position } from '../src/rules/index.ts';
import { readPdn } from '../src/pdn/index.ts';
import { think } from '../src/engine/index.ts';
import { corpusFile } from '../test/harness/corpus.ts';

const { values } = parseArgs({
  options: {
    cmd: { type: 'string' },
    cwd: { type: 'string' },
    ms: { type: 'string' },
    positions: { type: 'string' },
    runs: { type: 'string' },
  },
});
const count = (name: string, text: string | undefined, fallback: number): number => {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} wants a whole number of 1 or more, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return n;
};
const home = (p: string): string => p.replace(/^~(?=\/)/, process.env.HOME ?? '~');
if (!values.cmd) {
  console.error('usage: bench/yardstick.ts --cmd ENGINE [--cwd DIR] [--ms 1000] [--positions 10] [--runs 2]');
  process.exit(2);
}
const cmd = home(values.cmd);
if (!existsSync(cmd)) {
  console.error(`no engine at ${cmd} (build the sparring partners: ../shared/opponents/README.md)`);
  process.exit(2);
}
const ms = count('ms', values.ms, 1000),
  wanted = count('positions', values.positions, 10),
  runs = count('runs', values.runs, 2);

const positions: Position[] = [];
for (const g of readPdn(corpusFile('tinsley.pdn')).games) {
  if (g.moves.length <= 30) continue;
  let pos = g.start;
  for (let i = 0; i < 24; i++) pos = playMove(pos, g.moves[i]!.move);
  if (legalMoves(pos).length > 1) positions.push(pos);
  if (positions.length === wanted) break;
}

const child = spawn(cmd, [], { cwd: values.cwd ? home(values.cwd) : undefined, stdio: ['pipe', 'pipe', 'inherit'] });
child.on('error', (e) => {
  console.error(`${cmd} did not start: ${e.message}`);
  process.exit(1);
});
let seen: string[] = [];
let wake: (() => void) | null = null;
createInterface({ input: child.stdout }).on('line', (l) => {
  seen.push(l);
  wake?.();
});
child.on('exit', () => wake?.());
/** The lines up to and including the first that `done` accepts. */
async function until(done: (l: string) => boolean): Promise<string[]> {
  for (;;) {
    const i = seen.findIndex(done);
    if (i >= 0) return seen.splice(0, i + 1);
    if (child.exitCode !== null) throw new Error(`${cmd} exited (${child.exitCode}) before answering`);
    await new Promise<void>((r) => (wake = r));
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const name = cmd.split('/').pop()!;

child.stdin.write('isready\n');
await until((l) => l === 'readyok');
console.log(`nodes a second at ${ms} ms a move, ${name} and crownhead in turn, ${positions.length} positions × ${runs} runs:`);
const theirs: number[] = [],
  ours: number[] = [];
for (const [i, pos] of positions.entries()) {
  for (let r = 0; r < runs; r++) {
    child.stdin.write('newgame\n');
    const t0 = performance.now();
    child.stdin.write(`go ${makeFen(pos)} ${ms}\n`);
    const lines = await until((l) => l.startsWith('bestmove'));
    const took = performance.now() - t0;
    const info = lines.filter((l) => / nodes \d+/.test(l)).pop();
    if (!info) throw new Error(`${name} printed no "info … nodes N" line before its bestmove`);
    const nodes = Number(/ nodes (\d+)/.exec(info)![1]);
    const depth = / depth (\d+)/.exec(info)?.[1] ?? '?';
    theirs.push(nodes / took / 1000);
    const o = think({ position: pos, limits: { timeMs: ms } });
    ours.push(o.nodes / o.ms / 1000);
    console.log(
      `  position ${i + 1}: ${name} ${nodes} nodes in ${took.toFixed(0)} ms, depth ${depth} (${(nodes / took / 1000).toFixed(2)} M/s)` +
        ` | crownhead ${o.nodes} nodes in ${o.ms.toFixed(0)} ms, depth ${o.depth} (${(o.nodes / o.ms / 1000).toFixed(2)} M/s)`,
    );
  }
}
console.log(
  `median M nodes/s: ${name} ${median(theirs).toFixed(2)}, crownhead ${median(ours).toFixed(2)}; ratio ${(median(ours) / median(theirs)).toFixed(2)}`,
);
child.stdin.write('quit\n');
