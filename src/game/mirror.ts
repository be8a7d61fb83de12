// A game followed from its journal records, played on a board elsewhere (a
// station's, mirrored by the hub: src/stations/): a small class around a
// session of its own — one that journals nothing — whose table folds each
// record it is given (fold.ts) and which announces it as the board's own
// session did — a new game, a move, a takeback, a game over, a correction —
// so pages, the spectators' feed, the PDN and the tournament director, all
// reading the session, follow a remote board as they follow a local one.
// It is not a session: it makes no record of its own and decides nothing
// (no clock flag, no draw, no new game): the station's journal does, and the
// board's commands go to the station (src/server/games.ts), never to this
// session.

import type { JournalEntry } from '../model/journal.ts';
import { describeOutcome, recordAt, speakMove } from './view.ts';
import { GameSession, type SessionOptions } from './session.ts';

export class MirroredGame {
  /** The game as everyone reads it (pages, the feed, the PDN, the director): changed only by the records given here. */
  readonly session: GameSession;
  /** records the table folded, all told (the hub's work: one a record once the game is followed) */
  replayed = 0;

  constructor(options: Omit<SessionOptions, 'journal'> = {}) {
    this.session = new GameSession({ ...options, journal: undefined });
  }

  /** Something shown of the board changed outside the game (its station's own state of it): pages and feeds look again. */
  refresh(): void {
    this.session.emit({ type: 'tags', say: '' });
  }

  /** Follows the game to exactly these records (the whole game so far, record 0 its start): a restart, or a copy out of step. Throws (changing nothing) when they do not replay. */
  follow(entries: readonly JournalEntry[]): void {
    const s = this.session;
    const was = { id: s.gameId, result: s.result };
    s.table.restore(entries);
    this.replayed += entries.length;
    const plies = s.game.plies.length;
    s.emit({
      type: 'new-game',
      say: s.gameId !== was.id ? `New game on the board: ${s.gameId}.` : `The game was brought up to date: ${plies} moves.`,
    });
    this.ended(was.result);
  }

  /** One more record, in order (the sequencer's): folded into the game as it stands and announced, one record in, its event out. Throws (changing nothing) when it does not apply. */
  apply(entry: JournalEntry): void {
    const s = this.session;
    const was = s.result;
    s.table.apply(entry);
    this.replayed++;
    switch (entry.k) {
      case 'new':
        return s.emit({ type: 'new-game', say: `New game on the board: ${s.gameId}.` });
      case 'move': {
        const rec = recordAt(s.table, s.game.plies.length - 1);
        s.emit({ type: 'move', move: rec, say: speakMove(rec) });
        return void this.ended(was); // (a move that ends the game: announced as over too)
      }
      case 'takeback':
        return s.emit({ type: 'takeback', say: 'Move taken back.' });
      case 'correction': {
        const note = s.table.corrections.at(-1)!;
        return s.emit({ type: 'corrected', correction: note, say: note.say });
      }
      default:
        // (A result announces the game over; tags, a clock, a draw offer… change what is shown: pages and feeds look again.)
        if (!this.ended(was)) s.emit({ type: 'tags', say: '' });
    }
  }

  /** Announces the game over if its result is now decided and was not before (`was`); true when it did. */
  private ended(was: string): boolean {
    const s = this.session;
    if (s.result === was || s.result === '*') return false;
    const outcome = s.game.outcome ?? { winner: null, reason: 'arbiter' as const };
    s.emit({ type: 'game-over', result: s.result, outcome, say: describeOutcome(outcome) });
    return true;
  }
}
