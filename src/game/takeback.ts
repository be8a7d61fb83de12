// A takeback asked for from the page in a game between two players, as
// lichess does it: one side asks, the other accepts or declines. The offer
// holds for the position it was made in (a move, a takeback or a new game
// ends it). Against the computer the session takes back at once, as before.
// Pure state: the session asks and answers (the offer's events handed to it),
// the snapshot shows the offer.

import { opposite, sideName, type Color } from '../rules/index.ts';
import type { GameEvent } from '../protocol/v1.ts';
import { SessionError } from './errors.ts';

type OfferEvent = Extract<GameEvent, { type: 'takeback-offer' }>;

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

  /** `side` asks to take back in this position (announced); true when the other side had asked too: take back now. */
  ask(side: Color, key: TakebackKey, announce: (e: OfferEvent) => void): boolean {
    if (this.pending(key) === opposite(side)) return true;
    this.offer = { side, key };
    announce({ type: 'takeback-offer', side, say: `${sideName(side)} asks to take back the last move.` });
    return false;
  }

  /** The other side's answer: true when accepted (take back now); declined, it is announced. Throws when none was asked. */
  answer(accept: boolean, key: TakebackKey, announce: (e: OfferEvent) => void): boolean {
    const side = this.pending(key);
    if (!side) throw new SessionError('not-allowed', 'no takeback has been asked for');
    if (accept) return true;
    this.offer = null;
    announce({ type: 'takeback-offer', side: null, say: `${sideName(opposite(side))} declines the takeback.` });
    return false;
  }

  /** The offer is answered or withdrawn: who had asked (null: none stood). */
  clear(key: TakebackKey): Color | null {
    const side = this.pending(key);
    this.offer = null;
    return side;
  }
}
