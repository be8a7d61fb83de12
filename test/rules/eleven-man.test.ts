// The eleven-man ballots embedded in src/rules/eleven-man.ts equal the corpus
// file, one for one and in order; each is a legal start with 11 men a side.
import { describe, expect, it } from 'vitest';
import { ELEVEN_MAN_COUNT, elevenManPosition } from '../../src/rules/eleven-man.ts';
import { Game, legalMoves, makeFen, parseFen } from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { unwrap } from '../../src/common/result.ts';

const popcount = (x: number) => {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
};

describe('eleven-man ballots', () => {
  it('the embedded table equals 11_man_english.pdn', () => {
    const fens = corpusFile('11_man_english.pdn')
      .trim()
      .split(/\r?\n/)
      .map((l) => /\[FEN "([^"]+)"\]/.exec(l)![1]);
    expect(fens).toHaveLength(2400);
    expect(ELEVEN_MAN_COUNT).toBe(fens.length);
    fens.forEach((fen, i) => {
      expect(makeFen(elevenManPosition(i + 1)), `ballot ${i + 1}`).toBe(makeFen(unwrap(parseFen(fen))));
    });
  });

  it('every one has 11 men a side, Black to move with a legal move; unknown numbers are refused', () => {
    for (let n = 1; n <= ELEVEN_MAN_COUNT; n++) {
      const p = elevenManPosition(n);
      expect(popcount(p.black)).toBe(11);
      expect(popcount(p.white)).toBe(11);
      expect(p.turn).toBe('black');
      expect(legalMoves(p).length).toBeGreaterThan(0);
    }
    expect(new Game(elevenManPosition(1)).position.turn).toBe('black');
    expect(() => elevenManPosition(0)).toThrow(/no eleven-man ballot 0: they are numbered 1 to 2400/);
    expect(() => elevenManPosition(2401)).toThrow(/no eleven-man ballot 2401/);
  });
});
