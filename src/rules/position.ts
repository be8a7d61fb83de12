// Positions: a Setup (anything a FEN or a person can describe) and its
// validation into a Position the rules engine can trust.

import { BLACK_KING_ROW, WHITE_KING_ROW, popcount, squaresOf, type Bitboard } from './squares.ts';
import { CrownheadError } from '../common/errors.ts';

export type Color = 'black' | 'white';
export const opposite = (c: Color): Color => (c === 'black' ? 'white' : 'black');

/** "Black" / "White", as the side is named in every message. */
export const sideName = (c: Color): string => (c === 'black' ? 'Black' : 'White');

/** A validated position. Bitboards: bit s−1 is square s. */
export interface Position {
  readonly black: Bitboard;
  readonly white: Bitboard;
  readonly kings: Bitboard;
  readonly turn: Color;
}

/** Squares 1–32 with piece lists, as read from FEN or built by hand; not yet validated. */
export interface Setup {
  turn: Color;
  blackMen: number[];
  blackKings: number[];
  whiteMen: number[];
  whiteKings: number[];
}

export type PositionErrorCode = 'bad-square' | 'two-pieces-on-square' | 'uncrowned-man' | 'too-many-pieces';

export class PositionError extends CrownheadError<PositionErrorCode> {
  override readonly name = 'PositionError';
}

export interface SetupOptions {
  /**
   * Accept a man standing on the row where it would be crowned (it can never
   * move; problem collections contain such set-ups). Each one is reported to
   * `warn` instead of being an error.
   */
  readonly allowUncrownedMen?: boolean;
  readonly warn?: (message: string) => void;
}

/** Validates a set-up into a Position, or throws a PositionError naming the first problem. */
export function positionFromSetup(setup: Setup, options: SetupOptions = {}): Position {
  let black = 0,
    white = 0,
    kings = 0;
  const seen = new Map<number, string>();
  const lists: [number[], string, boolean, boolean][] = [
    [setup.blackMen, 'black man', true, false],
    [setup.blackKings, 'black king', true, true],
    [setup.whiteMen, 'white man', false, false],
    [setup.whiteKings, 'white king', false, true],
  ];
  for (const [squares, label, isBlack, isKing] of lists) {
    for (const s of squares) {
      if (!Number.isInteger(s) || s < 1 || s > 32) {
        throw new PositionError('bad-square', `${label} on square ${s}: squares are numbered 1 to 32`);
      }
      const other = seen.get(s);
      if (other) throw new PositionError('two-pieces-on-square', `two pieces on square ${s} (${other} and ${label})`);
      seen.set(s, label);
      const b = 1 << (s - 1);
      if (!isKing && (isBlack ? BLACK_KING_ROW : WHITE_KING_ROW) & b) {
        const message = `${label} on ${s} stands on the row where it is crowned (${isBlack ? '29-32' : '1-4'}); it must be a king`;
        if (!options.allowUncrownedMen) throw new PositionError('uncrowned-man', message);
        options.warn?.(message);
      }
      if (isBlack) black |= b;
      else white |= b;
      if (isKing) kings |= b;
    }
  }
  for (const [bb, name] of [
    [black, 'black'],
    [white, 'white'],
  ] as const) {
    const n = popcount(bb);
    if (n > 12) throw new PositionError('too-many-pieces', `${name} has ${n} pieces; a side has at most 12`);
  }
  return { black, white, kings, turn: setup.turn };
}

export function setupOf(pos: Position): Setup {
  return {
    turn: pos.turn,
    blackMen: squaresOf(pos.black & ~pos.kings),
    blackKings: squaresOf(pos.black & pos.kings),
    whiteMen: squaresOf(pos.white & ~pos.kings),
    whiteKings: squaresOf(pos.white & pos.kings),
  };
}

/** The standard starting position: Black men on 1–12, White men on 21–32. */
export const START: Position = Object.freeze({ black: 0x00000fff, white: 0xfff00000 | 0, kings: 0, turn: 'black' as Color });

export function startPosition(firstPlayer: Color = 'black'): Position {
  return { ...START, turn: firstPlayer };
}

export const samePosition = (a: Position, b: Position): boolean =>
  a.black === b.black && a.white === b.white && a.kings === b.kings && a.turn === b.turn;

/** Same pieces on the same squares, whoever is to move. */
export const sameBoard = (a: Position, b: Position): boolean => a.black === b.black && a.white === b.white && a.kings === b.kings;

export type Piece = 'b' | 'w' | 'B' | 'W';

/** The piece on a square (lower case man, upper case king), or null. */
export function pieceAt(pos: Position, square: number): Piece | null {
  const b = 1 << (square - 1);
  const king = (pos.kings & b) !== 0;
  if (pos.black & b) return king ? 'B' : 'b';
  if (pos.white & b) return king ? 'W' : 'w';
  return null;
}

export function colorAt(pos: Position, square: number): Color | null {
  const b = 1 << (square - 1);
  return pos.black & b ? 'black' : pos.white & b ? 'white' : null;
}

/** A plain-text diagram, White at the bottom, for messages and debugging. */
export function diagram(pos: Position): string {
  const rows: string[] = [];
  for (let r = 0; r < 8; r++) {
    let line = '';
    for (let c = 0; c < 8; c++) {
      if ((r + c) % 2 === 0) line += ' .';
      else line += ' ' + (pieceAt(pos, r * 4 + (c >> 1) + 1) ?? '-');
    }
    rows.push(line);
  }
  return rows.join('\n') + `\n ${pos.turn} to move`;
}
