// The page's clock with ACF time per move: the running move's limit counts
// down between ticks, then "Time" and the grace period left; a side that has
// not moved shows its time as it stands.
import { describe, expect, it } from 'vitest';
import { clockNow, initialState, type ViewState } from '../../src/web/state.ts';
import { clockFace } from '../../src/web/render.ts';
import type { ClockState } from '../../src/protocol/v1.ts';

const withClock = (clock: ClockState, at: number): ViewState => ({ ...initialState(), connection: 'open', clock, clockAt: at });
const perMove = (over: Partial<NonNullable<ClockState['perMove']>> = {}) => ({
  side: 'white' as const,
  limit: 60_000,
  forced: true,
  timeCalled: null,
  graceLeft: 60_000,
  ...over,
});

describe('the per-move clock on the page', () => {
  it('counts the move down, then shows "Time" and the grace left, then stops at zero', () => {
    const s = withClock(
      {
        control: '5 min a move, 1 min for a forced capture',
        black: 300_000,
        white: 30_000,
        running: 'white',
        flagged: null,
        started: true,
        perMove: perMove(),
      },
      1000,
    );
    expect(clockFace(clockNow(s, 6000)!, 'white')).toBe('0:25');
    const at = clockNow(s, 41_000)!;
    expect(at.perMove).toMatchObject({ timeCalled: 'white', graceLeft: 50_000 });
    expect(clockFace(at, 'white')).toBe('Time 0:50');
    expect(clockFace(at, 'black')).toBe('5:00');
    expect(clockFace(clockNow(s, 500_000)!, 'white')).toBe('Time 0.0');
  });

  it('once the service has called time, the grace period counts down; a flag shows 0:00', () => {
    const s = withClock(
      {
        control: '',
        black: 300_000,
        white: 0,
        running: 'white',
        flagged: null,
        started: true,
        perMove: perMove({ timeCalled: 'white', graceLeft: 30_000 }),
      },
      0,
    );
    expect(clockFace(clockNow(s, 10_000)!, 'white')).toBe('Time 0:20');
    const flagged = withClock(
      {
        control: '',
        black: 300_000,
        white: 0,
        running: null,
        flagged: 'white',
        started: true,
        perMove: perMove({ timeCalled: 'white', graceLeft: 0 }),
      },
      0,
    );
    expect(clockFace(clockNow(flagged, 10_000)!, 'white')).toBe('0:00');
  });
});
