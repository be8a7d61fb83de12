// The arbiter's edits as events: each accepted one changes exactly what it
// says and stays in the log; each refused one comes back as a TournamentError
// with a code and a sentence naming the problem, the state untouched.

import { describe, expect, it } from 'vitest';
import {
  checkTournamentEvent,
  makeTournamentEvent,
  parseTournamentEvent,
  TournamentError,
  type TournamentEvent,
} from '../../src/tournament/events.ts';
import { pairRoundRobin, pairSwiss } from '../../src/tournament/pairing.ts';
import { applyTournamentEvent, currentRound, replayTournament, type TournamentState } from '../../src/tournament/tournament.ts';
import { addPlayer, apply, create, refusal } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const at = 9000;
const by = 'arbiter Eve';

function fourPlayers(over = {}): TournamentState {
  const s = apply(null, create(over), addPlayer('Ann', 1), addPlayer('Bob', 2), addPlayer('Cat', 3), addPlayer('Dan', 4));
  return apply(s, pairRoundRobin(s, at, by));
}

const result = (round: number, board: number, game: 1 | 2, r: '1-0' | '0-1' | '1/2-1/2'): TournamentEvent => ({
  t: 'result',
  at,
  by: 'board',
  round,
  board,
  game,
  result: r,
  gameId: null,
});

describe('arbiter edits', () => {
  it('a refusal names the problem and leaves the state as it was', () => {
    const s = fourPlayers();
    const before = structuredClone(s);
    const cases: [TournamentEvent, string, string][] = [
      [create(), 'already-created', 'the tournament "Club Championship" already exists'],
      [{ t: 'rename-player', at, by, player: 9, name: 'X' }, 'no-player', 'no player number 9 (there are 4)'],
      [{ t: 'rename-player', at, by, player: 1, name: ' bob ' }, 'duplicate-player', 'player 2 is already named "Bob"'],
      [addPlayer('Eve'), 'round-started', 'a round robin cannot take a new player once round 1 is paired (the tables are fixed)'],
      [result(2, 1, 1, '1-0'), 'no-round', 'round 2 is not paired (1 round(s) so far)'],
      [result(1, 3, 1, '1-0'), 'no-pairing', 'round 1 has no board 3'],
      [{ t: 'swap-boards', at, by, round: 1, a: 1, b: 1 }, 'bad-pairing', 'board 1 cannot be swapped with itself'],
      [
        { t: 'repair-board', at, by, round: 1, pairing: { board: 1, black: 1, white: 2, ballot: 5 } },
        'bad-pairing',
        'round 1: Bob is paired twice',
      ],
      [
        { t: 'repair-board', at, by, round: 1, pairing: { board: 1, black: 1, white: 4, ballot: null } },
        'bad-pairing',
        'board 1: this tournament plays ACF ballot pairs, so each pairing needs a ballot',
      ],
      [
        { t: 'pair-round', at, by, round: 2, pairings: [{ board: 1, black: 1, white: 2, ballot: 1 }], bye: null },
        'round-not-complete',
        'round 1 is not finished: 4 game(s) have no result',
      ],
    ];
    for (const [e, code, message] of cases) {
      const err = refusal(s, e);
      expect([err.code, err.message]).toEqual([code, message]);
    }
    expect(s).toEqual(before);
  });

  it('re-pairs a board, swaps boards and re-pairs the round only until its games start', () => {
    let s = fourPlayers();
    s = apply(s, { t: 'repair-board', at, by, round: 1, pairing: { board: 1, black: 4, white: 1, ballot: 9 }, reason: 'colours swapped' });
    expect(s.played[0].pairings[0].games.map((g) => [g.black, g.white])).toEqual([
      [4, 1],
      [1, 4],
    ]);
    s = apply(s, { t: 'swap-boards', at, by, round: 1, a: 1, b: 2 });
    expect(s.played[0].pairings.map((p) => [p.board, p.black])).toEqual([
      [1, 2],
      [2, 4],
    ]);
    const again = pairRoundRobin(apply(null, ...s.log.slice(0, 5)), at, by);
    s = apply(s, { ...again, replace: true });
    expect(s.played[0].pairings.map((p) => [p.board, p.black, p.white])).toEqual([
      [1, 1, 4],
      [2, 2, 3],
    ]);
    s = apply(s, { t: 'start-game', at, by: 'board', round: 1, board: 2, game: 1, gameId: 'g1' });
    expect(refusal(s, { t: 'swap-boards', at, by, round: 1, a: 1, b: 2 }).message).toBe('round 1 board 2 has started: its board is fixed');
    expect(refusal(s, { ...again, replace: true }).message).toBe('round 1 has started: its pairings are fixed');
    expect(refusal(s, { t: 'repair-board', at, by, round: 1, pairing: { board: 2, black: 3, white: 2, ballot: 1 } }).message).toBe(
      'round 1 board 2 has started: its pairing is fixed',
    );
    // Board 1 has not started: it can still change.
    s = apply(s, { t: 'repair-board', at, by, round: 1, pairing: { board: 1, black: 4, white: 1, ballot: 1 } });
    expect(s.played[0].pairings[0].black).toBe(4);
  });

  it('replaces a result only with a reason, keeping the first; a second report is refused', () => {
    let s = fourPlayers();
    s = apply(s, result(1, 1, 1, '1-0'));
    expect(refusal(s, result(1, 1, 1, '0-1')).message).toBe(
      'round 1 board 1 game 1 already has 1-0: the arbiter replaces a result with a reason',
    );
    expect(() => checkTournamentEvent({ t: 'set-result', at, by, round: 1, board: 1, game: 1, result: '0-1', reason: '' })).toThrow(
      /reason/,
    );
    s = apply(s, { t: 'set-result', at: at + 1, by, round: 1, board: 1, game: 1, result: '*', reason: 'game to be replayed' });
    s = apply(s, { t: 'set-result', at: at + 2, by, round: 1, board: 1, game: 1, result: '1/2-1/2', reason: 'replayed: drawn' });
    const g = s.played[0].pairings[0].games[0];
    expect(g.history.map((h) => [h.result, h.by, h.reason])).toEqual([
      ['1-0', 'board', null],
      ['*', by, 'game to be replayed'],
      ['1/2-1/2', by, 'replayed: drawn'],
    ]);
    expect(g.result).toBe('1/2-1/2');
  });

  it('starts game 2 of a pairing only after game 1, and a finished game only once its result is cleared', () => {
    let s = fourPlayers();
    const start = (game: 1 | 2, gameId: string): TournamentEvent => ({
      t: 'start-game',
      at,
      by: 'board',
      round: 1,
      board: 1,
      game,
      gameId,
    });
    expect(refusal(s, start(2, 'g2')).message).toBe('round 1 board 1 game 1 has no result yet: it is played first');
    s = apply(s, start(1, 'g1'), result(1, 1, 1, '0-1'));
    expect(refusal(s, start(1, 'g1b')).message).toBe(
      'round 1 board 1 game 1 is over (0-1): to play it again the arbiter clears its result first',
    );
    s = apply(
      s,
      start(2, 'g2'),
      { t: 'set-result', at, by, round: 1, board: 1, game: 1, result: '*', reason: 'irregular: replay' },
      start(1, 'g1b'),
    );
    expect(refusal(s, start(1, 'g2')).message).toBe('game id g2 is already round 1 board 1 game 2');
    const taken: TournamentEvent = { t: 'result', at, by: 'board', round: 1, board: 2, game: 1, result: '1-0', gameId: 'g1b' };
    expect(refusal(s, taken).code).toBe('game-id-taken');
    expect(s.played[0].pairings[0].games.map((g) => [g.gameId, g.result])).toEqual([
      ['g1b', '*'],
      ['g2', '*'],
    ]);
  });

  it('withdraws, renames and renames the tournament; the log keeps every event with who and when', () => {
    let s = apply(null, create({ system: 'swiss', ballots: 'none' }), addPlayer('Ann'), addPlayer('Bob'), addPlayer('Cat'));
    s = apply(s, { t: 'rename-tournament', at: 1, by, name: 'Spring Open' });
    s = apply(s, { t: 'rename-player', at: 2, by, player: 3, name: 'Catherine' });
    s = apply(s, { t: 'withdraw-player', at: 3, by, player: 2 });
    expect(refusal(s, { t: 'withdraw-player', at: 4, by, player: 2 }).message).toBe('Bob has already withdrawn');
    expect(s.name).toBe('Spring Open');
    expect(s.players.map((p) => [p.name, p.withdrawn])).toEqual([
      ['Ann', false],
      ['Bob', true],
      ['Catherine', false],
    ]);
    const e = pairSwiss(s, 5, by);
    expect(e.pairings).toHaveLength(1);
    expect(e.bye).toBeNull();
    expect(refusal(s, { ...e, pairings: [{ board: 1, black: 1, white: 2, ballot: null }] }).message).toBe('board 1: Bob has withdrawn');
    expect(s.log.map((x) => [x.t, x.at, x.by])).toEqual([
      ['create', 1000, 'arbiter'],
      ['add-player', 2000, 'arbiter'],
      ['add-player', 2000, 'arbiter'],
      ['add-player', 2000, 'arbiter'],
      ['rename-tournament', 1, by],
      ['rename-player', 2, by],
      ['withdraw-player', 3, by],
    ]);
  });

  it('is refused before the tournament exists, and pairs no round past the last', () => {
    expect(refusal(null, addPlayer('Ann')).code).toBe('no-tournament');
    let s = apply(null, create({ rounds: 1, ballots: 'none' }), addPlayer('Ann'), addPlayer('Bob'));
    s = apply(s, pairRoundRobin(s, 1, by), result(1, 1, 1, '1-0'));
    expect(currentRound(s)).toBe(1);
    expect(() => pairRoundRobin(s, 2, by)).toThrow('all 1 rounds are paired');
  });
});

describe('events on the wire', () => {
  it('serialise and parse back to the same event', () => {
    const s = fourPlayers();
    for (const e of s.log) expect(unwrap(parseTournamentEvent(makeTournamentEvent(e)))).toEqual(e);
  });

  it('a malformed event names the field', () => {
    expect(() => unwrap(parseTournamentEvent('{"t":"result","at":1,"by":"b","round":0}'))).toThrow(/^not a tournament event: round: /);
    expect(() => unwrap(parseTournamentEvent('{"t":"promote"}'))).toThrow(/not a tournament event/);
    expect(() => unwrap(parseTournamentEvent('{oops'))).toThrow('not a tournament event: not JSON');
    expect(() => checkTournamentEvent({ t: 'add-player', at: 1, by: 'a', name: 'Ann\nBob' })).toThrow(/name/);
    expect(applyTournamentEvent(null, { ...create(), id: 'ok' })).not.toBeInstanceOf(TournamentError);
  });
});

describe('the state before an event', () => {
  it('is never changed by any kind of event (changes are copied, the rest shared)', () => {
    let s = apply(null, create({ ballots: 'acf' }), addPlayer('Ann'), addPlayer('Bob'), addPlayer('Cat'), addPlayer('Dan'));
    const events: TournamentEvent[] = [
      pairRoundRobin(s, at, by),
      { t: 'repair-board', at, by, round: 1, pairing: { board: 1, black: 4, white: 1, ballot: 9 } },
      { t: 'swap-boards', at, by, round: 1, a: 1, b: 2 },
      { t: 'start-game', at, by: 'board', round: 1, board: 1, game: 1, gameId: 'g1' },
      result(1, 1, 1, '1-0'),
      { t: 'set-result', at, by, round: 1, board: 1, game: 1, result: '1/2-1/2', reason: 'agreed draw misread' },
      { t: 'start-game', at, by: 'board', round: 1, board: 1, game: 2, gameId: 'g2' },
      result(1, 1, 2, '0-1'),
      { t: 'rename-player', at, by, player: 2, name: 'Robert' },
      { t: 'withdraw-player', at, by, player: 3 },
      { t: 'rename-tournament', at, by, name: 'Renamed' },
    ];
    for (const e of events) {
      const before = structuredClone(s);
      const next = apply(s, e);
      expect(s, e.t).toEqual(before);
      expect(next).not.toEqual(before);
      s = next;
    }
    expect(replayTournament(s.log).state).toEqual(s);
  });
});

describe('replaying', () => {
  it('in place gives the state applying each event gives, and stops at a refusal with the state before it', () => {
    let s = fourPlayers();
    s = apply(s, result(1, 1, 1, '1-0'), { t: 'set-result', at, by, round: 1, board: 1, game: 1, result: '0-1', reason: 'misread' });
    const before = structuredClone(s.log);
    expect(replayTournament(s.log)).toEqual({ state: s, refused: null });
    expect(s.log).toEqual(before);
    const bad: TournamentEvent = { t: 'swap-boards', at, by, round: 1, a: 1, b: 3 };
    const r = replayTournament([...s.log, bad, result(1, 2, 1, '1-0')]);
    expect(r.state).toEqual(s);
    expect([r.refused?.index, r.refused?.error.message]).toEqual([s.log.length, 'round 1 has no board 3']);
    expect(replayTournament([]).state).toBeNull();
  });
});
