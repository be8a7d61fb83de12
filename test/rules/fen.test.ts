import { describe, expect, it } from 'vitest';
import { FenError, START, makeFen, parseFen, parseFenSetup, positionFromSetup, PositionError } from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { unwrap } from '../../src/common/result.ts';

describe('FEN', () => {
  it('reads and writes the example from the standard', () => {
    const fen = 'B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29';
    const pos = unwrap(parseFen(fen));
    expect(makeFen(pos)).toBe(fen);
    expect(pos.turn).toBe('black');
  });

  it('accepts ranges, any order, blanks, lower case and a trailing dot', () => {
    const a = unwrap(parseFen('B:W21-32:B1-12'));
    expect(a).toEqual(START);
    expect(unwrap(parseFen(' b : b12,11,10,9,8,7,6,5,4,3,2,1 : w21-32 . '))).toEqual(START);
    expect(makeFen(unwrap(parseFen('W:WK1-3,20:B5.')))).toBe('W:W20,K1,K2,K3:B5');
    expect(unwrap(parseFen('W::.')).black).toBe(0);
  });

  it('round-trips the standard start', () => {
    expect(makeFen(START)).toBe('B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12');
  });

  const bad: [string, string, RegExp][] = [
    ['', 'syntax', /empty/],
    ['X:W1:B2', 'syntax', /turn must be B or W/],
    ['B:W5', 'syntax', /two piece lists/],
    ['B:W5:W6', 'syntax', /two piece lists for White/],
    ['B:W5:Bx', 'syntax', /"x" is not a square/],
    ['B:W5:B33', 'syntax', /square 33 is off the board/],
    ['B:W9-5:B1', 'syntax', /runs backwards/],
    ['B:W5,,6:B1', 'syntax', /empty entry/],
    ['B:W5:B5', 'two-pieces-on-square', /two pieces on square 5/],
    ['B:W1:B9', 'uncrowned-man', /white man on 1 stands on the row where it is crowned/],
    ['B:W5:B30', 'uncrowned-man', /black man on 30/],
    ['B:W5-17:B1', 'too-many-pieces', /white has 13 pieces/],
  ];
  for (const [fen, code, msg] of bad) {
    it(`rejects "${fen}" as ${code}`, () => {
      try {
        unwrap(parseFen(fen));
        expect.fail('should throw');
      } catch (e) {
        expect(e).toBeInstanceOf(FenError);
        expect((e as FenError).code).toBe(code);
        expect((e as FenError).message).toMatch(msg);
      }
    });
  }

  it('a man on its crowning row can be allowed (problem collections), with a warning', () => {
    const warnings: string[] = [];
    const pos = unwrap(parseFen('B:W1:B9', { allowUncrownedMen: true, warn: (w) => warnings.push(w) }));
    expect(pos.white).toBe(1);
    expect(warnings).toEqual(['white man on 1 stands on the row where it is crowned (1-4); it must be a king']);
  });

  it('validates set-ups built by hand', () => {
    expect(() => positionFromSetup({ turn: 'black', blackMen: [0], blackKings: [], whiteMen: [], whiteKings: [] })).toThrow(PositionError);
    expect(() => positionFromSetup({ turn: 'black', blackMen: [5], blackKings: [5], whiteMen: [], whiteKings: [] })).toThrow(
      /two pieces on square 5/,
    );
  });

  it('parses every FEN of 11_man_english.pdn, each an eleven-man position', () => {
    const fens = [...corpusFile('11_man_english.pdn').matchAll(/\[FEN "([^"]+)"\]/g)].map((m) => m[1]);
    expect(fens.length).toBe(2400);
    for (const fen of fens) {
      const pos = unwrap(parseFen(fen));
      const setup = unwrap(parseFenSetup(fen));
      expect(setup.blackMen.length + setup.blackKings.length).toBe(11);
      expect(setup.whiteMen.length + setup.whiteKings.length).toBe(11);
      expect(unwrap(parseFen(makeFen(pos)))).toEqual(pos);
    }
  });
});
