// A friend who has no board: a seat at this board's game for a player in a
// browser (/play/<token>). The seat is the session's remote player, exactly
// as a far board's player is (src/stations/far-game.ts): their move goes
// through session.remoteMove (their turn, legal, the next ply; a copy
// dropped) for the board's player to carry out on the board, and their
// resign, draw offer or answer, takeback request or answer are applied as
// their records (session.remoteRecord, the far board's path), never as the
// board's player's. The rematch is the pairing's next game, colours swapped.
// The seat — its random token (128 bits, for this pairing only: neither
// access token opens it, nor it them) and the friend's name — is kept in the
// games folder (friend-seat.json, written whole and fsynced), so the link
// still works after the service restarts.

import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { CrownheadError } from '../common/errors.ts';
import type { GameSession } from '../game/index.ts';
import { opposite, type Color } from '../rules/index.ts';
import type { JournalEntry } from '../storage/journal.ts';
import { atomicWrite } from '../storage/disk.ts';
import type { SeatAction, SeatInfo } from '../protocol/play-v1.ts';

export type SeatErrorCode = 'not-seated' | 'game-over' | 'game-on' | 'no-offer' | 'not-allowed';

/** Something the seat's page asked that cannot be done now: the reason named. */
export class SeatError extends CrownheadError<SeatErrorCode> {
  override readonly name = 'SeatError';
  constructor(code: SeatErrorCode, message: string) {
    super(code, message);
  }
}

/** The seat as kept in the games folder. */
const SavedSeat = z.object({
  v: z.literal(1),
  token: z.string().check(z.minLength(22)),
  name: z.string().check(z.minLength(1), z.maxLength(60)),
  host: z.optional(z.string()),
});
type SavedSeat = z.infer<typeof SavedSeat>;

export const SEAT_FILE = 'friend-seat.json';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The friend's seat at one board's game (a single board's service). */
export class FriendSeat {
  private saved: SavedSeat | null = null;
  /** told when the seat is closed or given to a new pairing (its pages are then let go: seat-ws.ts) */
  private readonly ended = new Set<() => void>();

  constructor(
    readonly session: GameSession,
    private readonly dir: string,
  ) {
    this.saved = this.load();
  }

  private get file(): string {
    return join(this.dir, SEAT_FILE);
  }

  /** The seat kept from before a restart, if any (an unreadable file is no seat). */
  private load(): SavedSeat | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return null;
    }
    try {
      const p = SavedSeat.safeParse(JSON.parse(text));
      return p.success ? p.data : null;
    } catch {
      return null;
    }
  }

  /** Written whole (storage's atomicWrite: a temporary file, fsynced, renamed over), readable by its owner only: the token opens the seat. */
  private save(seat: SavedSeat): void {
    atomicWrite(nodeFs, dirname(this.file), this.file, JSON.stringify(seat) + '\n', 0o600);
  }

  /** There is a seat (its link works). */
  get open(): boolean {
    return this.saved !== null;
  }

  /** The seat's token (for the link), or null. */
  get token(): string | null {
    return this.saved?.token ?? null;
  }

  get name(): string | null {
    return this.saved?.name ?? null;
  }

  /** Constant-time check of a seat token. */
  matches(candidate: string | null | undefined): boolean {
    const t = this.saved?.token;
    if (!t || !candidate) return false;
    return timingSafeEqual(digest(candidate), digest(t));
  }

  /**
   * A friend takes a seat: a new token (any earlier link stops working), and
   * a new game with them playing `side` from their browser, the board's
   * player (`host`, if named) the other side here.
   */
  start(name: string, side: Color = 'white', host?: string): string {
    const seat: SavedSeat = { v: 1, token: randomBytes(18).toString('base64url'), name, ...(host ? { host } : {}) };
    const tags: Record<string, string> = { [side === 'black' ? 'Black' : 'White']: name };
    if (host) tags[side === 'black' ? 'White' : 'Black'] = host;
    this.session.newGame({ tags, computer: null, remote: { side, name, link: 'friend', where: 'browser' } });
    this.save(seat);
    this.saved = seat;
    for (const f of this.ended) f();
    return seat.token;
  }

  /** The seat is closed: its link stops working (the game stays as it is). */
  close(): void {
    this.saved = null;
    rmSync(this.file, { force: true });
    for (const f of this.ended) f();
  }

  /** Calls `f` when this seat ends (closed, or a new pairing's token); returns the unsubscribe. */
  onEnd(f: () => void): () => void {
    this.ended.add(f);
    return () => this.ended.delete(f);
  }

  /** The friend's side in the game now, or null when the game now is not theirs. */
  side(): Color | null {
    const r = this.session.remote;
    return this.saved && r && r.setting.name === this.saved.name ? r.side : null;
  }

  /** The seat as its page sees it. */
  info(): SeatInfo {
    const side = this.side();
    const other = side ? opposite(side) : null;
    const tag = other ? this.session.tags[other === 'black' ? 'Black' : 'White'] : undefined;
    return { name: this.saved?.name ?? '', side, opponent: tag || this.saved?.host || 'The board’s player' };
  }

  /**
   * The friend's clock as it stands when they move, their increment added
   * (Fischer): the time the board's player then takes to carry the move out
   * is not theirs (the far board's stations send the same reading).
   */
  private clockAtMove(side: Color): { clockMs?: number } {
    this.session.tick();
    const c = this.session.clock;
    if (!c || c.control.kind !== 'fischer' || c.runningSide !== side) return {};
    return { clockMs: c.remainingOf(side) + c.control.incrementMs };
  }

  /** What the seat's page asked, done for the friend's side only; refused, named, when it cannot be. */
  act(a: SeatAction): void {
    const side = this.side();
    if (!side)
      throw new SeatError('not-seated', `${this.info().opponent}'s board is not playing you now: ask them to start a game with you`);
    const s = this.session;
    const snap = s.snapshot();
    const over = snap.outcome !== null || snap.result !== '*';
    const mine = opposite(side);
    const record = (e: JournalEntry) => s.remoteRecord(e, s.game.plies.length);
    const at = Date.now();
    if (a.name === 'rematch') {
      if (!over) throw new SeatError('game-on', 'the game is still on: a rematch comes after it');
      return s.nextGame('next');
    }
    if (over) throw new SeatError('game-over', 'the game is over');
    switch (a.name) {
      case 'move':
        return s.remoteMove({ ply: a.ply, path: a.path, ...this.clockAtMove(side) });
      case 'resign':
        return record({ k: 'result', at, result: '*', outcome: { winner: mine, reason: 'resignation' } });
      case 'offer-draw':
        if (snap.drawOffer === side) throw new SeatError('not-allowed', 'your draw offer stands already');
        if (snap.drawOffer === mine) return record({ k: 'result', at, result: '1/2-1/2', outcome: { winner: null, reason: 'agreement' } });
        return record({ k: 'draw-offer', at, side });
      case 'accept-draw':
      case 'decline-draw':
        if (snap.drawOffer !== mine) throw new SeatError('no-offer', `${this.info().opponent} has not offered a draw`);
        if (a.name === 'decline-draw') return record({ k: 'draw-offer', at, side: null });
        return record({ k: 'result', at, result: '1/2-1/2', outcome: { winner: null, reason: 'agreement' } });
      case 'takeback':
        if (snap.options.tournament) throw new SeatError('not-allowed', 'no takebacks in tournament mode');
        if (!snap.moves.length) throw new SeatError('not-allowed', 'there is no move to take back');
        if (snap.takebackOffer === side) throw new SeatError('not-allowed', 'you have asked already: waiting for the answer');
        return record({ k: 'takeback-offer', at, side });
      case 'takeback-answer':
        if (snap.takebackOffer !== mine) throw new SeatError('no-offer', `${this.info().opponent} has not asked to take back a move`);
        return record(a.accept ? { k: 'takeback', at } : { k: 'takeback-offer', at, side: null });
    }
  }
}
