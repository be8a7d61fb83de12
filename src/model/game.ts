// The game's vocabulary, as zod/mini schemas with their types inferred: a
// side, a square, a result and how a game ended, the rules options a game is
// played under, a piece on a square, a move of the record, the arbiter's
// corrections and the analysis's marks. The floor every stage names a game
// by (tracking, game, storage, stations, and the page through
// src/protocol/v1.ts); it imports nothing of src/. The rules core keeps its
// own structurally equal types (Color, Outcome, GameOptions: src/rules/);
// test/model/model.test.ts checks they stay interchangeable.

import * as z from 'zod/mini';

const int = () => z.number().check(z.int());
const nonNeg = () => z.number().check(z.gte(0));

export const Side = z.enum(['black', 'white']);
export type Side = z.infer<typeof Side>;
export const Square = z.number().check(z.int(), z.gte(1), z.lte(32));

/** A game's result as PDN writes it (the last four: the 2-point scoring some events use). */
export const Result = z.enum(['1-0', '0-1', '1/2-1/2', '*', '2-0', '0-2', '1-1', '0-0']);
export type Result = z.infer<typeof Result>;

export const EndReason = z.enum(['no-moves', 'resignation', 'agreement', 'time', 'repetition', 'forty-move', 'arbiter']);
export type EndReason = z.infer<typeof EndReason>;
/** How a game ended: the winner (null: a draw) and why. */
export const Outcome = z.object({ winner: z.nullable(Side), reason: EndReason });
export type Outcome = z.infer<typeof Outcome>;

/** The rules variants a game is played under (absent: off), as the journal keeps them. */
export const GameOptions = z.object({
  /** jumping is optional: the opponent may huff a piece that failed to jump */
  huffing: z.optional(z.boolean()),
  /** a man crowned mid-capture goes on jumping as a king */
  crownContinue: z.optional(z.boolean()),
  /** a draw ends the game as soon as it can be claimed */
  autoDraw: z.optional(z.boolean()),
});
export type GameOptions = z.infer<typeof GameOptions>;

export const Piece = z.object({ square: Square, color: Side, king: z.boolean() });
export type Piece = z.infer<typeof Piece>;

/** A move of the game record, derived from the rules game's plies. */
export const MoveRecord = z.object({
  /** index in the game's plies (0-based) */
  ply: int(),
  /** PDN move number */
  number: int(),
  side: Side,
  /** PDN text: "11-15", "15x24", "1x10x19" where routes must be told apart */
  text: z.string(),
  from: Square,
  to: Square,
  /** every square landed on (the last is `to`) */
  path: z.array(Square),
  captures: z.array(Square),
  crowned: z.boolean(),
  /** huffing: the opponent's piece removed before this move */
  huff: z.nullable(Square),
  /** the mover's time left after the move (ms), with a time control */
  clock: z.nullable(nonNeg()),
});
export type MoveRecord = z.infer<typeof MoveRecord>;

/** An arbiter's correction of a game, during or after play (club mode): journalled with who and when; the original stays in the journal. */
export const Correction = z.discriminatedUnion('kind', [
  /** the move at `ply` (0-based) was another: `move` in PDN ("11-15", "15x24"); the later moves are kept if they stay legal */
  z.object({ kind: z.literal('replace-move'), ply: int().check(z.gte(0)), move: z.string().check(z.minLength(3), z.maxLength(40)) }),
  /** the moves from `ply` on were never played */
  z.object({ kind: z.literal('delete-moves'), ply: int().check(z.gte(0)) }),
  /** the result the arbiter decides ("*": the game goes on) */
  z.object({ kind: z.literal('set-result'), result: z.enum(['1-0', '0-1', '1/2-1/2', '*']) }),
  /** a side's time left, ms */
  z.object({ kind: z.literal('adjust-clock'), side: Side, ms: int().check(z.gte(0), z.lte(24 * 3600_000)) }),
]);
export type Correction = z.infer<typeof Correction>;

/** A correction as the game's history shows it: when, who, why, and what changed in words. */
export const CorrectionNote = z.object({ at: z.number(), by: z.string(), reason: z.string(), say: z.string() });
export type CorrectionNote = z.infer<typeof CorrectionNote>;

/** A move the analysis marks: ply index, ? or ??, the better move and a sentence with both scores. */
export const AnalysisMark = z.object({ ply: int(), mark: z.enum(['?', '??']), better: z.string(), comment: z.string() });
export type AnalysisMark = z.infer<typeof AnalysisMark>;
