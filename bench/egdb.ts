// The endgame database's figures: what a probe costs (the 4-piece one in
// memory, the compressed format block by block — cold, each probe in another
// block, and warm, as a search probes), the search's speed at the end of the
// game with each, and positions where the 5-piece database changes the
// engine's move against the 4-piece one (the move each picks and what the
// 5-piece database says it is worth). Medians of repeated runs. The 5-piece
// figures need `crownhead egdb build --pieces 5` (in $CROWNHEAD_CACHE); without
// it they are skipped, and the compressed format is measured on the 4-piece
// database packed in memory.
//   --runs R      repeats for each median (default 5)
//   --moves N     random 5-piece positions searched for changed moves (default 300)

import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { Egdb, packEgdb, PackedEgdb, think, WIN_BASE, type EndgameProbe } from '../src/engine/index.ts';
import { defaultCacheDir, egdbFile, loadEgdb, openPackedEgdb } from '../src/engine-host/egdb-cache.ts';
import { legalMoves, makeFen, moveText, playMove, type Position } from '../src/rules/index.ts';
import { mulberry32 } from '../src/common/prng.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, moves: { type: 'string' } } });
const RUNS = Number(values.runs ?? 5);
const MOVES = Number(values.moves ?? 300);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const four = loadEgdb(4);
const file5 = egdbFile(5, defaultCacheDir());
const five = existsSync(file5) ? openPackedEgdb(file5) : 'not built';
if (typeof five === 'string') console.log(`5-piece database ${file5}: ${five} (crownhead egdb build --pieces 5); its figures skipped`);

/** A random position of `n` pieces (each side at least one; men off their crowning rows), side to move random. */
function randomPosition(rng: () => number, n: number): Position {
  const taken = new Set<number>();
  const pick = (lo: number, hi: number): number => {
    for (;;) {
      const s = lo + Math.floor(rng() * (hi - lo + 1));
      if (!taken.has(s)) return (taken.add(s), s);
    }
  };
  const nb = 1 + Math.floor(rng() * (n - 1));
  let black = 0,
    white = 0,
    kings = 0;
  for (let k = 0; k < n; k++) {
    const king = rng() < 0.4,
      mine = k < nb;
    const bit = 1 << (pick(king ? 1 : mine ? 1 : 5, king ? 32 : mine ? 28 : 32) - 1);
    if (mine) black |= bit;
    else white |= bit;
    if (king) kings |= bit;
  }
  return { black, white, kings, turn: rng() < 0.5 ? 'black' : 'white' };
}

function probeCost(name: string, db: EndgameProbe, positions: Position[]): void {
  const per: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    if (db instanceof PackedEgdb) db.dropCache();
    const t0 = performance.now();
    for (const p of positions) db.probe(p);
    per.push(((performance.now() - t0) * 1000) / positions.length);
  }
  console.log(`${name}: ${median(per).toFixed(2)} µs a probe (median of ${RUNS}, ${positions.length} probes)`);
}

// Probe cost.
const rng = mulberry32(1);
const pos4 = Array.from({ length: 20_000 }, () => randomPosition(rng, 4));
probeCost('4-piece in memory, random 4-piece positions', four, pos4);
const packed4 = (() => {
  const parts: [Buffer, number][] = [];
  const size = packEgdb(four, (b, at) => parts.push([Buffer.from(b), at]));
  const buf = Buffer.alloc(size);
  for (const [b, at] of parts) buf.set(b, at);
  console.log(`4-piece compressed: ${size} bytes (${(size / 1e6).toFixed(1)} MB; ${four.size} bytes a byte a value)`);
  return PackedEgdb.open((at, n) => buf.subarray(at, at + n), size) as PackedEgdb;
})();
probeCost('4-piece compressed (in memory), random positions: cold, nearly every probe inflates a block', packed4, pos4);
if (typeof five !== 'string') {
  console.log(`5-piece compressed: ${five.fileSize} bytes (${(five.fileSize / 1e6).toFixed(1)} MB), ${five.blocks} blocks`);
  const pos5 = Array.from({ length: 5_000 }, () => randomPosition(rng, 5));
  probeCost('5-piece compressed (from the file), random 5-piece positions: cold', five, pos5);
}

// The search at the end of the game: nodes per second with each database (a fixed depth, medians).
function searchSpeed(name: string, db: EndgameProbe, fens: Position[]): void {
  const nps: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let nodes = 0,
      ms = 0;
    if (db instanceof PackedEgdb) db.dropCache();
    for (const p of fens) {
      const res = think({ position: p, quietPlies: 0, limits: { depth: 10 } }, { egdb: db });
      nodes += res.nodes;
      ms += res.ms;
    }
    nps.push(nodes / (ms / 1000));
  }
  console.log(`search to depth 10 from ${fens.length} 6-piece positions, ${name}: ${Math.round(median(nps))} nodes/s (median of ${RUNS})`);
}
const six = Array.from({ length: 6 }, () => randomPosition(rng, 6)).filter((p) => legalMoves(p).length > 0);
searchSpeed('4-piece database', four, six);
if (typeof five !== 'string') searchSpeed('5-piece database', five, six);

// Moves the 5-piece database changes.
if (typeof five !== 'string') {
  const worth = (v: number | null): string =>
    v === null ? '?' : v === 0 ? 'draw' : v > 0 ? `win in ${WIN_BASE - v}` : `loss in ${WIN_BASE + v}`;
  let searched = 0,
    changed = 0,
    better = 0;
  const shown: string[] = [];
  const r5 = mulberry32(55);
  while (searched < MOVES) {
    const p = randomPosition(r5, 5);
    const moves = legalMoves(p);
    if (moves.length < 2) continue;
    const v = five.probe(p);
    if (v === null || v === 0) continue; // a decided position: the move matters
    searched++;
    const a = think({ position: p, quietPlies: 0, limits: { depth: 8 } }, { egdb: four });
    const b = think({ position: p, quietPlies: 0, limits: { depth: 8 } }, { egdb: five });
    if (!a.move || !b.move || moveText(a.move, moves) === moveText(b.move, moves)) continue;
    changed++;
    const va = five.probe(playMove(p, a.move)),
      vb = five.probe(playMove(p, b.move));
    // Worth to the mover: the child's value negated.
    const score = (c: number | null): number => (c === null ? 0 : c === 0 ? 0 : c < 0 ? 2 * WIN_BASE + c : -2 * WIN_BASE + c);
    if (score(vb) > score(va)) better++;
    if (shown.length < 8 && Math.sign(-(va ?? 0)) !== Math.sign(-(vb ?? 0)))
      shown.push(
        `${makeFen(p)} (${worth(v)}): 4-piece plays ${moveText(a.move, moves)} (then ${worth(va === null ? null : -va)}), 5-piece ${moveText(b.move, moves)} (${worth(vb === null ? null : -vb)})`,
      );
  }
  console.log(
    `decided 5-piece positions searched to depth 8: ${searched}; the 5-piece database changed the move in ${changed}, to a better one by its values in ${better}`,
  );
  for (const s of shown) console.log(`  ${s}`);
}
