// Choosing the game to play at start-up: the newest game in the folder, and
// only it. A clean unfinished journal is resumed as it is (a torn last line
// from a crash is cut off). A damaged one is resumed from every record that
// can be read and still fits the game; the original journal and PDN are kept
// aside, the journal rewritten clean, and the loss reported (what was
// dropped, where the originals are, what the user can do). A journal that
// has lost its start cannot be resumed: it is moved aside, reported, and a
// new game begins; an older game is never picked in its place.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { journalStart, type JournalEntry } from './journal.ts';
import type { GameSession } from './session.ts';
import type { DamageReport, GameStore } from './store.ts';

export type ResumeResult =
  | { resumed: false; id: string | null; damage: DamageReport | null }
  | { resumed: true; id: string; moves: number; torn: boolean; damage: DamageReport | null };

/** The largest n such that the first n entries replay (restore is all-or-nothing, and a prefix that fails makes every longer one fail). */
export function replayablePrefix(entries: readonly JournalEntry[], probe: () => GameSession): number {
  const ok = (n: number) => {
    try {
      probe().restore(entries.slice(0, n));
      return true;
    } catch {
      return false;
    }
  };
  if (ok(entries.length)) return entries.length;
  let lo = 0, hi = entries.length; // ok(lo) holds (or lo = 0), ok(hi) fails
  if (!ok(1)) return 0;
  lo = 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Resumes the newest unfinished game into `session`, if there is one; `probe` makes a scratch session to test replays. */
export function resumeNewest(store: GameStore, session: GameSession, probe: () => GameSession): ResumeResult {
  const found = store.findInProgress();
  if (found.kind === 'none') return { resumed: false, id: null, damage: null };
  const { id, read, file } = found;
  const pdnFile = join(store.dir, `${id}.pdn`);
  const damaged = read.damage.length > 0;
  const entries = journalStart(read.entries);
  const lost = (dropped: number): DamageReport => {
    const keptAt = store.setAside(id);
    const pdn = existsSync(pdnFile) ? pdnFile : null;
    const report: DamageReport = { game: id, file, keptAt, dropped: read.damage, unreplayed: dropped, resumed: false, moves: 0, pdn };
    store.reportDamage(report);
    return report;
  };
  if (!entries) {
    // Nothing readable, or a journal whose first record is gone.
    if (!damaged && read.entries.length === 0) return { resumed: false, id: null, damage: null }; // killed before its first record was down: nothing was announced
    return { resumed: false, id, damage: lost(read.entries.length) };
  }
  // The newest game is over: a new one begins (damage to a finished game's journal changes nothing to play).
  if (found.finished) return { resumed: false, id: null, damage: null };
  const n = replayablePrefix(entries, probe);
  if (n === 0) return { resumed: false, id, damage: lost(entries.length) };
  const kept = entries.slice(0, n);
  let damage: DamageReport | null = null;
  if (damaged || n < entries.length) {
    const keptAt = store.keepAside(id);
    const pdn = existsSync(pdnFile) ? store.keepAsidePdn(id) : null;
    const size = store.rewriteJournal(id, kept);
    session.restore(kept);
    store.resume(id, size >= 0 ? { goodEnd: size, size, missingNewline: false, entries: kept } : read);
    damage = { game: id, file, keptAt, dropped: read.damage, unreplayed: entries.length - n, resumed: true, moves: session.game.plies.length, pdn };
    store.reportDamage(damage);
  } else {
    session.restore(kept);
    store.resume(id, read);
  }
  return { resumed: true, id, moves: session.game.plies.length, torn: read.torn, damage };
}
