// Tracking under each habit of real players' hands, then all mixed: corpus
// games played on the simulated board by the hand with one habit turned up
// (or all of them at their everyday rates); games exact, buzzer alerts,
// physically ambiguous crown alerts and quiet incomplete-move reminders.
// Run: node bin/run-ts.js bench/tracking-habits.ts   (or npm run bench habits)
// BENCH_HABIT_TINSLEY=n tinsley games (spread over the file) join the 43 OCA games per mix (default 40).
// --only WORD plays only the mixes whose name contains WORD (e.g. --only off-centre); --games
// lists each game that was not exact or raised an alert, with its seed (to replay it).

import { corpusGameCount, playCorpusGame } from '../test/harness/corpus-games.ts';
import { HUMAN, TIDY, type HandStyle } from '../test/harness/table.ts';

const only = (k: keyof HandStyle, p: number): Partial<HandStyle> => ({ ...TIDY, [k]: p });
const mixes: [string, Partial<HandStyle>][] = [
  ['tidy (lifted and put back, steps, fast replies, pauses; crowns at any delay, under, ready stacks)', TIDY],
  ['touching another coin first (partial lift 1–3 mm), 60 % of moves', only('touchOther', 0.6)],
  ['put down 2.5–4 mm off-centre, nudged 0.5–2 s later, 60 %', only('offCentreNudge', 0.6)],
  ['a neighbour knocked 2–3 mm off-centre (straightened later or not), 60 %', only('knockNeighbour', 0.6)],
  ['captured coins taken off 1.5–5 s after the jumper landed, every capture', only('capturesLate', 1)],
  ['carried low over an empty square, 50 %', only('carryOver', 0.5)],
  ['kings moved and taken coin by coin, every time', only('kingCoinByCoin', 1)],
  ['put down magnet-up and turned over 0.4–2 s later, 30 %', only('upsideDown', 0.3)],
  ['all habits mixed (everyday rates)', HUMAN],
];
const nT = Number(process.env.BENCH_HABIT_TINSLEY ?? 40);
const totalT = corpusGameCount('tinsley.pdn');
const games: [string, number][] = [
  ...Array.from({ length: 43 }, (_, k) => ['OCA_2.0.pdn', k] as [string, number]),
  ...Array.from({ length: nT }, (_, k) => ['tinsley.pdn', Math.floor((k * totalT) / nT)] as [string, number]),
];
const arg = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
};
const pick = arg('--only');
const listGames = process.argv.includes('--games');
for (const [name, style] of mixes.filter(([n]) => pick === undefined || n.includes(pick))) {
  let exact = 0,
    alerts = 0,
    withAlert = 0,
    ambiguous = 0,
    reminders = 0,
    moves = 0;
  const habits: Record<string, number> = {};
  for (const [file, k] of games) {
    const r = await playCorpusGame(file, k, style);
    if (listGames && (!r.exact || r.alerts)) console.log(`  ${r.detail || `${file} game ${k} (seed ${k + 1}): ${r.alerts} alerts`}`);
    if (r.exact) exact++;
    alerts += r.alerts;
    if (r.alerts) withAlert++;
    ambiguous += r.ambiguousCrowns;
    reminders += r.reminders;
    moves += r.latencies.length;
    for (const [h, c] of Object.entries(r.habits)) habits[h] = (habits[h] ?? 0) + c;
  }
  console.log(
    `${name}: ${exact}/${games.length} games exact, ${alerts} alerts in ${withAlert} games, ${ambiguous} ambiguous-crown alerts, ${reminders} reminders; ${moves} moves; habits done: ${Object.entries(
      habits,
    )
      .map(([h, c]) => `${h} ${c}`)
      .join(', ')}`,
  );
}
