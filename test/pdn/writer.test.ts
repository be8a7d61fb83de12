import { describe, expect, it } from 'vitest';
import { makePdn, makePdnTags, pdnFromGame, readOnePdn, gameFromPdn, resultOf } from '../../src/pdn/index.ts';
import { Game, parseFen } from '../../src/rules/index.ts';
import { unwrap } from '../../src/common/result.ts';

describe('PDN writer', () => {
  it('writes tags in the usual order, then GameType, then SetUp/FEN, then the rest', () => {
    const g = readOnePdn(
      '[Clock "5m"]\n[White "W"]\n[Round "3"]\n[Black "B"]\n[Event "E"]\n[Site "S"]\n[Date "2026.11.22"]\n[FEN "W:W21-32:B1-12"]\n*',
    );
    expect(makePdnTags(g).map(([k]) => k)).toEqual([
      'Event',
      'Site',
      'Date',
      'Round',
      'Black',
      'White',
      'Result',
      'GameType',
      'SetUp',
      'FEN',
      'Clock',
    ]);
    expect(makePdn(g)).toMatch(/^\[Event "E"\]\n\[Site "S"\]/);
  });

  it('short notation, long only where two routes share start and end', () => {
    const king = readOnePdn('[FEN "B:W14,15,22,23:BK10"]\n1. 10x19x26x17x10 *');
    expect(makePdn(king)).toContain('1. 10x19x26x17x10 *');
    expect(readOnePdn(makePdn(king)).moves[0].move.path).toEqual([19, 26, 17, 10]);
    const plain = readOnePdn('[FEN "B:W14,22:B10,1"]\n1. 10x17x26 *');
    expect(makePdn(plain)).toContain('1. 10x26 *');
  });

  it('keeps every line under 80 columns, long comments included, and folds comment white space', () => {
    const words = Array.from({ length: 60 }, (_, k) => `word${k}`).join('  \n ');
    const g = readOnePdn(`1. 11-15 {${words}} 23-18 *`);
    const out = makePdn(g);
    for (const line of out.split('\n')) expect(line.length).toBeLessThan(80);
    expect(readOnePdn(out).moves[0].after).toEqual([words.replace(/\s+/g, ' ')]);
  });

  it('escapes quotes in tags and braces in comments', () => {
    const g = gameFromPdn(readOnePdn('1. 11-15 *'));
    const pdn = pdnFromGame(g, { tags: [['Event', 'The "big" one \\ 2']], comments: new Map([[0, ['a } b']]]) });
    const out = makePdn(pdn);
    expect(out).toContain('[Event "The \\"big\\" one \\\\ 2"]');
    const back = readOnePdn(out);
    expect(back.tags).toEqual([['Event', 'The "big" one \\ 2']]);
    expect(back.moves[0].after).toEqual(['a ) b']);
  });

  it('records a played game, results from outcomes, and reads it back the same', () => {
    const g = Game.standard();
    for (const m of '11-15 23-18 8-11 27-23 4-8 23-19 10x14 19x10 14x23 26x19'.split(' ')) g.playText(m);
    g.resign('white');
    const pdn = pdnFromGame(g, {
      tags: [
        ['Event', 'Test'],
        ['Black', 'A'],
        ['White', 'B'],
      ],
    });
    expect(pdn.result).toBe('1-0');
    const out = makePdn(pdn);
    expect(out).toBe(
      '[Event "Test"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n[GameType "21"]\n' +
        '1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10-14 19x10 5. 14x23 26x19 1-0\n',
    );
    const back = gameFromPdn(readOnePdn(out));
    expect(back.plies.map((p) => p.move)).toEqual(g.plies.map((p) => p.move));
    expect(resultOf({ winner: null, reason: 'agreement' })).toBe('1/2-1/2');
    expect(resultOf({ winner: 'white', reason: 'time' })).toBe('0-1');
    expect(resultOf(null)).toBe('*');
  });

  it('a crown-continue game keeps its variant through a round trip', () => {
    const g = new Game(unwrap(parseFen('B:W26,27,5:B22')), { crownContinue: true });
    g.playText('22x24');
    const out = makePdn(pdnFromGame(g));
    expect(out).toContain('[Variant "crown-continue"]');
    expect(gameFromPdn(readOnePdn(out)).plies[0].move.captures).toEqual([26, 27]);
  });
});
