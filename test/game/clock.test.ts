// Clocks (Fischer increment; moves per period with time carried over) and
// the session's use of them: time running out loses. (The journal's tests are
// in journal.test.ts.)
import { describe, expect, it } from 'vitest';
import {
  GameClock,
  describeTimeControl,
  parseTimeControl,
  parseTimeControlTag,
  timeControlTag,
  TimeControlError,
} from '../../src/game/clock.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { GameSession } from '../../src/game/session.ts';
import { unwrap } from '../../src/common/result.ts';

describe('time controls', () => {
  it('reads Fischer and moves-per-period controls', () => {
    expect(unwrap(parseTimeControl('5m+3s'))).toEqual({ kind: 'fischer', baseMs: 300_000, incrementMs: 3000, text: '5m+3s' });
    expect(unwrap(parseTimeControl('15'))).toMatchObject({ kind: 'fischer', baseMs: 900_000, incrementMs: 0 });
    expect(unwrap(parseTimeControl('40/90m,30m'))).toEqual({
      kind: 'periods',
      periods: [
        { moves: 40, ms: 5_400_000 },
        { moves: undefined, ms: 1_800_000 },
      ],
      text: '40/90m,30m',
    });
  });

  it('rejects bad controls with a message naming the problem', () => {
    expect(() => unwrap(parseTimeControl(''))).toThrow(/empty time control/);
    expect(() => unwrap(parseTimeControl('fast'))).toThrow(/"fast" is not a duration/);
    expect(() => unwrap(parseTimeControl('x/90m'))).toThrow(/"x" is not a number of moves/);
    expect(() => unwrap(parseTimeControl('90m,40/30m,10m'))).toThrow(/only the last period can be without a number of moves/);
    expect(() => unwrap(parseTimeControl('0m'))).toThrow(TimeControlError);
  });

  it('Fischer: the running side loses time, a move adds the increment and switches sides', () => {
    const c = new GameClock(unwrap(parseTimeControl('1m+2s')));
    c.start('black', 0);
    c.moved('black', 10_000);
    expect(c.state(10_000)).toMatchObject({ black: 52_000, white: 60_000, running: 'white' });
    expect(c.state(15_000)).toMatchObject({ white: 55_000 });
    c.pause(15_000);
    expect(c.state(99_000)).toMatchObject({ white: 55_000, running: null });
  });

  it('periods: the next period is added once its moves are made, unused time carried over', () => {
    const c = new GameClock(unwrap(parseTimeControl('2/1m,30s')));
    c.start('black', 0);
    c.moved('black', 10_000); // black: 50 s left
    c.moved('white', 10_000);
    c.moved('black', 20_000); // second move: 40 s left + 30 s
    expect(c.state(20_000).black).toBe(70_000);
  });

  it("the mover's clock for a program thinking for it: time left, increment, moves to the next period (per move: 1)", () => {
    const f = new GameClock(unwrap(parseTimeControl('1m+2s')));
    f.start('black', 0);
    f.moved('black', 10_000);
    expect(f.moverClock('black')).toEqual({ remainingMs: 52_000, incrementMs: 2000 });
    const p = new GameClock(unwrap(parseTimeControl('3/1m,30s')));
    p.start('black', 0);
    p.moved('black', 10_000);
    expect(p.moverClock('black')).toEqual({ remainingMs: 50_000, movesToGo: 2 });
    const last = new GameClock(unwrap(parseTimeControl('10m')));
    expect(last.moverClock('white')).toEqual({ remainingMs: 600_000, incrementMs: 0 });
    const m = new GameClock(unwrap(parseTimeControl('1m/move,20s/forced')));
    m.start('black', 0);
    m.settle(15_000);
    expect(m.moverClock('black')).toEqual({ remainingMs: 45_000, movesToGo: 1 });
    // White's move has not begun: its whole limit.
    expect(m.moverClock('white')).toEqual({ remainingMs: 60_000, movesToGo: 1 });
  });

  it('a flag falls at zero', () => {
    const c = new GameClock(unwrap(parseTimeControl('10s')));
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

describe('ACF time per move', () => {
  it('reads "5m/move,1m/forced" (grace 1 minute unless given) and writes a documented TimeControl tag', () => {
    const c = unwrap(parseTimeControl('5m/move,1m/forced'));
    expect(c).toEqual({ kind: 'per-move', moveMs: 300_000, forcedMs: 60_000, graceMs: 60_000, text: '5m/move,1m/forced' });
    expect(unwrap(parseTimeControl('3m/move, 30s/grace'))).toMatchObject({ moveMs: 180_000, forcedMs: 180_000, graceMs: 30_000 });
    expect(timeControlTag(c)).toBe('300s/move,60s/forced,60s/grace');
    expect(unwrap(parseTimeControlTag('300s/move,60s/forced,60s/grace'))).toMatchObject({
      kind: 'per-move',
      moveMs: 300_000,
      forcedMs: 60_000,
      graceMs: 60_000,
    });
    expect(describeTimeControl(c)).toBe('5 min a move, 1 min for a forced capture');
  });

  it('rejects malformed per-move controls, naming the problem', () => {
    expect(() => unwrap(parseTimeControl('1m/forced'))).toThrow(/needs the time for a move \(like 5m\/move\)/);
    expect(() => unwrap(parseTimeControl('5m/move,2m/foo'))).toThrow(/"2m\/foo" is not a per-move limit/);
    expect(() => unwrap(parseTimeControl('5m/move,5m/move'))).toThrow(/"\/move" is given twice/);
    expect(() => unwrap(parseTimeControl('1m/move,5m/forced'))).toThrow(/forced capture \(5 min\) is longer than for a move \(1 min\)/);
    expect(() => unwrap(parseTimeControl('fast/move'))).toThrow(/the move limit "fast" is not a duration/);
    expect(() => unwrap(parseTimeControl('0s/move'))).toThrow(/must be more than zero/);
  });

  it('each move counts down afresh; the short limit exactly when the mover has one capture', () => {
    const c = new GameClock(unwrap(parseTimeControl('5m/move,1m/forced')));
    c.start('black', 0, false);
    expect(c.state(100_000)).toMatchObject({
      black: 200_000,
      running: 'black',
      perMove: { side: 'black', limit: 300_000, forced: false, timeCalled: null },
    });
    c.moved('black', 100_000, true); // white has exactly one capture: 1 minute
    expect(c.state(130_000)).toMatchObject({ white: 30_000, running: 'white', perMove: { side: 'white', limit: 60_000, forced: true } });
    c.moved('white', 130_000, false); // black again, a fresh 5 minutes (nothing carried over)
    expect(c.state(130_000)).toMatchObject({ black: 300_000, perMove: { limit: 300_000, forced: false } });
    // %clk: what was left of the mover's limit when they moved
    expect(c.remainingOf('white')).toBe(30_000);
  });

  it('"time" is called at the limit and the side loses when the grace period is over', () => {
    const c = new GameClock(unwrap(parseTimeControl('5m/move,1m/forced,1m/grace')));
    c.start('black', 0);
    expect(c.settle(299_999)).toBeNull();
    expect(c.timeCalled).toBeNull();
    expect(c.settle(300_000)).toBeNull();
    expect(c.timeCalled).toBe('black');
    expect(c.state(330_000)).toMatchObject({
      black: 0,
      flagged: null,
      running: 'black',
      perMove: { timeCalled: 'black', graceLeft: 30_000 },
    });
    expect(c.settle(359_999)).toBeNull();
    expect(c.settle(360_000)).toBe('black');
    expect(c.state(400_000)).toMatchObject({ flagged: 'black', running: null, perMove: { graceLeft: 0 } });
  });

  it('a move made within the grace period is in time: the next move starts afresh, "time" no longer called', () => {
    const c = new GameClock(unwrap(parseTimeControl('1m/move')));
    c.start('black', 0);
    c.settle(90_000);
    expect(c.timeCalled).toBe('black');
    c.moved('black', 90_000);
    expect(c.timeCalled).toBeNull();
    expect(c.state(90_000)).toMatchObject({ white: 60_000, running: 'white', flagged: null, perMove: { timeCalled: null } });
  });

  it("pause holds the move's time; resuming goes on from there (not afresh)", () => {
    const c = new GameClock(unwrap(parseTimeControl('5m/move,1m/forced')));
    c.start('black', 0);
    c.moved('black', 10_000, true);
    c.pause(40_000, true);
    expect(c.state(500_000)).toMatchObject({ white: 30_000, running: null });
    c.start('white', 500_000, true);
    expect(c.state(520_000)).toMatchObject({ white: 10_000, running: 'white' });
  });

  it('survives the journal: toJSON / restore keeps the move being timed', () => {
    const c = new GameClock(unwrap(parseTimeControl('5m/move,1m/forced')));
    c.start('black', 0);
    c.moved('black', 10_000, true);
    c.settle(70_000); // time called on white
    const d = JSON.parse(JSON.stringify(c.toJSON()));
    const r = new GameClock(unwrap(parseTimeControl('5m/move,1m/forced')));
    r.restore(d);
    expect(r.timeCalled).toBe('white');
    r.start('white', 1_000_000, true);
    expect(r.settle(1_059_999)).toBeNull();
    expect(r.settle(1_060_000)).toBe('white');
  });
});

describe('the session with time per move', () => {
  it('announces "time" once, then the side loses after the grace period; PDN has TimeControl and the termination reason', () => {
    let now = 1_000_000;
    const events: { type: string; say?: string }[] = [];
    const s = new GameSession({ now: () => now, timeControl: '5m/move,1m/forced' });
    s.newGame({ tags: { Black: 'Ann', White: 'Bob' } });
    s.on((e) => events.push(e));
    s.clockStart();
    now += 299_000;
    s.tick();
    expect(events.filter((e) => e.type === 'time')).toHaveLength(0);
    now += 1000;
    s.tick();
    now += 10_000;
    s.tick();
    const time = events.filter((e) => e.type === 'time');
    expect(time).toEqual([
      expect.objectContaining({ type: 'time', side: 'black', graceMs: 60_000, say: 'Time, Black. Move within a minute or lose on time.' }),
    ]);
    expect(s.game.outcome).toBeNull();
    now += 50_000;
    s.tick();
    expect(s.game.outcome).toEqual({ winner: 'white', reason: 'time' });
    const pdn = s.pdn();
    expect(pdn).toContain('[TimeControl "300s/move,60s/forced,60s/grace"]');
    expect(pdn).toContain('[Termination "Black lost on time (no move within a minute of \\"time\\")"]');
    expect(pdn).toContain('[Result "0-1"]');
  });

  it('uses the short limit exactly when the side to move has one capture', () => {
    let now = 0;
    // White to move, with exactly one capture (22x15 over 18)
    const s = new GameSession({ now: () => now, timeControl: '5m/move,1m/forced' });
    s.newGame({ fen: 'W:W22,30:B18,3' });
    s.clockStart();
    expect(s.snapshot().clock?.perMove).toMatchObject({ side: 'white', forced: true, limit: 60_000 });
    // Two captures possible: the full limit
    s.newGame({ fen: 'W:W22,23:B18,3' });
    s.clockStart();
    expect(s.snapshot().clock?.perMove).toMatchObject({ side: 'white', forced: false, limit: 300_000 });
  });
});

describe('time per move and takebacks', () => {
  it("a move taken back is made again with a fresh limit, on the right side's clock", () => {
    let now = 0;
    const s = new GameSession({ now: () => now, timeControl: '5m/move,1m/forced' });
    s.newGame({ ballot: 5 }); // 9-13 22-18 6-9: White to move
    s.clockStart();
    now += 100_000;
    s.takeback(); // 6-9 taken back: Black to move again
    expect(s.snapshot().clock).toMatchObject({ running: 'black', black: 300_000, perMove: { side: 'black', timeCalled: null } });
    now += 10_000;
    expect(s.snapshot().clock).toMatchObject({ running: 'black', black: 290_000 });
  });
});

describe('time per move across a restart', () => {
  it('the journal restores the control, the move being timed and "time" called; the game goes on from there', () => {
    let now = 0;
    const journal: JournalEntry[] = [];
    const s = new GameSession({ now: () => now, timeControl: '5m/move,1m/forced', journal: (e) => journal.push(e) });
    s.newGame({ fen: 'W:W22,30:B18,1' });
    s.clockStart();
    now += 70_000;
    s.tick(); // time called on White
    s.clockPause();
    const r = new GameSession({ now: () => now });
    r.restore(JSON.parse(JSON.stringify(journal)));
    expect(r.pdn()).toContain('[TimeControl "300s/move,60s/forced,60s/grace"]');
    expect(r.snapshot().clock).toMatchObject({
      running: null,
      perMove: { side: 'white', forced: true, timeCalled: 'white', graceLeft: 50_000 },
    });
    r.clockStart();
    now += 49_000;
    r.tick();
    expect(r.game.outcome).toBeNull();
    now += 1000;
    r.tick();
    expect(r.game.outcome).toEqual({ winner: 'black', reason: 'time' });
  });
});
