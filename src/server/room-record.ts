// A room's game record as every reader of it gets it: the game's PDN text,
// made once per change of the record (the room calls changed() on each of its
// RECORD_EVENTS) and at that change — the games folder's file is rewritten
// from the text as the change left it, once per burst of changes, so a new
// game started in the same tick as the last change of the previous one still
// gets that game's final rewrite — then read from here, not made again, by
// the spectators' feed (/broadcast.pdn) and a tournament round's broadcast. A
// station's game (a hub's mirror room) is broadcast with the service's tags it
// lacks: that text is made lazily, at most once per change (and per set of
// tags it is listed with), and not at all while nobody reads the broadcast.

import type { GameSession } from '../game/index.ts';
import type { RoomGames } from './games.ts';
import type { GameStore } from '../storage/index.ts';

export class RoomRecord {
  /** the text the file is to be rewritten with, once the burst of changes is over */
  private pending: { id: string; text: string } | null = null;
  /** the game's PDN as the last change of its record left it (null: not made since; made at the next read) */
  private current: string | null = null;
  /** a station's game as broadcast, with the service's tags it lacks (the key: those tags) */
  private listed: { key: string; text: string } | null = null;

  constructor(
    private readonly session: GameSession,
    private readonly store: GameStore,
  ) {}

  /** The record changed: its text is made (once), the file's rewrite queued for the end of the burst. */
  changed(): void {
    this.current = null;
    this.listed = null;
    const id = this.session.gameId;
    if (!id) return;
    if (this.pending && this.pending.id !== id) this.flush();
    const first = this.pending === null;
    this.pending = { id, text: this.text() };
    if (first) setImmediate(() => this.flush());
  }

  /** The game's PDN as its last change left it. */
  text(): string {
    return (this.current ??= this.session.pdn());
  }

  /** The game as the broadcast lists it (its games say how: a station's with the service's tags it lacks, else its PDN as it is), made at most once per change and set of tags. */
  broadcast(games: Pick<RoomGames, 'broadcastPdn'>, serviceTags: Readonly<Record<string, string>>): string {
    const key = JSON.stringify(serviceTags);
    if (this.listed?.key !== key) this.listed = { key, text: games.broadcastPdn(serviceTags, () => this.text()) };
    return this.listed.text;
  }

  /** Rewrites the file now with what is pending. */
  flush(): void {
    if (!this.pending) return;
    const { id, text } = this.pending;
    this.pending = null;
    this.store.writePdn(id, text);
  }
}
