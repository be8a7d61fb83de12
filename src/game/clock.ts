// Game clocks: Fischer increment ("5m+3s") or moves-per-period with time
// carried over ("40/90m,30m": 40 moves in 90 minutes, then 30 minutes for the
// rest; periods may repeat: "40/90m,20/30m"). Clocks start with the first
// move (or an explicit start), not with the set-up. Or the ACF's time per
// move ("5m/move,1m/forced"): each move counts down afresh, the short limit
// when the mover has exactly one legal capture; at the limit "time" is called
// and a player who still has not moved when the grace period ("…,1m/grace",
// 1 minute by default) is over loses. The standard PGN/PDN
// TimeControl tag value ("300+3", "40/5400:1800") is written and read here
// too. Pure: the time is passed in.

import type { ClockState as ClockStateV1, SavedClock } from '../model/clock.ts';
import type { Clock } from '../engine/port.ts';
import type { Color } from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, unwrap, type Result } from '../common/result.ts';

/** A time control that cannot be read; the message says what is wrong. */
export class TimeControlError extends CrownheadError<'bad-time-control'> {
  override readonly name = 'TimeControlError';
  constructor(message: string) {
    super('bad-time-control', message);
  }
}

export interface Period {
  /** moves in this period (undefined: the rest of the game) */
  moves?: number;
  ms: number;
}

export type TimeControl =
  | { kind: 'fischer'; baseMs: number; incrementMs: number; text: string }
  | { kind: 'periods'; periods: Period[]; text: string }
  /** ACF time per move: `moveMs` a move, `forcedMs` when exactly one capture is possible, lost `graceMs` after "time" is called */
  | { kind: 'per-move'; moveMs: number; forcedMs: number; graceMs: number; text: string };

/** The ACF's grace period after "time" is called. */
export const DEFAULT_GRACE_MS = 60_000;

const PER_MOVE = /\/\s*(move|forced|grace)\s*$/i;

/** Reads "5m/move,1m/forced[,1m/grace]" (parts in any order; "/move" required). */
function parsePerMove(t: string): TimeControl {
  const got: Partial<Record<'move' | 'forced' | 'grace', number>> = {};
  for (const raw of t.split(',')) {
    const part = raw.trim();
    const m = PER_MOVE.exec(part);
    if (!m) throw new TimeControlError(`"${part}" is not a per-move limit: write it as 5m/move, 1m/forced or 1m/grace`);
    const what = m[1].toLowerCase() as 'move' | 'forced' | 'grace';
    if (got[what] !== undefined) throw new TimeControlError(`"/${what}" is given twice`);
    const ms = duration(part.slice(0, m.index), `the ${what} limit`);
    if (ms <= 0 && what !== 'grace') throw new TimeControlError(`the ${what} limit must be more than zero ("${part}")`);
    got[what] = ms;
  }
  if (got.move === undefined) throw new TimeControlError(`a per-move control needs the time for a move (like 5m/move)`);
  const forcedMs = got.forced ?? got.move;
  if (forcedMs > got.move)
    throw new TimeControlError(`the limit for a forced capture (${human(forcedMs)}) is longer than for a move (${human(got.move)})`);
  return { kind: 'per-move', moveMs: got.move, forcedMs, graceMs: got.grace ?? DEFAULT_GRACE_MS, text: t };
}

const DURATION = /^(\d+(?:\.\d+)?)(h|m|s|ms)?$/;

function duration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new TimeControlError(`${what} "${text}" is not a duration (like 90m, 30s, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? 'm';
  return Math.round(n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1));
}

/** Reads "5m+3s", "15m", "40/90m,30m", "5m/move,1m/forced": the control, or the TimeControlError naming what is wrong. */
export const parseTimeControl = (text: string): Result<TimeControl, TimeControlError> =>
  attempt(TimeControlError, () => readTimeControl(text));

function readTimeControl(text: string): TimeControl {
  const t = text.trim();
  if (!t) throw new TimeControlError('empty time control');
  if (/\/\s*(move|forced|grace)\b/i.test(t)) return parsePerMove(t);
  if (t.includes('/') || t.includes(',')) {
    const periods = t.split(',').map((part, k, all) => {
      const [movesText, time] = part.includes('/') ? part.split('/') : [undefined, part];
      let moves: number | undefined;
      if (movesText !== undefined) {
        if (!/^\d+$/.test(movesText.trim()) || Number(movesText) < 1) throw new TimeControlError(`"${movesText}" is not a number of moves`);
        moves = Number(movesText);
      } else if (k !== all.length - 1) throw new TimeControlError(`only the last period can be without a number of moves ("${part}")`);
      const ms = duration(time, 'period');
      if (ms <= 0) throw new TimeControlError(`a period must have time ("${part}")`);
      return { moves, ms };
    });
    return { kind: 'periods', periods, text: t };
  }
  const [base, inc] = t.split('+');
  const baseMs = duration(base, 'base time');
  if (baseMs <= 0) throw new TimeControlError('the base time must be more than zero');
  const incrementMs =
    inc === undefined ? 0 : duration(inc.endsWith('s') || inc.endsWith('m') || inc.endsWith('h') ? inc : inc + 's', 'increment');
  return { kind: 'fischer', baseMs, incrementMs, text: t };
}

export type ClockState = ClockStateV1;

const secs = (ms: number): string => String(Math.round(ms / 1000));

/**
 * The standard TimeControl tag value: "300+3" (seconds + increment), "40/5400:1800" (moves/seconds, then the rest).
 * PGN has no form for time per move; it is written "300s/move,60s/forced,60s/grace" (the service's own notation, in seconds).
 */
export function timeControlTag(c: TimeControl): string {
  if (c.kind === 'per-move') return `${secs(c.moveMs)}s/move,${secs(c.forcedMs)}s/forced,${secs(c.graceMs)}s/grace`;
  if (c.kind === 'fischer') return c.incrementMs ? `${secs(c.baseMs)}+${secs(c.incrementMs)}` : secs(c.baseMs);
  return c.periods.map((p) => (p.moves !== undefined ? `${p.moves}/${secs(p.ms)}` : secs(p.ms))).join(':');
}

const human = (ms: number): string => {
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};

/** The time control in words: "5 min + 3 s", "40 moves in 90 min, then 30 min", "5 min a move, 1 min for a forced capture". */
export function describeTimeControl(c: TimeControl): string {
  if (c.kind === 'per-move')
    return `${human(c.moveMs)} a move${c.forcedMs !== c.moveMs ? `, ${human(c.forcedMs)} for a forced capture` : ''}`;
  if (c.kind === 'fischer') return c.incrementMs ? `${human(c.baseMs)} + ${human(c.incrementMs)}` : human(c.baseMs);
  return c.periods
    .map((p, i) => (p.moves !== undefined ? `${p.moves} moves in ${human(p.ms)}` : `${i ? 'then ' : ''}${human(p.ms)}`))
    .join(', ')
    .replace(/, (\d)/g, ', then $1');
}

/** A game's time control: its TimeControl tag (older records, or a tag not read: the service's option `fallback`). */
export function gameTimeControl(tag: string | undefined, fallback: string | undefined): TimeControl | null {
  const service = () => (fallback ? unwrap(parseTimeControl(fallback)) : null);
  if (tag === undefined) return service();
  const read = parseTimeControlTag(tag);
  return read.ok ? read.value : service();
}

/**
 * Reads a TimeControl tag ("300+3", "900", "40/5400:1800"); also the
 * service's own form ("5m+3s"). Null for "-" / "?" / "" (no clock).
 */
export const parseTimeControlTag = (text: string): Result<TimeControl | null, TimeControlError> =>
  attempt(TimeControlError, () => readTimeControlTag(text));

function readTimeControlTag(text: string): TimeControl | null {
  const t = text.trim();
  if (t === '' || t === '-' || t === '?') return null;
  if (/^\d+(\+\d+)?$/.test(t)) {
    const [base, inc] = t.split('+').map(Number);
    if (base <= 0) throw new TimeControlError('the base time must be more than zero');
    return { kind: 'fischer', baseMs: base * 1000, incrementMs: (inc ?? 0) * 1000, text: t };
  }
  if (/^(\d+\/\d+:)*(\d+\/\d+|\d+)$/.test(t)) {
    const periods = t.split(':').map((part) => {
      const [a, b] = part.split('/');
      return b === undefined ? { ms: Number(a) * 1000 } : { moves: Number(a), ms: Number(b) * 1000 };
    });
    if (periods.some((p) => p.ms <= 0 || (p.moves !== undefined && p.moves < 1)))
      throw new TimeControlError(`"${t}" has a period with no time or no moves`);
    return { kind: 'periods', periods, text: t };
  }
  return readTimeControl(t);
}

export class GameClock {
  private remaining: Record<Color, number>;
  private movesMade: Record<Color, number> = { black: 0, white: 0 };
  private period: Record<Color, number> = { black: 0, white: 0 };
  /** move count at which the next period's time is added */
  private nextAt: Record<Color, number>;
  private running: Color | null = null;
  private since = 0;
  private flagged: Color | null = null;
  /** the clocks have run (the first move was made, or a player started them) */
  private started = false;
  /** a player paused the clocks: moves do not restart them */
  private held = false;
  /** Per move: whose move the time is counting for (null: none begun), whether it is the short limit, and whether "time" was called. */
  private current: Color | null = null;
  private forced = false;
  private called: Color | null = null;

  constructor(readonly control: TimeControl) {
    const start = control.kind === 'fischer' ? control.baseMs : control.kind === 'per-move' ? control.moveMs : control.periods[0].ms;
    this.remaining = { black: start, white: start };
    const first = control.kind === 'periods' ? (control.periods[0].moves ?? Infinity) : Infinity;
    this.nextAt = { black: first, white: first };
  }

  /** Per move: `side`'s move begins, with the full limit (the short one when `forced`). */
  private begin(side: Color, forced: boolean): void {
    const c = this.control;
    if (c.kind !== 'per-move') return;
    this.current = side;
    this.forced = forced;
    this.called = null;
    this.remaining[side] = forced ? c.forcedMs : c.moveMs;
  }

  /**
   * Starts (or resumes) the clock of `side` at time `now`. Per move: a move
   * not yet begun begins afresh (`forced`: its mover has exactly one legal
   * capture); a paused one goes on where it stopped.
   */
  start(side: Color, now: number, forced = false): void {
    if (this.flagged) return;
    this.settle(now);
    if (this.current !== side) this.begin(side, forced);
    this.running = side;
    this.since = now;
    this.started = true;
    this.held = false;
  }

  /** Stops both clocks; `byPlayer`: they stay stopped through moves until started again. */
  pause(now: number, byPlayer = false): void {
    this.settle(now);
    this.running = null;
    if (byPlayer) this.held = true;
  }

  /** Whose clock is running (null: stopped). */
  get runningSide(): Color | null {
    return this.running;
  }

  /** The mover's time left (ms), as the clock reads after `settle` (per move: left of this move's limit, 0 once time is called). */
  remainingOf(side: Color): number {
    return Math.max(0, this.remaining[side]);
  }

  /**
   * `side`'s clock as a program thinking for it needs it: time left, the
   * increment, and the moves until more time comes (per move: 1, the whole
   * limit is for this move).
   */
  moverClock(side: Color): Clock {
    const c = this.control,
      remainingMs = this.remainingOf(side);
    if (c.kind === 'fischer') return { remainingMs, incrementMs: c.incrementMs };
    if (c.kind === 'per-move') return { remainingMs: this.current === side ? remainingMs : c.moveMs, movesToGo: 1 };
    const togo = this.nextAt[side] - this.movesMade[side];
    return Number.isFinite(togo) ? { remainingMs, movesToGo: togo } : { remainingMs };
  }

  /** Per move: the side "time" has been called on (its limit reached, the grace period running), if any. */
  get timeCalled(): Color | null {
    return this.called;
  }

  /**
   * A move was committed by `side` at `now`: add increment / period time,
   * switch to the other side. Per move: the other side's move begins afresh
   * (`nextForced`: it has exactly one legal capture).
   */
  moved(side: Color, now: number, nextForced = false): void {
    if (this.flagged) return;
    this.settle(now);
    if (this.flagged) return;
    this.movesMade[side]++;
    const c = this.control;
    if (c.kind === 'fischer') this.remaining[side] += c.incrementMs;
    else if (c.kind === 'periods' && this.movesMade[side] >= this.nextAt[side]) {
      // The period's moves are made: the next period's time is added (unused time carries over); the last repeats.
      this.period[side] = Math.min(this.period[side] + 1, c.periods.length - 1);
      const next = c.periods[this.period[side]];
      this.remaining[side] += next.ms;
      this.nextAt[side] += next.moves ?? Infinity;
    }
    const other: Color = side === 'black' ? 'white' : 'black';
    if (c.kind === 'per-move') {
      this.remaining[side] = Math.max(0, this.remaining[side]);
      this.begin(other, nextForced);
    }
    // The first move starts the clocks (the opponent's); after that the move switches them, unless a player paused them.
    if (this.running !== null || !this.held) {
      this.running = other;
      this.since = now;
      this.started = true;
    }
  }

  /**
   * Brings the running side's time up to `now`; returns who flagged, if
   * anyone. Per move the time runs on past the limit ("time" called) for the
   * grace period; the flag falls at its end.
   */
  settle(now: number): Color | null {
    if (this.running && !this.flagged) {
      const side = this.running;
      this.remaining[side] -= Math.max(0, now - this.since);
      this.since = now;
      const c = this.control;
      if (c.kind === 'per-move') {
        if (this.remaining[side] <= 0 && this.called !== side) this.called = side;
        if (this.remaining[side] <= -c.graceMs) {
          this.remaining[side] = -c.graceMs;
          this.flagged = side;
          this.running = null;
        }
      } else if (this.remaining[side] <= 0) {
        this.remaining[side] = 0;
        this.flagged = side;
        this.running = null;
      }
    }
    return this.flagged;
  }

  state(now: number): ClockState {
    this.settle(now);
    const base = {
      control: describeTimeControl(this.control),
      black: this.remainingOf('black'),
      white: this.remainingOf('white'),
      running: this.running,
      flagged: this.flagged,
      started: this.started,
    };
    const c = this.control;
    if (c.kind !== 'per-move') return base;
    const side = this.current;
    return {
      ...base,
      perMove: {
        side,
        limit: this.forced ? c.forcedMs : c.moveMs,
        forced: this.forced,
        timeCalled: this.called,
        graceLeft: side && this.called === side ? Math.max(0, c.graceMs + this.remaining[side]) : c.graceMs,
      },
    };
  }

  /** The arbiter sets `side`'s time left (per move: left of this move's limit). */
  adjust(side: Color, ms: number, now: number): void {
    this.settle(now);
    this.remaining[side] = ms;
    if (this.called === side && ms > 0) this.called = null;
  }

  /** For the journal: everything needed to restore it. */
  toJSON(): SavedClock {
    return {
      remaining: { ...this.remaining },
      movesMade: { ...this.movesMade },
      period: { ...this.period },
      nextAt: { ...this.nextAt },
      flagged: this.flagged,
      ...(this.control.kind === 'per-move' ? { current: this.current, forced: this.forced, called: this.called } : {}),
    };
  }

  restore(data: SavedClock): void {
    this.remaining = { ...data.remaining };
    this.movesMade = { ...data.movesMade };
    this.period = { ...data.period };
    this.nextAt = { black: data.nextAt.black ?? Infinity, white: data.nextAt.white ?? Infinity };
    this.flagged = data.flagged;
    this.current = data.current ?? null;
    this.forced = data.forced ?? false;
    this.called = data.called ?? null;
    // Resumed games: the clocks stay stopped until the next move (or a player starts them).
    this.running = null;
    this.started = Object.values(this.movesMade).some((n) => n > 0);
    this.held = false;
  }
}
