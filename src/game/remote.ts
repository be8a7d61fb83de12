// Playing someone at another board (a game between two stations): which
// side they play and under what name, and the move of theirs the player here
// is to carry out on the board — the computer opponent's flow, with the move
// coming from the other board instead of the engine. Each of their moves is
// checked before it is shown: it must be the next ply of this game, their
// turn, and legal; a copy of a ply already played is recognised and dropped
// (the network may deliver twice). What their player does besides moving —
// resign, offer, accept or decline a draw, ask for a takeback or answer
// ours — arrives as their board's journal records and is applied here as
// theirs (farRecord), never as this board's player's. Pure.

import {
  findMove,
  legalMoves,
  longText,
  makesSquares,
  moveText,
  opposite,
  sideName,
  type Color,
  type Move,
  type ReadonlyGame,
} from '../rules/index.ts';
import type { GameEvent, RemoteLink, RemoteSetting, RemoteState } from '../protocol/v1.ts';
import type { JournalEntry } from '../model/journal.ts';
import { CrownheadError } from '../common/errors.ts';
import { SessionError } from './errors.ts';
import type { GameTable } from './table.ts';
import type { TakebackKey, TakebackOffers } from './takeback.ts';
import { describeOutcome } from './view.ts';

/** Who plays at the other board: their side, and their name (as in the PDN tag of their side). */
export type { RemoteSetting };

export type RemoteMoveErrorCode = 'not-remote' | 'not-their-turn' | 'out-of-order' | 'illegal' | 'different-move';

/** A move from the other board that cannot be taken: the reason named. */
export class RemoteMoveError extends CrownheadError<RemoteMoveErrorCode> {
  override readonly name = 'RemoteMoveError';
  constructor(code: RemoteMoveErrorCode, message: string) {
    super(code, message);
  }
}

/** A move from the other board, as it arrives: the ply's index in the game (0-based) and its squares (from, then each landing). */
export interface RemotePly {
  ply: number;
  path: readonly number[];
  /** the mover's clock after the move, ms, as their board's clock read it (the clocks agree after every ply) */
  clockMs?: number;
}

export class RemoteOpponent {
  /** the move of theirs waiting to be carried out here (null: none) */
  move: Move | null = null;
  /** its text (short, long where needed) */
  private text = '';
  /** its index in the game */
  private movePly = -1;
  /** the clock reading their board sent with it */
  private clockMs: number | undefined;

  /** the way to their board (null: not heard of yet) */
  private link: RemoteLink | null = null;

  constructor(readonly setting: RemoteSetting) {}

  /** The way to their board changed: true when it is news (then say linkSentence()). */
  setLink(link: RemoteLink): boolean {
    const was = this.link;
    this.link = link;
    return was?.state !== link.state && !(was === null && link.state === 'online');
  }

  /** What the player here is told when the way to the other board changes. */
  linkSentence(): string {
    const name = this.setting.name;
    if (this.browser)
      return this.link?.state === 'online'
        ? `${name}'s page is back.`
        : `${name}'s page is closed or offline: their moves come when it is back.`;
    switch (this.link?.state) {
      case 'offline':
        return `${name}'s board is offline: your move will reach it when it is back.`;
      case 'unreachable':
        return `The way to ${name}'s board is down (the broker cannot be reached): moves are kept here and sent when it is back.`;
      default:
        return `${name}'s board is back.`;
    }
  }

  get side(): Color {
    return this.setting.side;
  }

  /** They play from a browser (a friend with no board), not at another board: said so. */
  private get browser(): boolean {
    return this.setting.where === 'browser';
  }

  /** Where what they do comes from, in words: "at the other board", or "from their page". */
  get there(): string {
    return this.browser ? 'from their page' : 'at the other board';
  }

  /** Refuses, naming the player, what only the player at the other board may do for their side (resign, offer or accept a draw, ask a takeback). */
  onlyTheirs(side: Color | undefined, what: string): void {
    if (side !== this.side) return;
    const s = sideName(side);
    throw new SessionError(
      'not-allowed',
      `${this.setting.name} plays ${s} ${this.browser ? 'from a browser' : 'at the other board'}: only they can ${what} for ${s}, from their ${this.browser ? 'page' : 'board'}`,
    );
  }

  /** Refuses a move for them sent from this board's page or API when they play from a browser: it comes from their page (a far board's moves may be relayed). */
  relayedHere(): void {
    if (this.browser) this.onlyTheirs(this.side, 'move');
  }

  /** Refuses an answer here to a takeback this board's player asked for: the player at the other board answers it, from there. */
  answers(asked: Color | null): void {
    if (asked === null || asked === this.side) return;
    throw new SessionError(
      'not-allowed',
      `${this.setting.name} answers the takeback you asked for, ${this.browser ? 'on their page' : 'at the other board'}`,
    );
  }

  /**
   * Their move arrives. Returns the move to carry out, or null when it is a
   * copy of what is already here (played, or already waiting). Throws
   * RemoteMoveError naming what is wrong with anything else.
   */
  receive(game: ReadonlyGame, p: RemotePly): Move | null {
    const done = game.plies[p.ply];
    if (done) {
      // Already on the board here: the same move again is a copy; another move is a disagreement to report.
      if (done.before.turn === this.side && makesSquares(done.move, p.path)) return null;
      throw new RemoteMoveError('different-move', `ply ${p.ply + 1} here is ${longText(done.move)}, not ${p.path.join('-')}`);
    }
    if (p.ply !== game.plies.length)
      throw new RemoteMoveError('out-of-order', `ply ${p.ply + 1} arrived while this game is at ply ${game.plies.length + 1}`);
    if (game.outcome) throw new RemoteMoveError('illegal', 'the game is over');
    if (game.turn !== this.side) throw new RemoteMoveError('not-their-turn', `it is ${sideName(game.turn)}'s turn here`);
    if (this.move && this.movePly === p.ply) {
      if (makesSquares(this.move, p.path)) return null;
      throw new RemoteMoveError('different-move', `ply ${p.ply + 1} is already ${this.text}`);
    }
    const legal = legalMoves(game.position, game.options);
    const move = findMove(legal, p.path);
    if (!move) throw new RemoteMoveError('illegal', `${p.path.join('-')} is not a legal move for ${sideName(this.side)} here`);
    this.move = move;
    this.text = moveText(move, legal);
    this.movePly = p.ply;
    this.clockMs = p.clockMs;
    return move;
  }

  /** Their move was carried out on the board: the clock reading their board sent (undefined: none sent). */
  played(): number | undefined {
    const ms = this.clockMs;
    this.cancel();
    return ms;
  }

  /** A takeback or a new game: nothing waits any more. */
  cancel(): void {
    this.move = null;
    this.movePly = -1;
    this.clockMs = undefined;
  }

  /** Said when a game starts: "Ann plays White at another board: carry out her moves here as they come." */
  describe(): string {
    return `${this.setting.name} plays ${sideName(this.side)} ${this.browser ? 'from a browser' : 'at another board'}: their moves are shown here to carry out.`;
  }

  /** The snapshot's part. */
  state(): RemoteState {
    const m = this.move;
    return {
      side: this.side,
      name: this.setting.name,
      link: this.link,
      ...(this.browser ? { where: 'browser' as const } : {}),
      move: m ? { text: this.text, from: m.from, path: [...m.path], captures: [...m.captures] } : null,
    };
  }
}

/** Their waiting move, announced: "Ann plays 11 to 15: carry it out on the board." */
export function remoteMoveEvent(r: RemoteOpponent): Extract<GameEvent, { type: 'remote-move' }> {
  const m = r.move!;
  const route = m.captures.length ? `${m.from} takes ${m.path.join(', then ')}` : `${m.from} to ${m.to}`;
  return {
    type: 'remote-move',
    ...r.state().move!,
    say: `${r.setting.name} plays ${route}${m.crowned ? ', crowned' : ''}: carry it out on the board.`,
  };
}

/** What a far record needs of the session: its table, the takeback offers in this position, its announcements and its takeback. */
export interface FarHands {
  table: GameTable;
  takebacks: TakebackOffers;
  emit(e: Extract<GameEvent, { type: 'takeback-offer' }>): void;
  /** takes the last move back here (the players put the pieces back as shown) */
  takeBack(): void;
}

/**
 * A record of the far board's game (the linked game's; `plies`: its ply count
 * there when the record was made), applied here as what their player did,
 * never as this board's player: their resignation ends the game here; their
 * draw offer stands here (ours standing too, it is agreed), a draw declined
 * there is cleared here, a draw agreed there ends the game here; their
 * takeback request is shown to answer, and ours answered there — agreed
 * (their takeback record), the move is taken back here too; declined, the
 * request is cleared. An offer or answer not made in this position (a move
 * since, on either board) is dropped, as a move ends it on both boards. A
 * game ended by the rules or a flag each board ends itself.
 */
export function farRecord(r: RemoteOpponent, h: FarHands, e: JournalEntry, plies: number): void {
  const t = h.table;
  const here = plies === t.game.plies.length && !t.game.outcome && t.result === '*';
  const mine = opposite(r.side);
  const key: TakebackKey = { gameId: t.gameId, plies: t.game.plies.length };
  if (e.k === 'result') farResult(r, t, e, here);
  else if (e.k === 'draw-offer' && here) {
    if (e.side === null) t.declineDraw();
    else if (e.side === r.side && t.drawOffer !== r.side) t.offerDraw(r.side);
  } else if (e.k === 'takeback-offer' && here) {
    if (e.side === r.side) {
      if (h.takebacks.ask(r.side, key, (x) => h.emit({ ...x, say: `${r.setting.name} asks to take back the last move.` }))) h.takeBack();
    } else if (e.side === null && h.takebacks.pending(key) === mine) {
      h.takebacks.clear(key);
      h.emit({ type: 'takeback-offer', side: null, say: `${r.setting.name} declines the takeback.` });
    }
  } else if (e.k === 'takeback' && here && h.takebacks.pending(key) === mine) h.takeBack();
}

/** Their resignation, or a draw they agreed to (ours standing in this position): the game ends here with the same result. */
function farResult(r: RemoteOpponent, t: GameTable, e: Extract<JournalEntry, { k: 'result' }>, here: boolean): void {
  const o = e.outcome;
  if (!o || t.game.outcome || t.result !== '*') return;
  // (A resignation stands whatever else crossed it on the way: the game is over on both boards.)
  if (o.reason === 'resignation' && o.winner === opposite(r.side))
    t.resign(r.side, `${r.setting.name} resigned, ${r.there}. ${describeOutcome(o)}`);
  else if (o.reason === 'agreement' && here && t.drawOffer === opposite(r.side))
    t.acceptDraw(r.side, `${r.setting.name} accepts the draw, ${r.there}. ${describeOutcome(o)}`);
}
