// The reader on plain numbers: calibration levels, thresholds, the wait before
// a change counts, what a step in a reading means (and does not), stacks where
// the game allows them and where it does not, coins lying magnet-up, learning.
import { describe, expect, it } from 'vitest';
import {
  Calibration,
  MIN_STACK_RATIO,
  NOMINAL,
  SQUARE_COUNT,
  agreesWithOccupancy,
  occupancyConflicts,
} from '../../src/reading/calibration.ts';
import { BoardReader } from '../../src/reading/reader.ts';
import { THRESHOLDS } from '../../src/reading/thresholds.ts';

const UPSIDE_DOWN_STEP = THRESHOLDS.upsideDown;
import { CalibrationRoutine } from '../../src/reading/routine.ts';

const START: number[] = Array.from({ length: SQUARE_COUNT }, (_, i) => (i < 12 || i >= 20 ? 1 : 0));
const EMPTY = 500,
  ONE = 700,
  TWO = 780; // span 200, stack ratio 1.4

/** A board whose every square is known: empty 500, one coin 700, two 780. */
function calibrated(measured = false): Calibration {
  const c = Calibration.fromKnown(new Array(32).fill(EMPTY), new Array(32).fill(0));
  for (let i = 0; i < 32; i++) {
    c.learn(i, 1, ONE, 1);
    c.learn(i, 2, TWO, 1);
    if (measured) c.markMeasured(i);
  }
  return c;
}

/** Feeds frames every 10 ms from t, `ms` long; `at(t)` gives square 1's reading (the others stay as `rest`). */
function feed(r: BoardReader, t: number, ms: number, at: (t: number) => number, rest: number[] = new Array(32).fill(EMPTY)): number {
  const frame = [...rest];
  for (let k = 0; k < ms; k += 10) {
    frame[0] = at(t + k);
    r.push(t + k, frame);
  }
  return t + ms;
}

describe('calibration', () => {
  it('learns every level from a known occupancy, and estimates the ones it did not see', () => {
    const readings = START.map((n, i) => (n ? 700 + (i % 3) * 10 : 500 + (i % 2)));
    const c = Calibration.fromKnown(readings, START);
    expect(c.empty[13]).toBe(501); // measured
    expect(c.one[0]).toBe(700);
    expect(c.oneKnown[14]).toBe(0);
    expect(c.one[14] - c.empty[14]).toBe(209.5); // the board's median coin
    expect(c.two[0]).toBeCloseTo(500 + NOMINAL.stackRatio * 200, 0);
    expect(c.twoKnown[0]).toBe(0);
  });

  it('a king in the known occupancy that reads like one coin (off-centre) is no two-coin level', () => {
    const counts = [...START];
    counts[0] = 2;
    const readings: number[] = START.map((n) => (n ? 700 : 500));
    readings[0] = 705; // a stack 3 mm off-centre reads like a centred man
    const c = Calibration.fromKnown(readings, counts);
    expect(c.twoKnown[0]).toBe(0);
    expect(c.two[0]).toBeGreaterThan(c.one[0] + 40);
    // …and the board still agrees with that occupancy: one coin or two is the game's call.
    expect(agreesWithOccupancy(readings, counts, 40)).toBe(true);
  });

  it('agrees with an occupancy only if every coin stands clear of the empty squares', () => {
    const readings: number[] = START.map((n) => (n ? 700 : 500));
    expect(agreesWithOccupancy(readings, START, 40)).toBe(true);
    readings[3] = 520; // a coin missing where one should be
    expect(agreesWithOccupancy(readings, START, 40)).toBe(false);
  });

  it('the one-coin level follows the best-centred coin (up at once, down slowly); a stack never sits closer than 1.3 coins', () => {
    const c = calibrated();
    c.learn(0, 1, 740, 0.3);
    expect(c.one[0]).toBe(740);
    c.learn(0, 1, 650, 0.3);
    expect(c.one[0]).toBeGreaterThan(730);
    c.learn(0, 2, 720, 0.3); // an off-centre king
    expect(c.two[0]).toBeGreaterThanOrEqual(EMPTY + MIN_STACK_RATIO * (c.one[0] - EMPTY) - 1e-9);
  });

  it('a man reading above a two-coin level learnt in play drops that level (it came from an off-centre king); a measured one stays', () => {
    const c = calibrated();
    c.learn(0, 2, 760, 1);
    c.learn(0, 1, 800, 0.3);
    expect(c.twoKnown[0]).toBe(0);
    expect(c.two[0]).toBeGreaterThan(800);
    const m = calibrated(true);
    m.learn(0, 1, 800, 0.3);
    expect(m.one[0]).toBe(ONE);
    expect(m.twoKnown[0]).toBe(1);
  });

  it("a measured square: a man may read a little above the routine's one-coin level, never into the upper part of the gap (that is a stack)", () => {
    const m = calibrated(true); // one 700, two 780: gap 80
    m.learn(0, 1, 725, 0.3); // a stronger magnet, better centred
    expect(m.one[0]).toBe(725);
    m.learn(0, 1, 760, 0.3); // three quarters of the way to two: no man reads there
    expect(m.one[0]).toBe(725);
    expect(m.measuredGap[0]).toBe(80);
  });

  it('datasheet-limit sensors: a coin on a low-zero sensor cannot be told from the highest empty square, unless the square was seen empty', () => {
    // Zero levels spread over 100 counts; square 1's sensor sits 90 low and its coin adds only 120.
    const zero = Array.from({ length: 32 }, (_, i) => 500 + ((i * 37) % 100) - 50);
    zero[0] = 410;
    const readings = zero.map((z, i) => (START[i] ? z + (i === 0 ? 120 : 200) : z));
    expect(occupancyConflicts(readings, START, 40)).toEqual([1]);
    const own = new Array(32).fill(Infinity);
    own[0] = 410; // seen empty before the coin went on
    expect(occupancyConflicts(readings, START, 40, own)).toEqual([]);
    const c = Calibration.fromKnown(readings, START, own, 40);
    expect(c.empty[0]).toBe(410);
    expect(c.emptyKnown[0]).toBe(1);
    // A coin on a square the set-up wants empty, above that square's own empty level, is a conflict too.
    const own2 = new Array(32).fill(Infinity);
    own2[15] = zero[15];
    const extra = [...readings];
    extra[15] = zero[15] + 200;
    expect(occupancyConflicts(extra, START, 40, own2)).toContain(16);
  });

  it('saved calibrations: levels checked, measured stacks marked', () => {
    const data = calibrated().toJSON('B1');
    data.two = data.two.map(() => TWO);
    const c = Calibration.fromJSON(data);
    expect(c.measured[5]).toBe(1);
    expect(() => Calibration.fromJSON({ ...data, one: data.empty })).toThrow(/square 1: one coin \(500\) must read above empty/);
    expect(() => Calibration.fromJSON({ ...data, version: 2 })).toThrow(/unknown version 2/);
  });
});

describe('reader', () => {
  it('counts a coin once its reading has stopped moving, not while it ramps', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 100, () => EMPTY);
    // A 50 ms ramp to one coin: still 0 while rising, 1 a frame or two after it stops.
    t = feed(r, t, 40, (x) => EMPTY + ((x - 100) / 50) * 200);
    expect(r.counts[0]).toBe(0);
    t = feed(r, t, 50, () => ONE);
    expect(r.counts[0]).toBe(1);
  });

  it('a coin carried low over a square (a brief, moving rise) is not counted', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 100, () => EMPTY);
    t = feed(r, t, 60, (x) => EMPTY + 150 * Math.sin(((x - 100) / 60) * Math.PI));
    t = feed(r, t, 200, () => EMPTY);
    expect(r.lastChange).toBe(-Infinity);
  });

  it('a man touched (reading dips 30–60 %) and let go, or nudged to the centre, stays one coin where no stack can be', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 200, () => 650); // a man a little off-centre
    expect(r.counts[0]).toBe(1);
    t = feed(r, t, 500, () => EMPTY + 0.55 * 150); // lifted 2 mm by a finger
    t = feed(r, t, 500, () => 650); // let go
    t = feed(r, t, 1000, () => ONE + 20); // nudged to the centre: higher than the level learnt
    expect(r.counts[0]).toBe(1);
  });

  it('where no stack is plausible and the levels were only learnt in play, two coins need a sustained reading past the two-coin level, and stay the game’s call', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 200, () => ONE);
    t = feed(r, t, 300, () => TWO + 20);
    expect(r.counts[0]).toBe(1); // not yet: 400 ms
    t = feed(r, t, 300, () => TWO + 20);
    expect(r.counts[0]).toBe(2);
    expect(r.uncertain & 1).toBe(1); // the tracker may read it as one coin
  });

  it('where the levels were measured, a stack clearly past the middle is two coins, firmly', () => {
    const r = new BoardReader({}, calibrated(true));
    let t = feed(r, 0, 200, () => ONE);
    t = feed(r, t, 600, () => ONE + 0.8 * (TWO - ONE));
    expect(r.counts[0]).toBe(2);
    expect(r.uncertain & 1).toBe(0);
  });

  it('where a stack is plausible (a king, a king’s landing square, a crowning square), clearly past the middle is two at once', () => {
    const r = new BoardReader({}, calibrated());
    r.setStackPrior(1);
    let t = feed(r, 0, 200, () => EMPTY);
    t = feed(r, t, 60, () => ONE + 0.8 * (TWO - ONE));
    expect(r.counts[0]).toBe(2);
  });

  it('a coin coming down where a stack is plausible, reading where one coin and two meet (noise flips the call every frame), counts once it is still, the call left to the game', () => {
    const r = new BoardReader({}, calibrated());
    r.setStackPrior(1);
    let t = feed(r, 0, 200, () => EMPTY);
    // (A king off-centre, or a well-centred man: the one/two threshold is 756 going up, and the
    // frame noise puts every other frame on each side of it.)
    t = feed(r, t, 50, (x) => EMPTY + ((x - 200) / 50) * 256);
    t = feed(r, t, 60, (x) => (x % 20 ? 761 : 751));
    expect(r.counts[0]).toBeGreaterThan(0);
    expect(r.uncertain & 1).toBe(1);
  });

  it('where a crown is awaited, a step up from the man’s own reading is the crown, even below the two-coin level', () => {
    const r = new BoardReader({}, calibrated());
    r.setStackPrior(0, 1);
    let t = feed(r, 0, 200, () => EMPTY);
    t = feed(r, t, 100, () => 600); // the man landed far off-centre
    expect(r.counts[0]).toBe(1);
    t = feed(r, t, 200, () => 660); // a coin on top: +30 % of a coin, still below one coin's level
    expect(r.counts[0]).toBe(2);
  });

  it(`a reading more than ${UPSIDE_DOWN_STEP} of a coin below empty is a coin lying magnet-up: counted, and flagged`, () => {
    expect(UPSIDE_DOWN_STEP).toBe(0.36);
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 200, () => EMPTY);
    t = feed(r, t, 100, () => EMPTY - 190);
    expect(r.counts[0]).toBe(0); // not yet: it must hold 150 ms
    t = feed(r, t, 200, () => EMPTY - 190);
    expect(r.counts[0]).toBe(1);
    expect(r.flippedMask & 1).toBe(1);
    // …and one at the farthest off-centre with a weak magnet: 0.42 of a step below.
    const w = new BoardReader({}, calibrated());
    let u = feed(w, 0, 200, () => EMPTY);
    u = feed(w, u, 400, () => EMPTY - 84);
    expect(w.counts[0]).toBe(1);
    expect(w.flippedMask & 1).toBe(1);
    // A little below empty (drift, a neighbour leaving: within the square's noise margin) is nothing.
    const q = new BoardReader({}, calibrated());
    feed(q, 0, 1000, () => EMPTY - 20);
    expect(q.counts[0]).toBe(0);
    expect(q.flippedMask).toBe(0);
  });

  it('a confirmed man sitting better than any coin seen there raises the square’s one-coin level', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 300, () => 650);
    r.confirm();
    t = feed(r, t, 300, () => 650);
    t = feed(r, t, 600, () => ONE + 40);
    expect(r.calibration.one[0]).toBeCloseTo(ONE + 40, 0);
    expect(r.counts[0]).toBe(1);
  });

  it('a steady faint reading (a coin half-lifted, an emptied square whose empty level was a guess) is marked for the game to decide; a passing ramp is not', () => {
    const r = new BoardReader({}, calibrated());
    let t = feed(r, 0, 200, () => ONE);
    t = feed(r, t, 30, (x) => ONE - ((x - 200) / 50) * 200); // being lifted: passes through the band
    expect(r.faintMask & 1).toBe(0);
    t = feed(r, t, 300, () => EMPTY + 0.25 * 200); // then steady at a quarter of a coin
    expect(r.faintMask & 1).toBe(1);
    // The game says empty: held empty while the reading stays faint, released when it leaves the band.
    r.correct(1, 0);
    t = feed(r, t, 300, () => EMPTY + 0.3 * 200);
    expect(r.counts[0]).toBe(0);
    t = feed(r, t, 300, () => ONE);
    expect(r.counts[0]).toBe(1);
  });

  it('says where a square reads between its levels (coins above empty, the way from one coin to two)', () => {
    const r = new BoardReader({}, calibrated());
    feed(r, 0, 500, () => ONE + 40);
    expect(r.level(1).coins).toBeCloseTo(1.2, 2);
    expect(r.level(1).stack).toBeCloseTo(0.5, 2);
  });

  it('calibrates from the start position only once the board has been still', () => {
    const r = new BoardReader();
    const frame = START.map((n) => (n ? 700 : 500));
    r.push(0, frame);
    expect(r.calibrateFrom(START)).toBe(false);
    for (let k = 1; k <= 25; k++) r.push(k * 10, frame);
    expect(r.calibrateFrom(START)).toBe(true);
    expect(Array.from(r.counts)).toEqual(START);
  });
  it('a board that cannot calibrate from the set-up names the squares it cannot tell from empty; lifting such a coin for a moment settles it', () => {
    const zero = Array.from({ length: 32 }, (_, i) => 500 + ((i * 37) % 100) - 50);
    zero[0] = 410;
    const frame = zero.map((z, i) => (START[i] ? z + (i === 0 ? 120 : 200) : z));
    const r = new BoardReader();
    let t = 0;
    const run = (f: number[], ms: number) => {
      for (let k = 0; k < ms; k += 10, t += 10) r.push(t, f);
    };
    run(frame, 400);
    expect(r.calibrateFrom(START)).toBe(false);
    expect(r.view().unclear).toBe(1); // square 1
    // The coin on 1 lifted for half a second, then put back.
    run(
      frame.map((v, i) => (i === 0 ? zero[0] : v)),
      500,
    );
    run(frame, 400);
    expect(r.calibrateFrom(START)).toBe(true);
    expect(r.view().unclear).toBe(0);
    expect(r.calibration.empty[0]).toBeCloseTo(410, 0);
    expect(Array.from(r.counts)).toEqual(START);
  });

  it('the same board set up from empty calibrates at once (every square was seen empty)', () => {
    const zero = Array.from({ length: 32 }, (_, i) => 500 + ((i * 37) % 100) - 50);
    zero[0] = 410;
    const frame = zero.map((z, i) => (START[i] ? z + (i === 0 ? 120 : 200) : z));
    const r = new BoardReader();
    let t = 0;
    for (; t < 500; t += 10) r.push(t, zero);
    for (; t < 1000; t += 10) r.push(t, frame);
    expect(r.calibrateFrom(START)).toBe(true);
  });

  it('a man the game settled on a measured square, then reading steadily higher than any man reads there, is two coins again (a coin put on it)', () => {
    const r = new BoardReader({}, calibrated(true));
    let t = feed(r, 0, 300, () => ONE);
    r.apply([{ kind: 'correct', square: 1, count: 1 }]);
    t = feed(r, t, 300, () => ONE + 20); // a man sitting better: stays one
    expect(r.counts[0]).toBe(1);
    t = feed(r, t, 500, () => TWO - 5); // a coin put on it
    expect(r.counts[0]).toBe(2);
  });

  it('feedback from the game is applied in order: where stacks are plausible and expected, calls it settled, boards it confirmed', () => {
    const r = new BoardReader({}, calibrated());
    feed(r, 0, 300, () => ONE);
    r.apply([
      { kind: 'stack-prior', plausible: 0b11, expected: 0b1 },
      { kind: 'confirm', except: 0 },
    ]);
    expect(r.view().plausibleStacks).toBe(0b11);
    expect(r.view().expectedStacks).toBe(0b1);
    r.apply([{ kind: 'correct', square: 1, count: 2 }]);
    expect(r.view().counts[0]).toBe(2);
    expect(r.apply([{ kind: 'calibrate-from', counts: START }])).toBe(false); // square 1 is no start-position board
  });
});

describe('the calibration routine on a polarity-coded set', () => {
  it("recognises the set at the start position, measures distances from empty either way, and a reader using it counts White's coins", () => {
    const empty = Array.from({ length: 32 }, (_, i) => 500 + ((i * 13) % 40) - 20);
    const routine = new CalibrationRoutine();
    let t = 0;
    const hold = (frame: number[], ms = 800) => {
      for (let k = 0; k < ms; k += 10, t += 10) routine.push(t, frame);
    };
    hold(empty);
    expect(routine.progress().step).toBe('start');
    // Black's coins up by a coin, White's down by as much.
    hold(empty.map((e, i) => (i < 12 ? e + 200 : i >= 20 ? e - 200 : e)));
    expect(routine.progress().step).toBe('stack');
    expect(routine.progress().message).toMatch(/stack of two coins of one colour on square 1/);
    for (let sq = 1; sq <= 32; sq++) {
      hold(empty.map((e, i) => (i === sq - 1 ? (sq % 2 ? e + 290 : e - 290) : e)));
      if (sq < 32) hold(empty);
    }
    expect(routine.finished).toBe(true);
    const c = routine.result();
    expect(c.coded).toBe(true);
    expect(c.one[25] - c.empty[25]).toBeCloseTo(200, 0); // square 26 (White's): a distance, upwards
    expect(c.two[1] - c.empty[1]).toBeCloseTo(290, 0);
    // Saved and read back, it stays a coded calibration; a bad coding is named.
    const back = Calibration.fromJSON(JSON.parse(JSON.stringify(c.toJSON('B1'))));
    expect(back.coded).toBe(true);
    expect(() => Calibration.fromJSON({ ...c.toJSON(), coding: 'stripes' })).toThrow(
      /"coding" must be "uniform" or "polarity", not "stripes"/,
    );
    const r = new BoardReader({}, back);
    const frame = empty.map((e, i) => (i === 25 ? e - 200 : e));
    for (let k = 0; k < 300; k += 10) r.push(k, frame);
    expect(r.view().coded).toBe(true);
    expect(r.counts[25]).toBe(1);
    expect(r.view().whiteSide).toBe(1 << 25);
    expect(r.flippedMask).toBe(0);
  });
});
