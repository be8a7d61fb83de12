// Part of the page–server protocol, version 1: club mode's many boards —
// each board at a glance (the arbiter's grid, the spectators' page, the
// hub's listing of a station), GET /api/boards and what the spectators'
// socket (/watch/ws) sends. Built on v1.ts's pieces and clocks.

import * as z from 'zod/mini';
import { ClockState, Piece, Result, Side, Square } from './v1.ts';

const int = () => z.number().check(z.int());

/** A board's state at a glance, for the arbiter's grid and the spectators' page. */
export const BoardState = z.enum(['setup', 'in-sync', 'moving', 'awaiting-crown', 'illegal', 'reminder', 'disconnected', 'game-over']);
export type BoardState = z.infer<typeof BoardState>;

/** One board of the service: who plays, where the game stands, and its state in one word and one sentence. */
export const BoardSummary = z.object({
  /** the board's identity (its EEPROM id; simulated boards SIM-1, SIM-2 …): stable across ports and restarts */
  id: z.string(),
  /** its number in the room (the PDN Board tag) */
  number: int(),
  description: z.string(),
  source: z.string(),
  state: BoardState,
  /** the state in words (the alert or reminder when there is one) */
  say: z.string(),
  gameId: z.string(),
  tags: z.record(z.string(), z.string()),
  fen: z.string(),
  pieces: z.array(Piece),
  turn: Side,
  plies: int(),
  /** the last move's PDN text, and its squares for the board's highlight */
  last: z.nullable(z.object({ text: z.string(), from: Square, to: Square })),
  result: Result,
  clock: z.nullable(ClockState),
});
export type BoardSummary = z.infer<typeof BoardSummary>;

/** GET /api/boards */
export const BoardList = z.object({ boards: z.array(BoardSummary) });
export type BoardList = z.infer<typeof BoardList>;

/** What the spectators' socket (/watch/ws) sends: every board on connect, then each board as it changes. */
export const WatchMessage = z.discriminatedUnion('type', [
  z.object({ v: z.literal(1), type: z.literal('boards'), boards: z.array(BoardSummary) }),
  z.object({ v: z.literal(1), type: z.literal('board'), board: BoardSummary }),
  z.object({ v: z.literal(1), type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(1), type: z.literal('pong') }),
]);
export type WatchMessage = z.infer<typeof WatchMessage>;
