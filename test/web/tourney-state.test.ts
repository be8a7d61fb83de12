// The arbiter's tournament panel without a browser: the next
// step it offers (pair, start, or why neither), the API calls its forms ask
// for (every mistake named before anything is sent), and the HTML as a
// function of the state (names escaped, the token only on the arbiter's links).

import { describe, expect, it } from 'vitest';
import {
  createCall,
  initialTourney,
  nextStep,
  playerCall,
  readTourney,
  reduceTourney,
  resultCall,
  type TourneyData,
} from '../../src/web/tourney-state.ts';
import { renderTourney } from '../../src/web/tourney-render.ts';
import type { TournamentGame } from '../../src/protocol/tournament-v1.ts';

function data(over: Partial<TourneyData> = {}, played: TourneyData['tournament']['played'] = []): TourneyData {
  const players = ['Ann', 'Bo', '<b>Cy</b>', 'Di'].map((name, i) => ({ seed: i + 1, name, rating: null, club: null, withdrawn: false }));
  return {
    tournament: {
      id: 'n',
      name: 'Night',
      system: 'round-robin',
      rounds: 3,
      ballots: 'none',
      timeControl: '5m+3s',
      tournamentRules: true,
      players,
      played,
    },
    round: played.length,
    games: [],
    standings: players.map((p, i) => ({ ...p, rank: i + 1, points: 0, played: 0, won: 0, drawn: 0, lost: 0, byes: 0, tieBreaks: [] })),
    crosstable: { caption: 'Night', head: ['No', 'Name'], rows: [['1', 'Ann']] },
    nextRoundProblem: null,
    boards: [1, 2],
    ...over,
  };
}
const game = (started: boolean, result: TournamentGame['result'] = '*') => ({
  game: 1 as const,
  black: 1,
  white: 2,
  gameId: started ? 'g' : null,
  started,
  result,
  history: [],
});
const round1 = (started: boolean, result: TournamentGame['result'] = '*') => [
  { round: 1, bye: null, pairings: [{ board: 1, black: 1, white: 2, ballot: null, games: [game(started, result)] }] },
];

describe('the tournament panel’s state', () => {
  it('offers to pair, then to start, then says why neither', () => {
    expect(nextStep(data())).toEqual({ kind: 'pair', round: 1, why: '' });
    expect(nextStep(data({ nextRoundProblem: 'round 1 is not finished: 1 game(s) have no result' }, round1(false)))).toMatchObject({
      kind: 'start',
      round: 1,
    });
    const playing = data({ nextRoundProblem: 'round 1 is not finished: 1 game(s) have no result' }, round1(true));
    expect(nextStep(playing)).toEqual({ kind: 'none', round: 1, why: 'round 1 is not finished: 1 game(s) have no result' });
    expect(nextStep(data({}, round1(true, '1-0')))).toEqual({ kind: 'pair', round: 2, why: '' });
  });

  it("reads the server's answer with the protocol's schema: a malformed one is named, never drawn", () => {
    const good = data({}, round1(true, '1-0'));
    const read = readTourney(JSON.parse(JSON.stringify(good)));
    expect(read.ok && read.data.tournament).toEqual(good.tournament);
    const bad = JSON.parse(JSON.stringify(good));
    bad.tournament.played[0].pairings[0].games[0].result = '2-0';
    expect(readTourney(bad)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^tournament\.played\.0\.pairings\.0\.games\.0\.result: /),
    });
    expect(readTourney({ standings: [] })).toMatchObject({ ok: false, problem: expect.stringMatching(/^tournament: /) });
    expect(readTourney('<html>')).toMatchObject({ ok: false });
  });

  it('builds each call from its form, naming what is missing', () => {
    expect(resultCall({ game: '1.2.1', result: '0-1', reason: '' })).toEqual({ ok: false, message: expect.stringMatching(/say why/) });
    expect(resultCall({ game: '', result: '0-1', reason: 'x' })).toEqual({ ok: false, message: 'choose the game' });
    expect(resultCall({ game: '1.2.1', result: '0-1', reason: 'flag fell', by: 'TD' })).toEqual({
      ok: true,
      call: {
        path: '/edit',
        body: { change: { t: 'set-result', round: 1, board: 2, game: 1, result: '0-1', reason: 'flag fell' }, by: 'TD' },
      },
    });
    expect(playerCall({ name: 'Ed', rating: 'high' })).toEqual({ ok: false, message: expect.stringMatching(/rating/) });
    expect(createCall({ name: '', rounds: '3' })).toEqual({ ok: false, message: 'give the tournament a name' });
    const made = createCall({ name: 'Club Night!', rounds: '5', system: 'swiss', ballots: 'none', timeControl: '5m+3s', seed: '' });
    expect(made).toEqual({
      ok: true,
      call: {
        path: '',
        body: {
          settings: {
            id: 'club-night',
            name: 'Club Night!',
            system: 'swiss',
            rounds: 5,
            ballots: 'none',
            seed: 1,
            timeControl: '5m+3s',
            tournamentRules: false,
          },
        },
      },
    });
  });

  it('draws the panel from the state: the create form with none, names escaped, the token on its links', () => {
    expect(renderTourney(reduceTourney(initialTourney(), { type: 'loaded', data: 'none' }), null)).toMatch(/id="tt-create"/);
    const html = renderTourney(reduceTourney(initialTourney(), { type: 'loaded', data: data({}, round1(true, '1-0')) }), 'tok en');
    expect(html).toContain('&lt;b&gt;Cy&lt;/b&gt;');
    expect(html).not.toContain('<b>Cy</b>');
    expect(html).toContain('href="/broadcast/1.pdn?token=tok%20en"');
    expect(html).toContain('href="/api/tournament/crosstable.csv?token=tok%20en"');
    expect(html).toMatch(/Pair round 2/);
    expect(html).toMatch(/clock 5m\+3s · tournament rules/);
  });
});
