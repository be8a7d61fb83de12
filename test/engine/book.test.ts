import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Book, BOOK_FILES, BOOK_PLIES, isLegal, randomBallot, seededRandom, think } from '../../src/engine/index.ts';
import { mulberry32 } from '../../src/common/prng.ts';
import { BALLOTS, START, playMove, shortText, type Position } from '../../src/rules/index.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { CORPUS, corpusFile } from '../harness/corpus.ts';
import { bookFromCorpus } from '../../src/engine-host/book-corpus.ts';

describe('opening book from the corpus', () => {
  const book = bookFromCorpus(CORPUS)!;

  it('is built deterministically from the corpus games and the ballots', () => {
    expect(book).not.toBeNull();
    expect(book.games).toBeGreaterThan(900); // Tinsley's 724 and the others, plus 156 open ballots
    expect(book.size).toBeGreaterThan(5000);
    const again = Book.build(BOOK_FILES.map((f) => readFileSync(join(CORPUS, f), 'utf8')));
    expect(again.size).toBe(book.size);
    expect(again.games).toBe(book.games);
    // Same moves and counts along every line of the first four plies.
    const walk = (pos: Position, plies: number): number => {
      const a = book.lookup(pos),
        b = again.lookup(pos);
      expect(b.map((m) => `${shortText(m.move)}:${m.games}`)).toEqual(a.map((m) => `${shortText(m.move)}:${m.games}`));
      return plies === 0 ? 1 : a.reduce((n, m) => n + walk(playMove(pos, m.move), plies - 1), 1);
    };
    expect(walk(START, 4)).toBeGreaterThan(100);
  });

  it('from the start: the seven moves, most-played first, every book move legal', () => {
    const moves = book.lookup(START);
    expect(moves.map((m) => shortText(m.move)).sort()).toEqual(['10-14', '10-15', '11-15', '11-16', '12-16', '9-13', '9-14']);
    for (let i = 1; i < moves.length; i++) expect(moves[i - 1]!.games).toBeGreaterThanOrEqual(moves[i]!.games);
    expect(shortText(book.choose(START, 'best')!)).toBe(shortText(moves[0]!.move));
    expect(shortText(moves[0]!.move)).toBe('11-15'); // Tinsley's favourite
    // Legal everywhere along the book's lines (three plies deep).
    const check = (pos: Position, plies: number): void => {
      for (const m of book.lookup(pos)) {
        expect(isLegal(pos, m.move)).toBe(true);
        if (plies > 0) check(playMove(pos, m.move), plies - 1);
      }
    };
    check(START, 3);
  });

  it('random mode: a seeded choice among the book moves, weighted by games', () => {
    const viaThink = (seed: number) => shortText(think({ position: START, limits: { book: 'random', seed, depth: 2 } }, { book }).move!);
    expect(viaThink(7)).toBe(viaThink(7));
    const pick = (seed: number) => shortText(book.choose(START, 'random', seededRandom(seed))!);
    const counts = new Map<string, number>();
    for (let seed = 1; seed <= 300; seed++) counts.set(pick(seed), (counts.get(pick(seed)) ?? 0) + 1);
    expect(counts.size).toBeGreaterThanOrEqual(6);
    const byGames = book.lookup(START);
    // The most-played move comes up more often than the least-played.
    expect(counts.get(shortText(byGames[0]!.move))!).toBeGreaterThan(counts.get(shortText(byGames.at(-1)!.move)) ?? 0);
  });

  it('think plays the book move (scored by a short search after it), and searches once out of book', () => {
    const r = think({ position: START, limits: { depth: 10 } }, { book });
    expect(r.book).toBe(true);
    expect(shortText(r.move!)).toBe('11-15');
    expect(r.pv[0]).toBe(r.move);
    expect(Math.abs(r.score)).toBeLessThan(100);
    // Past the book's reach: a real search.
    const deep = think({ position: parseAfter(BOOK_PLIES + 2), limits: { depth: 4 } }, { book });
    expect(deep.book).toBeUndefined();
    expect(deep.depth).toBe(4);
    // A level below 5 plays on its own judgement.
    expect(think({ position: START, limits: { level: 3, seed: 1, depth: 3 } }, { book }).book).toBeUndefined();
  });

  it('moves played only by the losing side are left out', () => {
    const pdn = [
      '[Result "0-1"]\n1. 9-14 22-18 0-1\n', // Black lost: 9-14 is not book, 22-18 is
      '[Result "1/2-1/2"]\n1. 11-15 23-19 1/2-1/2\n',
      '[Result "1-0"]\n1. 11-15 24-19 1-0\n', // White lost: 24-19 is not book
    ].join('\n');
    const small = Book.build([pdn], { ballots: false });
    expect(small.lookup(START).map((m) => `${shortText(m.move)}:${m.games}`)).toEqual(['11-15:2']);
    expect(small.lookup(playMove(START, small.lookup(START)[0]!.move)).map((m) => shortText(m.move))).toEqual(['23-19']);
    expect(small.games).toBe(3);
  });

  it('a random ACF ballot: seeded, never a barred one, and all of them reachable', () => {
    expect(randomBallot(11).ballot).toEqual(randomBallot(11).ballot);
    const seen = new Set<number>();
    for (let seed = 0; seed < 3000; seed++) {
      const { game, ballot } = randomBallot(seed);
      expect(ballot.status).not.toBe('barred');
      expect(game.plies).toHaveLength(3);
      seen.add(ballot.number);
    }
    expect(seen.size).toBe(BALLOTS.filter((b) => b.status !== 'barred').length);
  });

  it("the book's seeded generator is the common one, giving the numbers and ballots it gave as its own copy", () => {
    expect(seededRandom).toBe(mulberry32);
    // Recorded from the engine's former copy of mulberry32 (signed state; the same bits).
    const first3 = (seed: number) => {
      const r = seededRandom(seed);
      return [r(), r(), r()];
    };
    expect(first3(0)).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
    expect(first3(-1)).toEqual([0.8964226141106337, 0.189478256739676, 0.7156526781618595]);
    expect(first3(0xdeadbeef)).toEqual([0.9413696140982211, 0.26719574979506433, 0.772033357527107]);
    expect([1, 2, 3, 42].map((s) => randomBallot(s).ballot.number)).toEqual([110, 128, 126, 105]);
  });
});

/** The position after `plies` plies of Tinsley's first game in the corpus. */
function parseAfter(plies: number): Position {
  const moves = readPdn(corpusFile('tinsley.pdn')).games[0]!.moves.map((n) => n.move);
  return moves.slice(0, plies).reduce((p, m) => playMove(p, m), START);
}
