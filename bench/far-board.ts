// The far board's game followed by a station (src/stations/opponent.ts): the
// time to take in a far game's records one by one, as they come over the
// broker (each record offered on to this game at once), for games of growing
// length — with each record folded once the time per record stays flat; a
// replay of the whole game per record grows with it. Median of 5 runs.
// Run: node bin/run-ts.js bench/far-board.ts   (or npm run bench far-board)
// FAR_BOARD=path/to/opponent.ts measures another version of the module side by side (its FarBoard, same API).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { ephemeralIdentity } from '../src/stations/identity.ts';
import { StationPins } from '../src/stations/pairing.ts';
import { Game, makeFen, opposite, type Color } from '../src/rules/index.ts';
import type { JournalEntry } from '../src/storage/journal.ts';
import type { FarBoard as FarBoardType, FarTarget } from '../src/stations/opponent.ts';

const modulePath = process.env.FAR_BOARD ? resolve(process.env.FAR_BOARD) : join(import.meta.dirname, '../src/stations/opponent.ts');
const { FarBoard } = (await import(pathToFileURL(modulePath).href)) as { FarBoard: typeof FarBoardType };

/** A far game of `n` records: a move by the first legal move every 4th record until the game ends (some 60 plies), names records between and after. */
function farJournal(n: number): JournalEntry[] {
  const game = Game.standard();
  const out: JournalEntry[] = [{ k: 'new', id: 'F1', at: 0, fen: makeFen(game.position), options: {}, tags: {}, ballot: null, moves: [] }];
  for (let i = 1; out.length < n; i++) {
    if (!game.outcome && i % 4 === 1) {
      const m = game.legalMoves()[0]!;
      game.play(m);
      out.push({ k: 'move', at: i, path: [m.from, ...m.path] });
    } else out.push({ k: 'tags', at: i, tags: { Round: String(i) } });
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-far-'));
const options = { secret: 's', identity: ephemeralIdentity(), pins: new StationPins(dir), log: pino({ level: 'silent' }) };

/** ms to take in every record of `journal`, this game taking each ply handed on. */
function run(journal: JournalEntry[]): number {
  const far = new FarBoard('FAR', options);
  let plies = 0;
  let turn: Color = 'black';
  const here: FarTarget = {
    deliver: () => {
      plies++;
      turn = opposite(turn);
    },
    plies: () => plies,
    side: () => turn,
    linked: () => true,
    record: () => undefined,
  };
  far.follow(here);
  const t0 = performance.now();
  journal.forEach((e, seq) => far.record('F1', seq, e));
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`far board records taken in (${modulePath.replace(resolve(import.meta.dirname, '..') + '/', '')}), median of 5:`);
for (const n of [250, 1000, 4000]) {
  const journal = farJournal(n);
  run(journal); // (warm-up)
  const ms = median(Array.from({ length: 5 }, () => run(journal)));
  console.log(
    `  ${String(n).padStart(5)} records: ${ms.toFixed(1).padStart(8)} ms   ${((ms * 1000) / n).toFixed(1).padStart(7)} µs a record`,
  );
}
rmSync(dir, { recursive: true, force: true });
