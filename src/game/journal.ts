// The game journal: one JSON object per line, appended (and fsynced) before a
// change is announced. Replaying it rebuilds the game exactly. A torn last
// line (the process killed mid-write) is dropped; anything else malformed is
// an error naming the line.

import type { Color, GameOptions, Outcome } from '../rules/index.ts';
import type { PdnResult } from '../pdn/index.ts';
import type { GameClock } from './clock.ts';

export type JournalEntry =
  | { k: 'new'; id: string; at: number; fen: string; options: GameOptions; tags: Record<string, string>; ballot: number | null; moves: number[][] }
  | { k: 'move'; at: number; path: number[]; huff?: number }
  | { k: 'takeback'; at: number }
  | { k: 'crown'; at: number; square: number }
  | { k: 'tags'; at: number; tags: Record<string, string> }
  | { k: 'result'; at: number; result: PdnResult; outcome: Outcome | null }
  | { k: 'draw-offer'; at: number; side: Color | null }
  | { k: 'clock'; at: number; clock: ReturnType<GameClock['toJSON']> };

const KINDS = new Set(['new', 'move', 'takeback', 'crown', 'tags', 'result', 'draw-offer', 'clock']);

export class JournalError extends Error {
  override readonly name = 'JournalError';
}

export function makeJournalLine(e: JournalEntry): string {
  return JSON.stringify(e) + '\n';
}

/** Reads a journal. `torn` is true when an unfinished last line was dropped. */
export function parseJournal(text: string, name = 'journal'): { entries: JournalEntry[]; torn: boolean } {
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  let torn = last.trim() !== '';
  const entries: JournalEntry[] = [];
  lines.forEach((line, k) => {
    if (line.trim() === '') return;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      throw new JournalError(`${name} line ${k + 1}: not JSON`);
    }
    if (typeof e !== 'object' || e === null || !KINDS.has((e as { k?: string }).k ?? '')) {
      throw new JournalError(`${name} line ${k + 1}: not a journal entry`);
    }
    const entry = e as JournalEntry;
    if (entry.k === 'move' && (!Array.isArray(entry.path) || entry.path.length < 2 || !entry.path.every((s) => Number.isInteger(s) && s >= 1 && s <= 32))) {
      throw new JournalError(`${name} line ${k + 1}: a move needs a path of squares 1-32`);
    }
    entries.push(entry);
  });
  if (torn) {
    // A complete JSON object without its newline is still good.
    try {
      const e = JSON.parse(last);
      if (e && KINDS.has(e.k)) {
        entries.push(e);
        torn = false;
      }
    } catch {
      /* torn: dropped */
    }
  }
  if (entries.length && entries[0].k !== 'new') throw new JournalError(`${name}: does not start with a new-game entry`);
  return { entries, torn };
}

/** A game's journal is finished once its last result entry gives a result other than '*'. */
export function isFinished(entries: readonly JournalEntry[]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.k === 'result') return e.result !== '*';
    if (e.k === 'move' || e.k === 'takeback') return false;
  }
  return false;
}
