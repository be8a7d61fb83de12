// The simulated board: a BoardSource driven by the physics model and a hand.
// Every frame is formatted with makeBoardLine and parsed back through
// parseBoardLine, the path the serial driver uses, so the sim exercises the
// codec. Two clocks: 'real' (setInterval, for `npm start` without a board)
// and 'manual' (virtual time: advance(ms)/step() emit frames synchronously —
// tests play whole games fast and deterministically). Seeded: runs replay.

import {
  SQUARES,
  makeBoardLine,
  parseBoardLine,
  type BoardIdentity,
  type BoardMessage,
  type BuzzPattern,
  type HostCommand,
  type LedState,
} from '../protocol.ts';
import { Emitter } from '../emitter.ts';
import { SourceBase, defaultTimeSource, type TimeSource, type RawFrame } from '../source.ts';
import { BoardPhysics, type Placement, type PhysicsOptions } from './physics.ts';
import { START_POSITION, Timeline, applyHandAction, type BoardHand, type TimelineStep } from './hand.ts';
import { mulberry32, type Rng } from '../../common/prng.ts';

/** What each option is when it is not given. */
const DEFAULTS = { seed: 1, rate: 100 } as const;

export interface SimBoardOptions {
  seed?: number;
  /** 'manual' (default): virtual time, advance()/step(); 'real': setInterval on `now` */
  clock?: 'manual' | 'real';
  /** real-time clock (ms), default performance.now */
  now?: TimeSource;
  /** frames per second, 1–100 (default 100, as the firmware) */
  rate?: number;
  id?: string;
  /** set up the start position on open (default false: empty board) */
  startPosition?: boolean;
  physics?: Partial<Omit<PhysicsOptions, 'seed'>>;
  /** line faults, probabilities per line: dropped, or one byte corrupted (exercise gaps and error counts) */
  faults?: { drop?: number; corrupt?: number };
  /**
   * The set's coins by number, coin 1 first, as their magnets' strength
   * relative to the nominal coin (1 good, 0.6 weak, −1 glued the other way
   * up, 0 no magnet): `placeCoin(square, k)` puts coin k down (the doctor's
   * coin check). A coin not listed is drawn as any coin is.
   */
  coinSet?: readonly number[];
}

/** What an interactive view (the web page) shows of the simulated board. */
export interface SimView {
  t: number;
  /** coins on squares 1–32 (index 0 = square 1) */
  coins: number[];
  /** the last frame's readings, or null before the first frame */
  readings: number[] | null;
  buzzer: BuzzPattern;
  led: LedState;
}

export interface SimCommandRecord {
  t: number;
  command: HostCommand;
}

const QUIET_THRESHOLD = 8;
const HEARTBEAT_MS = 250;

export class SimBoard extends SourceBase implements BoardHand {
  readonly kind = 'sim';
  readonly physics: BoardPhysics;
  /** every command received, in order */
  readonly commands: SimCommandRecord[] = [];
  buzzer: BuzzPattern = 'OFF';
  led: LedState = 0;
  private readonly opts: Required<Omit<SimBoardOptions, 'physics' | 'faults' | 'now' | 'coinSet'>>;
  private readonly coinSet: readonly number[];
  private readonly realNow: TimeSource;
  private readonly faultRng: Rng;
  private readonly faults: { drop: number; corrupt: number };
  private readonly timeline = new Timeline();
  private mode: 'S' | 'Q' = 'S';
  private rate: number;
  private isOpen = false;
  private virtualNow = 0;
  private t0 = 0;
  private nextFrameAt = 0;
  private seq = 0;
  private lastSent: Uint16Array | null = null;
  private lastReadings: Uint16Array | null = null;
  private lastSentAt = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly buf = new Uint16Array(SQUARES);
  private readonly handEvents = new Emitter<{ hand: { t: number; square: number; coins: number } }>();

  constructor(options: SimBoardOptions = {}) {
    const manual = (options.clock ?? 'manual') === 'manual';
    const realNow = options.now ?? defaultTimeSource;
    super(manual ? () => this.virtualNow : () => realNow() - this.t0);
    this.realNow = realNow;
    this.opts = {
      seed: options.seed ?? DEFAULTS.seed,
      clock: manual ? 'manual' : 'real',
      rate: options.rate ?? DEFAULTS.rate,
      id: options.id ?? 'SIM',
      startPosition: options.startPosition ?? false,
    };
    this.rate = this.opts.rate;
    this.coinSet = options.coinSet ?? [];
    this.physics = new BoardPhysics({ ...options.physics, seed: this.opts.seed });
    this.faultRng = mulberry32(this.opts.seed ^ 0x27d4eb2f);
    this.faults = { drop: options.faults?.drop ?? 0, corrupt: options.faults?.corrupt ?? 0 };
    // The sim's time runs from its construction and on across close and open:
    // coins put down before the board is opened (the start position) or while
    // it was closed are stamped on the same clock as the frames. (Restarting the
    // clock at open left them in the future, invisible for as long as the
    // process had run before: a second simulated board read empty.)
    this.t0 = manual ? 0 : realNow();
    if (this.opts.startPosition) this.setupStart();
  }

  identity(): BoardIdentity {
    return {
      type: 'identity',
      proto: 1,
      fw: '1.0.0-sim',
      id: this.opts.id,
      n: SQUARES,
      scan: 1000,
      rate: this.rate,
      mode: this.mode,
      extra: {},
    };
  }

  async open(): Promise<BoardIdentity> {
    if (this.isOpen) return this.identity();
    this.setStatus({ state: 'connecting', detail: `simulated board ${this.opts.id}` });
    const parsed = parseBoardLine(makeBoardLine(this.identity()));
    this.lines.record(parsed);
    if (!parsed.ok || parsed.value.type !== 'identity') throw new Error(`simulated identity did not parse: ${JSON.stringify(parsed)}`);
    this.isOpen = true;
    this.nextFrameAt = this.now() + this.period();
    this.lastSentAt = this.now();
    if (this.opts.clock === 'real') this.startTimer();
    this.setStatus({ state: 'connected', identity: parsed.value });
    return parsed.value;
  }

  async close(): Promise<void> {
    if (!this.isOpen) return;
    this.isOpen = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.setStatus({ state: 'closed' });
  }

  async send(command: HostCommand): Promise<boolean> {
    if (!this.isOpen) return false;
    this.counters.commandsSent++;
    this.commands.push({ t: this.now(), command });
    let reply: BoardMessage = { type: 'ok', cmd: command.type === 'identify' ? '?' : command.type.toUpperCase() };
    switch (command.type) {
      case 'identify':
        reply = this.identity();
        break;
      case 'rate':
        this.rate = command.fps;
        this.nextFrameAt = this.now() + this.period();
        if (this.timer) this.startTimer();
        break;
      case 'mode':
        this.mode = command.mode;
        break;
      case 'buzz':
        this.buzzer = command.pattern;
        break;
      case 'led':
        this.led = command.state;
        break;
      case 'id':
        this.opts.id = command.id;
        break;
    }
    this.lines.record(parseBoardLine(makeBoardLine(reply)));
    return true;
  }

  // ------------------------------------------------------------- the hand

  /** Add one coin (off-centre at random, magnet down, unless `how` says otherwise). */
  place(square: number, how?: Placement): void {
    const n = this.physics.coins(square);
    if (n >= 2) throw new RangeError(`square ${square} already holds 2 coins (a king)`);
    this.setCoins(square, n + 1, how);
  }
  /** Coin `coin` of the set (numbered from 1; see coinSet) on a square, off-centre as a hand puts it. */
  placeCoin(square: number, coin: number): void {
    if (!Number.isInteger(coin) || coin < 1) throw new RangeError(`no coin ${coin} (coins are numbered from 1)`);
    this.place(square, { strength: this.coinSet[coin - 1] });
  }
  lift(square: number, coins?: number): void {
    const n = this.physics.coins(square);
    const k = coins ?? n;
    if (n === 0 || k < 1 || k > n) throw new RangeError(`cannot lift ${coins ?? 'the piece'} from square ${square}: it holds ${n} coin(s)`);
    this.setCoins(square, n - k);
  }
  set(square: number, coins: number, how?: Placement): void {
    this.setCoins(square, coins, how);
  }
  /** Slide the coins on a square to `offMm` from its centre (nudged straight: ~0; knocked: 2–3 mm). */
  slide(square: number, offMm: number): void {
    this.physics.slide(square, offMm, this.now());
  }
  /** A finger lifting the coins on a square part-way: the reading drops to `factor` (1 = let go). */
  touch(square: number, factor: number): void {
    this.physics.touch(square, factor, this.now());
  }
  /** Turn the top coin of a square over. */
  flip(square: number): void {
    this.physics.flip(square, this.now());
  }
  setupStart(): void {
    for (let sq = 1; sq <= SQUARES; sq++) this.setCoins(sq, START_POSITION[sq - 1], { color: sq <= 16 ? 'black' : 'white' });
  }
  clear(): void {
    for (let sq = 1; sq <= SQUARES; sq++) this.setCoins(sq, 0);
  }
  coinsAt(square: number): number {
    return this.physics.coins(square);
  }
  /** The hand is moving a piece of this side: coins it puts down are that side's unless said otherwise (null: none). */
  hold(color: 'black' | 'white' | null): void {
    this.physics.hold(color);
  }
  /** Whose coin stands on top of a square (null: empty). */
  colorAt(square: number): 'black' | 'white' | null {
    return this.physics.colorAt(square);
  }
  /** Interactive use: every change the hand makes (square, new coin count). Returns the unsubscribe function. */
  onHand(listener: (change: { t: number; square: number; coins: number }) => void): () => void {
    return this.handEvents.on('hand', listener);
  }

  /** Interactive use: the board as a view shows it. */
  view(): SimView {
    return {
      t: this.now(),
      coins: this.occupancy(),
      readings: this.lastReadings ? Array.from(this.lastReadings) : null,
      buzzer: this.buzzer,
      led: this.led,
    };
  }

  private setCoins(square: number, coins: number, how?: Placement): void {
    const before = this.physics.coins(square);
    this.physics.setCoins(square, coins, this.now(), how);
    if (coins !== before) this.handEvents.emit('hand', { t: this.now(), square, coins });
  }

  /** coins on squares 1–32 (index 0 = square 1) */
  occupancy(): number[] {
    return Array.from({ length: SQUARES }, (_, i) => this.physics.coins(i + 1));
  }

  /** Queue hand actions at times (ms on this board's clock; see now()). */
  play(steps: readonly TimelineStep[]): void {
    this.timeline.add(steps);
  }
  get pendingActions(): number {
    return this.timeline.pending;
  }

  // ------------------------------------------------------------ time

  /** ms since open on this board's clock (virtual in manual mode) */
  now(): number {
    return this.clock();
  }

  /** Manual clock: move time on by `ms`, emitting every frame due meanwhile. Returns the frames emitted. */
  advance(ms: number): number {
    this.requireManual('advance');
    const target = this.virtualNow + ms;
    let frames = 0;
    while (this.isOpen && this.nextFrameAt <= target) {
      this.virtualNow = this.nextFrameAt;
      this.runTimeline();
      if (this.tick()) frames++;
      this.nextFrameAt += this.period();
    }
    this.virtualNow = target;
    this.runTimeline();
    return frames;
  }

  /** Manual clock: move to the next frame time and emit it. Returns the frame (undefined if quiet mode sent none, or it was dropped). */
  step(): RawFrame | undefined {
    this.requireManual('step');
    let got: RawFrame | undefined;
    const off = this.onFrame((f) => (got = f));
    this.advance(this.nextFrameAt - this.virtualNow);
    off();
    return got;
  }

  /** Manual clock: advance until every queued hand action ran, plus `settleMs`. */
  runTimeline(settleMs?: number): void {
    if (settleMs === undefined) {
      for (const s of this.timeline.due(this.now())) applyHandAction(this, s);
      return;
    }
    while (this.timeline.pending) this.advance(this.period());
    this.advance(settleMs);
  }

  private requireManual(what: string): void {
    if (this.opts.clock !== 'manual') throw new Error(`${what}() needs the manual clock (this sim runs in real time)`);
  }

  private period(): number {
    return 1000 / this.rate;
  }

  private startTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => {
      // timers fire late: emit every frame that fell due (at most a few), each at its own time
      const now = this.now();
      if (now - this.nextFrameAt > 5 * this.period()) this.nextFrameAt = now;
      while (this.nextFrameAt <= now) {
        this.runTimeline();
        this.tick(this.nextFrameAt);
        this.nextFrameAt += this.period();
      }
    }, this.period() / 2);
    this.timer.unref?.();
  }

  /** One firmware tick: a frame (stream mode, or quiet mode with change) or a heartbeat. True if a frame was emitted. */
  private tick(t = this.now()): boolean {
    const readings = this.physics.read(t, this.buf);
    if (this.mode === 'Q') {
      if (!this.changed(readings)) {
        if (t - this.lastSentAt >= HEARTBEAT_MS) this.emitLine({ type: 'heartbeat', seq: this.nextSeq() }, t);
        return false;
      }
    }
    this.lastSent = Uint16Array.from(readings);
    return this.emitLine({ type: 'frame', seq: this.nextSeq(), readings }, t);
  }

  private changed(r: Uint16Array): boolean {
    const last = this.lastSent;
    if (!last) return true;
    for (let i = 0; i < SQUARES; i++) if (Math.abs(r[i] - last[i]) > QUIET_THRESHOLD) return true;
    return false;
  }

  private nextSeq(): number {
    const s = this.seq;
    this.seq = (this.seq + 1) & 0xffff;
    return s;
  }

  /** Format, maybe fault, parse back, account, emit. */
  private emitLine(msg: BoardMessage, t: number): boolean {
    this.lastSentAt = t;
    let line = makeBoardLine(msg);
    if (this.faults.drop && this.faultRng() < this.faults.drop) return false;
    if (this.faults.corrupt && this.faultRng() < this.faults.corrupt) {
      const at = Math.floor(this.faultRng() * line.length);
      line = line.slice(0, at) + String.fromCharCode(line.charCodeAt(at) ^ (1 << Math.floor(this.faultRng() * 7))) + line.slice(at + 1);
    }
    const parsed = parseBoardLine(line);
    this.lines.record(parsed);
    if (!parsed.ok || parsed.value.type !== 'frame') return false;
    this.lastReadings = parsed.value.readings;
    this.emitFrame(parsed.value.seq, parsed.value.readings, t);
    return true;
  }
}
