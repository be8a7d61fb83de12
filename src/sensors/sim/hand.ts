// The "hand" API shared by the simulated and the emulated board (what a
// player does to the physical board), and a scripted timeline of hand
// actions at given times (for tests), plus PDN move helpers that turn
// "11-15" or "15x22" into the lifts and placements a player makes.

import { SQUARES } from '../protocol.ts';

/** What each option is when it is not given. */
const DEFAULTS = { gapMs: 200, coins: 1 } as const;

/**
 * What a hand does to the board. The simulated board acts at once (returns
 * void); the emulated one goes through the emulator's control channel
 * (returns a Promise) — `await` works for both.
 */
export interface BoardHand {
  /** Add one coin to a square (a king is two stacked coins). RangeError beyond 2. */
  place(square: number): void | Promise<void>;
  /** Take the piece (all coins) off a square, or just `coins` of them. RangeError if fewer stand there. */
  lift(square: number, coins?: number): void | Promise<void>;
  /** Put exactly `coins` (0–2) on a square. */
  set(square: number, coins: number): void | Promise<void>;
  /** The start position: squares 1–12 and 21–32 one coin each, 13–20 empty. */
  setupStart(): void | Promise<void>;
  /** Empty the board. */
  clear(): void | Promise<void>;
  /** Coins on a square (0–2). */
  coinsAt(square: number): number;
}

export type HandAction =
  | { op: 'place'; square: number }
  | { op: 'lift'; square: number; coins?: number }
  | { op: 'set'; square: number; coins: number }
  | { op: 'start' }
  | { op: 'clear' };

/** A hand action at a time (ms on the source's clock). */
export type TimelineStep = HandAction & { at: number };

export function applyHandAction(hand: BoardHand, a: HandAction): void | Promise<void> {
  switch (a.op) {
    case 'place':
      return hand.place(a.square);
    case 'lift':
      return hand.lift(a.square, a.coins);
    case 'set':
      return hand.set(a.square, a.coins);
    case 'start':
      return hand.setupStart();
    case 'clear':
      return hand.clear();
  }
}

/** Queue of timeline steps, released in time order. */
export class Timeline {
  private steps: TimelineStep[] = [];

  add(steps: readonly TimelineStep[]): void {
    this.steps.push(...steps);
    this.steps.sort((a, b) => a.at - b.at); // stable: equal times keep their order
  }
  /** Remove and return the steps due at or before t. */
  due(t: number): TimelineStep[] {
    let n = 0;
    while (n < this.steps.length && this.steps[n].at <= t) n++;
    return n ? this.steps.splice(0, n) : [];
  }
  get pending(): number {
    return this.steps.length;
  }
  clear(): void {
    this.steps = [];
  }
}

export const START_POSITION: readonly number[] = Array.from({ length: SQUARES }, (_, i) => (i < 12 || i >= 20 ? 1 : 0));

/** (row, column) of a PDN square on the 8×8 board, row 0 holding squares 1–4. */
export function squareToRowCol(square: number): [number, number] {
  const r = Math.floor((square - 1) / 4);
  const i = (square - 1) % 4;
  return [r, 2 * i + (r % 2 === 0 ? 1 : 0)];
}

export function rowColToSquare(r: number, c: number): number | undefined {
  if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 === 0) return undefined;
  return r * 4 + Math.floor(c / 2) + 1;
}

/**
 * The hand actions that play a PDN move, "11-15" or a (multi-)capture
 * "15x22" / "1x10x19": lift the piece, put it down on the landing square,
 * then lift each captured piece; `crown` stacks a second coin on arrival.
 * `coins` is the piece's size (1 man, 2 king). `gapMs` separates the actions.
 */
export function moveTimeline(move: string, at: number, opts: { coins?: number; gapMs?: number; crown?: boolean } = {}): TimelineStep[] {
  const gap = opts.gapMs ?? DEFAULTS.gapMs;
  const coins = opts.coins ?? DEFAULTS.coins;
  const capture = move.includes('x');
  const path = move.split(capture ? 'x' : '-').map(Number);
  if (path.length < 2 || path.some((s) => !Number.isInteger(s) || s < 1 || s > SQUARES)) {
    throw new RangeError(`"${move}" is not a PDN move`);
  }
  const from = path[0];
  const to = path[path.length - 1];
  const steps: TimelineStep[] = [{ at, op: 'lift', square: from }];
  let t = at + gap;
  steps.push({ at: t, op: 'set', square: to, coins: opts.crown ? 2 : coins });
  if (capture) {
    for (let k = 1; k < path.length; k++) {
      const [r1, c1] = squareToRowCol(path[k - 1]);
      const [r2, c2] = squareToRowCol(path[k]);
      const mid = rowColToSquare((r1 + r2) / 2, (c1 + c2) / 2);
      if (Math.abs(r1 - r2) !== 2 || mid === undefined) throw new RangeError(`"${move}": ${path[k - 1]}x${path[k]} is not a jump`);
      t += gap;
      steps.push({ at: t, op: 'lift', square: mid });
    }
  }
  return steps;
}
