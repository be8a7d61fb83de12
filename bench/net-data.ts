// `node bin/run-ts.js bench/net-data.ts`: the training positions of the
// evaluation network (bench/net-train.ts). Each game starts from an open ACF
// ballot (game g plays ballot g mod their count) followed by 0…R random plies
// (seeded by the seed and g), then both sides play this tree's search at a
// fixed depth (shallow: deterministic and a steady cost a move) with the
// 4-piece endgame database, the 40-move rule and repetitions; a game still
// going at 200 plies is scored a draw. Every quiet position (neither side has a
// capture) after the random plies is written with two labels: the game's
// result for Black and the score of the search that chose the move there, for
// Black, in hundredths of a man (a forced win or loss as ±1500) — the score of a
// depth-D search costs nothing more here, since that search is what plays.
// Game g depends on the seed and g only, so --part I/P splits a run between
// processes (one per core, each under `nice -n 19`) and a run stopped part-way
// is a prefix of the full one. One line per position:
//   black white kings turn result score     (hex bitboards, b/w, 1 / 0.5 / 0, integer)
//
//   --games N (default 20000)  --depth D (default 8)  --seed S (default 1)
//   --random R (random plies after the ballot, 0…R, default 8)
//   --part I/P (games I, I+P, I+2P, … of the N)
//   --net (both sides search with the shipped network, src/engine/net.ts: its scores label the positions;
//   default the hand-tuned evaluation)
//   --out FILE (default ~/.cache/crownhead-net/data-S-N-D-R[-net][.I-P].txt)
//
// e.g. (both cores): for i in 0 1; do nice -n 19 node bin/run-ts.js bench/net-data.ts --part $i/2 & done

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { hashKey, hashPosition, legalMoves } from '../src/rules/index.ts';
import { EGDB_PIECES, Searcher, WIN_BOUND } from '../src/engine/index.ts';
import { NET } from '../src/engine/net.ts';
import { jumpersOf } from '../src/engine/moves.ts';
import { loadEgdb } from '../src/engine-host/egdb-cache.ts';
import { seededOpening } from './seeded-opening.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string' },
    depth: { type: 'string' },
    seed: { type: 'string' },
    random: { type: 'string' },
    part: { type: 'string' },
    net: { type: 'boolean' },
    out: { type: 'string' },
  },
});
const GAMES = Number(values.games ?? 20000);
const DEPTH = Number(values.depth ?? 8);
const SEED = Number(values.seed ?? 1);
const RANDOM = Number(values.random ?? 8);
const part = /^(\d+)\/(\d+)$/.exec(values.part ?? '0/1');
if (!part || Number(part[1]) >= Number(part[2])) throw new Error(`--part must be I/P with 0 ≤ I < P, not "${values.part}"`);
const [PART, PARTS] = [Number(part[1]), Number(part[2])];
for (const [name, v] of Object.entries({ games: GAMES, depth: DEPTH, seed: SEED, random: RANDOM }))
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a whole number, not ${v}`);
const MAX_PLIES = 200;
const out =
  values.out ??
  join(
    homedir(),
    '.cache/crownhead-net',
    `data-${SEED}-${GAMES}-${DEPTH}-${RANDOM}${values.net ? '-net' : ''}${PARTS > 1 ? `.${PART}-${PARTS}` : ''}.txt`,
  );
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, '');

const egdb = loadEgdb(EGDB_PIECES);
const searcher = new Searcher(18);
const net = values.net ? NET : null;
const hex = (x: number): string => (x >>> 0).toString(16);
let positions = 0;
const results = { black: 0, white: 0, draw: 0 };
const t0 = performance.now();
for (let g = PART; g < GAMES; g += PARTS) {
  const game = seededOpening(SEED, g, RANDOM);
  searcher.reset();
  const scored: { line: string }[] = [];
  while (!game.outcome && game.plies.length < MAX_PLIES) {
    if (game.drawClaim()) {
      game.claimDraw();
      break;
    }
    const pos = game.position;
    const history = [hashKey(hashPosition(game.start)), ...game.plies.map((p) => hashKey(hashPosition(p.after)))].slice(0, -1);
    const r = searcher.search(pos, { depth: DEPTH, egdb, history, quietPlies: game.quietPlies, net });
    const quiet = jumpersOf(pos.black, pos.white, pos.kings, true) === 0 && jumpersOf(pos.white, pos.black, pos.kings, false) === 0;
    if (quiet && legalMoves(pos).length > 1) {
      let score = pos.turn === 'black' ? r.score : -r.score;
      score = score > WIN_BOUND ? 1500 : score < -WIN_BOUND ? -1500 : score;
      scored.push({ line: `${hex(pos.black)} ${hex(pos.white)} ${hex(pos.kings)} ${pos.turn === 'black' ? 'b' : 'w'} RESULT ${score}` });
    }
    game.play(r.move!);
  }
  if (!game.outcome) game.agreeDraw();
  const winner = game.outcome!.winner;
  const y = winner === 'black' ? '1' : winner === 'white' ? '0' : '0.5';
  results[winner ?? 'draw']++;
  positions += scored.length;
  if (scored.length) appendFileSync(out, scored.map((s) => s.line.replace('RESULT', y)).join('\n') + '\n');
  const played = Math.floor((g - PART) / PARTS) + 1;
  if (played % 50 === 0)
    console.log(
      `${played} games, ${positions} positions (+${results.black} =${results.draw} -${results.white} for Black), ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
}
console.log(`net-data: ${positions} positions (+${results.black} =${results.draw} -${results.white}) in ${out}`);
