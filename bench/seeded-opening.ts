// The start of a seeded self-play game, shared by the evaluation's data
// makers (bench/selfplay.ts for the hand-tuned table, bench/net-data.ts for
// the network): game g opens with the g-th open ACF ballot (wrapping round)
// and then 0 to `random` random plies, all drawn from the seed, so a run
// remakes the same games.

import { BALLOTS, Game, legalMoves } from '../src/rules/index.ts';
import { seededRandom } from '../src/engine/index.ts';

const OPEN = BALLOTS.filter((b) => b.status !== 'barred');

/** Game g of a run seeded `seed`: its ballot and its random plies played. */
export function seededOpening(seed: number, g: number, random: number): Game {
  const rnd = seededRandom(seed * 1_000_003 + g);
  const { game } = Game.fromBallot(OPEN[g % OPEN.length]!.number);
  const randomPlies = Math.floor(rnd() * (random + 1));
  for (let i = 0; i < randomPlies && !game.outcome; i++) {
    const legal = legalMoves(game.position);
    if (legal.length === 0) break;
    game.play(legal[Math.floor(rnd() * legal.length)]!);
  }
  return game;
}
