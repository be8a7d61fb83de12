// The seat protocol, version 1: what goes over a friend's seat socket
// (/play/<token>/ws) between the server and the far player's page — a player
// with no board, in a browser, playing the board's player. The page acts only
// for the seat's own side (a move, resign, a draw offered or answered, a
// takeback asked or answered, the rematch); the server sends the seat, the
// game's snapshot and its events (the same shapes as the board's page,
// src/protocol/v1.ts), the clocks, and replies. Every message is parsed with
// these schemas on both sides. The board's page starts and shows the pairing
// through the HTTP JSON at the end (POST/GET/DELETE /api/friend).

import * as z from 'zod/mini';
import { ClockState, GameEvent, Side, Snapshot, Square } from './v1.ts';

/** A seat token: random, 128 bits or more, base64url. */
export const SeatToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{22,64}$/));

/** What the seat's page acts: always for the seat's side, never for the board's player. */
export const SeatAction = z.discriminatedUnion('name', [
  /** a move: the ply's index (0-based) and its squares (from, then every landing) */
  z.object({
    name: z.literal('move'),
    ply: z.number().check(z.int(), z.gte(0)),
    path: z.array(Square).check(z.minLength(2), z.maxLength(10)),
  }),
  z.object({ name: z.literal('resign') }),
  z.object({ name: z.literal('offer-draw') }),
  z.object({ name: z.literal('accept-draw') }),
  z.object({ name: z.literal('decline-draw') }),
  /** ask to take back the last move (the board's player answers) */
  z.object({ name: z.literal('takeback') }),
  /** the answer to the board's player's takeback request */
  z.object({ name: z.literal('takeback-answer'), accept: z.boolean() }),
  /** after the game: the next game, colours swapped */
  z.object({ name: z.literal('rematch') }),
]);
export type SeatAction = z.infer<typeof SeatAction>;

export const SeatClientMessage = z.discriminatedUnion('type', [
  z.object({ v: z.literal(1), type: z.literal('hello') }),
  z.object({ v: z.literal(1), type: z.literal('ping') }),
  z.object({ v: z.literal(1), type: z.literal('act'), id: z.optional(z.string().check(z.maxLength(64))), act: SeatAction }),
]);
export type SeatClientMessage = z.infer<typeof SeatClientMessage>;

/** The seat as its page sees it: its player's name and side in this game, and the board's player's name. */
export const SeatInfo = z.object({
  name: z.string(),
  /** null: the board is not playing this seat now (another game was started there) */
  side: z.nullable(Side),
  opponent: z.string(),
});
export type SeatInfo = z.infer<typeof SeatInfo>;

export const SeatServerMessage = z.discriminatedUnion('type', [
  z.object({ v: z.literal(1), type: z.literal('seat'), seat: SeatInfo, state: Snapshot }),
  z.object({ v: z.literal(1), type: z.literal('event'), event: GameEvent, seat: SeatInfo, state: Snapshot }),
  z.object({ v: z.literal(1), type: z.literal('clock'), clock: ClockState }),
  z.object({ v: z.literal(1), type: z.literal('ok'), id: z.optional(z.string()) }),
  z.object({ v: z.literal(1), type: z.literal('error'), id: z.optional(z.string()), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(1), type: z.literal('pong') }),
]);
export type SeatServerMessage = z.infer<typeof SeatServerMessage>;

// ------------------------------------------------------------------ the board's side (HTTP JSON)

/** POST /api/friend: the friend's name, the side they take (default white: the board's player moves first), the board's player's name. */
export const FriendRequest = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(60)),
  side: z.optional(Side),
  host: z.optional(z.string().check(z.maxLength(60))),
});
export type FriendRequest = z.infer<typeof FriendRequest>;

/** GET /api/friend (and POST's answer): the seat, its link and the link's QR code (SVG); null: no friend seat. */
export const FriendSeatBody = z.object({
  seat: z.nullable(
    z.object({
      name: z.string(),
      /** their side in the game now (null: the game now is not theirs) */
      side: z.nullable(Side),
      link: z.string(),
      qrSvg: z.string(),
      /** their page is connected */
      online: z.boolean(),
    }),
  ),
});
export type FriendSeatBody = z.infer<typeof FriendSeatBody>;
