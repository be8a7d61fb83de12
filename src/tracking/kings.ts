// Kings that read like one coin: a king's stack slid off-centre (a sleeve, the
// hand leaving its crown) reads like a centred man on small magnets (8 × 1.5,
// 6 × 1 mm: a king 3 mm off-centre at or below a centred man). The game says a
// king stands there — the prior, where one square's reading cannot tell — so
// it stays a king and play goes on; a king whose reading came down from its
// own best to near one coin, standing so for a moment, is a quiet reminder to
// straighten it, never an alert. A top coin really taken off reads the same:
// the game keeps the king, and the board catches the coin where it disagrees
// (put down elsewhere: an extra piece). Pure: the reader's view and the
// position in, a reminder out.

import type { Reminder } from '../model/board.ts';
import type { Position } from '../rules/index.ts';
import type { BoardView } from '../reading/view.ts';
import type { Counts } from './boards.ts';

/**
 * A king has slid off-centre when its reading has come down at least this many coin steps from the
 * best it read on its square (a stack 2 mm off on a small magnet loses about 0.17, 3 mm 0.4, less as smoothed when knocked the moment its crown landed; a king
 * moved there off-centre has no best to fall from: nothing to say)…
 */
const KNOCK_DROP = 0.07;
/** …and it reads near one coin: below this fraction of the way from one coin to two. */
const NEAR_ONE = 0.4;
/** One already said stays so until it is back within this much of its best, or reads this far up. */
const KNOCK_DROP_OUT = 0.04;
const NEAR_ONE_OUT = 0.5;
/** …and at least this many coin steps above empty (a coin is there: not one lifted away). */
const KING_PRESENT = 0.5;
/** It must have read so this long (ms) to be said: a finger resting on a king, a king being moved pass. */
export const OFF_CENTRE_MS = 2000;

/**
 * Follows the kings' readings, and says (once they have stood OFF_CENTRE_MS)
 * the kings that slid off-centre and now read near one coin.
 */
export class OffCentreWatch {
  /** per square: the best a king standing there has read (coin steps; NaN: no king followed) */
  private readonly best = new Float32Array(32).fill(NaN);
  private followed = 0;
  private low = 0;
  private key = 0;
  private since = -Infinity;
  /** When the kings now reading low will have done so long enough to be said (look again then). */
  due = -Infinity;

  /**
   * One frame in play: follows each king of the position standing on its
   * square (two coins counted there, the game's call where the reader was
   * unsure) and returns those that slid off-centre. Not `except` (a crown
   * being put together, a king crowned with the opponent's coin on a coded
   * board: it reads low by design), though they are followed.
   */
  look(v: BoardView, pos: Position, board: Counts, except = 0): number {
    // (A square no king stands on any more, or one emptied: its best is forgotten.)
    for (let m = this.followed & ~pos.kings; m; m &= m - 1) this.best[31 - Math.clz32(m & -m)] = NaN;
    let low = 0;
    for (let m = pos.kings; m; m &= m - 1) {
      const i = 31 - Math.clz32(m & -m);
      if (board[i] === 0) {
        this.best[i] = NaN;
        continue;
      }
      const c = v.coins[i];
      if (!(c <= this.best[i])) this.best[i] = c;
      if (board[i] !== 2 || (except >>> i) & 1 || c < KING_PRESENT) continue;
      const was = (this.low >>> i) & 1;
      const drop = this.best[i] - c;
      if (was ? drop >= KNOCK_DROP_OUT && v.stack[i] < NEAR_ONE_OUT : drop >= KNOCK_DROP && v.stack[i] < NEAR_ONE) low |= 1 << i;
    }
    this.followed = pos.kings;
    this.low = low;
    return low;
  }

  /** The reminder for the kings `low` (see look) once they have stood OFF_CENTRE_MS; null: nothing to say (yet). */
  reminder(low: number, t: number): Reminder | null {
    if (low !== this.key) {
      this.key = low;
      this.since = t;
    }
    if (!low) return null;
    if (t - this.since < OFF_CENTRE_MS) {
      this.due = this.since + OFF_CENTRE_MS;
      return null;
    }
    const squares: number[] = [];
    for (let i = 0; i < 32; i++) if ((low >>> i) & 1) squares.push(i + 1);
    const list = squares.length === 1 ? `${squares[0]}` : `${squares.slice(0, -1).join(', ')} and ${squares.at(-1)}`;
    return {
      category: 'off-centre',
      message:
        squares.length === 1
          ? `The king on ${list} is off-centre: straighten it.`
          : `The kings on ${list} are off-centre: straighten them.`,
      squares,
      t,
    };
  }
}
