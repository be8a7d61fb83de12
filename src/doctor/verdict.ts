// What the bring-up check's observations mean for a builder: per square the
// zero level, noise and the rise one coin gives; the faults a hand-wired
// board really has (a dead sensor, a sensor mounted the wrong way round, a
// select line of the multiplexers swapped, stuck or shorted, output wires
// crossed or open and a settling ghost (wiring.ts), an output that
// reaches the end of its range, a noisy or offset part, weak magnets), each
// named with what to do; the magnet the readings fit best, the flip level
// it gives, and the king's margin (a king knocked 3 mm off-centre must still
// read above a centred man); a weak, reversed or unmagnetised coin of the set
// (coins.ts). Pure: observations in, a report out.

import type { Observations } from './bring-up.ts';
import { strongSet, wiringFaults } from './wiring.ts';
import { judgeCoins } from './coins.ts';
import { describeSelectFault, selectFaults, sensorRead, type SelectFault } from '../sensors/mux.ts';
import { GEOMETRY, MAGNETS, MV_PER_COUNT, OFF, RING_TOLERANCE, discBz, pieceField, z1, type Magnet } from '../sensors/magnet-physics.ts';
import { detectSensor, limitsOf, type DoctorSensor, type SensorLimits } from './sensor.ts';

export type Severity = 'fault' | 'warning' | 'note';

export interface Finding {
  severity: Severity;
  code:
    | 'no-output'
    | 'no-response'
    | 'reversed'
    | 'select-lines'
    | 'crossed-outputs'
    | 'open-output'
    | 'settling-ghost'
    | 'saturates'
    | 'king-clips'
    | 'sensor-detected'
    | 'zero-level'
    | 'noisy'
    | 'does-not-return'
    | 'weak-magnets'
    | 'king-margin'
    | 'coin-reversed'
    | 'weak-coin'
    | 'reversed-coin'
    | 'unmagnetised-coin'
    | 'not-tested';
  squares: number[];
  message: string;
}

export interface SquareReport {
  square: number;
  zero: number;
  noise: number;
  /** rise one coin gave (counts), null if it gave none */
  gain: number | null;
  status: 'ok' | 'fault' | 'warning' | 'untested';
}

export interface MagnetFit {
  /** disc sizes (diameter x thickness, mm) whose geometry gives the measured ratios, best first (grades only change the strength) */
  fits: string[];
  /** the upper coin of a king adds this fraction of one coin's rise (measured, and what the best size gives) */
  stack: number;
  stackFit: number | null;
  /** a coin upside down reads this fraction of a step (negative: below empty; NaN if not measured) */
  flip: number;
  flipFit: number | null;
  /** one coin's rise against what the best size in N35 gives on a typical sensor */
  strength: number | null;
  /**
   * Counts a king knocked OFF (3) mm off-centre reads above a centred man on
   * the king test's square, for the fitting size that gives the least (the off-centre field from
   * magnet-physics.ts, scaled by the coin's measured rise); ≤ 0: a knocked
   * king can read as a man.
   */
  kingMargin: number | null;
}

export interface DoctorVerdict {
  verdict: 'ok' | 'warnings' | 'faults';
  squares: SquareReport[];
  findings: Finding[];
  magnet: MagnetFit | null;
  select: SelectFault | null;
  /** the Hall sensor the readings were judged against, and whether the builder named it or the readings told */
  sensor: { key: DoctorSensor; detected: boolean };
}

export interface JudgeOptions {
  /** the sensor fitted; absent or 'auto': told from the readings (sensor.ts) */
  sensor?: DoctorSensor | 'auto';
}

const counts = (mv: number) => mv / MV_PER_COUNT;
const RAIL = 3;
const NO_OUTPUT = 40;
/** counts beyond the zero range that no working part reaches */
const FAR_OFF = 100;
const NOISY_COUNTS = 4;
/** a clipped king must still read this far above its man to be only a note */
const CLIPPED_KING_CLEAR = 20;

const list = (xs: readonly number[]) => (xs.length === 1 ? `${xs[0]}` : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const plural = (xs: readonly number[], one: string, many: string) => (xs.length === 1 ? one : many);

export function judge(obs: Observations, options: JudgeOptions = {}): DoctorVerdict {
  const findings: Finding[] = [];
  const add = (severity: Severity, code: Finding['code'], squares: number[], message: string) =>
    findings.push({ severity, code, squares, message });
  const detected = !options.sensor || options.sensor === 'auto';
  const key = detected ? detectSensor(obs.zero, medianRise(obs)) : (options.sensor as DoctorSensor);
  const L = limitsOf(key);
  if (detected && key !== 'SS49E')
    add(
      'note',
      'sensor-detected',
      [],
      `The readings fit a ${L.sn.name} (zero levels close together at VCC/2, a coin's rise ${Math.round(medianRise(obs) ?? 0)} counts): judged against its limits.`,
    );
  const dead = outputs(obs, L, add);
  const select = selectLines(obs, dead, add);
  const sign = coinSign(obs);
  const wiring = select ? null : wiringFaults(obs, dead, sign);
  for (const f of wiring?.findings ?? []) add(f.severity, f.code, f.squares, f.message);
  responses(obs, dead, select, wiring?.explained ?? new Set(), sign, add);
  const kingClipped = levels(obs, dead, L, add);
  const magnet = magnetFit(obs, sign, L, kingClipped, add);
  // a bad coin is the coin's fault, not the square's: no square named
  if (obs.coins) for (const f of judgeCoins(obs.coins.square, obs.coins.readings, sign)) add(f.severity, f.code, [], f.message);
  const worst = (sq: number) =>
    findings.some((f) => f.squares.includes(sq) && f.severity === 'fault')
      ? 'fault'
      : findings.some((f) => f.squares.includes(sq) && f.severity === 'warning')
        ? 'warning'
        : null;
  const squares = Array.from({ length: 32 }, (_, i): SquareReport => {
    const r = obs.responses.find((x) => x.square === i + 1);
    const own = r?.moved.find((m) => m.square === i + 1);
    return {
      square: i + 1,
      zero: Math.round(obs.zero[i] ?? 0),
      noise: Math.round((obs.noise[i] ?? 0) * 10) / 10,
      gain: own ? Math.round(own.dev) : null,
      status: worst(i + 1) ?? (r ? 'ok' : 'untested'),
    };
  });
  const verdict = findings.some((f) => f.severity === 'fault')
    ? 'faults'
    : findings.some((f) => f.severity === 'warning')
      ? 'warnings'
      : 'ok';
  return { verdict, squares, findings, magnet, select, sensor: { key, detected } };
}

/** One coin's median rise over the squares that answered it themselves, counts (null: none did). */
function medianRise(obs: Observations): number | null {
  const own = obs.responses.flatMap((r) => r.moved.filter((m) => m.square === r.square).map((m) => Math.abs(m.dev)));
  return own.length ? own.sort((a, b) => a - b)[Math.floor(own.length / 2)] : null;
}

type Add = (severity: Severity, code: Finding['code'], squares: number[], message: string) => void;

/**
 * Sensors with no output: a reading pinned near a rail, or far outside the
 * zero levels a working part gives and deaf to a coin (a sensor without
 * supply leaves its output at the bottom of the span the input stage allows).
 */
function outputs(obs: Observations, L: SensorLimits, add: Add): Set<number> {
  const ZERO_RANGE = L.zeroRange;
  const dead = new Set<number>();
  for (let i = 0; i < 32; i++) {
    const z = obs.zero[i];
    const r = obs.responses.find((x) => x.square === i + 1);
    const deaf = !r || !r.moved.some((m) => m.square === i + 1);
    const farOff = z < ZERO_RANGE[0] - FAR_OFF || z > ZERO_RANGE[1] + FAR_OFF;
    if (z < NO_OUTPUT || z > 1023 - NO_OUTPUT || (farOff && deaf)) dead.add(i + 1);
  }
  if (dead.size) {
    const sq = [...dead];
    add(
      'fault',
      'no-output',
      sq,
      `${plural(sq, 'The sensor under', 'The sensors under')} ${list(sq)} ${plural(sq, 'gives', 'give')} no output (${plural(sq, 'it reads', 'they read')} ${sq.map((s) => Math.round(obs.zero[s - 1])).join(', ')} counts with no coin, where a working ${L.sn.key} gives ${Math.round(ZERO_RANGE[0])}–${Math.round(ZERO_RANGE[1])}, and nothing changes with a coin): check ${plural(sq, 'its', 'their')} 5 V, ground and output wires and the solder joints.`,
    );
  }
  return dead;
}

/** The squares that moved, as the doctor saw it, for a coin on `square` (a settling ghost's small moves left out). */
const movedSet = (obs: Observations, square: number): number[] => {
  const r = obs.responses.find((x) => x.square === square);
  return r ? strongSet(r) : [];
};

/** Which squares a coin on `square` should move if the select lines have this fault. */
function predicted(fault: SelectFault | null, square: number, dead: Set<number>): number[] {
  if (dead.has(square)) return [];
  const out: number[] = [];
  for (let q = 1; q <= 32; q++) if (sensorRead(fault, q) === square) out.push(q);
  return out;
}

/** A select-line fault, if one explains the coin tests much better than correct wiring. */
function selectLines(obs: Observations, dead: Set<number>, add: Add): SelectFault | null {
  const tested = obs.responses.map((r) => r.square);
  if (tested.length < 4) return null;
  const score = (f: SelectFault | null) => tested.filter((s) => same(predicted(f, s, dead), movedSet(obs, s))).length;
  const base = score(null);
  if (base === tested.length) return null;
  let best: SelectFault | null = null;
  let bestScore = base;
  for (const f of selectFaults()) {
    const sc = score(f);
    if (sc > bestScore) [best, bestScore] = [f, sc];
  }
  if (!best || bestScore < tested.length * 0.9) return null;
  const wrong = tested.filter((s) => !same(movedSet(obs, s), [s]));
  add(
    'fault',
    'select-lines',
    wrong,
    `Coins on ${list(wrong)} showed on the wrong squares: ${describeSelectFault(best)}. Every other reading is then on the wrong square too, so fix this first and run the check again.`,
  );
  return best;
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** +1 if the test coin raises most sensors' readings, −1 if it lowers them (each test's largest move counts). */
function coinSign(obs: Observations): 1 | -1 {
  let up = 0,
    down = 0;
  for (const r of obs.responses) {
    const big = r.moved.reduce<{ dev: number } | null>((a, m) => (!a || Math.abs(m.dev) > Math.abs(a.dev) ? m : a), null);
    if (big) big.dev > 0 ? up++ : down++;
  }
  return down > up ? -1 : 1;
}

function responses(obs: Observations, dead: Set<number>, select: SelectFault | null, explained: Set<number>, sign: 1 | -1, add: Add): void {
  const silent: number[] = [],
    reversed: number[] = [],
    stuck: number[] = [];
  for (const r of obs.responses) {
    if (dead.has(r.square)) continue;
    if (r.stuck) stuck.push(r.square);
    if (select || explained.has(r.square)) continue; // the select-line or wiring finding says it all
    const own = r.moved.find((m) => m.square === r.square);
    if (!own) silent.push(r.square);
    else if (Math.sign(own.dev) !== sign) reversed.push(r.square);
  }
  if (silent.length)
    add(
      'fault',
      'no-response',
      silent,
      `Nothing changed when a coin was put on ${list(silent)}: ${plural(silent, 'its sensor does', 'their sensors do')} not see the magnet (the sensor sits too far from the tile, or faces sideways; or the coin was not put there).`,
    );
  if (reversed.length)
    add(
      'fault',
      'reversed',
      reversed,
      `The ${plural(reversed, 'sensor', 'sensors')} under ${list(reversed)} ${plural(reversed, 'reads', 'read')} a coin the other way from the rest: mounted the wrong way round. Turn ${plural(reversed, 'it', 'them')} so the branded face points up at the tile.`,
    );
  if (stuck.length)
    add(
      'warning',
      'does-not-return',
      stuck,
      `After the coin was lifted, the reading of ${list(stuck)} did not come back to where it was: something magnetic nearby (a steel screw, a stray magnet), or the coin is still there.`,
    );
  if (sign < 0 && obs.responses.length)
    add(
      'note',
      'coin-reversed',
      [],
      'Every sensor read the test coin as a fall: its magnet has the other pole down. That is right for a White coin of a polarity-coded set; otherwise the magnets are glued the other way up (use a Black coin for this check).',
    );
  const untested = Array.from({ length: 32 }, (_, i) => i + 1).filter((s) => !obs.responses.some((r) => r.square === s));
  if (untested.length && obs.responses.length) add('note', 'not-tested', untested, `No coin was tried on ${list(untested)}.`);
}

/** Zero levels, noise and the output span; returns whether the king test's king (and only it) reached the ceiling. */
function levels(obs: Observations, dead: Set<number>, L: SensorLimits, add: Add): boolean {
  const ZERO_RANGE = L.zeroRange;
  const alive = (i: number) => !dead.has(i + 1);
  const idx = Array.from({ length: 32 }, (_, i) => i).filter(alive);
  const offset = idx.filter((i) => obs.zero[i] < ZERO_RANGE[0] || obs.zero[i] > ZERO_RANGE[1]).map((i) => i + 1);
  if (offset.length)
    add(
      'warning',
      'zero-level',
      offset,
      `With no coin, ${list(offset)} ${plural(offset, 'reads', 'read')} ${offset.map((s) => Math.round(obs.zero[s - 1])).join(', ')} counts, outside the ${L.sn.key}'s ${Math.round(ZERO_RANGE[0])}–${Math.round(ZERO_RANGE[1])}: another part, a magnet near the board, or a wiring fault.`,
    );
  const noisy = idx.filter((i) => obs.noise[i] > NOISY_COUNTS).map((i) => i + 1);
  if (noisy.length)
    add(
      'warning',
      'noisy',
      noisy,
      `${list(noisy)} ${plural(noisy, 'is', 'are')} noisy (σ ${noisy.map((s) => obs.noise[s - 1].toFixed(1)).join(', ')} counts, a good sensor about 1–2): check the 100 nF capacitor at the sensor and the ground wire.`,
    );
  const top = Math.min(L.top, 1023 - RAIL);
  let clipped = idx.filter((i) => obs.high[i] >= top || obs.low[i] <= Math.max(L.bottom, RAIL)).map((i) => i + 1);
  // a king that clips at the ceiling while its man stays clear and below it: calibration takes the clipped level as the king's
  const k = obs.king;
  let kingClipped = false;
  if (k && k.two !== null && clipped.includes(k.square)) {
    const i = k.square - 1;
    const [man, king] = [obs.zero[i] + k.one, obs.zero[i] + k.two];
    const onlyKing = obs.low[i] > Math.max(L.bottom, RAIL) && man < top - CLIPPED_KING_CLEAR && king >= top - 1;
    if (onlyKing && Math.abs(k.two - k.one) >= CLIPPED_KING_CLEAR) {
      kingClipped = true;
      clipped = clipped.filter((s) => s !== k.square);
      add(
        'note',
        'king-clips',
        [k.square],
        `The king on ${k.square} reached the ${L.sn.key}'s guaranteed output ceiling (${(L.sn.outMax / 1000).toFixed(1)} V, ${Math.round(L.top + 4)} counts): its reading is clipped, still ${Math.round(Math.abs(k.two - k.one))} counts above the man, so kings and men stay apart (the off-centre margin is not judged from a clipped king). A stronger magnet or a thinner tile would make men clip too.`,
      );
    }
  }
  if (clipped.length)
    add(
      'warning',
      'saturates',
      clipped,
      `${list(clipped)} reached the end of the ${L.sn.key}'s guaranteed output range (${(L.sn.outMin / 1000).toFixed(1)}–${(L.sn.outMax / 1000).toFixed(1)} V): a king or a strong magnet there cannot be told apart. Use a weaker magnet or a thicker tile (hardware/README.md, the magnet table).`,
    );
  return kingClipped;
}

/** The part the stack and flip readings fit best, and how strong the coins are against it. */
function magnetFit(obs: Observations, sign: 1 | -1, L: SensorLimits, kingClipped: boolean, add: Add): MagnetFit | null {
  const NOMINAL_RISE = L.nominalRise;
  const k = obs.king;
  const good = obs.responses.flatMap((r) =>
    r.moved.filter((m) => m.square === r.square && Math.sign(m.dev) === sign).map((m) => Math.abs(m.dev)),
  );
  const median = good.length ? good.sort((a, b) => a - b)[Math.floor(good.length / 2)] : null;
  if (median !== null && median < NOMINAL_RISE * 0.6) {
    const pct = Math.round((100 * median) / NOMINAL_RISE);
    add(
      median < 40 ? 'fault' : 'warning',
      'weak-magnets',
      [],
      `One coin raises a reading by ${Math.round(median)} counts (median), ${pct} % of what the specified 12 × 1 mm N35 magnet gives (${Math.round(NOMINAL_RISE)}): ${median < 40 ? 'too little to tell one coin from two reliably' : 'enough, but with less margin'}. Check the magnets' size and grade, and that they sit at the bottom of the coins.`,
    );
  }
  if (!k || k.two === null || k.one === 0) return null;
  const stack = (k.two - k.one) / k.one;
  const flip = k.flipped === null ? NaN : k.flipped / k.one;
  // The ratios depend on the disc's size only (a coin off-centre moves them by a few hundredths): the grade is not
  // told apart from the sensor's own gain, so sizes are what is reported.
  const sizes = new Map<string, Magnet>();
  for (const m of MAGNETS) if (!sizes.has(size(m))) sizes.set(size(m), { ...m, br: N35_BR });
  const fits = [...sizes.values()]
    .map((m) => {
      const z = z1(),
        b1 = discBz(m, 0, z);
      const f = {
        m,
        stack: discBz(m, 0, z + GEOMETRY.coin) / b1,
        flip: -discBz(m, 0, z + GEOMETRY.coin - m.thickness) / b1,
        rise: counts(L.sn.sens * b1),
      };
      return {
        ...f,
        // a clipped king's stack is only a lower bound: then the flip alone decides
        err:
          (kingClipped ? (stack <= f.stack + STACK_TOLERANCE ? 0 : Infinity) : Math.abs(f.stack - stack) / STACK_TOLERANCE) +
          (Number.isNaN(flip) ? 0 : Math.abs(f.flip - flip) / FLIP_TOLERANCE),
      };
    })
    .filter((f) => f.err <= (Number.isNaN(flip) ? 1 : 1.5))
    .sort((a, b) => a.err - b.err);
  const best = fits[0];
  // A coin off-centre in the test blurs neighbouring sizes: the margin is the worst of every size the readings fit.
  const worst = fits.reduce<Magnet | null>((w, f) => (!w || offCentreKing(f.m) < offCentreKing(w) ? f.m : w), null);
  // a clipped king's stack does not tell the size (the flip alone barely does): no margin from it
  const kingMargin = worst && !kingClipped ? Math.round(Math.abs(k.one) * (offCentreKing(worst) - 1)) : null;
  if (worst && kingMargin !== null && kingMargin <= 0) {
    const spec = MAGNETS.find((m) => m.key === '12x1-N35')!;
    const specMargin = Math.round(NOMINAL_RISE * (offCentreKing(spec) - 1));
    const ringMargin = Math.round(Math.abs(k.one) * (offCentreKing(worst, RING_TOLERANCE) - 1));
    add(
      'warning',
      'king-margin',
      [k.square],
      `A king knocked ${OFF} mm off-centre would read ${kingMargin === 0 ? 'the same as' : `${-kingMargin} counts below`} a centred man with these magnets (${mm(worst)} mm, ${fits.length > 1 ? `the least favourable of the sizes the king and flip tests on ${k.square} fit: ${fits.map((f) => mm(f.m)).join(', ')}` : `as the king and flip tests on ${k.square} fit`}): the board can take a knocked king for a man. Fix: centring rings, so coins land within ${RING_TOLERANCE} mm (these magnets then keep a king ${ringMargin} counts above a man); or a stronger magnet, wider rather than thicker (the specified 12 × 1 mm N35 keeps a king ${OFF} mm off ${specMargin} counts above); and glue the magnets flush in a recess under the coin, not proud of it (a proud magnet lifts a king's upper coin further away).`,
    );
  }
  return {
    fits: fits.map((f) => size(f.m)),
    stack: round2(stack),
    stackFit: best ? round2(best.stack) : null,
    flip: round2(flip),
    flipFit: best ? round2(best.flip) : null,
    strength: best ? round2(Math.abs(k.one) / best.rise) : null,
    kingMargin,
  };
}

/** A king's reading `off` mm off-centre against a centred man's, for a magnet of this size (grade-free: a ratio). */
const offCentreKing = (m: Magnet, off = OFF): number => pieceField(m, { coins: 2, off }) / pieceField(m, { coins: 1 });

const size = (m: Magnet) => `${m.diameter}x${m.thickness}`;
const mm = (m: Magnet) => `${m.diameter} × ${m.thickness}`;
const N35_BR = 1.19;
/** how far a measured ratio may be from a size's and still fit it (coins off-centre by up to 3 mm, noise) */
const STACK_TOLERANCE = 0.06;
const FLIP_TOLERANCE = 0.06;

const round2 = (x: number) => Math.round(x * 100) / 100;
