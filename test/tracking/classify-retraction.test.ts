// classify and diagnose on plain counts for the retraction rule: a legal
// result made with another piece than the one moved illegally is its own
// verdict; the diagnosis names the piece and its moves.
import { describe, expect, it } from 'vitest';
import { Game, legalMoves, parseFen } from '../../src/rules/index.ts';
import { countsOf, outcomes, type Counts } from '../../src/tracking/boards.ts';
import { classify, type Situation } from '../../src/tracking/classify.ts';
import { diagnose, otherPieceCorrection, retractSentence } from '../../src/tracking/diagnose.ts';
import { unwrap } from '../../src/common/result.ts';

const pos = unwrap(parseFen('W:W22,23:B18,1'));
const situation = (retract: number | null): Situation => ({
  counts: countsOf(pos),
  outs: outcomes(pos, {}),
  last: null,
  crown: null,
  huffs: [],
  placements: [],
  options: {},
  retract,
});
const board = (changes: Record<number, number>): Counts => {
  const c = countsOf(pos);
  for (const [sq, n] of Object.entries(changes)) c[Number(sq) - 1] = n;
  return c;
};

describe('the retraction rule in classify and diagnose', () => {
  it('22 moved on instead of capturing: the alert names 22 and its capture only', () => {
    const a = diagnose(board({ 22: 0, 17: 1 }), pos, countsOf(pos), legalMoves(pos), 0);
    expect(a.category).toBe('capture-compulsory');
    expect(a.retract).toEqual({ square: 22, moves: ['22x15'], capture: true });
    expect(a.message).not.toContain('23x14');
    expect(retractSentence(a.retract!)).toBe('Put 22 back and capture with it: 22x15.');
  });

  it('a capture with 23 after that is "other-piece"; with 22 it is legal; with no piece named, both are legal', () => {
    const with23 = board({ 23: 0, 18: 0, 14: 1 });
    const with22 = board({ 22: 0, 18: 0, 15: 1 });
    expect(classify([with23], situation(22)).verdict).toMatchObject({ kind: 'other-piece', square: 22 });
    expect(classify([with22], situation(22)).verdict.kind).toBe('legal');
    expect(classify([with23], situation(null)).verdict.kind).toBe('legal');
    // A piece with no legal move left cannot be required.
    expect(classify([with23], situation(30)).verdict.kind).toBe('legal');
  });

  it('the words for a correction with another piece', () => {
    const m = new Game(pos).legalMoves().find((x) => x.from === 23)!;
    expect(otherPieceCorrection({ square: 22, moves: ['22x15'], capture: true }, m)).toBe(
      'The illegal move was made with the piece on 22, so it must be put right with that piece, not the one on 23: capture with it (22x15).',
    );
    expect(otherPieceCorrection({ square: 23, moves: ['23x14'], capture: true }, m)).toBeNull();
  });
});
