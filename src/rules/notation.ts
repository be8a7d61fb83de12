// Move notation: reading `11-15`, `15x24`, `1x10x19` against the legal moves
// (invalid text, illegal move and ambiguous move are kept apart, as in
// python-chess), and writing short notation, long only where needed.

import { legalMoves, sameResult, type Move, type RulesOptions } from './movegen.ts';
import { colorAt, sideName, type Position } from './position.ts';
import { CrownheadError } from '../common/errors.ts';
import { err, ok, unwrap, type Result } from '../common/result.ts';

export interface MoveText {
  squares: number[];
  /** Written with `x` (a capture, or `x` misused for a plain move). */
  capture: boolean;
}

/** The move these squares make (its start, then each landing in order), or false when `move` makes others. */
export function makesSquares(move: Move, squares: readonly number[]): boolean {
  return move.from === squares[0] && move.path.length === squares.length - 1 && move.path.every((s, i) => s === squares[i + 1]);
}

/** Of `moves`, the one these squares make (its start, then each landing), if any: how a journal, a station and a page name a move. */
export function findMove(moves: readonly Move[], squares: readonly number[]): Move | undefined {
  return moves.find((m) => makesSquares(m, squares));
}

/** Syntax only: `a-b`, `axb`, `axcx…xb`; an invalid-move MoveError when the text is not a move. */
export function parseMoveText(text: string): Result<MoveText, MoveError> {
  const m = /^(\d{1,2})((?:[-x:]\d{1,2})+)$/i.exec(text.trim());
  if (!m) return err(new MoveError('invalid', text, 'not a move in numeric notation (like 11-15 or 15x24)'));
  const squares = [Number(m[1])];
  const seps = new Set<string>();
  for (const part of m[2].matchAll(/([-x:])(\d{1,2})/gi)) {
    seps.add(part[1].toLowerCase());
    squares.push(Number(part[2]));
  }
  const off = squares.find((s) => s < 1 || s > 32);
  if (off !== undefined) return err(new MoveError('invalid', text, `square ${off} is off the board (1-32)`));
  return ok({ squares, capture: seps.has('x') || seps.has(':') });
}

export type MoveErrorCode = 'invalid' | 'illegal' | 'ambiguous';

export class MoveError extends CrownheadError<MoveErrorCode> {
  override readonly name = 'MoveError';
  constructor(
    code: MoveErrorCode,
    readonly text: string,
    readonly reason: string,
    readonly candidates: readonly Move[] = [],
  ) {
    super(code, `${code === 'invalid' ? 'invalid move' : code === 'illegal' ? 'illegal move' : 'ambiguous move'} ${text}: ${reason}`);
  }
}

function isSubsequence(needle: readonly number[], hay: readonly number[]): boolean {
  let i = 0;
  for (const h of hay) if (i < needle.length && h === needle[i]) i++;
  return i === needle.length;
}

/** Finds the legal move a text names; throws MoveError (invalid / illegal / ambiguous). */
export function resolveMove(pos: Position, text: string, opts: RulesOptions = {}, legal = legalMoves(pos, opts)): Move {
  const { squares } = unwrap(parseMoveText(text));
  const from = squares[0],
    to = squares[squares.length - 1];
  let candidates = legal.filter((m) => m.from === from && m.to === to);
  if (squares.length > 2) {
    const mid = squares.slice(1);
    const exact = candidates.filter((m) => m.path.length === mid.length && m.path.every((p, i) => p === mid[i]));
    candidates = exact.length > 0 ? exact : candidates.filter((m) => isSubsequence(mid, m.path));
  }
  if (candidates.length === 0) throw new MoveError('illegal', text, explainIllegal(pos, from, to, legal));
  const first = candidates[0];
  if (candidates.every((m) => sameResult(m, first))) return first;
  const options = candidates.map((m) => longText(m)).join(', ');
  throw new MoveError('ambiguous', text, `it could be ${options}; write every landing square`, candidates);
}

function explainIllegal(pos: Position, from: number, to: number, legal: Move[]): string {
  const owner = colorAt(pos, from);
  if (owner === null) return `no piece stands on ${from}`;
  if (owner !== pos.turn) return `the piece on ${from} is ${sideName(owner)}'s, and ${sideName(pos.turn)} is to move`;
  if (legal.length === 0) return `${sideName(pos.turn)} has no legal move`;
  const caps = legal.filter((m) => m.captures.length > 0);
  if (caps.length > 0 && !caps.some((m) => m.from === from && m.to === to)) {
    return `a capture is compulsory: ${[...new Set(caps.map((m) => shortText(m)))].join(', ')}`;
  }
  const own = legal.filter((m) => m.from === from);
  if (own.length === 0) return `the piece on ${from} has no legal move`;
  return `the piece on ${from} cannot go to ${to} (it can go to ${[...new Set(own.map((m) => m.to))].join(', ')})`;
}

export const shortText = (m: Move): string => `${m.from}${m.captures.length ? 'x' : '-'}${m.to}`;
export const longText = (m: Move): string => (m.captures.length ? [m.from, ...m.path].join('x') : `${m.from}-${m.to}`);

/** Short notation, or long where another legal move has the same start and end. */
export function moveText(move: Move, legal: readonly Move[]): string {
  const rivals = legal.filter((m) => m.from === move.from && m.to === move.to);
  const needsLong = rivals.some((m) => m.path.length !== move.path.length || m.path.some((p, i) => p !== move.path[i]));
  return needsLong ? longText(move) : shortText(move);
}
