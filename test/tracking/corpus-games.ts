// Plays corpus games on the simulated board with a randomised hand and checks
// that tracking records exactly the moves played, with no alert. Seeded per
// game, so a failure replays (the seed is in the failure message).
import { readPdn } from '../../src/pdn/index.ts';
import { corpusFile } from '../corpus.ts';
import { RandomHand, Table } from './table.ts';

export interface GameRun {
  index: number;
  ok: boolean;
  detail: string;
  latencies: number[];
}

const route = (m: { from: number; path: readonly number[] }) => [m.from, ...m.path].join('-');

export async function playCorpusGame(file: string, index: number): Promise<GameRun> {
  const game = readPdn(corpusFile(file)).games[index];
  const table = new Table({ seed: index + 1 });
  await table.open();
  table.setUp();
  const hand = new RandomHand(table, 1000 + index);
  const latencies: number[] = [];
  for (const node of game.moves) {
    const before = table.of('move').length;
    const rest = hand.playMove(node.move);
    const commit = table.of('move').slice(before).at(0);
    if (commit) latencies.push(Math.max(0, commit.t - rest));
  }
  table.wait(1000);
  const got = table.game.plies.map((p) => route(p.move)).join(' ');
  const want = game.moves.map((n) => route(n.move)).join(' ');
  const alerts = table.alerts();
  const ok = got === want && alerts.length === 0;
  return {
    index,
    ok,
    latencies,
    detail: ok ? '' : `${file} game ${index} (seed ${index + 1}): ${table.game.plies.length}/${game.moves.length} moves; alerts: ${alerts.map((a) => a.message).join(' | ') || 'none'}`,
  };
}

export function corpusGameCount(file: string): number {
  return readPdn(corpusFile(file)).games.length;
}
