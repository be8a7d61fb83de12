// The bring-up check's steps, as a pure machine: raw frames (time, 32
// readings) in, the next instruction for the builder out. First the empty
// board (each sensor's zero level and noise), then, square by square, a coin
// put on and lifted (which squares answer, by how much), then on one good
// square a king's second coin and the coin turned upside down (the stack
// increment and the flip level this board's magnets give), and, when asked,
// every coin of the set on that square in turn (a weak, reversed or
// unmagnetised coin stands out from the others). It moves on by
// itself when the readings settle on what it asked for, and after a step
// timeout when nothing happens (a dead sensor, or the builder skipped it).
// What it saw goes to verdict.ts. Time is the frames' own, so tests replay.

/** What each option is when it is not given. */
const DEFAULTS = { stepTimeoutMs: 20_000, coins: 0 } as const;

export type DoctorStep =
  | { kind: 'clear' }
  | { kind: 'place'; square: number }
  | { kind: 'lift'; square: number }
  | { kind: 'stack'; square: number }
  | { kind: 'unstack'; square: number }
  | { kind: 'flip'; square: number }
  | { kind: 'unflip'; square: number }
  | { kind: 'coin'; square: number; coin: number; of: number }
  | { kind: 'coin-lift'; square: number; coin: number; of: number }
  | { kind: 'done' };

export interface BringUpOptions {
  /** the squares to try a coin on, in order (default all 32) */
  squares?: readonly number[];
  /** give up waiting for a step after this long, ms (default 20 s) */
  stepTimeoutMs?: number;
  /** after the king test, put each of this many coins on its square in turn (0: skip) */
  coins?: number;
}

/** How the readings changed when a coin was put on a square (counts from each square's zero; only squares that moved). */
export interface Response {
  square: number;
  /** squares whose reading moved, with by how much */
  moved: { square: number; dev: number }[];
  /** nothing moved within the step timeout */
  timedOut: boolean;
  /** the reading did not come back to its zero after the coin was lifted */
  stuck: boolean;
}

export interface Observations {
  zero: number[];
  noise: number[];
  /** lowest and highest single reading seen per square over the whole check */
  low: number[];
  high: number[];
  responses: Response[];
  /** the stack and flip test, on one square: counts from its zero */
  king?: {
    square: number;
    one: number;
    two: number | null;
    flipped: number | null;
    /** every square that moved with the king on (a settling ghost shows on the channel read next) */
    twoMoved?: { square: number; dev: number }[];
  };
  /** every coin of the set on one square in turn: counts from its zero, index 0 = coin 1; null: nothing moved */
  coins?: { square: number; readings: (number | null)[] };
}

const SETTLE_MS = 800;
const ZERO_MS = 2000;
/** two halves of a settled window agree within this, counts */
const SETTLE_COUNTS = 6;
/** a square moved if its reading left its zero by more than this, or by 8 σ of its noise */
const MOVED_COUNTS = 25;

interface Frame {
  t: number;
  r: number[];
}

export const stepText = (s: DoctorStep): string => {
  switch (s.kind) {
    case 'clear':
      return 'Take every coin off the board and keep your hands away from it.';
    case 'place':
      return `Put a coin on ${s.square}, magnet side down, in the middle of the square.`;
    case 'lift':
      return `Lift the coin off ${s.square}.`;
    case 'stack':
      return `Put a second coin on top of the coin on ${s.square} (a king).`;
    case 'unstack':
      return `Take the top coin off ${s.square} again.`;
    case 'flip':
      return `Turn the coin on ${s.square} over (magnet side up) and put it back on ${s.square}.`;
    case 'unflip':
      return `Lift the upside-down coin off ${s.square}.`;
    case 'coin':
      return `Put coin ${s.coin} of ${s.of} on ${s.square}, magnet side down, in the middle of the square.`;
    case 'coin-lift':
      return `Lift coin ${s.coin} off ${s.square} and set it apart from the coins still to check.`;
    case 'done':
      return 'Done.';
  }
};

export class BringUp {
  step: DoctorStep = { kind: 'clear' };
  readonly obs: Observations = { zero: [], noise: [], low: Array(32).fill(Infinity), high: Array(32).fill(-Infinity), responses: [] };
  private readonly squares: readonly number[];
  private readonly timeoutMs: number;
  private readonly coinCount: number;
  private frames: Frame[] = [];
  private stepAt: number | null = null;
  private index = 0;

  constructor(options: BringUpOptions = {}) {
    this.squares = options.squares ?? Array.from({ length: 32 }, (_, i) => i + 1);
    this.timeoutMs = options.stepTimeoutMs ?? DEFAULTS.stepTimeoutMs;
    this.coinCount = options.coins ?? DEFAULTS.coins;
  }

  get done(): boolean {
    return this.step.kind === 'done';
  }

  /** Takes one frame; returns the new step if this frame finished the current one. */
  push(t: number, readings: ArrayLike<number>): DoctorStep | null {
    if (this.done) return null;
    const r = Array.from(readings);
    for (let i = 0; i < 32; i++) {
      this.obs.low[i] = Math.min(this.obs.low[i], r[i]);
      this.obs.high[i] = Math.max(this.obs.high[i], r[i]);
    }
    this.stepAt ??= t;
    this.frames.push({ t, r });
    const keep = Math.max(ZERO_MS, SETTLE_MS);
    while (this.frames.length > 2 && t - this.frames[1].t > keep) this.frames.shift();
    const next = this.advance(t);
    if (!next) return null;
    this.step = next;
    this.stepAt = t;
    this.frames = [];
    return next;
  }

  private advance(t: number): DoctorStep | null {
    const s = this.step;
    const late = t - (this.stepAt ?? t) > this.timeoutMs;
    switch (s.kind) {
      case 'clear':
        return this.clear(t);
      case 'place':
        return this.obs.king ? this.kingPlaced(t, late) : this.placed(s.square, t, late);
      case 'lift':
        return this.lifted(s.square, t, late);
      case 'stack':
      case 'unstack':
      case 'flip':
      case 'unflip':
        return this.king(s, t, late);
      case 'coin':
      case 'coin-lift':
        return this.coin(s, t, late);
      case 'done':
        return null;
    }
  }

  /** Mean of each square over the last `ms` of frames, if they span that long and both halves agree (the board is at rest). */
  private settled(t: number, ms: number): number[] | null {
    const w = this.frames.filter((f) => t - f.t <= ms);
    if (w.length < 4 || t - w[0].t < ms * 0.9) return null;
    const [first, second] = [w.slice(0, Math.floor(w.length / 2)), w.slice(Math.floor(w.length / 2))];
    const mean = (fs: Frame[], i: number) => fs.reduce((a, f) => a + f.r[i], 0) / fs.length;
    const out: number[] = [];
    for (let i = 0; i < 32; i++) {
      const [a, b] = [mean(first, i), mean(second, i)];
      if (Math.abs(a - b) > SETTLE_COUNTS) return null;
      out.push((a * first.length + b * second.length) / w.length);
    }
    return out;
  }

  private clear(t: number): DoctorStep | null {
    const m = this.settled(t, ZERO_MS);
    if (!m) return null;
    const w = this.frames.filter((f) => t - f.t <= ZERO_MS);
    this.obs.zero = m;
    this.obs.noise = m.map((mu, i) => Math.sqrt(w.reduce((a, f) => a + (f.r[i] - mu) ** 2, 0) / w.length));
    return this.nextPlace();
  }

  private nextPlace(): DoctorStep {
    if (this.index < this.squares.length) return { kind: 'place', square: this.squares[this.index++] };
    return this.startKing();
  }

  private threshold(i: number): number {
    return Math.max(MOVED_COUNTS, 8 * (this.obs.noise[i] ?? 0));
  }

  private moved(m: number[]): { square: number; dev: number }[] {
    const out: { square: number; dev: number }[] = [];
    for (let i = 0; i < 32; i++) {
      const dev = m[i] - this.obs.zero[i];
      if (Math.abs(dev) > this.threshold(i)) out.push({ square: i + 1, dev: Math.round(dev * 10) / 10 });
    }
    return out;
  }

  private placed(square: number, t: number, late: boolean): DoctorStep | null {
    const m = this.settled(t, SETTLE_MS);
    const moved = m ? this.moved(m) : [];
    if (moved.length > 0) {
      this.obs.responses.push({ square, moved, timedOut: false, stuck: false });
      return { kind: 'lift', square };
    }
    if (!late) return null;
    this.obs.responses.push({ square, moved: [], timedOut: true, stuck: false });
    return this.nextPlace();
  }

  private lifted(square: number, t: number, late: boolean): DoctorStep | null {
    const m = this.settled(t, SETTLE_MS);
    if (m && this.moved(m).length === 0) return this.nextPlace();
    if (!late) return null;
    const r = this.obs.responses.find((x) => x.square === square);
    if (r) r.stuck = true;
    return this.nextPlace();
  }

  /**
   * The stack and flip test goes on the first square that answered its coin
   * itself, far more than any other square moved (a settling ghost moves the
   * channel read next a little; a wiring fault moves another square as much).
   */
  private startKing(): DoctorStep {
    const good = this.obs.responses.find((r) => {
      const own = r.moved.find((m) => m.square === r.square);
      return own && !r.stuck && r.moved.every((m) => m === own || Math.abs(m.dev) < 0.6 * Math.abs(own.dev));
    });
    if (!good) return { kind: 'done' };
    this.obs.king = { square: good.square, one: 0, two: null, flipped: null };
    return { kind: 'place', square: good.square };
  }

  private king(s: DoctorStep & { square: number }, t: number, late: boolean): DoctorStep | null {
    const k = this.obs.king!;
    const i = k.square - 1;
    const m = this.settled(t, SETTLE_MS);
    const dev = m ? m[i] - this.obs.zero[i] : null;
    const thr = this.threshold(i);
    switch (s.kind) {
      case 'stack':
        if (dev !== null && Math.abs(dev - k.one) > thr / 2 && Math.sign(dev) === Math.sign(k.one)) {
          k.two = dev;
          k.twoMoved = this.moved(m!);
          return { kind: 'unstack', square: k.square };
        }
        return late ? { kind: 'unstack', square: k.square } : null;
      case 'unstack':
        if (dev !== null && Math.abs(dev - k.one) < Math.abs(dev - (k.two ?? k.one)) && Math.abs(dev - k.one) < thr)
          return { kind: 'flip', square: k.square };
        return late ? { kind: 'flip', square: k.square } : null;
      case 'flip':
        // an upside-down magnet reads the other way from zero; a coin held in the air reads zero, so wait for the sign
        if (
          dev !== null &&
          Math.sign(dev) === -Math.sign(k.one) &&
          Math.abs(dev) > Math.max(4 * (this.obs.noise[i] ?? 0), 0.12 * Math.abs(k.one), 8)
        ) {
          k.flipped = dev;
          return { kind: 'unflip', square: k.square };
        }
        return late ? { kind: 'unflip', square: k.square } : null;
      case 'unflip':
        if (m && this.moved(m).length === 0) return this.startCoins();
        return late ? this.startCoins() : null;
    }
    return null;
  }

  /** The coin check, on the king test's square, if it was asked for. */
  private startCoins(): DoctorStep {
    const k = this.obs.king;
    if (!k || this.coinCount < 1) return { kind: 'done' };
    this.obs.coins = { square: k.square, readings: [] };
    return { kind: 'coin', square: k.square, coin: 1, of: this.coinCount };
  }

  private coin(s: DoctorStep & { kind: 'coin' | 'coin-lift' }, t: number, late: boolean): DoctorStep | null {
    const c = this.obs.coins!;
    const i = s.square - 1;
    const m = this.settled(t, SETTLE_MS);
    const next = (): DoctorStep => (s.coin < s.of ? { kind: 'coin', square: s.square, coin: s.coin + 1, of: s.of } : { kind: 'done' });
    if (s.kind === 'coin') {
      // either way from zero: a coin whose magnet is glued the other way up reads below empty
      const dev = m ? m[i] - this.obs.zero[i] : 0;
      if (m && Math.abs(dev) > this.threshold(i)) {
        c.readings[s.coin - 1] = Math.round(dev * 10) / 10;
        return { ...s, kind: 'coin-lift' };
      }
      if (!late) return null;
      c.readings[s.coin - 1] = null; // no magnet (or no coin put down)
      return next();
    }
    if (m && this.moved(m).length === 0) return next();
    return late ? next() : null;
  }

  /** Used while the king test's first coin goes down: `placed` with the stack test's own bookkeeping. */
  private kingPlaced(t: number, late: boolean): DoctorStep | null {
    const k = this.obs.king!;
    const m = this.settled(t, SETTLE_MS);
    const moved = m ? this.moved(m) : [];
    const own = moved.find((x) => x.square === k.square);
    if (own) {
      k.one = own.dev;
      return { kind: 'stack', square: k.square };
    }
    return late ? { kind: 'done' } : null;
  }
}
