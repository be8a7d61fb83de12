// A four-player round robin with ACF ballot pairs, played to the end by
// events (one result per game, one of them corrected by the arbiter), then
// the standings and the crosstable against numbers worked out by hand:
//
//   R1  Ann–Dan 1-0, ½   Bob–Cat ½, ½      (first-named is Black in game 1)
//   R2  Dan–Cat 0-1, 1-0 Ann–Bob ½, 0-1 (the board said 1-0: corrected)
//   R3  Bob–Dan 1-0, ½   Cat–Ann ½, ½
//   Ann 4 (W2 D4 L0), Cat 4 (W2 D4 L0), Bob 3 (W1 D4 L1), Dan 1 (W0 D2 L4)
//   Sonneborn-Berger: Ann 1.5·1 + 1.5·3 + 1·4 = 10; Cat 1·3 + 2·1 + 1·4 = 9;
//   Bob 1·4 + 0.5·4 + 1.5·1 = 7.5; Dan 0.5·4 + 0·4 + 0.5·3 = 3.5.

import { describe, expect, it } from 'vitest';
import type { GameResult, TournamentEvent } from '../../src/tournament/events.ts';
import { gamesOfRound } from '../../src/tournament/games.ts';
import { pairRoundRobin } from '../../src/tournament/pairing.ts';
import { crosstableCsv, crosstableHtml, standings } from '../../src/tournament/standings.ts';
import { roundComplete, type TournamentState } from '../../src/tournament/tournament.ts';
import { addPlayer, apply, create } from './helpers.ts';

/** Results of each round by board: [game 1, game 2] as PDN writes them (1-0: Black won). */
const RESULTS: Record<number, Record<number, [GameResult, GameResult]>> = {
  1: { 1: ['1-0', '1/2-1/2'], 2: ['1/2-1/2', '1/2-1/2'] },
  2: { 1: ['0-1', '1-0'], 2: ['1/2-1/2', '1-0'] },
  3: { 1: ['1-0', '1/2-1/2'], 2: ['1/2-1/2', '1/2-1/2'] },
};

function play(): TournamentState {
  let s = apply(
    null,
    create(),
    addPlayer('Ann', 1),
    addPlayer('Bob', 2, { club: 'Hull, East' }),
    addPlayer('Cat', 3, { rating: 1900 }),
    addPlayer("D'Arcy <Dan>", 4),
  );
  let at = 10_000;
  for (let round = 1; round <= 3; round++) {
    s = apply(s, pairRoundRobin(s, at++, 'arbiter'));
    for (const board of gamesOfRound(s, round))
      for (const g of board.games) {
        const id = `r${round}b${board.board}g${g.game}`;
        const events: TournamentEvent[] = [
          { t: 'start-game', at: at++, by: 'board', round, board: board.board, game: g.game, gameId: id },
          {
            t: 'result',
            at: at++,
            by: 'board',
            round,
            board: board.board,
            game: g.game,
            result: RESULTS[round][board.board][g.game - 1],
            gameId: id,
          },
        ];
        s = apply(s, ...events);
      }
    if (round === 2)
      s = apply(s, {
        t: 'set-result',
        at: at++,
        by: 'arbiter Eve',
        round: 2,
        board: 2,
        game: 2,
        result: '0-1',
        reason: 'White won on time; the board was misread',
      });
    expect(roundComplete(s, round)).toBe(true);
  }
  return s;
}

describe('a four-player round robin with ballot pairs', () => {
  const s = play();

  it('pairs by the Berger table, both sides of one ballot per pairing', () => {
    const names = (round: number) =>
      gamesOfRound(s, round).map((b) => b.games.map((g) => `${g.black.slice(0, 3)}-${g.white.slice(0, 3)}`).join(' '));
    expect([1, 2, 3].map(names)).toEqual([
      ["Ann-D'A D'A-Ann", 'Bob-Cat Cat-Bob'],
      ["D'A-Cat Cat-D'A", 'Ann-Bob Bob-Ann'],
      ["Bob-D'A D'A-Bob", 'Cat-Ann Ann-Cat'],
    ]);
    for (const round of [1, 2, 3]) {
      const ballots = gamesOfRound(s, round).flatMap((b) => b.games.map((g) => g.ballot));
      expect(new Set(ballots).size).toBe(1);
    }
    const all = [1, 2, 3].map((r) => gamesOfRound(s, r)[0].games[0].ballot);
    expect(new Set(all).size).toBe(3);
  });

  it('gives each game the session tags and the ballot start', () => {
    const g = gamesOfRound(s, 2)[1].games[1];
    expect(g.request).toEqual({
      ballot: g.ballot,
      tags: { Event: 'Club Championship', Round: '2', Board: '2', Black: 'Bob', White: 'Ann', Game: '2' },
      tournament: true,
    });
    expect(g.gameId).toBe('r2b2g2');
  });

  it('keeps the board’s result beside the arbiter’s correction', () => {
    const g = s.played[1].pairings[1].games[1];
    expect(g.result).toBe('0-1');
    expect(g.history).toEqual([
      { result: '1-0', at: expect.any(Number), by: 'board', reason: null },
      { result: '0-1', at: expect.any(Number), by: 'arbiter Eve', reason: 'White won on time; the board was misread' },
    ]);
    expect(s.log.filter((e) => e.t === 'result')).toHaveLength(12);
  });

  it('has the standings worked out by hand', () => {
    expect(
      standings(s).map((r) => [r.rank, r.name, r.points, r.won, r.drawn, r.lost, r.tieBreaks.map((t) => `${t.name} ${t.value}`).join()]),
    ).toEqual([
      [1, 'Ann', 4, 2, 4, 0, 'Sonneborn-Berger 10'],
      [2, 'Cat', 4, 2, 4, 0, 'Sonneborn-Berger 9'],
      [3, 'Bob', 3, 1, 4, 1, 'Sonneborn-Berger 7.5'],
      [4, "D'Arcy <Dan>", 1, 0, 2, 4, 'Sonneborn-Berger 3.5'],
    ]);
  });

  it('writes the crosstable as CSV, quoting what RFC 4180 says to', () => {
    expect(crosstableCsv(s).split('\r\n')).toEqual([
      'No,Rank,Name,Club,1,2,3,4,Points,Won,Drawn,Lost,Sonneborn-Berger',
      '1,1,Ann,,x,1,1.5,1.5,4,2,4,0,10',
      '2,2,Cat,,1,x,1,2,4,2,4,0,9',
      '3,3,Bob,"Hull, East",0.5,1,x,1.5,3,1,4,1,7.5',
      "4,4,D'Arcy <Dan>,,0.5,0,0.5,x,1,0,2,4,3.5",
      '',
    ]);
  });

  it('writes the crosstable as an accessible HTML table with the names escaped', () => {
    const html = crosstableHtml(s);
    expect(html).toContain('<caption>Club Championship: crosstable after round 3</caption>');
    expect(html).toContain('<th scope="col">Sonneborn-Berger</th>');
    expect(html).toContain('<tr><td>1</td><td>1</td><th scope="row">Ann</th><td></td><td>x</td><td>1</td><td>1½</td><td>1½</td><td>4</td>');
    expect(html).toContain('<th scope="row">D&#39;Arcy &lt;Dan&gt;</th>');
    expect(html).toContain('<td>7½</td>');
    expect(html).not.toContain('<Dan>');
  });

  it('guards names a spreadsheet would run as formulas', () => {
    const t = apply(s, { t: 'rename-player', at: 1, by: 'arbiter', player: 4, name: '=HYPERLINK("x")' });
    expect(crosstableCsv(t).split('\r\n')[4]).toBe(`4,4,"'=HYPERLINK(""x"")",,0.5,0,0.5,x,1,0,2,4,3.5`);
  });
});
