// Shared by tests and benches. Test harness: a simulated board, a game and a
// tracker wired together on the sim's virtual clock, and a randomised "hand"
// that plays moves the way people do (captures removed before, during or
// after; multi-jumps stepped or placed straight; crowns under or on top;
// pieces lifted and put back; pauses).

import { countsOf } from '../../src/tracking/boards.ts';
import { Calibration } from '../../src/reading/calibration.ts';
import {
  BoardPhysics,
  SimBoard,
  mulberry32,
  rowColToSquare,
  squareToRowCol,
  type Rng,
  type SimBoardOptions,
} from '../../src/sensors/sim/index.ts';
import { Game, colorAt, type Color, type Move, type Position, type ReadonlyGame } from '../../src/rules/index.ts';
import type { GameWriter, TrackerEvent, TrackerOptions } from '../../src/tracking/tracker.ts';
import { BoardTracking } from '../../src/tracking/board-tracking.ts';

/**
 * What the explicit calibration routine measures on a simulated board: each
 * square empty, with one coin and with two, centred (other coins than the
 * game's: magnet strengths differ by a few per cent).
 */
export function routineCalibration(seed: number, physics: SimBoardOptions['physics'] = {}): Calibration {
  const p = new BoardPhysics({ ...physics, seed, motionMs: 0, noise: 0, drift: 0 });
  const at = (sq: number, n: number) => {
    p.setCoins(sq, n, 0, { offMm: 0 });
    const v = p.expected(sq, 0);
    p.setCoins(sq, 0, 0);
    return v;
  };
  const squares = Array.from({ length: 32 }, (_, i) => i + 1);
  // (Each level as measured, like the routine's own result and a saved calibration: learning a
  // level moves it only part of the way from the nominal guess.)
  return Calibration.fromJSON({
    version: 1,
    empty: squares.map((sq) => at(sq, 0)),
    one: squares.map((sq) => at(sq, 1)),
    two: squares.map((sq) => at(sq, 2)),
  });
}

/**
 * The game's writer where no table is (tests and benches of the tracking
 * alone): plays what the tracker decided on the game it is tracking now (a
 * test may hand it another game). In the service the writer is the table
 * (src/game/table.ts), which journals each move first.
 */
export function writerOn(current: () => ReadonlyGame): GameWriter {
  // (The tracker's own game, which this stand-in for the table owns: a Game, seen by the tracker read-only.)
  const game = () => current() as Game;
  return { play: (move, huff) => (huff === undefined ? game().play(move) : game().huffAndPlay(huff, move)), undo: () => game().undo() };
}

export class Table {
  readonly sim: SimBoard;
  readonly tracker: BoardTracking;
  readonly events: TrackerEvent[] = [];
  game: Game;
  /** frame-clock time of the hand's last action */
  lastHandAt = 0;
  /** false: the board runs but tracking does not see its frames yet (started later) */
  feeding = true;
  /** squares of not-crowned alerts raised where a crown stack stood reading like a man (see the frame handler) */
  readonly ambiguousCrowns: number[] = [];

  /** `routine`: the board was calibrated by the explicit routine (every square measured empty, with one coin and two, centred). */
  constructor(
    opts: {
      seed?: number;
      game?: Game;
      tracker?: Partial<TrackerOptions>;
      physics?: SimBoardOptions['physics'];
      routine?: boolean;
      /** the game's writer (default: writerOn the tracker's game; a test of the table's own passes the table) */
      writer?: GameWriter;
    } = {},
  ) {
    this.sim = new SimBoard({ seed: opts.seed ?? 1, physics: opts.physics });
    this.game = opts.game ?? Game.standard();
    this.tracker = new BoardTracking(this.game, opts.writer ?? writerOn(() => this.tracker.currentGame), opts.tracker);
    if (opts.routine) this.tracker.useCalibration(routineCalibration(opts.seed ?? 1, opts.physics));
    // Remember when the hand last touched the board (for commit latency).
    for (const name of ['place', 'lift', 'set', 'slide', 'touch', 'flip'] as const) {
      const f = this.sim[name].bind(this.sim) as (...a: number[]) => void;
      (this.sim as unknown as Record<string, unknown>)[name] = (...a: number[]) => {
        this.lastHandAt = this.sim.now();
        f(...a);
      };
    }
    this.sim.onFrame((f) => {
      if (!this.feeding) return;
      for (const e of this.tracker.push(f.t, f.readings)) {
        this.events.push(e);
        // "Crown the king first" where two coins do stand, reading no higher than a man: a stack
        // put down (or crowned at once) off-centre, which one square's reading cannot tell from a
        // centred man (hardware/README.md). Counted apart; the hand straightens it when told.
        if (e.type === 'alert' && e.alert.category === 'not-crowned') {
          const sq = this.tracker.crownSquare;
          if (sq !== null && this.sim.coinsAt(sq) === 2 && this.tracker.reader.level(sq).stack < 0.25) this.ambiguousCrowns.push(sq);
        }
      }
    });
  }

  async open(): Promise<void> {
    await this.sim.open();
    this.wait(100);
  }

  /** Puts the game's position on the board and waits until the tracker says ready (as players do: up to 5 s). */
  setUp(pos: Position = this.game.position): void {
    const counts = countsOf(pos);
    for (let s = 1; s <= 32; s++) this.sim.set(s, counts[s - 1]!, { color: colorOf(pos, s) ?? undefined });
    this.wait(600);
    for (let k = 0; k < 44 && this.feeding && this.tracker.phase === 'setup'; k++) this.wait(100);
  }

  wait(ms: number): void {
    this.sim.advance(ms);
  }

  now(): number {
    return this.sim.now();
  }

  of<T extends TrackerEvent['type']>(type: T): Extract<TrackerEvent, { type: T }>[] {
    return this.events.filter((e) => e.type === type) as Extract<TrackerEvent, { type: T }>[];
  }

  alerts() {
    return this.of('alert').map((e) => e.alert);
  }

  /** Plays a move plainly: lift, put down on the last square, take the captured pieces. */
  play(move: Move, gap = 150): void {
    const size = this.sim.coinsAt(move.from);
    this.sim.hold(colorOf(this.game.position, move.from) ?? null);
    this.sim.lift(move.from);
    this.wait(gap);
    this.sim.set(move.to, move.crowned ? 1 : size);
    this.wait(gap);
    for (const c of move.captures) {
      this.sim.lift(c);
      this.wait(gap);
    }
  }
}

export interface HandStyle {
  /** 0–1 probability of each habit, per move */
  /** the piece lifted clear and put back before it is moved */
  touchAndPutBack: number;
  stepThrough: number;
  fastReply: number;
  longPause: number;
  /** another coin touched first: lifted 1–3 mm for a moment (its reading dips 30–60 %), then let go (maybe sitting better or worse) */
  touchOther: number;
  /** the coin put down 2.5–4 mm off-centre and nudged to the centre 0.5–2 s later */
  offCentreNudge: number;
  /** a diagonal neighbour of the landing square knocked 2–3 mm off-centre (straightened later, or left) */
  knockNeighbour: number;
  /** the coin carried low over an empty square on the way (a brief, partial reading there) */
  carryOver: number;
  /** captured coins taken off a few seconds (1.5–5 s) after the jumper was put down */
  capturesLate: number;
  /** a king moved (or taken) one coin at a time */
  kingCoinByCoin: number;
  /** the coin put down magnet-up, and turned over `upsideDownMs` later */
  upsideDown: number;
  /** a j'adoube: one of the mover's men lifted and put back magnet-up (turned over `upsideDownMs` later) */
  adjustUpsideDown: number;
  /** the crowning coin put on the man magnet-up (turned over `upsideDownMs` later) */
  crownUpsideDown: number;
  /** how long a coin lies magnet-up before it is turned back, ms */
  upsideDownMs: [number, number];
  /** how far off-centre a coin lies magnet-up, mm (undefined: where the hand drops it) */
  upsideDownOffMm?: number;
  /**
   * a king knocked 1–3 mm off-centre by a sleeve (slid, never lifted), left so: a new king as the
   * hand leaves its crown (0–300 ms after the crown landed), or any king on the board as a move begins
   */
  knockKing?: number;
}

/** A coin lying magnet-up on a square, from when it was down to when it was turned back (ms, frame clock). */
export interface FlipEpisode {
  square: number;
  kind: 'move' | 'adjust' | 'crown';
  from: number;
  to: number;
  /** a crown: how long after the man landed it was put on (ms; 0: at the same instant) */
  after?: number;
}

/** The tidy hand of the original tests. */
export const TIDY: HandStyle = {
  touchAndPutBack: 0.08,
  stepThrough: 0.5,
  fastReply: 0.04,
  longPause: 0.05,
  touchOther: 0,
  offCentreNudge: 0,
  knockNeighbour: 0,
  carryOver: 0,
  capturesLate: 0,
  kingCoinByCoin: 0,
  upsideDown: 0,
  adjustUpsideDown: 0,
  crownUpsideDown: 0,
  upsideDownMs: [400, 2000],
};

/** Everyday people: every habit mixed in. */
export const HUMAN: HandStyle = {
  touchAndPutBack: 0.06,
  stepThrough: 0.5,
  fastReply: 0.03,
  longPause: 0.05,
  touchOther: 0.12,
  offCentreNudge: 0.12,
  knockNeighbour: 0.08,
  carryOver: 0.08,
  capturesLate: 0.2,
  kingCoinByCoin: 0.3,
  upsideDown: 0.02,
  adjustUpsideDown: 0,
  crownUpsideDown: 0,
  upsideDownMs: [400, 2000],
};

/** How a crown arrives: on top after a delay (0 ms included), slipped under, or the man swapped for a ready-made stack. */
export type CrownStyle = 'top' | 'under' | 'stacked' | 'none';

const diagonalNeighbours = (s: number): number[] => {
  const [r, c] = squareToRowCol(s);
  const out: number[] = [];
  for (const [dr, dc] of [
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ]) {
    const n = rowColToSquare(r + dr, c + dc);
    if (n !== undefined) out.push(n);
  }
  return out;
};

/** What a hand needs of the board it plays on: a Table, or a service's simulated board and its session (handTable). */
export type HandTable = Pick<Table, 'sim' | 'wait' | 'now' | 'tracker' | 'lastHandAt'> & { readonly game: ReadonlyGame };

/** A hand's view of a service's simulated board (a station, a bench's boards): the sim, on its manual clock, and the session's game and tracker. */
export function handTable(sim: SimBoard, session: { readonly game: ReadonlyGame; readonly tracker: BoardTracking }): HandTable {
  return {
    sim,
    wait: (t: number) => void sim.advance(t),
    now: () => sim.now(),
    get game() {
      return session.game;
    },
    get tracker() {
      return session.tracker;
    },
    lastHandAt: 0,
  };
}

/**
 * A randomised hand. `playMove` performs one legal move on the sim as a
 * person might, and returns the frame time at which the hand last left the
 * board (its last action's motion over).
 */
export class RandomHand {
  readonly rng: Rng;
  readonly style: HandStyle;
  /** counts of the habits actually performed */
  readonly habits: Record<string, number> = {};
  /** every coin the hand left magnet-up, and when */
  readonly flips: FlipEpisode[] = [];
  /** a neighbour knocked off-centre and not yet straightened */
  private knocked: number | null = null;
  /**
   * The last move played: when the hand left the board (its last action's motion over), when the
   * move's pieces were all in place (landed, captured coins off), and what the hand did after that
   * (crowning, a nudge, a knocked neighbour, a coin turned over) — a move can be committed before
   * the hand has left.
   */
  lastMove = { rest: 0, inPlace: 0, after: [] as string[] };
  constructor(
    readonly table: HandTable,
    seed: number,
    style: Partial<HandStyle> = HUMAN,
  ) {
    this.rng = mulberry32(seed);
    this.style = { ...TIDY, ...style };
  }

  private landedAt = 0;
  private essentialAt = 0;
  private flippedAt = -1;

  private did(habit: string): void {
    this.habits[habit] = (this.habits[habit] ?? 0) + 1;
  }

  private pause(lo: number, hi: number): number {
    return Math.round(lo + this.rng() * (hi - lo));
  }

  /** Small pause while a move is in progress (kept under the tracker's patience). */
  private step(): void {
    this.table.wait(this.pause(70, 350));
  }

  /** Put `coins` coins of a moving piece down on a square, with the hand's habits. */
  private putDown(sq: number, coins: number, byCoin: boolean): void {
    const { sim } = this.table;
    const r = this.rng;
    if (byCoin && coins === 2) {
      sim.place(sq);
      this.step();
      sim.place(sq);
      return;
    }
    if (coins === 1 && r() < this.style.upsideDown) {
      this.did('upside-down');
      this.landedAt = this.table.now();
      this.flippedAt = this.upsideDown(sq, 'move');
      return;
    }
    sim.set(sq, coins);
    this.landedAt = this.table.now();
  }

  /** A coin put down magnet-up on an empty square, left a while, turned over; returns when. */
  private upsideDown(sq: number, kind: FlipEpisode['kind']): number {
    const { sim } = this.table;
    const off = this.style.upsideDownOffMm;
    sim.set(sq, 1, off === undefined ? { upsideDown: true } : { upsideDown: true, offMm: off });
    const from = this.table.now() + sim.physics.options.motionMs;
    this.table.wait(this.pause(...this.style.upsideDownMs));
    sim.flip(sq);
    this.flips.push({ square: sq, kind, from, to: this.table.now() });
    return this.table.now();
  }

  playMove(move: Move, crownStyle?: CrownStyle): number {
    const { sim } = this.table;
    const r = this.rng;
    const st = this.style;
    const size = sim.coinsAt(move.from);
    const mover = colorOf(this.table.game.position, move.from);
    // (On a polarity-coded board the coins the hand puts down are the mover's: it holds them.)
    sim.hold(mover ?? null);
    this.flippedAt = -1;
    // The page still asks for a crown the player did put on (an off-centre stack reading like a
    // man), or the buzzer says so: the player straightens the stack.
    const sq = this.table.tracker.crownSquare;
    if (sq !== null && sim.coinsAt(sq) === 2) {
      this.did(this.table.tracker.currentAlert ? 'crown straightened when told (buzzer)' : 'crown straightened when the page asked');
      sim.slide(sq, this.pause(0, 5) / 10);
      this.table.wait(this.pause(300, 800));
    }
    // A neighbour knocked earlier is straightened now and then.
    if (this.knocked !== null && sim.coinsAt(this.knocked) > 0 && r() < 0.3) {
      this.did('straighten-knocked');
      sim.slide(this.knocked, this.pause(0, 5) / 10);
      this.knocked = null;
      this.step();
    }
    if (st.knockKing && r() < st.knockKing) {
      // A sleeve reaching across knocks a king (either side's) off-centre; nobody straightens it.
      const kings = Array.from({ length: 32 }, (_, i) => i + 1).filter((s) => sim.coinsAt(s) === 2);
      if (kings.length) {
        const s = kings[Math.floor(r() * kings.length)];
        this.did('knock-king');
        sim.slide(s, 1 + 2 * r());
        this.step();
      }
    }
    if (r() < st.touchOther) {
      // Touch one of the mover's other pieces: lift it a little, think, let go.
      const own = Array.from({ length: 32 }, (_, i) => i + 1).filter(
        (s) => s !== move.from && colorOf(this.table.game.position, s) === mover && sim.coinsAt(s) > 0,
      );
      if (own.length) {
        const s = own[Math.floor(r() * own.length)];
        this.did('touch');
        sim.touch(s, 0.4 + 0.3 * r());
        this.table.wait(this.pause(80, 1500));
        sim.touch(s, 1);
        if (r() < 0.5) sim.slide(s, sim.physics.coinsOn(s)[0].offMm * r() + (r() < 0.3 ? 1 : 0));
        this.step();
      }
    }
    if (st.adjustUpsideDown && r() < st.adjustUpsideDown) {
      // A j'adoube: one of the mover's men straightened, put back magnet-up, turned over later.
      const men = Array.from({ length: 32 }, (_, i) => i + 1).filter(
        (s) => s !== move.from && !move.captures.includes(s) && colorOf(this.table.game.position, s) === mover && sim.coinsAt(s) === 1,
      );
      if (men.length) {
        const s = men[Math.floor(r() * men.length)];
        this.did('adjust-upside-down');
        sim.lift(s);
        this.table.wait(this.pause(100, 600));
        this.upsideDown(s, 'adjust');
        this.step();
      }
    }
    if (r() < st.touchAndPutBack) {
      this.did('lift-put-back');
      sim.lift(move.from);
      this.table.wait(this.pause(100, 1500));
      sim.set(move.from, size);
      this.step();
    }
    // When does each captured piece go: before the move, during it, after it, or a few seconds later.
    const late = move.captures.length > 0 && r() < st.capturesLate;
    const when = move.captures.map(() => (late ? 'late' : r() < 0.2 ? 'before' : r() < 0.5 ? 'during' : 'after'));
    if (late) this.did('captures-late');
    const takeOff = (c: number) => {
      // A captured king is taken off together or one coin at a time.
      if (sim.coinsAt(c) === 2 && r() < st.kingCoinByCoin) {
        this.did('king-coin-by-coin');
        sim.lift(c, 1);
        this.step();
      }
      sim.lift(c);
      this.essentialAt = this.table.now();
    };
    move.captures.forEach((c, k) => {
      if (when[k] === 'before') {
        takeOff(c);
        this.step();
      }
    });
    const byCoin = size === 2 && r() < st.kingCoinByCoin;
    if (byCoin) {
      this.did('king-coin-by-coin');
      sim.lift(move.from, 1);
      this.step();
    }
    sim.lift(move.from);
    this.step();
    if (r() < st.carryOver) {
      // Carried low over an empty square on the way: a brief, partial reading there.
      const over = diagonalNeighbours(move.from).filter((s) => sim.coinsAt(s) === 0 && !move.path.includes(s));
      if (over.length) {
        const s = over[Math.floor(r() * over.length)];
        this.did('carry-over');
        sim.set(s, 1, { offMm: 3 + r() });
        this.table.wait(this.pause(10, 40));
        sim.set(s, 0);
        this.table.wait(this.pause(30, 120));
      }
    }
    const stepping = move.path.length > 1 && r() < st.stepThrough;
    // Crowned on top (after any delay, 0 ms included), underneath, or a ready-made stack put down.
    const crown =
      move.crowned && crownStyle !== 'none' ? (crownStyle ?? (['top', 'top', 'under', 'stacked'] as const)[Math.floor(r() * 4)]) : null;
    const nudge = r() < st.offCentreNudge;
    const land = (sq: number, last: boolean) => {
      this.landedAt = this.table.now();
      if (last && crown === 'stacked') {
        this.did('crown-stacked');
        sim.set(sq, 2);
      } else if (last && nudge && !byCoin) {
        this.did('off-centre-nudge');
        sim.set(sq, size, { offMm: 2.5 + 1.5 * r() });
      } else this.putDown(sq, size, byCoin);
      // (The coin is down when it lands; turning a magnet-up coin over comes after.)
      this.essentialAt = this.flippedAt > this.landedAt ? this.landedAt : this.table.now();
    };
    if (stepping) {
      move.path.forEach((sq, k) => {
        const last = k === move.path.length - 1;
        land(sq, last);
        this.step();
        if (when[k] === 'during') {
          takeOff(move.captures[k]);
          this.step();
        }
        if (!last) {
          sim.lift(sq);
          this.step();
        }
      });
    } else {
      land(move.to, true);
      this.step();
      move.captures.forEach((c, k) => {
        if (when[k] === 'during') {
          takeOff(c);
          this.step();
        }
      });
    }
    const nudgeDue = nudge && crown !== 'stacked' && !byCoin ? this.table.now() + this.pause(500, 2000) : Infinity;
    const after: string[] = [];
    // (A coin put down magnet-up is a coin in place; turning it over comes after.)
    if (this.flippedAt > this.landedAt) after.push('upside-down coin turned over');
    const doNudge = () => {
      sim.slide(move.to, this.pause(0, 5) / 10);
    };
    move.captures.forEach((c, k) => {
      if (when[k] === 'after') {
        takeOff(c);
        this.step();
      }
    });
    if (late) {
      this.table.wait(this.pause(1500, 5000));
      move.captures.forEach((c) => {
        takeOff(c);
        this.step();
      });
    }
    const inPlace = this.essentialAt + sim.physics.options.motionMs;
    if (crown === 'top' || crown === 'under') after.push('crowning');
    // Crowning: fetch a coin and put it on top (at once, or after a moment), or lift the man and slip it under.
    if (crown === 'top') {
      const d = r();
      const delay = d < 0.25 ? 0 : d < 0.5 ? this.pause(1, 120) : d < 0.9 ? this.pause(250, 800) : this.pause(1000, 3000);
      this.did(delay === 0 ? 'crown-top-at-once' : delay <= 120 ? 'crown-top-fast' : 'crown-top');
      if (delay) this.table.wait(delay);
      if (st.crownUpsideDown && r() < st.crownUpsideDown) {
        this.did('crown-upside-down');
        sim.place(move.to, { upsideDown: true });
        const from = this.table.now() + sim.physics.options.motionMs;
        this.table.wait(this.pause(...st.upsideDownMs));
        sim.flip(move.to);
        this.flips.push({ square: move.to, kind: 'crown', from, to: this.table.now(), after: delay });
      } else sim.place(move.to);
    } else if (crown === 'under') {
      const crownStep = () => this.table.wait(this.pause(250, 800));
      this.did('crown-under');
      crownStep();
      sim.lift(move.to);
      crownStep();
      sim.place(move.to);
      crownStep();
      sim.place(move.to);
    }
    if (crown && st.knockKing && r() < st.knockKing) {
      // The sleeve of the hand leaving its crown knocks the new king 1–3 mm (once the crown is down).
      this.table.wait(sim.physics.options.motionMs + this.pause(0, 300));
      this.did('knock-new-king');
      after.push('the new king knocked');
      sim.slide(move.to, 1 + 2 * r());
    }
    if (nudgeDue < Infinity) {
      if (this.table.now() < nudgeDue) this.table.wait(nudgeDue - this.table.now());
      doNudge();
      after.push('nudged to the centre');
    }
    if (r() < st.knockNeighbour) {
      // The hand leaving knocks a neighbour of the landing square off-centre.
      const near = diagonalNeighbours(move.to).filter((s) => sim.coinsAt(s) > 0);
      if (near.length) {
        const s = near[Math.floor(r() * near.length)];
        this.did('knock-neighbour');
        after.push('a neighbour knocked');
        sim.slide(s, 2 + r());
        this.knocked = s;
        if (r() < 0.4) {
          this.table.wait(this.pause(300, 2500));
          this.did('straighten-knocked');
          sim.slide(s, this.pause(0, 5) / 10);
          this.knocked = null;
        }
      }
    }
    // The hand has left the board once the last action's motion is over.
    const rest = this.table.lastHandAt + sim.physics.options.motionMs;
    this.lastMove = { rest, inPlace, after };
    if (r() < st.fastReply) return rest; // the opponent starts at once
    this.table.wait(r() < st.longPause ? this.pause(1000, 4000) : this.pause(60, 400));
    return rest;
  }
}

const colorOf = (pos: Position, s: number): Color | null => colorAt(pos, s);
