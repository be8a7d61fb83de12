// Exactly once, in order: the hub's view of one station's journal. Records
// arrive as (game, seq) in any order, doubled, or with gaps (QoS 1 redelivers,
// a station republishes from the hub's last ack after a reconnect); the
// sequencer hands each record on exactly once and in order, holds those that
// come early, asks for a missing range (again after `retryMs` while it stays
// missing), and starts a new game only once the game before it is complete.
// Bounded: at most `maxHeld` early records (default 1,000) over at most
// `maxGames` games; beyond, the farthest ahead are dropped and asked for again
// once the gap before them is filled, so a flood of early records costs a
// fixed amount of memory and work. Pure: time is an input. Records are a
// game's canonical list (canonical():
// consecutive tags records are one, the last, as the journal's writer keeps
// them), so a station's list and the hub's agree after either restarts.

import type { JournalEntry } from '../model/journal.ts';

/** What each option is when it is not given. */
const DEFAULTS = { maxGames: 4, maxHeld: 1000, retryMs: 2000, keepLeft: 64 } as const;

export interface Arrival {
  gameId: string;
  seq: number;
  entry: JournalEntry;
  /** with a new game's record 0: the game before it and its final count */
  prev?: { gameId: string; count: number } | null;
}

export type SequencerAction =
  | { type: 'apply'; gameId: string; seq: number; entry: JournalEntry }
  /** the last record applied was a tags record, changed again (consecutive tags are one record) */
  | { type: 'replace'; gameId: string; seq: number; entry: JournalEntry }
  /** records [from, to) of the game are missing: ask the station */
  | { type: 'ask'; gameId: string; from: number; to: number };

export interface SequencerStats {
  applied: number;
  duplicates: number;
  early: number;
  stale: number;
  asks: number;
  /** early records dropped because too many were held (asked for again later) */
  dropped: number;
}

/** The smallest key of a held map from `from` on (no spread: a map of any size). */
function lowest(held: ReadonlyMap<number, unknown>, from = 0): number {
  let min = Infinity;
  for (const k of held.keys()) if (k >= from && k < min) min = k;
  return min;
}

function highest(held: ReadonlyMap<number, unknown>): number {
  let max = -1;
  for (const k of held.keys()) if (k > max) max = k;
  return max;
}

/** Consecutive tags records are one (the last): each holds every tag, and the journal's writer merges a burst of them. */
export function canonical(entries: readonly JournalEntry[]): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const e of entries) {
    if (e.k === 'tags' && out.at(-1)?.k === 'tags') out[out.length - 1] = e;
    else out.push(e);
  }
  return out;
}

const same = (a: JournalEntry, b: JournalEntry) => JSON.stringify(a) === JSON.stringify(b);

export class Sequencer {
  private current: { gameId: string; next: number; last: JournalEntry | null; startedAt: number } | null = null;
  /** records that came early, by game then seq */
  private readonly early = new Map<string, Map<number, Arrival>>();
  /** games left behind (a later game started): their late records are stale */
  private readonly left: string[] = [];
  private readonly asked = new Map<string, { from: number; to: number; at: number }>();
  readonly stats: SequencerStats = { applied: 0, duplicates: 0, early: 0, stale: 0, asks: 0, dropped: 0 };
  /** early records held, all games */
  private heldCount = 0;

  constructor(private readonly opts: { retryMs?: number; keepLeft?: number; maxHeld?: number; maxGames?: number } = {}) {}

  /** Early records held now, all games. */
  get held(): number {
    return this.heldCount;
  }

  /** The game followed and how many of its records are applied (what the hub acknowledges). */
  get position(): { gameId: string; next: number } | null {
    return this.current ? { gameId: this.current.gameId, next: this.current.next } : null;
  }

  /** Carries on from records already applied (the hub's own journal after a restart). */
  resume(gameId: string, entries: readonly JournalEntry[]): void {
    const list = canonical(entries);
    const start = list[0];
    this.current = { gameId, next: list.length, last: list.at(-1) ?? null, startedAt: start?.at ?? 0 };
  }

  /** A record arrived: what to do, in order. */
  receive(a: Arrival, now: number): SequencerAction[] {
    const out: SequencerAction[] = [];
    const cur = this.current;
    if (cur && a.gameId === cur.gameId) {
      if (a.seq < cur.next) {
        if (a.seq === cur.next - 1 && a.entry.k === 'tags' && cur.last?.k === 'tags' && !same(a.entry, cur.last)) {
          cur.last = a.entry;
          out.push({ type: 'replace', gameId: a.gameId, seq: a.seq, entry: a.entry });
        } else this.stats.duplicates++;
        return out;
      }
      if (a.seq > cur.next) return this.hold(a, cur.next, now, out);
      this.apply(a, out);
      this.drain(out, now);
      return out;
    }
    if (this.left.includes(a.gameId)) {
      this.stats.stale++;
      return out;
    }
    if (a.seq > 0) return this.hold(a, 0, now, out);
    this.hold(a, 0, now, out);
    this.drain(out, now);
    return out;
  }

  /** Asks again for what is still missing once `retryMs` has passed since the last ask. */
  due(now: number): SequencerAction[] {
    const out: SequencerAction[] = [];
    const cur = this.current;
    for (const [gameId, held] of this.early) {
      if (!held.size) continue;
      const from = gameId === cur?.gameId ? cur.next : 0;
      const first = lowest(held);
      if (first > from) this.ask(gameId, from, first, now, out);
      else if (first === 0 && cur && gameId !== cur.gameId) {
        const prev = held.get(0)!.prev;
        if (prev?.gameId === cur.gameId && cur.next < prev.count) this.ask(cur.gameId, cur.next, prev.count, now, out);
      }
    }
    return out;
  }

  private hold(a: Arrival, from: number, now: number, out: SequencerAction[]): SequencerAction[] {
    let held = this.early.get(a.gameId);
    if (held?.has(a.seq)) {
      this.stats.duplicates++;
      if (a.entry.k === 'tags') held.set(a.seq, a);
      return out;
    }
    if (!held && this.early.size >= (this.opts.maxGames ?? DEFAULTS.maxGames)) {
      this.stats.dropped++; // a game nobody has started yet: asked for when its turn comes
      return out;
    }
    if (!held) this.early.set(a.gameId, (held = new Map()));
    if (this.heldCount >= (this.opts.maxHeld ?? DEFAULTS.maxHeld)) {
      // Full: keep the records nearest to what is applied next; the farthest ahead go (asked for again later).
      const far = highest(held);
      this.stats.dropped++;
      if (far < a.seq) return out;
      held.delete(far);
      this.heldCount--;
    }
    held.set(a.seq, a);
    this.heldCount++;
    if (a.seq > 0) {
      this.stats.early++;
      this.ask(a.gameId, from, lowest(held, from), now, out);
    }
    return out;
  }

  private ask(gameId: string, from: number, to: number, now: number, out: SequencerAction[]): void {
    if (to <= from) return;
    const last = this.asked.get(gameId);
    if (last && last.from === from && last.to === to && now - last.at < (this.opts.retryMs ?? DEFAULTS.retryMs)) return;
    this.asked.set(gameId, { from, to, at: now });
    this.stats.asks++;
    out.push({ type: 'ask', gameId, from, to });
  }

  private apply(a: Arrival, out: SequencerAction[]): void {
    const cur = this.current!;
    cur.next = a.seq + 1;
    cur.last = a.entry;
    this.stats.applied++;
    out.push({ type: 'apply', gameId: a.gameId, seq: a.seq, entry: a.entry });
  }

  /** Applies held records that are now next, and starts a held new game whose predecessor is complete. */
  private drain(out: SequencerAction[], now: number): void {
    for (;;) {
      const cur = this.current;
      const held = cur ? this.early.get(cur.gameId) : undefined;
      const next = cur && held?.get(cur.next);
      if (cur && held && next) {
        held.delete(cur.next);
        this.heldCount--;
        this.apply(next, out);
        continue;
      }
      if (cur && held && held.size) return void this.ask(cur.gameId, cur.next, lowest(held), now, out);
      const start = this.startable();
      if (!start) return void this.askForPrevious(out, now);
      this.early.get(start.gameId)!.delete(0);
      this.heldCount--;
      if (cur) this.leave(cur.gameId);
      this.current = { gameId: start.gameId, next: 0, last: null, startedAt: start.entry.at };
      this.apply(start, out);
    }
  }

  /** A held new-game record that may start now: the first game seen, or the one after the current game, complete. */
  private startable(): Arrival | null {
    const cur = this.current;
    let best: Arrival | null = null;
    for (const [gameId, held] of this.early) {
      const a = held.get(0);
      if (!a || gameId === cur?.gameId) continue;
      if (cur) {
        const prev = a.prev;
        if (prev?.gameId === cur.gameId ? cur.next < prev.count : a.entry.at < cur.startedAt) continue;
      }
      if (!best || a.entry.at < best.entry.at) best = a;
    }
    return best;
  }

  /** A new game waits for the current one's last records: ask for them. */
  private askForPrevious(out: SequencerAction[], now: number): void {
    const cur = this.current;
    if (!cur) return;
    for (const [gameId, held] of this.early) {
      const prev = gameId === cur.gameId ? null : held.get(0)?.prev;
      if (prev?.gameId === cur.gameId && cur.next < prev.count) this.ask(cur.gameId, cur.next, prev.count, now, out);
    }
  }

  private leave(gameId: string): void {
    this.heldCount -= this.early.get(gameId)?.size ?? 0;
    this.early.delete(gameId);
    this.asked.delete(gameId);
    this.left.push(gameId);
    if (this.left.length > (this.opts.keepLeft ?? DEFAULTS.keepLeft)) this.left.shift();
  }
}
