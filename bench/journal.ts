// Journal bench: how fast a large game journal reads back (restart recovery
// replays it; a hub checks every record a station sends). A journal of
// 50,000 records as the table writes them (new game, moves with a clock
// record after each, a tags change, a result) is read whole by readJournal,
// its records, already parsed, are checked one by one, and a hub's station
// messages carrying them are parsed (src/stations/messages.ts: the hub's
// part); medians over repeated runs, records per second. With JOURNAL_BASE
// set to another journal.ts (say an older checkout's
// src/storage/journal.ts, its stations/messages.ts beside it), both are
// measured side by side, runs alternating.
// Run: node bin/run-ts.js bench/journal.ts [records=50000] [runs=9]

import { pathToFileURL } from 'node:url';
import { dirname, resolve } from 'node:path';
import * as mine from '../src/storage/journal.ts';
import * as myMessages from '../src/stations/messages.ts';
import type { JournalEntry } from '../src/storage/journal.ts';

type Reader = { name: string; read: (b: Buffer) => number; check: (e: unknown) => string | null; message: (payload: string) => boolean };

const nRecords = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 9);

function game(g: number): JournalEntry[] {
  const at = 1_700_000_000_000 + g * 3_600_000;
  const out: JournalEntry[] = [
    {
      k: 'new',
      id: `G${g}`,
      at,
      fen: 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12',
      options: {},
      tags: { Event: 'Club night', Black: 'Ann', White: 'Bob', TimeControl: '300+3' },
      ballot: 1 + (g % 174),
      moves: [
        [11, 15],
        [23, 19],
      ],
    },
  ];
  for (let p = 0; p < 60; p++) {
    out.push(
      p % 9 === 8
        ? { k: 'move', at: at + p * 4000, path: [14, 23, 30] }
        : { k: 'move', at: at + p * 4000, path: [11 + (p % 12), 15 + (p % 12)] },
    );
    const clock = {
      remaining: { black: 300_000 - p * 900, white: 298_000 - p * 800 },
      movesMade: { black: p >> 1, white: p >> 1 },
      period: { black: 0, white: 0 },
      nextAt: { black: null, white: null },
      flagged: null,
    };
    out.push({ k: 'clock', at: at + p * 4000 + 1, clock });
  }
  out.push({ k: 'tags', at: at + 250_000, tags: { Event: 'Club night', Round: '3' } });
  out.push({ k: 'result', at: at + 251_000, result: '1-0', outcome: { winner: 'black', reason: 'resignation' } });
  return out;
}

const entries: JournalEntry[] = [];
for (let g = 0; entries.length < nRecords; g++) entries.push(...game(g));
entries.length = nRecords;
const text = entries.map(mine.makeJournalLine).join('');
const buf = Buffer.from(text, 'utf8');
const parsed: unknown[] = text
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l.slice(10)));

// (the new-game records left out: each would need its own game's message, seq 0)
const payloads = parsed
  .filter((e) => (e as JournalEntry).k !== 'new')
  .map((entry, seq) => JSON.stringify({ v: 1, gameId: 'G', seq: seq + 1, entry }));
const reader = (name: string, m: typeof mine, msgs: typeof myMessages): Reader => ({
  name,
  read: (b) => m.readJournal(b).entries.length,
  check: (e) => m.entryProblem(e),
  message: (p) => msgs.parseStationMessage('entries', p).ok,
});
const readers: Reader[] = [reader('this tree', mine, myMessages)];
if (process.env.JOURNAL_BASE) {
  const path = resolve(process.env.JOURNAL_BASE);
  const base = (await import(pathToFileURL(path).href)) as typeof mine;
  const baseMessages = (await import(pathToFileURL(resolve(dirname(path), '../stations/messages.ts')).href)) as typeof myMessages;
  readers.unshift(reader(`base (${process.env.JOURNAL_BASE})`, base, baseMessages));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const rates = new Map(readers.map((r) => [r.name, { read: [] as number[], check: [] as number[], message: [] as number[] }]));
for (const r of readers) {
  if (r.read(buf) !== nRecords) throw new Error(`${r.name}: did not read every record back`);
  if (parsed.some((e) => r.check(e) !== null)) throw new Error(`${r.name}: refused a good record`);
}
for (let run = 0; run < runs; run++)
  for (const r of run % 2 ? [...readers].reverse() : readers) {
    let t0 = performance.now();
    r.read(buf);
    rates.get(r.name)!.read.push(nRecords / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    let bad = 0;
    for (const e of parsed) if (r.check(e) !== null) bad++;
    if (bad) throw new Error('refused a good record');
    rates.get(r.name)!.check.push(nRecords / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    for (const p of payloads) if (!r.message(p)) bad++;
    if (bad) throw new Error('refused a good station message');
    rates.get(r.name)!.message.push(payloads.length / ((performance.now() - t0) / 1000));
  }
const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en-US')} k`;
console.log(`journal of ${nRecords.toLocaleString('en-US')} records (${(buf.length / 1e6).toFixed(1)} MB), median of ${runs} runs`);
for (const [name, r] of rates)
  console.log(
    `  ${name.padEnd(50)} readJournal ${k(median(r.read))} records/s   check alone ${k(median(r.check))} records/s   station messages ${k(median(r.message))}/s`,
  );
