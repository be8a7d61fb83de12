// A saved game's record with the arbiter's result, for a game no longer at
// its board (a tournament's result corrected after the board moved on): its
// PDN read back, the result token and [Result] set, the Termination said
// again (the arbiter's decision), and the correction closing the record as a
// comment, as a correction of the game at the table is written (view.ts).
// Pure: text in, text out.

import { makePdn, readPdn, resultWinner, type PdnResult } from '../pdn/index.ts';
import type { CorrectionNote } from '../model/game.ts';
import { correctionComment } from './corrections.ts';
import { terminationOf } from './view.ts';

/** The record `text` (its first game) with `result` set by the arbiter's `note`; null when the text holds no readable game. */
export function correctedRecord(text: string, result: PdnResult, note: CorrectionNote): string | null {
  const game = readPdn(text).games[0];
  if (!game) return null;
  const w = resultWinner(result);
  const tags = game.tags.filter(([k]) => k !== 'Termination');
  if (result !== '*') tags.push(['Termination', terminationOf({ winner: w === 'black' || w === 'white' ? w : null, reason: 'arbiter' })]);
  return makePdn({ ...game, tags, result, trailing: [...game.trailing, correctionComment(note)] });
}
