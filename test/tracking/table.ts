// Test harness: a simulated board, a game and a tracker wired together on the
// sim's virtual clock, and a randomised "hand" that plays moves the way people
// do (captures removed before, during or after; multi-jumps stepped or placed
// straight; crowns under or on top; pieces lifted and put back; pauses).

import { SimBoard, mulberry32, type Rng, type SimBoardOptions } from '../../src/sensors/sim/index.ts';
import { Game, type Move, type Position } from '../../src/rules/index.ts';
import { MoveTracker, type TrackerEvent, type TrackerOptions } from '../../src/tracking/tracker.ts';

export class Table {
  readonly sim: SimBoard;
  readonly tracker: MoveTracker;
  readonly events: TrackerEvent[] = [];
  game: Game;
  /** frame-clock time of the hand's last action */
  lastHandAt = 0;

  constructor(opts: { seed?: number; game?: Game; tracker?: Partial<TrackerOptions>; physics?: SimBoardOptions['physics'] } = {}) {
    this.sim = new SimBoard({ seed: opts.seed ?? 1, physics: opts.physics });
    this.game = opts.game ?? Game.standard();
    this.tracker = new MoveTracker(this.game, opts.tracker);
    // Remember when the hand last touched the board (for commit latency).
    for (const name of ['place', 'lift', 'set'] as const) {
      const f = this.sim[name].bind(this.sim) as (...a: number[]) => void;
      (this.sim as unknown as Record<string, unknown>)[name] = (...a: number[]) => {
        this.lastHandAt = this.sim.now();
        f(...a);
      };
    }
    this.sim.onFrame((f) => {
      for (const e of this.tracker.push(f.t, f.readings)) this.events.push(e);
    });
  }

  async open(): Promise<void> {
    await this.sim.open();
    this.wait(100);
  }

  /** Puts the game's position on the board and waits until the tracker says ready. */
  setUp(pos: Position = this.game.position): void {
    for (let s = 1; s <= 32; s++) {
      const b = 1 << (s - 1);
      this.sim.set(s, (pos.black | pos.white) & b ? (pos.kings & b ? 2 : 1) : 0);
    }
    this.wait(600);
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
  /** 0–1 probability of each habit */
  touchAndPutBack: number;
  stepThrough: number;
  fastReply: number;
  longPause: number;
}

export const HUMAN: HandStyle = { touchAndPutBack: 0.08, stepThrough: 0.5, fastReply: 0.04, longPause: 0.05 };

/**
 * A randomised hand. `playMove` performs one legal move on the sim as a
 * person might, and returns the frame time at which the pieces came to rest.
 */
export class RandomHand {
  readonly rng: Rng;
  constructor(readonly table: Table, seed: number, readonly style: HandStyle = HUMAN) {
    this.rng = mulberry32(seed);
  }

  private pause(lo: number, hi: number): number {
    return Math.round(lo + this.rng() * (hi - lo));
  }

  /** Small pause while a move is in progress (kept under the tracker's patience). */
  private step(): void {
    this.table.wait(this.pause(70, 350));
  }

  playMove(move: Move, crownStyle?: 'top' | 'under' | 'stacked' | 'none'): number {
    const { sim } = this.table;
    const r = this.rng;
    const size = sim.coinsAt(move.from);
    if (r() < this.style.touchAndPutBack) {
      sim.lift(move.from);
      this.table.wait(this.pause(100, 1500));
      sim.set(move.from, size);
      this.step();
    }
    // When does each captured piece go: before the move, during it, or after it.
    const when = move.captures.map(() => (r() < 0.2 ? 'before' : r() < 0.5 ? 'during' : 'after'));
    move.captures.forEach((c, k) => {
      if (when[k] === 'before') {
        sim.lift(c);
        this.step();
      }
    });
    sim.lift(move.from);
    this.step();
    const stepping = move.path.length > 1 && r() < this.style.stepThrough;
    // Crowned on top or underneath (the piecepack way); 'stacked' (a ready stack put down) only when asked.
    const crown = move.crowned && crownStyle !== 'none' ? (crownStyle ?? (['top', 'under'] as const)[Math.floor(r() * 2)]) : null;
    if (stepping) {
      move.path.forEach((sq, k) => {
        const last = k === move.path.length - 1;
        sim.set(sq, last && crown === 'stacked' ? 2 : size);
        this.step();
        if (when[k] === 'during') {
          sim.lift(move.captures[k]);
          this.step();
        }
        if (!last) {
          sim.lift(sq);
          this.step();
        }
      });
    } else {
      sim.set(move.to, crown === 'stacked' ? 2 : size);
      this.step();
      move.captures.forEach((c, k) => {
        if (when[k] === 'during') {
          sim.lift(c);
          this.step();
        }
      });
    }
    move.captures.forEach((c, k) => {
      if (when[k] === 'after') {
        sim.lift(c);
        this.step();
      }
    });
    // Crowning takes a moment: fetch a coin, then put it on top, or lift the man and slip it under.
    const crownStep = () => this.table.wait(this.pause(250, 800));
    if (crown === 'top') {
      crownStep();
      sim.place(move.to);
    } else if (crown === 'under') {
      crownStep();
      sim.lift(move.to);
      crownStep();
      sim.place(move.to);
      crownStep();
      sim.place(move.to);
    }
    // The pieces are at rest once the last action's motion is over.
    const rest = this.table.lastHandAt + sim.physics.options.motionMs;
    if (r() < this.style.fastReply) return rest; // the opponent starts at once
    this.table.wait(r() < this.style.longPause ? this.pause(1000, 4000) : this.pause(60, 400));
    return rest;
  }
}
