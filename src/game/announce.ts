// What the session makes of each thing the tracker saw: the game at the
// table follows (the clocks after a move or a takeback the table has already
// journalled and made as the tracker's writer, a crown journalled), the
// opponent who is not at this board (the computer, or a player at another
// board) hears its move was carried out, and the players are told in words.
// The session calls it for every tracker event, inside its serial changes.

import type { TrackerEvent } from '../tracking/tracker.ts';
import type { ReadonlyGame } from '../rules/index.ts';
import type { GameEvent } from '../protocol/v1.ts';
import { fixesSentence } from '../words/index.ts';
import type { ComputerPlayer } from './computer.ts';
import type { RemoteOpponent } from './remote.ts';
import type { GameTable } from './table.ts';
import { recordAt, speakMove } from './view.ts';

/** What announcing needs of the session. */
export interface Announcing {
  readonly table: GameTable;
  readonly game: ReadonlyGame;
  readonly computer: ComputerPlayer | null;
  readonly remote: RemoteOpponent | null;
  emit(e: Exclude<GameEvent, { type: 'calibrated' } | { type: 'storage' } | { type: 'hub-link' }>): void;
  /** the board matches the game: play on */
  ready(): void;
}

/** One thing the tracker saw: the table and the opponent follow, the players hear of it. */
export function announce(s: Announcing, e: TrackerEvent): void {
  switch (e.type) {
    case 'move':
    case 'move-replaced': {
      const theirs = s.remote && e.ply.before.turn === s.remote.side && e.type === 'move';
      s.table.moved(e.ply, e.type === 'move-replaced', theirs ? s.remote!.played() : undefined);
      if (s.computer && e.ply.before.turn === s.computer.setting.side) s.computer.played();
      else if (s.computer && e.type === 'move-replaced') s.computer.cancel();
      const index = s.game.plies.lastIndexOf(e.ply);
      const rec = recordAt(s.table, index >= 0 ? index : s.game.plies.length - 1);
      s.emit({ type: e.type, move: rec, say: (e.type === 'move-replaced' ? 'Changed: ' : '') + speakMove(rec) });
      break;
    }
    case 'takeback':
      s.table.takenBack();
      s.computer?.cancel();
      s.remote?.cancel();
      s.emit({ type: 'takeback', say: 'Move taken back.' });
      break;
    case 'crown-awaited':
      s.emit({ type: 'crown-awaited', square: e.square, say: `Crown the king on ${e.square}.` });
      break;
    case 'crowned':
      s.table.crowned(e.square);
      s.emit({ type: 'crowned', square: e.square, say: `King on ${e.square}.` });
      break;
    case 'alert':
      s.emit({ type: 'alert', alert: e.alert, say: e.alert.message });
      break;
    case 'alert-cleared':
      s.emit({ type: 'alert-cleared', say: 'Board in order.' });
      break;
    case 'setup':
      // One grouped sentence ("Put a black man on 1–12; take the coin off 13."), not one per square.
      s.emit({ type: 'setup', fixes: e.fixes, say: e.fixes.length ? fixesSentence(e.fixes) : e.message });
      break;
    case 'ready':
      s.ready();
      break;
    case 'game-over':
      s.table.finish(s.game.outcome!);
      break;
    case 'reminder':
      // Quiet: spoken politely and shown softly on the page, never the buzzer.
      s.emit({ type: 'notice', level: 'reminder', squares: e.reminder.squares, say: e.reminder.message });
      break;
    case 'retraction-notice':
      // Outside tournament mode the retraction rule is advice: the move stands, and the players are told.
      s.emit({ type: 'notice', level: 'info', squares: e.squares, say: e.message });
      break;
    case 'reminder-cleared':
    case 'status':
      break;
  }
}
