// FEN for English draughts: `B:W18,24,K10:B12,K22` (turn, then each side's
// pieces, K for kings). Reading accepts ranges (`W21-32`, `K1-3`), any order of
// sides and squares, blanks and a trailing `.`; writing gives the canonical form.

import { positionFromSetup, setupOf, PositionError, type Color, type Position, type Setup, type SetupOptions } from './position.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, type Result } from '../common/result.ts';

export type FenErrorCode = 'syntax' | PositionError['code'];

export class FenError extends CrownheadError<FenErrorCode> {
  override readonly name = 'FenError';
  constructor(
    code: FenErrorCode,
    message: string,
    readonly fen: string,
  ) {
    super(code, `bad FEN "${fen}": ${message}`);
  }
}

/** Reads a FEN into an unvalidated Setup (syntax only), or the FenError naming what is wrong. */
export const parseFenSetup = (fen: string): Result<Setup, FenError> => attempt(FenError, () => readFenSetup(fen));

/** Reads and validates a FEN: the position, or the FenError naming the problem. */
export const parseFen = (fen: string, options: SetupOptions = {}): Result<Position, FenError> =>
  attempt(FenError, () => readFen(fen, options));

function readFenSetup(fen: string): Setup {
  const fail = (msg: string): never => {
    throw new FenError('syntax', msg, fen);
  };
  let text = fen.trim();
  if (text.endsWith('.')) text = text.slice(0, -1).trimEnd();
  if (text === '') fail('empty');
  const parts = text.split(':').map((p) => p.trim());
  const turnText = parts[0].toUpperCase();
  if (turnText !== 'B' && turnText !== 'W') fail(`turn must be B or W, not "${parts[0]}"`);
  const setup: Setup = { turn: turnText === 'B' ? 'black' : 'white', blackMen: [], blackKings: [], whiteMen: [], whiteKings: [] };
  if (parts.length !== 3)
    fail(`expected turn and two piece lists separated by ':', found ${parts.length} field${parts.length === 1 ? '' : 's'}`);
  const seenColors = new Set<string>();
  for (const part of parts.slice(1)) {
    if (part === '') continue; // an empty list: that side has no pieces
    const colorText = part.charAt(0).toUpperCase();
    if (colorText !== 'B' && colorText !== 'W') fail(`piece list must start with B or W, not "${part.slice(0, 8)}"`);
    if (seenColors.has(colorText)) fail(`two piece lists for ${colorText === 'B' ? 'Black' : 'White'}`);
    seenColors.add(colorText);
    const men = colorText === 'B' ? setup.blackMen : setup.whiteMen;
    const kings = colorText === 'B' ? setup.blackKings : setup.whiteKings;
    const body = part.slice(1).trim();
    if (body === '') continue;
    for (const raw of body.split(',')) {
      let item = raw.trim();
      if (item === '') fail(`empty entry in "${part}"`);
      let king = false;
      if (item.charAt(0).toUpperCase() === 'K') {
        king = true;
        item = item.slice(1).trim();
      }
      const m = /^(\d{1,2})(?:\s*-\s*(\d{1,2}))?$/.exec(item);
      if (!m) fail(`"${raw.trim()}" is not a square or a range of squares`);
      const lo = Number(m![1]);
      const hi = m![2] === undefined ? lo : Number(m![2]);
      for (const s of [lo, hi]) if (s < 1 || s > 32) fail(`square ${s} is off the board (1-32)`);
      if (hi < lo) fail(`range ${lo}-${hi} runs backwards`);
      for (let s = lo; s <= hi; s++) (king ? kings : men).push(s);
    }
  }
  return setup;
}

function readFen(fen: string, options: SetupOptions): Position {
  const setup = readFenSetup(fen);
  try {
    return positionFromSetup(setup, options);
  } catch (e) {
    if (e instanceof PositionError) throw new FenError(e.code, e.message, fen);
    throw e;
  }
}

const list = (color: 'B' | 'W', men: number[], kings: number[]): string =>
  color + [...men.map(String), ...kings.map((k) => `K${k}`)].join(',');

export function makeFen(pos: Position): string {
  const s = setupOf(pos);
  const turn = (c: Color) => (c === 'black' ? 'B' : 'W');
  return `${turn(s.turn)}:${list('W', s.whiteMen, s.whiteKings)}:${list('B', s.blackMen, s.blackKings)}`;
}
