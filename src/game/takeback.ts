// A takeback asked for from the page in a game between two players, as
// lichess does it: one side asks, the other accepts or declines. The offer
// holds for the position it was made in (a move, a takeback or a new game
// ends it). Against the computer the session takes back at once, as before.
// Pure state: the session asks and answers, the snapshot shows the offer.

import type { Color } from '../rules/index.ts';

/** Where an offer was made: the game and how many plies it had. */
export interface TakebackKey {
  gameId: string;
  plies: number;
}

export class TakebackOffers {
  private offer: { side: Color; key: TakebackKey } | null = null;

  /** The side whose offer stands in this position (null: none). */
  pending(key: TakebackKey): Color | null {
    const o = this.offer;
    return o && o.key.gameId === key.gameId && o.key.plies === key.plies ? o.side : null;
  }

  /** `side` asks to take back in this position. */
  ask(side: Color, key: TakebackKey): void {
    this.offer = { side, key };
  }

  /** The offer is answered or withdrawn: who had asked (null: none stood). */
  clear(key: TakebackKey): Color | null {
    const side = this.pending(key);
    this.offer = null;
    return side;
  }
}
