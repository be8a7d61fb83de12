// The search's exactness check for speed work: fixed-depth searches from the
// speed bench's five ballots (depth 11) and from positions of Tinsley's games
// (depth 9), each iteration's best move, score and node count written as one
// line per position. A change meant to be a pure speed-up must leave every
// line the same: `--write FILE` records them (from the reference tree),
// `--check FILE` compares this tree's with them and lists what differs.
// Also a fixed workload for instruction counts (valgrind), nodes printed:
//   npx tsx bench/search-check.ts [--write F | --check F] [--positions N] [--ballots-only]
//       [--ballot-depth D] [--corpus-depth D]

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Game, legalMoves, playMove, type Position } from '../src/rules/index.ts';
import { readPdn } from '../src/pdn/index.ts';
import { corpusFile } from '../test/harness/corpus.ts';
import { Searcher } from '../src/engine/index.ts';

const { values } = parseArgs({
  options: {
    write: { type: 'string' },
    check: { type: 'string' },
    positions: { type: 'string' },
    'ballots-only': { type: 'boolean' },
    'ballot-depth': { type: 'string' },
    'corpus-depth': { type: 'string' },
  },
});
const BALLOT_DEPTH = Number(values['ballot-depth'] ?? 11);
const CORPUS_DEPTH = Number(values['corpus-depth'] ?? 9);
const POSITIONS = Number(values.positions ?? 300);

const cases: { id: string; pos: Position; depth: number; ttBits: number }[] = [];
for (const b of [1, 8, 31, 62, 100])
  cases.push({ id: `ballot ${b}`, pos: Game.fromBallot(b).game.position, depth: BALLOT_DEPTH, ttBits: 20 });
if (!values['ballots-only']) {
  // Every 7th position from ply 8 on of Tinsley's games, until POSITIONS of them (a move to choose from).
  const games = readPdn(corpusFile('tinsley.pdn')).games;
  let n = 0;
  outer: for (let g = 0; g < games.length; g++) {
    let pos = games[g]!.start;
    const moves = games[g]!.moves;
    for (let i = 0; i < moves.length; i++) {
      if (i >= 8 && i % 7 === 1 && legalMoves(pos).length > 1) {
        cases.push({ id: `tinsley ${g} ply ${i}`, pos, depth: CORPUS_DEPTH, ttBits: 18 });
        if (++n >= POSITIONS) break outer;
      }
      pos = playMove(pos, moves[i]!.move);
    }
  }
}

const lines: string[] = [];
let nodes = 0;
const t0 = performance.now();
for (const c of cases) {
  const s = new Searcher(c.ttBits);
  const its: string[] = [];
  const r = s.search(c.pos, {
    depth: c.depth,
    onIteration: (it) => its.push(`${it.depth}:${it.move ? `${it.move.from}-${it.move.to}` : '-'}:${it.score}:${it.nodes}`),
  });
  nodes += r.nodes;
  lines.push(`${c.id}\t${its.join(' ')}\tpv ${r.pv.map((m) => `${m.from}-${m.to}`).join(' ')}`);
}
const ms = performance.now() - t0;
console.log(`${cases.length} positions, ${nodes} nodes in ${ms.toFixed(0)} ms (${(nodes / ms / 1000).toFixed(2)} M nodes/s)`);
const text = lines.join('\n') + '\n';
if (values.write) writeFileSync(values.write, text);
if (values.check) {
  const want = readFileSync(values.check, 'utf8').split('\n');
  let bad = 0;
  lines.forEach((l, i) => {
    if (l !== want[i]) {
      bad++;
      if (bad <= 10) console.log(`differs:\n  want ${want[i]}\n  got  ${l}`);
    }
  });
  console.log(
    bad === 0 ? `same as ${values.check}: every iteration's move, score and nodes` : `${bad} of ${lines.length} positions differ`,
  );
  if (bad) process.exitCode = 1;
}
