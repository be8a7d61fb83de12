// Shared by tests and benches (the tracking soaks, bench/tracking-habits.ts).
// Plays corpus games on the simulated board with a randomised hand (every
// habit of real players mixed in: see table.ts) and checks that tracking
// records exactly the moves played with no alert (buzzer); incomplete-move
// reminders are counted apart. Seeded per game, so a failure replays (the
// seed is in the failure message). Three games in four are played on a
// polarity-coded board, the rest on one glued the old way (codingFor).
// CROWNHEAD_SOAK_EVERY=k plays only every
// k-th game (a quick subset while developing; the full soak is the default).
import { readPdn } from '../../src/pdn/index.ts';
import { corpusFile } from './corpus.ts';
import { HUMAN, RandomHand, Table, type HandStyle } from './table.ts';

export interface GameRun {
  index: number;
  /** same moves as the record, no alert */
  ok: boolean;
  /** same moves as the record */
  exact: boolean;
  /** alerts (buzzer), not counting the ambiguous crowns */
  alerts: number;
  /** "crown the king first" where an off-centre crown stack stood reading like a man (physically ambiguous) */
  ambiguousCrowns: number;
  reminders: number;
  habits: Record<string, number>;
  detail: string;
  /** per committed move: commit time − the moment the hand last left the board (ms, signed: negative = committed while the hand was still at work) */
  latencies: number[];
}

const route = (m: { from: number; path: readonly number[] }) => [m.from, ...m.path].join('-');

export async function playCorpusGame(
  file: string,
  index: number,
  style: Partial<HandStyle> = HUMAN,
  seed = index + 1,
  routine = false,
): Promise<GameRun> {
  const game = readPdn(corpusFile(file)).games[index];
  const table = new Table({ seed, routine, physics: { coding: codingFor(seed, routine) } });
  await table.open();
  table.setUp();
  const hand = new RandomHand(table, 1000 + seed - 1, style);
  const latencies: number[] = [];
  for (const node of game.moves) {
    const before = table.of('move').length;
    const rest = hand.playMove(node.move);
    const commit = table.of('move').slice(before).at(0);
    if (commit) latencies.push(commit.t - rest);
  }
  table.wait(1000);
  const got = table.game.plies.map((p) => route(p.move)).join(' ');
  const want = game.moves.map((n) => route(n.move)).join(' ');
  const ambiguous = table.ambiguousCrowns.length;
  const alerts = table.alerts().filter((a) => a.category !== 'not-crowned' || !ambiguousAt(table, a.squares));
  const exact = got === want;
  const ok = exact && alerts.length === 0;
  return {
    index,
    ok,
    exact,
    alerts: alerts.length,
    ambiguousCrowns: ambiguous,
    reminders: table.of('reminder').length,
    habits: hand.habits,
    latencies,
    detail: ok
      ? ''
      : `${file} game ${index} (seed ${seed}): ${table.game.plies.length}/${game.moves.length} moves; alerts: ${alerts.map((a) => `[${a.category}] ${a.message}`).join(' | ') || 'none'}`,
  };
}

/**
 * Which kind of board a soak game is played on: polarity-coded (each side's
 * magnets the other pole down) for three games in four, glued the old way for
 * the rest. A routine-calibrated board is the old kind (the routine measures
 * one pole).
 */
export function codingFor(seed: number, routine = false): 'polarity' | 'uniform' {
  return routine || seed % 4 === 0 ? 'uniform' : 'polarity';
}

/** Was this not-crowned alert one of the ambiguous crowns the table counted (its crown square among them)? */
function ambiguousAt(table: Table, squares: readonly number[]): boolean {
  return squares.some((s) => table.ambiguousCrowns.includes(s));
}

export function corpusGameCount(file: string): number {
  return readPdn(corpusFile(file)).games.length;
}

/** Indexes of the games a soak plays: all, or every k-th with CROWNHEAD_SOAK_EVERY=k. */
export function soakIndexes(lo: number, hi: number): number[] {
  const every = Math.max(1, Number(process.env.CROWNHEAD_SOAK_EVERY ?? 1) || 1);
  const out: number[] = [];
  for (let k = lo; k < hi; k++) if ((k - lo) % every === 0) out.push(k);
  return out;
}
