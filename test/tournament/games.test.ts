// What a board's session gets from the tournament: for each board the games
// in playing order, each with a request the real GameSession starts as it
// is (the ballot's opening on the board, the PDN tags Event/Round/Board and
// the names, game 2 with the sides swapped); go-as-you-please games start
// from the start position with Black to move. The Tournament class is the
// same API with every change journalled first.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameById, gameOfTags, gamesOfRound, nextGameOnBoard, Tournament, tournamentResult } from '../../src/tournament/index.ts';
import { pairRoundRobin } from '../../src/tournament/pairing.ts';
import { GameSession } from '../../src/game/session.ts';
import { gameIds } from '../../src/game/ids.ts';
import type { PdnResult } from '../../src/pdn/index.ts';
import { BALLOTS } from '../../src/rules/ballots.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { addPlayer, apply, create } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'club-games-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('games of a round', () => {
  const players = [addPlayer('Ann'), addPlayer('Bob'), addPlayer('Cat')];

  it('with ballot pairs: the session plays the ballot, then its other side with the names swapped', () => {
    let s = apply(null, create({ name: 'Hull Open' }), ...players);
    s = apply(s, pairRoundRobin(s, 1, 'arbiter'));
    const boards = gamesOfRound(s, 1);
    expect(s.played[0].bye).not.toBeNull();
    expect(boards).toHaveLength(1);
    const [g1, g2] = boards[0].games;
    const ballot = BALLOTS.find((b) => b.number === g1.ballot)!;
    const session = new GameSession({ tags: { Event: 'Casual', Site: 'Hull' } });
    session.newGame(g1.request);
    expect(session.tags).toMatchObject({
      Event: 'Hull Open',
      Site: 'Hull',
      Round: '1',
      Board: '1',
      Game: '1',
      Black: g1.black,
      White: g1.white,
    });
    expect(session.tags.Ballot).toMatch(new RegExp(`^ACF ${ballot.number}\\b`));
    expect(session.ballot).toBe(ballot.number);
    expect(session.snapshot().moves.map((m) => m.text)).toEqual([...ballot.moves]);
    session.newGame(g2.request);
    expect(session.tags).toMatchObject({ Round: '1', Board: '1', Game: '2', Black: g1.white, White: g1.black });
    expect(session.ballot).toBe(ballot.number);
    // And back: the session's tags say which tournament game it is.
    expect(gameOfTags(s, session.tags)).toEqual({ round: 1, board: 1, game: 2 });
    expect(gameOfTags(s, { ...session.tags, Game: '3' })).toBeNull();
    expect(gameOfTags(s, { ...session.tags, Round: '2' })).toBeNull();
    expect(gameOfTags(s, { ...session.tags, Board: '2' })).toBeNull();
    expect(gameOfTags(s, { Event: 'Casual' })).toBeNull();
  });

  it('without ballots: one game from the start position, Black to move', () => {
    let s = apply(null, create({ ballots: 'none' }), ...players, addPlayer('Dan'));
    s = apply(s, pairRoundRobin(s, 1, 'arbiter'));
    const boards = gamesOfRound(s, 1);
    expect(boards.map((b) => b.games.length)).toEqual([1, 1]);
    const g = boards[1].games[0];
    expect(g.request).toEqual({
      firstPlayer: 'black',
      tags: { Event: 'Club Championship', Round: '1', Board: '2', Black: 'Bob', White: 'Cat' },
      tournament: true,
    });
    const session = new GameSession();
    session.newGame(g.request);
    expect(session.game.turn).toBe('black');
    expect(session.snapshot().moves).toEqual([]);
    expect(session.tags.Ballot).toBeUndefined();
  });

  it('takes a session result as PDN writes it, 2-0 style scores included', () => {
    const results: PdnResult[] = ['1-0', '2-0', '0-1', '0-2', '1/2-1/2', '1-1', '0-0', '*'];
    expect(results.map(tournamentResult)).toEqual(['1-0', '1-0', '0-1', '0-1', '1/2-1/2', '1/2-1/2', '1/2-1/2', null]);
  });

  it('the Tournament journals each step and tells a board what it plays next', () => {
    let now = 1000;
    const t = Tournament.create(
      dir,
      { id: 'spring', name: 'Spring', system: 'round-robin', rounds: 3, ballots: 'acf', seed: 3 },
      { now: () => now++ },
    );
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan']) t.addPlayer(name, 'arbiter');
    expect(t.currentRound()).toBe(0);
    expect(t.nextGameOnBoard(1)).toBeNull();
    t.pairNextRound('arbiter');
    expect(t.nextGameOnBoard(1)).toMatchObject({ round: 1, board: 1, game: 1, black: 'Ann', white: 'Dan' });
    t.startGame(1, 1, 1, 'g-1');
    t.recordResult(1, 1, 1, '1-0', 'g-1');
    expect(t.nextGameOnBoard(1)).toMatchObject({ game: 2, black: 'Dan', white: 'Ann', started: false });
    expect(t.nextRoundProblem()).toBe('round 1 is not finished: 3 game(s) have no result');
    expect(() => t.pairNextRound('arbiter')).toThrow('round 1 is not finished: 3 game(s) have no result');
    t.recordResult(1, 1, 2, '1/2-1/2', 'g-2');
    t.recordResult(1, 2, 1, '0-1', 'g-3');
    t.edit({ t: 'set-result', round: 1, board: 1, game: 2, result: '0-1', reason: 'scoresheet says White won' }, 'arbiter Eve');
    expect(() => t.edit({ t: 'set-result', round: 1, board: 1, game: 2, result: '0-1' }, 'arbiter Eve')).toThrow(/reason/);
    expect(() => t.edit({ t: 'create', id: 'x', name: 'X', system: 'swiss', rounds: 1, ballots: 'none', seed: 1 }, 'a')).toThrow(
      'already exists',
    );
    t.recordResult(1, 2, 2, '1-0', 'g-4');
    expect(t.roundComplete()).toBe(true);
    t.pairNextRound('arbiter');
    t.close();
    const again = Tournament.open(t.file, { now: () => now });
    expect(again.state).toEqual(t.state);
    // Equal on points and Sonneborn-Berger: a shared rank, listed by seed.
    expect(again.standings().map((r) => [r.rank, r.name, r.points])).toEqual([
      [1, 'Ann', 2],
      [1, 'Cat', 2],
      [3, 'Bob', 0],
      [3, 'Dan', 0],
    ]);
    expect(again.crosstableCsv()).toContain('\r\n1,1,Ann,,x,');
    expect(again.state.played[0].pairings[0].games[1].history.map((h) => h.by)).toEqual(['board', 'arbiter Eve']);
    expect(nextGameOnBoard(again.state, 3)).toBeNull();
    expect(gameById(again.state, 'g-3')).toEqual({ round: 1, board: 2, game: 1 });
    expect(gameById(again.state, 'g-9')).toBeNull();
    again.close();
  });

  it('a four-player round robin played through game sessions, one per board: every game one PDN with its tags; reopened in round 2 and finished', () => {
    let now = 1_000_000;
    const o = { now: () => now++ };
    let t = Tournament.create(dir, { id: 'boards', name: 'Board Cup', system: 'round-robin', rounds: 3, ballots: 'acf', seed: 9 }, o);
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan']) t.addPlayer(name, 'arbiter');
    // One id generator for every board: each session's own is unique only among its games (see the report to the lead).
    const newGameId = gameIds(0);
    const sessions = new Map(
      [1, 2].map((b) => [b, new GameSession({ now: () => now, tournament: true, tags: { Site: 'Club room' }, newGameId })]),
    );
    const pdns: string[] = [];
    // The players' results, game after game: Black wins, White wins, a draw…
    const ends = ['black', 'white', 'draw'] as const;
    let played = 0;
    for (let round = 1; round <= 3; round++) {
      t.pairNextRound('arbiter');
      for (const board of t.gamesOfRound())
        for (const g of board.games) {
          const session = sessions.get(board.board)!;
          session.newGame(g.request);
          t.startGame(round, board.board, g.game, session.gameId);
          const end = ends[played++ % 3];
          if (end === 'draw') {
            session.offerDraw('black');
            session.acceptDraw('white');
          } else session.resign(end === 'black' ? 'white' : 'black');
          const located = gameById(t.state, session.gameId)!;
          t.recordResult(located.round, located.board, located.game, tournamentResult(session.result)!, session.gameId);
          pdns.push(session.pdn());
          if (round === 2 && board.board === 1 && g.game === 1) {
            // The service restarts here: the tournament is read back from its journal.
            t.close();
            t = Tournament.open(t.file, o);
          }
        }
    }
    expect(pdns).toHaveLength(12);
    for (const [i, pdn] of pdns.entries()) {
      const round = Math.floor(i / 4) + 1;
      expect(pdn).toContain('[Event "Board Cup"]');
      expect(pdn).toContain('[Site "Club room"]');
      expect(pdn).toContain(`[Round "${round}"]`);
      expect(pdn).toMatch(/\[Board "[12]"\]/);
      expect(pdn).toMatch(/\[Game "[12]"\]/);
      expect(pdn).toMatch(/\[Ballot "ACF \d+/);
      expect(pdn).toMatch(/\[Black "(Ann|Bob|Cat|Dan)"\]/);
      expect(pdn).toContain(`[Result "${['1-0', '0-1', '1/2-1/2'][i % 3]}"]`);
    }
    expect(t.roundComplete(3)).toBe(true);
    expect(t.nextRoundProblem()).toBe('all 3 rounds are paired');
    // 12 games: results cycle Black win, White win, draw: 4 of each.
    const table = t.standings();
    expect(table.reduce((k, r) => k + r.points, 0)).toBe(12);
    expect(table.reduce((k, r) => k + r.drawn, 0)).toBe(8);
    t.close();
  });
});

// A tournament's games carried no time control and no tournament rules.
describe('the tournament’s settings in each game', () => {
  const players = [addPlayer('Ann'), addPlayer('Bob'), addPlayer('Cat')];
  it('gives every game the time control and tournament mode, kept when the game is resumed from its journal', () => {
    let s = apply(null, create({ ballots: 'none', timeControl: '5m/move,1m/forced' }), ...players, addPlayer('Dan'));
    s = apply(s, pairRoundRobin(s, 1, 'arbiter'));
    const g = gamesOfRound(s, 1)[0].games[0];
    expect(g.request).toMatchObject({ timeControl: '5m/move,1m/forced', tournament: true });
    const entries: JournalEntry[] = [];
    const session = new GameSession({ journal: (e) => entries.push(e) });
    session.newGame(g.request);
    expect(session.snapshot().options.tournament).toBe(true);
    expect(session.tags.TimeControl).toBe('300s/move,60s/forced,60s/grace');
    const resumed = new GameSession();
    resumed.restore(entries);
    expect(resumed.snapshot().options.tournament).toBe(true);
    // A tournament may leave the rules off: its games are then ordinary ones.
    let casual = apply(null, create({ ballots: 'none', tournamentRules: false }), ...players, addPlayer('Dan'));
    casual = apply(casual, pairRoundRobin(casual, 1, 'arbiter'));
    expect(gamesOfRound(casual, 1)[0].games[0].request).toMatchObject({ tournament: false });
  });
});
