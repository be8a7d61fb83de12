// Runs the bring-up check on an open board source: frames from the source go
// to the step machine (bring-up.ts), each new instruction goes to `say`, and on
// a simulated or emulated board a simulated hand carries it out (a third of a
// second later, as a person would). A source on a virtual clock (the
// simulated board in tests) is stepped through `advance` instead of waiting
// on real time. Ends with the verdict (verdict.ts).

import type { BoardSource, RawFrame } from '../sensors/source.ts';
import { BringUp, stepText, type DoctorStep, type Observations } from './bring-up.ts';
import { judge, type DoctorVerdict } from './verdict.ts';
import type { DoctorSensor } from './sensor.ts';

/** What each option is when it is not given. */
const DEFAULTS = { handDelayMs: 300 } as const;

/** What the doctor needs of a simulated hand (the simulated board and the emulator have it). */
export interface DoctorHand {
  place(square: number): void | Promise<void>;
  lift(square: number, coins?: number): void | Promise<void>;
  flip(square: number): void | Promise<void>;
  clear(): void | Promise<void>;
  coinsAt(square: number): number;
  /** put coin `coin` of the set (numbered from 1) on a square (the coin check); absent: any coin */
  placeCoin?(square: number, coin: number): void | Promise<void>;
}

export interface RunOptions {
  source: Pick<BoardSource, 'onFrame'>;
  hand?: DoctorHand;
  squares?: readonly number[];
  stepTimeoutMs?: number;
  /** the coin check: how many coins to put on one square in turn (0 or absent: none) */
  coins?: number;
  /** the Hall sensor fitted (absent or 'auto': told from the readings) */
  sensor?: DoctorSensor | 'auto';
  say(line: string): void;
  /** a virtual clock: advance the source by this many ms (the frames it makes are delivered at once) */
  advance?: (ms: number) => void;
  /** how long the simulated hand waits before doing what it is told, ms (default 300) */
  handDelayMs?: number;
}

export interface DoctorRun {
  observations: Observations;
  verdict: DoctorVerdict;
}

export async function runDoctor(o: RunOptions): Promise<DoctorRun> {
  const bringUp = new BringUp({ squares: o.squares, stepTimeoutMs: o.stepTimeoutMs, coins: o.coins });
  const delay = o.handDelayMs ?? DEFAULTS.handDelayMs;
  // The simulated hand's next job: what it was told, and from what frame time it does it.
  const hand: { next: { step: DoctorStep; prev: DoctorStep; at: number } | null } = { next: null };
  let lastT = 0;
  const announce = (step: DoctorStep, prev: DoctorStep, at: number) => {
    if (prev.kind === 'place' && step.kind !== 'lift' && bringUp.obs.responses.at(-1)?.timedOut)
      o.say(`No change seen under ${prev.square}: lift the coin if you put one there, and go on.`);
    if (prev.kind === 'coin' && step.kind !== 'coin-lift')
      o.say(`Coin ${prev.coin} moved nothing on ${prev.square}: lift it, set it apart, and go on.`);
    o.say(stepText(step));
    hand.next = o.hand ? { step, prev, at } : null;
  };
  let finished!: () => void;
  const done = new Promise<void>((r) => (finished = r));
  const onFrame = (f: RawFrame) => {
    lastT = f.t;
    const prev = bringUp.step;
    const next = bringUp.push(f.t, f.readings);
    if (next) announce(next, prev, f.t + delay);
    if (bringUp.done) finished();
  };
  const off = o.source.onFrame(onFrame);
  try {
    announce(bringUp.step, bringUp.step, 0);
    while (!bringUp.done) {
      const job = hand.next;
      if (job && o.hand && lastT >= job.at) {
        hand.next = null;
        await act(o.hand, job.step, job.prev);
      }
      if (o.advance) o.advance(20);
      else await Promise.race([done, new Promise((r) => setTimeout(r, 20))]);
    }
  } finally {
    off();
  }
  return { observations: bringUp.obs, verdict: judge(bringUp.obs, { sensor: o.sensor }) };
}

/** The simulated hand doing what the doctor asked. */
async function act(hand: DoctorHand, step: DoctorStep, prev: DoctorStep): Promise<void> {
  // a coin put on a square that showed nothing is taken back before the next one
  if ((prev.kind === 'place' || prev.kind === 'coin') && step.kind === prev.kind && hand.coinsAt(prev.square) > 0)
    await hand.lift(prev.square);
  switch (step.kind) {
    case 'clear':
      return hand.clear();
    case 'place':
    case 'stack':
      return hand.place(step.square);
    case 'coin':
      return hand.placeCoin ? hand.placeCoin(step.square, step.coin) : hand.place(step.square);
    case 'lift':
    case 'unflip':
    case 'coin-lift':
      return hand.coinsAt(step.square) > 0 ? hand.lift(step.square) : undefined;
    case 'unstack':
      return hand.lift(step.square, 1);
    case 'flip':
      return hand.flip(step.square);
    case 'done':
      return;
  }
}
