// A game followed from its journal records, played on a board elsewhere (a
// station's, mirrored by the hub: src/stations/): the session restores the
// records it is given and announces the change as the board's own session
// did — a new game, a move, a takeback, a game over, a correction — so
// pages, the spectators' feed, the PDN and the tournament director follow a
// remote board as they follow a local one. It makes no record of its own and
// decides nothing (no clock flag, no draw, no new game): the station's
// journal does.

import type { JournalEntry } from '../model/journal.ts';
import { describeOutcome, speakMove } from './view.ts';
import { GameSession } from './session.ts';
import { SessionError } from './errors.ts';

export class MirrorSession extends GameSession {
  /** A station's games start on the station (a command sent there): a copy never starts one of its own. */
  override newGame(): void {
    throw new SessionError(
      'not-allowed',
      "this board's games are kept on its station: a new game is started there (a command to the station)",
    );
  }

  override nextGame(): void {
    this.newGame();
  }

  /** Something shown of the board changed outside the game (its station's own state of it): pages and feeds look again. */
  refresh(): void {
    this.emit({ type: 'tags', say: '' });
  }

  /** records the table replayed, all told (the hub's work: one a record once the game is followed) */
  replayed = 0;

  /** Follows the game to exactly these records (the whole game so far, record 0 its start): a restart, or a copy out of step. Throws (changing nothing) when they do not replay. */
  follow(entries: readonly JournalEntry[]): void {
    const was = this.before();
    this.table.restore(entries);
    this.replayed += entries.length;
    this.announce(was);
  }

  /** One more record, in order (the sequencer's): applied to the game as it stands and announced. Throws (changing nothing) when it does not apply. */
  apply(entry: JournalEntry): void {
    const was = this.before();
    this.table.apply(entry);
    this.replayed++;
    this.announce(was);
  }

  private before() {
    return { id: this.gameId, plies: this.game.plies.length, result: this.result, corrections: this.table.corrections.length };
  }

  /** Says what changed, as the board's own session did: a new game, a move, a takeback, a correction, a game over, or (tags, a clock) nothing. */
  private announce(was: ReturnType<MirrorSession['before']>): void {
    const plies = this.game.plies.length;
    if (this.gameId !== was.id) this.emit({ type: 'new-game', say: `New game on the board: ${this.gameId}.` });
    else if (plies === was.plies + 1) {
      const rec = this.moveRecords().at(-1)!;
      this.emit({ type: 'move', move: rec, say: speakMove(rec) });
    } else if (plies === was.plies - 1) this.emit({ type: 'takeback', say: 'Move taken back.' });
    else if (plies !== was.plies) this.emit({ type: 'new-game', say: `The game was brought up to date: ${plies} moves.` });
    const note = this.table.corrections.at(-1);
    if (this.table.corrections.length > was.corrections && note) this.emit({ type: 'corrected', correction: note, say: note.say });
    else if (this.result !== was.result && this.result !== '*') {
      const outcome = this.game.outcome ?? { winner: null, reason: 'arbiter' as const };
      this.emit({ type: 'game-over', result: this.result, outcome, say: describeOutcome(outcome) });
    } else if (plies === was.plies && this.gameId === was.id) this.emit({ type: 'tags', say: '' });
  }
}
