import { describe, expect, it } from 'vitest';
import { CLEAR_AFTER, CLOCK_RESERVE_MS, keepSearching, phaseWeight, timeBudget, timeForMove } from '../../src/engine/time.ts';
import { think } from '../../src/engine/index.ts';
import { Game } from '../../src/rules/index.ts';

// The time policy as pure functions: time given → budget; iteration state → go on or stop.
describe('time per move: used in full, stopped early only when the move is clear', () => {
  const b = timeBudget({ timeMs: 1000 });
  it('the time per move is both the target and the hard limit', () => expect(b).toEqual({ targetMs: 1000, maxMs: 1000 }));
  it('goes on at half the time (the old policy stopped at 45 %)', () =>
    expect(keepSearching(b, { elapsedMs: 500, sameMove: 3, scoreDrop: 0 })).toBe(true));
  it('goes on at 90 % while the move still changes', () =>
    expect(keepSearching(b, { elapsedMs: 900, sameMove: 1, scoreDrop: 5 })).toBe(true));
  it('stops at the limit', () => expect(keepSearching(b, { elapsedMs: 1000, sameMove: 1, scoreDrop: 0 })).toBe(false));
  it('stops early when the same move with a steady score has come out of many iterations and most of the time is spent', () => {
    expect(keepSearching(b, { elapsedMs: 650, sameMove: CLEAR_AFTER, scoreDrop: 3 })).toBe(false);
    expect(keepSearching(b, { elapsedMs: 650, sameMove: CLEAR_AFTER - 1, scoreDrop: 3 })).toBe(true);
    expect(keepSearching(b, { elapsedMs: 400, sameMove: CLEAR_AFTER, scoreDrop: 3 })).toBe(true);
    expect(keepSearching(b, { elapsedMs: 650, sameMove: CLEAR_AFTER, scoreDrop: 20 })).toBe(true); // not steady
  });
  it('no limit at all (a fixed depth): always on', () =>
    expect(keepSearching(timeBudget({}), { elapsedMs: 1e9, sameMove: 99, scoreDrop: 0 })).toBe(true));
});

describe('with a clock: more in the middlegame, a hard limit, never out of time', () => {
  const clock = { remainingMs: 300_000 };
  it('a slice of the clock, weighted by the phase', () => {
    expect(timeForMove(clock)).toBeCloseTo(10_000);
    expect(timeForMove(clock, 24)).toBeCloseTo(10_000 * phaseWeight(24));
    expect(timeForMove(clock, 16)).toBeGreaterThan(timeForMove(clock, 24));
    expect(timeForMove(clock, 16)).toBeGreaterThan(timeForMove(clock, 6));
  });
  it('the increment counts; never more than a third of what is left', () => {
    expect(timeForMove({ remainingMs: 60_000, incrementMs: 2000 })).toBeCloseTo(3600);
    expect(timeForMove({ remainingMs: 900, incrementMs: 5000 })).toBeLessThanOrEqual(300);
  });
  it('may run past the target while the score falls, up to the hard limit', () => {
    const cb = timeBudget({ clock }, 16);
    expect(cb.maxMs).toBeGreaterThan(cb.targetMs);
    expect(keepSearching(cb, { elapsedMs: cb.targetMs + 1, sameMove: 1, scoreDrop: 0 })).toBe(false);
    expect(keepSearching(cb, { elapsedMs: cb.targetMs + 1, sameMove: 1, scoreDrop: 50 })).toBe(true);
    expect(keepSearching(cb, { elapsedMs: cb.maxMs, sameMove: 1, scoreDrop: 50 })).toBe(false);
  });
  it('the hard limit never reaches into the reserve, down to the last milliseconds of a clock', () => {
    for (const remainingMs of [100_000, 10_000, 1000, 200, CLOCK_RESERVE_MS + 10])
      for (const pieces of [24, 16, 6]) {
        const cb = timeBudget({ clock: { remainingMs, incrementMs: 0 } }, pieces);
        expect(cb.maxMs).toBeLessThanOrEqual(Math.max(1, remainingMs - CLOCK_RESERVE_MS));
        expect(cb.maxMs).toBeLessThanOrEqual(Math.max(1, remainingMs / 3));
        expect(cb.targetMs).toBeLessThanOrEqual(cb.maxMs);
      }
  });
  it('a time per move and a clock: the lesser', () => {
    expect(timeBudget({ timeMs: 100, clock: { remainingMs: 3_600_000 } })).toEqual({ targetMs: 100, maxMs: 100 });
    expect(timeBudget({ timeMs: 60_000, clock: { remainingMs: 3000 } }, 24).maxMs).toBeLessThanOrEqual(1000);
  });
});

describe('the search follows the policy on a fake clock', () => {
  it('at a fixed time per move it uses at least 60 % of it (fake clock: 1 ms a reading)', () => {
    let t = 0;
    const r = think({ position: Game.fromBallot(40).game.position, limits: { timeMs: 300 } }, { now: () => (t += 1) });
    // Readings come once per 1024 nodes and per iteration; the search ran past 60 % of its time.
    expect(t).toBeGreaterThanOrEqual(180);
    expect(t).toBeLessThan(320);
    expect(r.move).not.toBeNull();
  });
});
