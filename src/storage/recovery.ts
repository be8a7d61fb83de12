// Recovery at start-up: choosing the game to play, the newest game in the
// folder, and only it. A clean unfinished journal is resumed as it is (a torn
// last line from a crash is cut off; Windows line ends, CRLF, are read as
// line ends, the journal rewritten with plain ones and the fact noted). A
// damaged one is resumed from every record that can be read and still fits
// the game; the original journal and PDN are kept aside, the journal
// rewritten clean, and the loss reported (what was dropped, where the
// originals are, what the user can do). A journal that has lost its start
// cannot be resumed: it is moved aside, reported, and a new game begins; an
// older game is never picked in its place. Owns the "damage" half of the
// storage health, which stays until the user has moved on to a new game.

import { join } from 'node:path';
import type { DamageReport, StorageProblem } from '../model/storage.ts';
import { atomicWrite, describeCode, stamp, type StoreFs } from './disk.ts';
import { journalStart, makeJournalLine, readJournal, type JournalEntry, type JournalRead } from './journal.ts';

/** The newest journal at start-up and what reading it found. */
export type Found = { kind: 'none' } | { kind: 'game'; id: string; file: string; read: JournalRead; finished: boolean };

export interface Damage {
  report: DamageReport;
  message: string;
  problem: StorageProblem;
  replacedBy: string | null;
}

/** What recovery needs of the writer. */
export interface RecoveryHooks {
  fail(what: string, e: unknown): void;
  rewritten(id: string, size: number): void;
  note(say: string): void;
  emit(say: string): void;
}

export class Recovery {
  private damage_: Damage | null = null;

  constructor(
    readonly dir: string,
    private readonly fs: StoreFs,
    private readonly hooks: RecoveryHooks,
  ) {}

  get damage(): Damage | null {
    return this.damage_;
  }

  journalPath(id: string): string {
    return join(this.dir, `${id}.journal`);
  }

  /** The newest game's journal and what reading it found (older games are never considered). */
  findInProgress(): Found {
    let names: string[];
    try {
      names = (this.fs.readdirSync(this.dir) as string[]).filter((f) => f.endsWith('.journal'));
    } catch {
      return { kind: 'none' };
    }
    const journals = names
      .map((f) => {
        try {
          const st = this.fs.statSync(join(this.dir, f));
          return st.isFile() ? { f, m: st.mtimeMs } : null;
        } catch {
          return null;
        }
      })
      .filter((x): x is { f: string; m: number } => x !== null)
      .sort((a, b) => b.m - a.m || (a.f < b.f ? 1 : -1));
    if (!journals.length) return { kind: 'none' };
    const f = journals[0].f;
    const file = join(this.dir, f);
    const read = readJournal(this.fs.readFileSync(file) as Buffer);
    const last = [...read.entries].reverse().find((e) => e.k === 'result' || e.k === 'move' || e.k === 'takeback');
    return { kind: 'game', id: f.replace(/\.journal$/, ''), file, read, finished: last?.k === 'result' && last.result !== '*' };
  }

  /** Keeps a copy of a file beside it; returns its path (null if it could not be kept). */
  copyAside(file: string): string | null {
    const aside = `${file}.damaged-${stamp(Date.now())}`;
    try {
      this.fs.copyFileSync(file, aside);
      return aside;
    } catch (e) {
      this.hooks.note(`cannot keep a copy of ${file}: ${describeCode(e).why}`);
      return null;
    }
  }

  /** Replaces a game's journal with the records given (after its damaged original was kept aside). Returns its size, or -1. */
  rewriteJournal(id: string, entries: readonly JournalEntry[]): number {
    const text = entries.map(makeJournalLine).join('');
    const size = Buffer.byteLength(text);
    try {
      atomicWrite(this.fs, this.dir, this.journalPath(id), text);
    } catch (e) {
      // The damaged file stays; the reader skips its damage again next time, and appends go after its last good record.
      this.hooks.fail(`rewrite the journal of game ${id}`, e);
      return -1;
    }
    this.hooks.rewritten(id, size);
    return size;
  }

  /** Moves a journal that cannot be resumed out of the way (it is kept, renamed). */
  setAside(id: string): string | null {
    const file = this.journalPath(id);
    const aside = `${file}.damaged-${stamp(Date.now())}`;
    try {
      this.fs.renameSync(file, aside);
      return aside;
    } catch (e) {
      this.hooks.note(`cannot move the damaged journal ${file} aside: ${describeCode(e).why}`);
      return null;
    }
  }

  /** Records what a damaged journal lost, for the page and /api/info. */
  reportDamage(report: DamageReport): void {
    const lost = report.dropped.length + report.unreplayed;
    const where = report.dropped
      .slice(0, 3)
      .map((d) => `line ${d.line}: ${d.why}`)
      .join('; ');
    const message = report.resumed
      ? `The journal of game ${report.game} was damaged: ${lost} record${lost === 1 ? '' : 's'} could not be read${where ? ` (${where})` : ''}${report.unreplayed ? `, and ${report.unreplayed} after them no longer fit the game` : ''}. The game was resumed from what could be read: ${report.moves} move${report.moves === 1 ? '' : 's'}.`
      : `The newest game, ${report.game}, cannot be resumed: its journal is damaged${where ? ` (${where})` : ''}. A new game was started; no older game was resumed in its place.`;
    this.damage_ = { report, message, problem: report.resumed ? 'damaged-journal' : 'unresumable', replacedBy: null };
    this.hooks.emit(message);
  }

  /** What the user can do about the damage reported. */
  choice(): string {
    const r = this.damage_!.report;
    const kept = r.keptAt ? ` The damaged file is kept at ${r.keptAt}.` : '';
    return r.resumed
      ? `Play on with the game as resumed (${r.moves} move${r.moves === 1 ? '' : 's'}), or start a new game if it is not the game on the board.${kept}`
      : `A new game was started.${kept}${r.pdn ? ` The lost game's record as last saved is in ${r.pdn}.` : ''}`;
  }

  /** A new game starts: the damage report stays until the user has moved on (a new game after the resumed one, or after the one started in place of a lost one). Returns true when it was cleared. */
  newGame(id: string): boolean {
    const d = this.damage_;
    if (!d) return false;
    if (d.report.game !== id && (d.report.resumed || d.replacedBy !== null)) {
      this.damage_ = null;
      return true;
    }
    if (!d.report.resumed) d.replacedBy = id;
    return false;
  }
}

// ---------------------------------------------------------------- resuming into a session

/** What resuming needs of a game session (the game stage's GameSession). */
export interface Replayable {
  restore(entries: readonly JournalEntry[]): void;
  readonly game: { readonly plies: readonly unknown[] };
}

/** What resuming needs of the store (GameStore). */
export interface ResumeStore {
  readonly dir: string;
  findInProgress(): Found;
  keepAside(id: string): string | null;
  keepAsidePdn(id: string): string | null;
  rewriteJournal(id: string, entries: readonly JournalEntry[]): number;
  setAside(id: string): string | null;
  pdnExists(id: string): boolean;
  reportDamage(report: DamageReport): void;
  resume(id: string, read: Pick<JournalRead, 'goodEnd' | 'size' | 'missingNewline' | 'entries'>): void;
  note(say: string): void;
}

export type ResumeResult =
  | { resumed: false; id: string | null; damage: DamageReport | null }
  | { resumed: true; id: string; moves: number; torn: boolean; damage: DamageReport | null; crlf: boolean };

/** The largest n such that the first n entries replay (restore is all-or-nothing, and a prefix that fails makes every longer one fail). */
export function replayablePrefix(entries: readonly JournalEntry[], probe: () => Replayable): number {
  const ok = (n: number) => {
    try {
      probe().restore(entries.slice(0, n));
      return true;
    } catch {
      return false;
    }
  };
  if (ok(entries.length)) return entries.length;
  let lo = 0,
    hi = entries.length; // ok(lo) holds (or lo = 0), ok(hi) fails
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
export function resumeNewest(store: ResumeStore, session: Replayable, probe: () => Replayable): ResumeResult {
  const found = store.findInProgress();
  if (found.kind === 'none') return { resumed: false, id: null, damage: null };
  const { id, read, file } = found;
  const pdnFile = join(store.dir, `${id}.pdn`);
  const damaged = read.damage.length > 0;
  const entries = journalStart(read.entries);
  const lost = (dropped: number): DamageReport => {
    const keptAt = store.setAside(id);
    const pdn = store.pdnExists(id) ? pdnFile : null;
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
    const pdn = store.pdnExists(id) ? store.keepAsidePdn(id) : null;
    const size = store.rewriteJournal(id, kept);
    session.restore(kept);
    store.resume(id, size >= 0 ? { goodEnd: size, size, missingNewline: false, entries: kept } : read);
    damage = {
      game: id,
      file,
      keptAt,
      dropped: read.damage,
      unreplayed: entries.length - n,
      resumed: true,
      moves: session.game.plies.length,
      pdn,
    };
    store.reportDamage(damage);
    if (read.crlf) noteCrlf(store, id, read.crlf, size >= 0);
  } else if (read.crlf) {
    // Windows line ends, nothing else wrong: the same records rewritten with plain ones.
    session.restore(kept);
    const size = store.rewriteJournal(id, kept);
    store.resume(id, size >= 0 ? { goodEnd: size, size, missingNewline: false, entries: kept } : read);
    noteCrlf(store, id, read.crlf, size >= 0);
  } else {
    session.restore(kept);
    store.resume(id, read);
  }
  return { resumed: true, id, moves: session.game.plies.length, torn: read.torn, damage, crlf: read.crlf > 0 };
}

function noteCrlf(store: ResumeStore, id: string, lines: number, rewritten: boolean): void {
  store.note(
    `the journal of game ${id} has Windows line ends (CRLF, ${lines} record${lines === 1 ? '' : 's'}), as after a copy through Windows tools or an editor: ` +
      `they were read as line ends and the game resumed${rewritten ? '; the journal was rewritten with plain line ends' : ''}`,
  );
}
