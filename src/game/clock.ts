// Game clocks: Fischer increment ("5m+3s") or moves-per-period with time
// carried over ("40/90m,30m": 40 moves in 90 minutes, then 30 minutes for the
// rest; periods may repeat: "40/90m,20/30m"). Pure: the time is passed in.

export class TimeControlError extends Error {
  override readonly name = 'TimeControlError';
}

export interface Period {
  /** moves in this period (undefined: the rest of the game) */
  moves?: number;
  ms: number;
}

export type TimeControl =
  | { kind: 'fischer'; baseMs: number; incrementMs: number; text: string }
  | { kind: 'periods'; periods: Period[]; text: string };

const DURATION = /^(\d+(?:\.\d+)?)(h|m|s|ms)?$/;

function duration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new TimeControlError(`${what} "${text}" is not a duration (like 90m, 30s, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? 'm';
  return Math.round(n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1));
}

/** Reads "5m+3s", "15m", "40/90m,30m". */
export function parseTimeControl(text: string): TimeControl {
  const t = text.trim();
  if (!t) throw new TimeControlError('empty time control');
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
  const incrementMs = inc === undefined ? 0 : duration(inc.endsWith('s') || inc.endsWith('m') || inc.endsWith('h') ? inc : inc + 's', 'increment');
  return { kind: 'fischer', baseMs, incrementMs, text: t };
}

export type Side = 'black' | 'white';

export interface ClockState {
  control: string;
  black: number;
  white: number;
  running: Side | null;
  /** who ran out of time, if anyone */
  flagged: Side | null;
}

export class GameClock {
  private remaining: Record<Side, number>;
  private movesMade: Record<Side, number> = { black: 0, white: 0 };
  private period: Record<Side, number> = { black: 0, white: 0 };
  /** move count at which the next period's time is added */
  private nextAt: Record<Side, number>;
  private running: Side | null = null;
  private since = 0;
  private flagged: Side | null = null;

  constructor(readonly control: TimeControl) {
    const start = control.kind === 'fischer' ? control.baseMs : control.periods[0].ms;
    this.remaining = { black: start, white: start };
    const first = control.kind === 'periods' ? control.periods[0].moves ?? Infinity : Infinity;
    this.nextAt = { black: first, white: first };
  }

  /** Starts (or resumes) the clock of `side` at time `now`. */
  start(side: Side, now: number): void {
    if (this.flagged) return;
    this.settle(now);
    this.running = side;
    this.since = now;
  }

  pause(now: number): void {
    this.settle(now);
    this.running = null;
  }

  /** A move was committed by `side` at `now`: add increment / period time, switch to the other side. */
  moved(side: Side, now: number): void {
    if (this.flagged) return;
    this.settle(now);
    if (this.flagged) return;
    this.movesMade[side]++;
    const c = this.control;
    if (c.kind === 'fischer') this.remaining[side] += c.incrementMs;
    else if (this.movesMade[side] >= this.nextAt[side]) {
      // The period's moves are made: the next period's time is added (unused time carries over); the last repeats.
      this.period[side] = Math.min(this.period[side] + 1, c.periods.length - 1);
      const next = c.periods[this.period[side]];
      this.remaining[side] += next.ms;
      this.nextAt[side] += next.moves ?? Infinity;
    }
    const other: Side = side === 'black' ? 'white' : 'black';
    if (this.running !== null) {
      this.running = other;
      this.since = now;
    }
  }

  /** Brings the running side's time up to `now`; returns who flagged, if anyone. */
  settle(now: number): Side | null {
    if (this.running && !this.flagged) {
      this.remaining[this.running] -= Math.max(0, now - this.since);
      this.since = now;
      if (this.remaining[this.running] <= 0) {
        this.remaining[this.running] = 0;
        this.flagged = this.running;
        this.running = null;
      }
    }
    return this.flagged;
  }

  state(now: number): ClockState {
    this.settle(now);
    return { control: this.control.text, black: this.remaining.black, white: this.remaining.white, running: this.running, flagged: this.flagged };
  }

  /** For the journal: everything needed to restore it. */
  toJSON() {
    return { remaining: { ...this.remaining }, movesMade: { ...this.movesMade }, period: { ...this.period }, nextAt: { ...this.nextAt }, flagged: this.flagged };
  }

  restore(data: ReturnType<GameClock['toJSON']>): void {
    this.remaining = { ...data.remaining };
    this.movesMade = { ...data.movesMade };
    this.period = { ...data.period };
    this.nextAt = { black: data.nextAt.black ?? Infinity, white: data.nextAt.white ?? Infinity };
    this.flagged = data.flagged;
    this.running = null;
  }
}
