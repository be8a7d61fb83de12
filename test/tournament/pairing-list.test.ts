// Pairing lists read from CSV: `round,board,white,black[,ballot]` with a
// header, players by name or seed number, quoted fields as RFC 4180 writes
// them, "bye" for a bye; every error names the line and the problem.

import { describe, expect, it } from 'vitest';
import { TournamentError } from '../../src/tournament/events.ts';
import { pairFromList, csvRows, parsePairingList } from '../../src/tournament/pairing.ts';
import { addPlayer, apply, create } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const s = apply(
  null,
  create({ system: 'list', rounds: 2 }),
  addPlayer('Ann Smith', 1),
  addPlayer('Bob', 2),
  addPlayer('Cat, Jr.', 3),
  addPlayer('Dan "Ace" Lee', 4),
  addPlayer('Eve', 5),
);

function problem(text: string): string {
  try {
    unwrap(parsePairingList(s, text));
  } catch (e) {
    expect(e).toBeInstanceOf(TournamentError);
    expect((e as TournamentError).code).toBe('bad-pairing-list');
    return (e as Error).message;
  }
  throw new Error('the list was accepted');
}

describe('CSV', () => {
  it('reads quoted fields, doubled quotes, line breaks inside quotes, CRLF and a BOM', () => {
    expect(csvRows('\uFEFFa,"b,c"\r\n"say ""hi""","two\nlines"\n\nlast,')).toEqual([
      { line: 1, fields: ['a', 'b,c'] },
      { line: 2, fields: ['say "hi"', 'two\nlines'] },
      { line: 5, fields: ['last', ''] },
    ]);
  });
});

describe('a pairing list', () => {
  it('reads players by name (any case) or seed number, ballots and a bye, round by round', () => {
    const list = unwrap(
      parsePairingList(
        s,
        [
          'Round,Board,White,Black,Ballot',
          '1,1,ann smith,2,ACF 12',
          '1,2,"Cat, Jr.","Dan ""Ace"" Lee",12',
          '1,,Eve,bye,',
          '2,1,5,1,',
          '2,2,3,2,',
          '2,3,bye,4,',
        ].join('\r\n'),
      ),
    );
    expect(list).toEqual([
      {
        round: 1,
        pairings: [
          { board: 1, black: 2, white: 1, ballot: 12 },
          { board: 2, black: 4, white: 3, ballot: 12 },
        ],
        bye: 5,
      },
      {
        round: 2,
        pairings: [
          { board: 1, black: 1, white: 5, ballot: null },
          { board: 2, black: 2, white: 3, ballot: null },
        ],
        bye: 4,
      },
    ]);
    // Round 1 as listed; round 2's empty ballots take the drawn ballot (not 12, played in round 1).
    let t = apply(s, pairFromList(s, list, 1, 'arbiter'));
    expect(t.played[0].pairings.map((p) => p.ballot)).toEqual([12, 12]);
    for (const p of t.played[0].pairings)
      for (const g of p.games)
        t = apply(t, { t: 'result', at: 2, by: 'b', round: 1, board: p.board, game: g.game, result: '1-0', gameId: null });
    const e = pairFromList(t, list, 3, 'arbiter');
    expect(e.pairings.map((p) => p.ballot)).toEqual([e.pairings[0].ballot, e.pairings[0].ballot]);
    expect(e.pairings[0].ballot).not.toBe(12);
  });

  it('names the line and the problem', () => {
    const head = 'round,board,white,black\n';
    expect(problem('')).toBe('the pairing list is empty');
    expect(problem('round,board,white\n1,1,Bob\n')).toBe('line 1: the header needs a "black" column (round,board,white,black[,ballot])');
    expect(problem('round,board,white,black,colour\n')).toBe('line 1: unknown column "colour"');
    expect(problem(`${head}1,1,Ann Smith,Bob\n1,2,Zed,Eve\n`)).toBe('line 3: no player named "Zed"');
    expect(problem(`${head}1,1,Ann Smith,9\n`)).toBe('line 2: no player number 9 (there are 5)');
    expect(problem(`${head}1,1,Ann Smith,Bob\n1,1,Eve,4\n`)).toBe('line 3: round 1 board 1 is listed twice');
    expect(problem(`${head}1,1,Ann Smith,Bob\n1,2,Eve,ann smith\n`)).toBe('line 3: Ann Smith is listed twice in round 1');
    expect(problem(`${head}one,1,Ann Smith,Bob\n`)).toBe('line 2: round "one" is not a positive whole number');
    expect(problem(`${head}1,1,Ann Smith\n`)).toBe('line 2: 3 fields where the header has 4');
    expect(problem(`${head}1,1,"Ann Smith,Bob\n`)).toBe('line 2: a quoted field is not closed');
    expect(problem(`${head}1,1,"Ann" Smith,Bob\n`)).toBe('line 2: text after a closing quote (write a quote inside a field as "")');
    expect(problem(`${head}1,1,,Bob\n`)).toBe('line 2: a player is missing');
    expect(problem(`${head}1,1,bye,bye\n`)).toBe('line 2: a pairing of two byes');
    expect(problem(`${head}1,1,Eve,bye\n1,2,bye,Bob\n`)).toBe('line 3: round 1 already has a bye (Eve)');
    expect(problem('round,board,white,black,ballot\n1,1,Eve,Bob,175\n')).toBe('line 2: no ACF ballot 175 (they are numbered 1 to 174)');
  });

  it('a list without the next round says so', () => {
    const list = unwrap(parsePairingList(s, 'round,board,white,black\n2,1,Eve,Bob\n'));
    expect(() => pairFromList(s, list, 1, 'arbiter')).toThrow('the pairing list has no round 1');
  });
});
