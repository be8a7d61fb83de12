// `npx tsx bench/selfplay.ts`: the self-play games bench/tune.ts fits the
// evaluation to. Each game starts from an ACF ballot (the open ones in turn)
// followed by a few random plies (seeded), then both sides play the engine
// at a fixed node count (deterministic, and a steady cost a move) with the
// endgame database, the 40-move rule and repetitions; a game still going at
// 200 plies is scored a draw. Game g depends on the seed and g only, so a run
// split in parts, or stopped part-way, gives a prefix of each part's file of
// the full run (bench/tune.ts --take uses such a prefix). Every quiet
// position (neither side has a capture) after the random plies is written with
// the game's result for Black: one line per position, `black white kings turn
// result` (hex bitboards, b/w, 1 / 0.5 / 0). Same flags, same file
// (deterministic: fixed node counts, seeded randomness).
//
//   --games N (default 6000)  --nodes K (nodes a move, default 4000)  --seed S (default 1)
//   --random R (random plies after the ballot, 0…R, default 6)
//   --part I/P (play games I, I+P, I+2P, … of the N: P processes side by side)
//   --out FILE (default ~/.cache/crownhead-tune/selfplay-S-N-K-R[.I-P].txt)

import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { hashKey, hashPosition, legalMoves } from '../src/rules/index.ts';
import { EGDB_PIECES, Searcher, think } from '../src/engine/index.ts';
import { jumpersOf } from '../src/engine/moves.ts';
import { loadEgdb } from '../src/engine-host/egdb-cache.ts';
import { seededOpening } from './seeded-opening.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string' },
    nodes: { type: 'string' },
    seed: { type: 'string' },
    random: { type: 'string' },
    part: { type: 'string' },
    out: { type: 'string' },
  },
});
const GAMES = Number(values.games ?? 6000);
const NODES = Number(values.nodes ?? 4000);
const SEED = Number(values.seed ?? 1);
const RANDOM = Number(values.random ?? 6);
const [PART, PARTS] = (values.part ?? '0/1').split('/').map(Number) as [number, number];
const MAX_PLIES = 200;
const out =
  values.out ??
  join(homedir(), '.cache/crownhead-tune', `selfplay-${SEED}-${GAMES}-${NODES}-${RANDOM}${PARTS > 1 ? `.${PART}-${PARTS}` : ''}.txt`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, '');

const egdb = loadEgdb(EGDB_PIECES);
const searcher = new Searcher(18);
const hex = (x: number): string => (x >>> 0).toString(16);
let positions = 0;
const results = { black: 0, white: 0, draw: 0 };
const t0 = performance.now();
for (let g = PART; g < GAMES; g += PARTS) {
  const game = seededOpening(SEED, g, RANDOM);
  const from = game.plies.length;
  searcher.reset();
  while (!game.outcome && game.plies.length < MAX_PLIES) {
    if (game.drawClaim()) {
      game.claimDraw();
      break;
    }
    const history = [hashKey(hashPosition(game.start)), ...game.plies.map((p) => hashKey(hashPosition(p.after)))].slice(0, -1);
    const r = think({ position: game.position, quietPlies: game.quietPlies, history, limits: { nodes: NODES } }, { searcher, egdb });
    game.play(r.move!);
  }
  if (!game.outcome) game.agreeDraw();
  const winner = game.outcome!.winner;
  const y = winner === 'black' ? '1' : winner === 'white' ? '0' : '0.5';
  results[winner ?? 'draw']++;
  const lines: string[] = [];
  for (const p of game.plies.slice(from)) {
    const { black, white, kings, turn } = p.after;
    if (jumpersOf(black, white, kings, true) !== 0 || jumpersOf(white, black, kings, false) !== 0) continue;
    if (legalMoves(p.after).length === 0) continue;
    lines.push(`${hex(black)} ${hex(white)} ${hex(kings)} ${turn === 'black' ? 'b' : 'w'} ${y}`);
  }
  positions += lines.length;
  if (lines.length) appendFileSync(out, lines.join('\n') + '\n');
  const played = Math.floor((g - PART) / PARTS) + 1;
  if (played % 100 === 0)
    console.log(
      `${played} games, ${positions} positions (+${results.black} =${results.draw} -${results.white} for Black), ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
}
console.log(`selfplay: ${positions} positions (+${results.black} =${results.draw} -${results.white}) in ${out}`);
