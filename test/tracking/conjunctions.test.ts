// Every sentence with a list of squares joins it with the word it means
//: "and" where every one is meant (pieces missing from,
// captured pieces to take off, extra pieces on), "or" where one is to be
// chosen (the moves to make again, the squares a man can go to).
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/tracking/diagnose.ts';
import { countsOf } from '../../src/tracking/boards.ts';
import { START, legalMoves, parseFen } from '../../src/rules/index.ts';
import { unwrap } from '../../src/common/result.ts';

function alert(fen: string | null, edit: (board: number[]) => void) {
  const pos = fen ? unwrap(parseFen(fen)) : START;
  const counts = countsOf(pos);
  const board = Array.from(counts);
  edit(board);
  return diagnose(board, pos, counts, legalMoves(pos), 0);
}

describe('lists of squares in what the board says', () => {
  it('"and" for pieces missing from several squares', () => {
    const a = alert(null, (b) => ((b[8] = 0), (b[9] = 0)));
    expect(a.message).toMatch(/^Pieces are missing from 9 and 10 \(knocked over\?\)\. Put a black man on 9 and put a black man on 10\.$/);
  });

  it('"and" for extra pieces', () => {
    const a = alert(null, (b) => ((b[14] = 1), (b[15] = 1)));
    expect(a.message).toBe('There are extra pieces on 15 and 16. Take the coin off 15 and take the coin off 16.');
  });

  it('"and" for the captured pieces still on the board', () => {
    const a = alert('B:W18,27:B14', (b) => ((b[13] = 0), (b[31] = 1)));
    expect(a.category).toBe('capture-not-removed');
    expect(a.message).toMatch(/^Take the captured pieces off 18 and 27\./);
  });

  it('"or" for the moves to choose from when a piece is put back', () => {
    const a = alert(null, (b) => ((b[8] = 0), (b[16] = 1)));
    expect(a.message).toMatch(/Put 9 back and move it again: 9-13 or 9-14\.$/);
  });
});
