// Clocks (Fischer increment; moves per period with time carried over) and
// the session's use of them: time running out loses. (The journal's tests are
// in journal.test.ts.)
import { describe, expect, it } from 'vitest';
import { GameClock, parseTimeControl, TimeControlError } from '../../src/game/clock.ts';
import type { JournalEntry } from '../../src/game/journal.ts';
import { GameSession } from '../../src/game/session.ts';

describe('time controls', () => {
  it('reads Fischer and moves-per-period controls', () => {
    expect(parseTimeControl('5m+3s')).toEqual({ kind: 'fischer', baseMs: 300_000, incrementMs: 3000, text: '5m+3s' });
    expect(parseTimeControl('15')).toMatchObject({ kind: 'fischer', baseMs: 900_000, incrementMs: 0 });
    expect(parseTimeControl('40/90m,30m')).toEqual({ kind: 'periods', periods: [{ moves: 40, ms: 5_400_000 }, { moves: undefined, ms: 1_800_000 }], text: '40/90m,30m' });
  });

  it('rejects bad controls with a message naming the problem', () => {
    expect(() => parseTimeControl('')).toThrow(/empty time control/);
    expect(() => parseTimeControl('fast')).toThrow(/"fast" is not a duration/);
    expect(() => parseTimeControl('x/90m')).toThrow(/"x" is not a number of moves/);
    expect(() => parseTimeControl('90m,40/30m,10m')).toThrow(/only the last period can be without a number of moves/);
    expect(() => parseTimeControl('0m')).toThrow(TimeControlError);
  });

  it('Fischer: the running side loses time, a move adds the increment and switches sides', () => {
    const c = new GameClock(parseTimeControl('1m+2s'));
    c.start('black', 0);
    c.moved('black', 10_000);
    expect(c.state(10_000)).toMatchObject({ black: 52_000, white: 60_000, running: 'white' });
    expect(c.state(15_000)).toMatchObject({ white: 55_000 });
    c.pause(15_000);
    expect(c.state(99_000)).toMatchObject({ white: 55_000, running: null });
  });

  it('periods: the next period is added once its moves are made, unused time carried over', () => {
    const c = new GameClock(parseTimeControl('2/1m,30s'));
    c.start('black', 0);
    c.moved('black', 10_000); // black: 50 s left
    c.moved('white', 10_000);
    c.moved('black', 20_000); // second move: 40 s left + 30 s
    expect(c.state(20_000).black).toBe(70_000);
  });

  it('a flag falls at zero', () => {
    const c = new GameClock(parseTimeControl('10s'));
    c.start('black', 0);
    expect(c.settle(11_000)).toBe('black');
    expect(c.state(11_000)).toMatchObject({ black: 0, flagged: 'black', running: null });
  });
});

describe('the session with a clock', () => {
  it('a player whose time runs out loses, and the record says so', () => {
    let now = 1_000_000;
    const journal: JournalEntry[] = [];
    const s = new GameSession({ now: () => now, timeControl: '1m', journal: (e) => journal.push(e) });
    s.newGame();
    s.clockStart();
    now += 61_000;
    s.tick();
    expect(s.game.outcome).toEqual({ winner: 'white', reason: 'time' });
    expect(s.result).toBe('0-1');
    expect(s.pdn()).toContain('[Result "0-1"]');
    expect(journal.at(-1)).toMatchObject({ k: 'result', result: '0-1' });
  });
});
