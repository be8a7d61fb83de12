// Shared by the storage tests: a scratch games folder per test (removed
// after it), a store on it whose health events and log notes are collected,
// and journal records (a new game, corpus moves) to write and read back.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { readJournal, type JournalEntry } from '../../src/storage/journal.ts';
import { GameStore, type StorageEvent } from '../../src/storage/store.ts';
import { corpusMoves } from '../server/helpers.ts';

const dirs: string[] = [];
const stores: GameStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'crownhead-store-'));
  dirs.push(d);
  return join(d, 'games');
}

export function open(dir: string, opts: ConstructorParameters<typeof GameStore>[1] = {}) {
  const events: StorageEvent[] = [];
  const notes: string[] = [];
  const store = new GameStore(dir, {
    retryMs: 60_000,
    tagsDelayMs: 20,
    ...opts,
    onEvent: (e) => (e.type === 'storage' ? events.push(e) : notes.push(e.say)),
  });
  stores.push(store);
  return { store, events, notes };
}

export const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
export const newGame = (id: string, tags: Record<string, string> = {}): JournalEntry => ({
  k: 'new',
  id,
  at: 1,
  fen: START_FEN,
  options: {},
  tags,
  ballot: null,
  moves: [],
});
export const movesOf = (n: number): JournalEntry[] => corpusMoves(n).map((m, k) => ({ k: 'move', at: 10 + k, path: [m.from, ...m.path] }));
export const journalOf = (dir: string, id: string) => readJournal(readFileSync(join(dir, `${id}.journal`)));

export { until } from '../harness/until.ts';
