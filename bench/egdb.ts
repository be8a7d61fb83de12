// The endgame database's figures: what a probe costs (the 4-piece one in
// memory, the compressed format block by block — cold, each probe in another
// block, and warm, as a search probes), the search's speed at the end of the
// game with each, and positions where the 5-piece database changes the
// engine's move against the 4-piece one (the move each picks and what the
// 5-piece database says it is worth). Medians of repeated runs. The 5-piece
// figures need `crownhead egdb build --pieces 5` (in $CROWNHEAD_CACHE); without
// it they are skipped, and the compressed format is measured on the 4-piece
// database packed in memory. Then the search from 8 to 10 pieces as a game
// reaches them (positions of a committed GuiNN match) to a fixed depth:
// without a database, with the 4-piece one, and with the 5-piece one keeping
// the old 8 MiB of inflated blocks and CACHE_BYTES — side by side in one run.
//   --runs R      repeats for each median (default 5)
//   --moves N     random 5-piece positions searched for changed moves (default 300)
//   --long P      draws, and results of at least P plies (default 20)
//   --depth D     searched to depth D (default 8)
//   --game-depth G  the game positions searched to depth G (default 18)

import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { Egdb, packEgdb, PackedEgdb, Searcher, think, WIN_BASE, type EndgameProbe } from '../src/engine/index.ts';
import { gameFromPdn, readPdn } from '../src/pdn/index.ts';
import { defaultCacheDir, egdbFile, loadEgdb, openPackedEgdb } from '../src/engine-host/egdb-cache.ts';
import { legalMoves, makeFen, moveText, playMove, popcount, type Position } from '../src/rules/index.ts';
import { mulberry32 } from '../src/common/prng.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    moves: { type: 'string' },
    long: { type: 'string' },
    depth: { type: 'string' },
    'game-depth': { type: 'string' },
  },
});
const RUNS = Number(values.runs ?? 5);
const MOVES = Number(values.moves ?? 300);
const LONG = Number(values.long ?? 20);
const DEPTH = Number(values.depth ?? 8);
const GAME_DEPTH = Number(values['game-depth'] ?? 18);
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

// The search at the end of the game: time and nodes to a fixed depth with each database (medians).
function searchSpeed(name: string, db: EndgameProbe, fens: Position[]): void {
  const times: number[] = [],
    counts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let nodes = 0,
      ms = 0;
    if (db instanceof PackedEgdb) db.dropCache();
    for (const p of fens) {
      const res = think({ position: p, quietPlies: 0, limits: { depth: 10 } }, { egdb: db });
      nodes += res.nodes;
      ms += res.ms;
    }
    times.push(ms);
    counts.push(nodes);
  }
  const ms = median(times),
    nodes = median(counts);
  console.log(
    `search to depth 10 from ${fens.length} 6-piece positions, ${name}: ${ms.toFixed(0)} ms, ${nodes} nodes, ${Math.round(nodes / (ms / 1000))} nodes/s (medians of ${RUNS})`,
  );
}
const six = Array.from({ length: 6 }, () => randomPosition(rng, 6)).filter((p) => legalMoves(p).length > 0);
searchSpeed('4-piece database', four, six);
if (typeof five !== 'string') searchSpeed('5-piece database', five, six);

// Moves the 5-piece database changes: draws and long results (at least LONG plies), searched to DEPTH.
if (typeof five !== 'string') {
  const worth = (v: number | null): string =>
    v === null ? '?' : v === 0 ? 'draw' : v > 0 ? `win in ${WIN_BASE - v}` : `loss in ${WIN_BASE + v}`;
  /** What a move is worth to its mover, from the value of the position it leads to (higher is better: faster wins, slower losses). */
  const score = (c: number | null): number =>
    c === null ? 0 : c === 0 ? 0 : c < 0 ? 3 * WIN_BASE - (WIN_BASE + c) : -3 * WIN_BASE + (WIN_BASE - c);
  const klass = (x: number): number => Math.sign(x);
  let searched = 0,
    changed = 0;
  const worse = { four: 0, five: 0 },
    worseResult = { four: 0, five: 0 };
  const shown: string[] = [];
  const r5 = mulberry32(55);
  while (searched < MOVES) {
    const p = randomPosition(r5, 5);
    const moves = legalMoves(p);
    if (moves.length < 2) continue;
    const v = five.probe(p);
    if (v === null || (v !== 0 && WIN_BASE - Math.abs(v) < LONG)) continue; // a draw, or a result not close at hand
    searched++;
    const best = Math.max(...moves.map((m) => score(five.probe(playMove(p, m)))));
    const a = think({ position: p, quietPlies: 0, limits: { depth: DEPTH } }, { egdb: four });
    const b = think({ position: p, quietPlies: 0, limits: { depth: DEPTH } }, { egdb: five });
    if (!a.move || !b.move) continue;
    const va = five.probe(playMove(p, a.move)),
      vb = five.probe(playMove(p, b.move));
    if (moveText(a.move, moves) !== moveText(b.move, moves)) changed++;
    if (score(va) < best) worse.four++;
    if (score(vb) < best) worse.five++;
    if (klass(score(va)) < klass(best)) worseResult.four++;
    if (klass(score(vb)) < klass(best)) worseResult.five++;
    if (shown.length < 10 && klass(score(va)) !== klass(score(vb)))
      shown.push(
        `${makeFen(p)} (${worth(v)}): with 4 pieces ${moveText(a.move, moves)} (then ${worth(va)} for the opponent), with 5 ${moveText(b.move, moves)} (${worth(vb)})`,
      );
  }
  console.log(
    `5-piece positions (draws, and results of ${LONG} plies or more) searched to depth ${DEPTH}: ${searched}; the move differs in ${changed}. Not the best by the 5-piece values: ` +
      `with the 4-piece database ${worse.four} (${worseResult.four} of them giving up the result: a win drawn or lost, a draw lost), ` +
      `with the 5-piece one ${worse.five} (${worseResult.five})`,
  );
  for (const s of shown) console.log(`  ${s}`);
}

// The search as a game reaches 8 to 10 pieces: the first position of each count in each game of a
// committed GuiNN match (with a choice of moves), to GAME_DEPTH, each with a fresh searcher.
{
  const games = readPdn(readFileSync(new URL('results/match-2026-11-29-guinn-48-net3.pdn', import.meta.url), 'utf8')).games;
  const positions: Position[] = [];
  for (const g of games.slice(0, 16)) {
    const seen = new Set<number>();
    for (const ply of gameFromPdn(g).plies) {
      const n = popcount(ply.before.black | ply.before.white);
      if (n < 8 || n > 10 || seen.has(n) || legalMoves(ply.before).length < 2) continue;
      seen.add(n);
      positions.push(ply.before);
    }
  }
  const OLD_CACHE = 512 * 16384;
  const five8 = typeof five === 'string' ? null : (PackedEgdb.open(five.read, five.fileSize, OLD_CACHE) as PackedEgdb);
  const rows: [string, EndgameProbe | null][] = [
    ['no database', null],
    ['the 4-piece database', four],
  ];
  if (five8 && typeof five !== 'string')
    rows.push(['the 5-piece one, 8 MiB of blocks kept', five8], ['the 5-piece one, CACHE_BYTES kept', five]);
  for (const [name, db] of rows) {
    const times: number[] = [],
      counts: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      if (db instanceof PackedEgdb) db.dropCache();
      let ms = 0,
        nodes = 0;
      for (const p of positions) {
        const res = think({ position: p, quietPlies: 0, limits: { depth: GAME_DEPTH } }, { searcher: new Searcher(), egdb: db });
        ms += res.ms;
        nodes += res.nodes;
      }
      times.push(ms);
      counts.push(nodes);
    }
    console.log(
      `${positions.length} game positions of 8-10 pieces to depth ${GAME_DEPTH}, ${name}: ${(median(times) / 1000).toFixed(1)} s, ${median(counts)} nodes (medians of ${RUNS})`,
    );
  }
}
