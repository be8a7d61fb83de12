import { describe, expect, it } from 'vitest';
import { START, legalMoves, moveText, parseFen, perft, perftDivide, playMove, sameResult } from '../../src/rules/index.ts';
import { unwrap } from '../../src/common/result.ts';

// Aart Bik / OEIS A133046: a multi-jump is one move, a king's duplicate routes count separately.
// Depths 9 and 10 (seconds each) are in the soak tier: perft.soak.test.ts.
const START_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];

describe('perft from the start position', () => {
  START_PERFT.forEach((nodes, k) => {
    it(`depth ${k + 1} = ${nodes}`, () => {
      expect(perft(START, k + 1)).toBe(nodes);
    });
  });

  it('depth 0 is one node; bad depths are refused', () => {
    expect(perft(START, 0)).toBe(1);
    expect(() => perft(START, -1)).toThrow(RangeError);
    expect(() => perft(START, 1.5)).toThrow(/whole number/);
  });

  it('divide at depth 3 splits 302 by first move', () => {
    const legal = legalMoves(START);
    const split = Object.fromEntries(perftDivide(START, 3).map((d) => [moveText(d.move, legal), d.nodes]));
    expect(split).toEqual({ '9-13': 48, '9-14': 40, '10-14': 40, '10-15': 40, '11-15': 40, '11-16': 47, '12-16': 47 });
  });

  it('divide agrees with perft at depth 6', () => {
    const total = perftDivide(START, 6).reduce((n, d) => n + d.nodes, 0);
    expect(total).toBe(36768);
  });
});

describe('hand-checked positions', () => {
  it('a man must complete a multi-jump: 10x17x26', () => {
    const pos = unwrap(parseFen('B:W14,22:B10'));
    const moves = legalMoves(pos);
    expect(moves).toEqual([{ from: 10, to: 26, path: [17, 26], captures: [14, 22], crowned: false }]);
    const after = playMove(pos, moves[0]);
    expect(after.white).toBe(0);
    expect(after.turn).toBe('white');
  });

  it('captures are compulsory: no plain move is legal when a jump exists', () => {
    const pos = unwrap(parseFen('B:W14,30:B10,1'));
    expect(legalMoves(pos).every((m) => m.captures.length > 0)).toBe(true);
    expect(legalMoves(pos, { huffing: true }).some((m) => m.captures.length === 0)).toBe(true);
  });

  it('a king circling back through its start square: two routes, kept apart, same result', () => {
    const pos = unwrap(parseFen('B:W14,15,22,23:BK10'));
    const moves = legalMoves(pos);
    expect(moves.map((m) => [m.from, ...m.path])).toEqual([
      [10, 17, 26, 19, 10],
      [10, 19, 26, 17, 10],
    ]);
    expect(perft(pos, 1)).toBe(2);
    expect(sameResult(moves[0], moves[1])).toBe(true);
    expect(playMove(pos, moves[0])).toEqual(playMove(pos, moves[1]));
    expect(playMove(pos, moves[0]).kings).toBe(1 << 9);
    // Notation must tell the two apart.
    expect(moves.map((m) => moveText(m, moves))).toEqual(['10x17x26x19x10', '10x19x26x17x10']);
  });

  it('a man crowned mid-capture stops there, unless the variant lets it go on', () => {
    const pos = unwrap(parseFen('B:W26,27:B22'));
    expect(legalMoves(pos)).toEqual([{ from: 22, to: 31, path: [31], captures: [26], crowned: true }]);
    expect(legalMoves(pos, { crownContinue: true })).toEqual([{ from: 22, to: 24, path: [31, 24], captures: [26, 27], crowned: true }]);
    const after = playMove(pos, legalMoves(pos)[0]);
    expect(after.kings & (1 << 30)).not.toBe(0);
  });

  it('a man may jump a king, and men only move forward', () => {
    const pos = unwrap(parseFen('W:WK18,23:B14'));
    // White man on 23 moves up only (19 or 18-occupied); king 18 jumps? 14 is black: 18x9 over 14.
    const moves = legalMoves(pos);
    expect(moves.map((m) => [m.from, ...m.path])).toEqual([[18, 9]]);
    const black = unwrap(parseFen('B:WK18:B14'));
    expect(legalMoves(black).map((m) => [m.from, ...m.path])).toEqual([[14, 23]]);
    const backwards = unwrap(parseFen('B:W32:B14'));
    expect(
      legalMoves(backwards)
        .map((m) => m.to)
        .sort(),
    ).toEqual([17, 18]);
  });

  it('a side with no pieces or all blocked has no moves', () => {
    expect(legalMoves(unwrap(parseFen('W:W:B1')))).toEqual([]);
    // White man on 29 blocked by black men on 25 and... 29 moves up to 25 only; 25 black, 22 black so no jump.
    expect(legalMoves(unwrap(parseFen('W:W29:B25,22')))).toEqual([]);
  });

  it('huffing perft counts jumps and plain moves together', () => {
    const pos = unwrap(parseFen('B:W14,30:B10,1'));
    expect(perft(pos, 1, { huffing: true })).toBe(legalMoves(pos, { huffing: true }).length);
    expect(perft(pos, 1)).toBe(1);
  });
});
