// The board's sensing physics as code: the field of the coins' disc magnets at
// each Hall sensor (on axis and off-centre, one coin, a stack, a coin upside
// down, crosstalk from the other squares), what the sensor and the 10-bit ADC
// make of it, and the tables of hardware/README.md. hardware/tools/readme.ts
// writes those tables (and src/sensors/hall-table.ts, the numbers the emulated
// board's sensor model uses); test/hardware/physics.test.ts checks both are
// what this computes.
//
// Model: an axially magnetised disc (radius a, thickness L, remanence Br) is a
// cylindrical current sheet of K = Br/µ0; each slice is a current loop whose
// axial field off the axis is the exact elliptic-integral formula, integrated
// over the thickness (Simpson). The sensor measures Bz (it lies flat, branded
// face up, under the tile). Distances in mm, fields in gauss (1 mT = 10 G).

import { fileURLToPath } from 'node:url';

// The parts, the geometry, the field and the sensor live in the source tree
// (the simulated board and `crownhead doctor` use them too).
import {
  CHOSEN,
  GEOMETRY,
  MAGNETS,
  OFF,
  RING_TOLERANCE,
  SENSORS,
  axialBz,
  countsOf,
  discBz,
  magnet,
  pieceField,
  reading,
  sensor,
  sensorMv,
  z1,
  fieldTable as discFieldTable,
  MV_PER_COUNT,
  VREF_MV,
  type Geometry,
  type Magnet,
  type Sensor,
  type Situation,
} from '../../src/sensors/magnet-physics.ts';
export * from '../../src/sensors/magnet-physics.ts';

// ------------------------------------------------------------------ the board

/** (row, column) of a PDN square, row 0 = squares 1–4 (as src/sensors/sim/hand.ts). */
export function rowCol(square: number): [number, number] {
  const r = Math.floor((square - 1) / 4);
  return [r, 2 * ((square - 1) % 4) + (r % 2 === 0 ? 1 : 0)];
}
/** Centre-to-centre distance of two squares, mm. */
export function squareDistance(a: number, b: number, g: Geometry = GEOMETRY): number {
  const [r1, c1] = rowCol(a),
    [r2, c2] = rowCol(b);
  return g.pitch * Math.hypot(r1 - r2, c1 - c2);
}

/** Field at square `at`'s sensor from the pieces on all the other squares (coins[i] = square i+1), gauss. */
export function crosstalk(m: Magnet, coins: ArrayLike<number>, at: number, g: Geometry = GEOMETRY): number {
  let b = 0;
  for (let sq = 1; sq <= 32; sq++) {
    const n = coins[sq - 1];
    if (sq === at || !n) continue;
    b += pieceField(m, { coins: n as 1 | 2, off: squareDistance(sq, at, g) }, g);
  }
  return b;
}

export const START: readonly number[] = Array.from({ length: 32 }, (_, i) => (i < 12 || i >= 20 ? 1 : 0));

export interface Crosstalk {
  /** one coin on a diagonal neighbour (35.9 mm), gauss */
  diagonal: number;
  /** one coin two columns away in the same row (50.8 mm), gauss */
  row: number;
  /** start position: the largest |crosstalk| on any square, gauss, and on which */
  startMax: number;
  startSquare: number;
  /** the worst a square can get from 24 coins: 12 kings on the squares nearest to an inner square, gauss */
  worst: number;
}

export function crosstalkSummary(m: Magnet, g: Geometry = GEOMETRY): Crosstalk {
  const diagonal = pieceField(m, { coins: 1, off: g.pitch * Math.SQRT2 }, g);
  const row = pieceField(m, { coins: 1, off: 2 * g.pitch }, g);
  let startMax = 0,
    startSquare = 1;
  for (let sq = 1; sq <= 32; sq++) {
    const b = crosstalk(m, START, sq, g);
    if (Math.abs(b) > Math.abs(startMax)) [startMax, startSquare] = [b, sq];
  }
  let worst = 0;
  for (let sq = 1; sq <= 32; sq++) {
    // the 12 squares whose piece pulls this sensor's reading the most (all pull the same way: down)
    const pulls = Array.from({ length: 32 }, (_, i) => i + 1)
      .filter((o) => o !== sq)
      .map((o) => pieceField(m, { coins: 2, off: squareDistance(o, sq, g) }, g))
      .sort((x, y) => x - y)
      .slice(0, 12);
    const b = pulls.reduce((s, x) => s + x, 0);
    if (b < worst) worst = b;
  }
  return { diagonal, row, startMax, startSquare, worst };
}

// ------------------------------------------------------------------ figures

export interface Figures {
  man: number;
  king: number;
  upper: number;
  ratio: number;
  manOff: number;
  kingOff: number;
  kingRing: number;
  manRing: number;
  flipped: number;
}

/** The fields that matter for one magnet at one height, gauss. */
export function figures(m: Magnet, g: Geometry = GEOMETRY): Figures {
  const man = pieceField(m, { coins: 1 }, g);
  const king = pieceField(m, { coins: 2 }, g);
  return {
    man,
    king,
    upper: king - man,
    ratio: king / man,
    manOff: pieceField(m, { coins: 1, off: OFF }, g),
    kingOff: pieceField(m, { coins: 2, off: OFF }, g),
    manRing: pieceField(m, { coins: 1, off: RING_TOLERANCE }, g),
    kingRing: pieceField(m, { coins: 2, off: RING_TOLERANCE }, g),
    flipped: pieceField(m, { coins: 1, flipped: true }, g),
  };
}

/** Counts above the empty level for a typical part. */
export function rise(sn: Sensor, gauss: number): number {
  return reading(sn, gauss) - reading(sn, 0);
}

/** Output of the part most likely to run out of range (highest zero level and sensitivity) for a field, mV, unclipped. */
export function worstPartMv(sn: Sensor, gauss: number): number {
  return sn.qMax + sn.sensMax * gauss;
}

export interface MagnetRow {
  m: Magnet;
  f: Figures;
  /** counts, typical SS49E */
  man: number;
  king: number;
  /** king 3 mm off-centre minus a centred man: > 0 means they never overlap */
  kingOffMargin: number;
  flippedBelow: number;
  /** worst-case SS49E part's king output, mV */
  worstKingMv: number;
  fits: boolean;
}

/** A magnet fits a piecepack coin (19 mm × 3 mm): ≥ 3 mm of rim left, ≥ 1.5 mm of coin over the pocket. */
export function fitsCoin(m: Magnet, g: Geometry = GEOMETRY): boolean {
  return m.diameter <= 13 && m.thickness <= g.coin - 1.5;
}

export function magnetRow(m: Magnet, sn: Sensor = sensor(CHOSEN.sensor), g: Geometry = GEOMETRY): MagnetRow {
  const f = figures(m, g);
  return {
    m,
    f,
    man: rise(sn, f.man),
    king: rise(sn, f.king),
    kingOffMargin: rise(sn, f.kingOff) - rise(sn, f.man),
    flippedBelow: -rise(sn, f.flipped),
    worstKingMv: worstPartMv(sn, f.king),
    fits: fitsCoin(m, g),
  };
}

/**
 * Whether a worst-case part (highest zero level, highest sensitivity) still
 * tells a king from a man with this magnet: a king knocked OFF mm off-centre
 * (the reading the margin is about) inside the part's guaranteed output span,
 * and a centred king, clipped at the ceiling if it gets there, keeping at
 * least half its stack increment (and MIN_MARGIN counts) above the same
 * part's centred man.
 */
export function worstPartKingOk(sn: Sensor, f: { man: number; king: number; kingOff: number }): boolean {
  const [man, king] = [worstPartMv(sn, f.man), worstPartMv(sn, f.king)];
  const kept = Math.min(sn.outMax, king) - man;
  return worstPartMv(sn, f.kingOff) <= sn.outMax && kept >= 0.5 * (king - man) && kept / MV_PER_COUNT >= MIN_MARGIN;
}

/**
 * The choice, from the numbers: among magnets that fit a coin and leave a
 * worst-case SS49E's kings readable under its guaranteed 4.0 V ceiling
 * (worstPartKingOk), the one whose king 3 mm off-centre stands furthest above
 * a centred man.
 */
export function chooseMagnet(g: Geometry = GEOMETRY): Magnet {
  const sn = sensor('SS49E');
  const ok = MAGNETS.map((m) => ({ m, r: magnetRow(m, sn, g) }))
    .filter(({ m, r }) => r.fits && worstPartKingOk(sn, figures(m, g)))
    .map(({ r }) => r);
  ok.sort((a, b) => b.kingOffMargin - a.kingOffMargin);
  return ok[0].m;
}

// ------------------------------------------------------------------ tables

const f0 = (x: number) => Math.round(x).toString();
const f2 = (x: number) => x.toFixed(2);
const signed = (x: number) => (Math.round(x) > 0 ? '+' : Math.round(x) < 0 ? '−' : '') + Math.abs(Math.round(x));
const pct = (x: number) => signed(x * 100) + ' %';

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Candidate magnets at the design height with the SS49E. */
export function magnetTable(g: Geometry = GEOMETRY): string {
  const sn = sensor('SS49E');
  const chosen = chooseMagnet(g);
  const rows = MAGNETS.map((m) => {
    const r = magnetRow(m, sn, g);
    const name = `${m.diameter} × ${m.thickness} mm ${m.grade}`;
    return [
      m === chosen ? `**${name}**` : name,
      f0(r.f.man),
      f0(r.f.king),
      f2(r.f.ratio),
      pct(r.f.manOff / r.f.man - 1),
      signed(r.kingOffMargin),
      '−' + f0(r.flippedBelow),
      (r.worstKingMv / 1000).toFixed(2) + ' V',
      r.fits ? 'yes' : 'no',
    ];
  });
  return table(
    [
      'magnet',
      'man, G',
      'king, G',
      'king / man',
      `man ${OFF} mm off`,
      `king ${OFF} mm off − man, counts`,
      'upside-down coin, counts',
      'worst SS49E king output',
      'fits a coin',
    ],
    rows,
  );
}

/** The chosen magnet: the fields, centred and off-centre. */
export function fieldTable(g: Geometry = GEOMETRY): string {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const f = figures(m, g);
  const z = z1(g);
  const row = (what: string, b: number) => [what, f0(b) + ' G', signed(rise(sn, b))];
  return table(
    ['piece on the square', 'field at the sensor', 'reading above empty, counts (typical SS49E)'],
    [
      row(`one coin (a man), centred (magnet ${z.toFixed(1)} mm above the Hall element)`, f.man),
      row(`the second coin's magnet alone (${g.coin} mm higher)`, f.upper),
      row(`two coins (a king), centred: ${f2(f.ratio)} × one coin`, f.king),
      row(`one coin ${RING_TOLERANCE} mm off-centre (in a ring)`, f.manRing),
      row(`two coins ${RING_TOLERANCE} mm off-centre (in a ring)`, f.kingRing),
      row(`one coin ${OFF} mm off-centre`, f.manOff),
      row(`two coins ${OFF} mm off-centre`, f.kingOff),
      row('one coin upside down (magnet on top, field reversed)', f.flipped),
      row(`one coin upside down, ${OFF} mm off-centre`, pieceField(m, { coins: 1, flipped: true, off: OFF }, g)),
    ],
  );
}

/** Tile thickness rows for the chosen parts. */
export function tileTable(): string {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const rows = [1.5, 2, 2.5, 3, 4, 5, 6].map((tile) => {
    const g = { ...GEOMETRY, tile };
    const f = figures(m, g);
    const e = reading(sn, 0);
    const r = (b: number) => f0(reading(sn, b));
    const worst = worstPartMv(sn, f.king) / 1000;
    const margin = rise(sn, f.kingOff) - rise(sn, f.man);
    const verdict = !worstPartKingOk(sn, f)
      ? 'king saturates a worst-case part'
      : margin < MIN_MARGIN
        ? 'off-centre king too close to a man'
        : worst > sn.outMax / 1000
          ? 'fine (a worst-case part clips a centred king, still clear of a man)'
          : 'fine';
    const name = `${tile} mm (z₁ = ${z1(g).toFixed(1)} mm)`;
    return [
      tile === GEOMETRY.tile ? `**${name}**` : name,
      f0(e),
      r(f.man),
      r(f.king),
      r(f.manOff),
      r(f.kingOff),
      signed(margin),
      r(f.flipped),
      worst.toFixed(2) + ' V',
      verdict,
    ];
  });
  return table(
    [
      'tile',
      '0 coins',
      '1 coin',
      '2 coins',
      `1 coin ${OFF} mm off`,
      `2 coins ${OFF} mm off`,
      'king off − man',
      'upside down',
      'worst-part king',
      '',
    ],
    rows,
  );
}

/** Sensors with the chosen magnet at the design height. */
export function sensorTable(g: Geometry = GEOMETRY): string {
  const m = magnet(CHOSEN.magnet);
  const f = figures(m, g);
  const rows = SENSORS.map((sn) => {
    const gap = rise(sn, f.king) - rise(sn, f.man);
    const margin = rise(sn, f.kingOff) - rise(sn, f.man);
    const king =
      sensorMv(sn, f.king) >= sn.outMax || !worstPartKingOk(sn, f)
        ? 'saturates'
        : worstPartMv(sn, f.king) > sn.outMax
          ? 'in range (a worst-case part clips it, still clear of a man)'
          : 'in range';
    const flipped = sn.unipolar ? 'reads as empty' : signed(rise(sn, f.flipped));
    return [sn.name, `${sn.sens} mV/G`, f0(rise(sn, f.man)), f0(rise(sn, f.king)), f0(gap), signed(margin), flipped, king];
  });
  return table(
    ['sensor (5 V)', 'sensitivity', 'man, counts', 'king, counts', 'king − man', `king ${OFF} mm off − man`, 'upside-down coin', 'king'],
    rows,
  );
}

export function crosstalkTable(g: Geometry = GEOMETRY): string {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const c = crosstalkSummary(m, g);
  const cnt = (b: number) => signed((b / MV_PER_COUNT) * sn.sens);
  return table(
    ['neighbours', 'field at the sensor', 'counts (typical SS49E)'],
    [
      [`one coin on a diagonal neighbour (${(g.pitch * Math.SQRT2).toFixed(1)} mm away)`, f2(c.diagonal) + ' G', cnt(c.diagonal)],
      [`one coin two columns away in the row (${(2 * g.pitch).toFixed(1)} mm)`, f2(c.row) + ' G', cnt(c.row)],
      [`start position, worst square (${c.startSquare})`, f2(c.startMax) + ' G', cnt(c.startMax)],
      ['worst case: 12 kings on the squares nearest one square', f2(c.worst) + ' G', cnt(c.worst)],
    ],
  );
}

/** The pieces of a polarity-coded board: Black's coins +1 (reading up), White's −1 (reading down). */
export const BLACK = 1,
  WHITE = -1;

export interface PolarityRow {
  what: string;
  gauss: number;
  /** reading above (+) or below (−) empty, typical SS49E, counts */
  counts: number;
  /** in one-coin steps */
  steps: number;
}

/** The polarity-coded board: every piece the rules allow, centred and off-centre, for the chosen parts. */
export function polarityRows(g: Geometry = GEOMETRY): PolarityRow[] {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const man = rise(sn, pieceField(m, { coins: 1 }, g));
  const row = (what: string, s: Situation): PolarityRow => {
    const b = pieceField(m, s, g);
    return { what, gauss: b, counts: rise(sn, b), steps: rise(sn, b) / man };
  };
  return [
    row('a Black man (S pole down)', { coins: 1, poles: [BLACK] }),
    row('a White man (N pole down)', { coins: 1, poles: [WHITE] }),
    row('a Black king (two Black coins)', { coins: 2, poles: [BLACK, BLACK] }),
    row('a White king (two White coins)', { coins: 2, poles: [WHITE, WHITE] }),
    row('a White king crowned with a Black coin (under the man, as the rules say)', { coins: 2, poles: [BLACK, WHITE] }),
    row('a Black king crowned with a White coin (under the man)', { coins: 2, poles: [WHITE, BLACK] }),
    row(`a Black man ${OFF} mm off-centre`, { coins: 1, poles: [BLACK], off: OFF }),
    row(`a White man ${OFF} mm off-centre`, { coins: 1, poles: [WHITE], off: OFF }),
    row(`a Black king ${OFF} mm off-centre`, { coins: 2, poles: [BLACK, BLACK], off: OFF }),
    row(`a White king crowned with a Black coin, ${OFF} mm off-centre`, { coins: 2, poles: [BLACK, WHITE], off: OFF }),
    row('a Black coin upside down', { coins: 1, poles: [BLACK], flipped: true }),
    row('a White coin upside down', { coins: 1, poles: [WHITE], flipped: true }),
    row(`a Black coin upside down, ${OFF} mm off-centre`, { coins: 1, poles: [BLACK], flipped: true, off: OFF }),
  ];
}

/** Signed crosstalk on a polarity-coded board: the start position with each side's coins, and the worst a square can get. */
export function polarityCrosstalk(g: Geometry = GEOMETRY): { start: number; startSquare: number; worst: number } {
  const m = magnet(CHOSEN.magnet);
  let start = 0,
    startSquare = 1;
  for (let at = 1; at <= 32; at++) {
    let b = 0;
    for (let sq = 1; sq <= 32; sq++) {
      if (sq === at || !START[sq - 1]) continue;
      b += pieceField(m, { coins: 1, poles: [sq <= 12 ? BLACK : WHITE], off: squareDistance(sq, at, g) }, g);
    }
    if (Math.abs(b) > Math.abs(start)) [start, startSquare] = [b, at];
  }
  // Worst: the 12 squares nearest a square, each with the king whose pull adds up the most (either colour).
  let worst = 0;
  for (let at = 1; at <= 32; at++) {
    const pulls = Array.from({ length: 32 }, (_, i) => i + 1)
      .filter((o) => o !== at)
      .map((o) => Math.abs(pieceField(m, { coins: 2, off: squareDistance(o, at, g) }, g)))
      .sort((x, y) => y - x)
      .slice(0, 12);
    worst = Math.max(
      worst,
      pulls.reduce((s, x) => s + x, 0),
    );
  }
  return { start, startSquare, worst };
}

/**
 * The sensor's guaranteed range on both sides of its zero: the output of the
 * worst parts (zero level and sensitivity at the datasheet's limits) for a
 * king of each colour, against where the output stops following the field.
 */
export function polarityRange(g: Geometry = GEOMETRY): {
  high: number;
  low: number;
  outMin: number;
  outMax: number;
  lowShortMv: number;
  highShortMv: number;
} {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const king = pieceField(m, { coins: 2 }, g);
  const high = sn.qMax + sn.sensMax * king;
  const low = sn.qMin - sn.sensMax * king;
  return {
    high,
    low,
    outMin: sn.outMin,
    outMax: sn.outMax,
    lowShortMv: Math.max(0, sn.outMin - low),
    highShortMv: Math.max(0, high - sn.outMax),
  };
}

/**
 * Force between the two magnets of a stack, newtons (+: they attract): the
 * upper magnet (uniformly magnetised, M = Br/µ0) in the lower one's field,
 * F = M · A · (B(bottom face) − B(top face)) with the field taken across the
 * disc as on its axis — an estimate, good to a factor of about two. And a
 * coin's weight for comparison (19 mm × 3 mm wooden coin and its magnet).
 */
export function stackForce(g: Geometry = GEOMETRY): { newtons: number; coinWeight: number } {
  const m = magnet(CHOSEN.magnet);
  // Distance from the lower magnet's top face to the upper magnet's faces (both pockets in the coins' undersides).
  const gap = g.coin - m.thickness;
  const a = m.diameter / 2 / 1000,
    area = Math.PI * a * a;
  const mu0 = 4e-7 * Math.PI;
  const bAt = (zMm: number) => axialBz(m, zMm) / 1e4; // tesla, z from the lower magnet's top face
  const newtons = (m.br / mu0) * area * (bAt(gap) - bAt(gap + m.thickness));
  const coinGrams = Math.PI * 0.95 ** 2 * 0.3 * 0.7 + Math.PI * (a * 100) ** 2 * (m.thickness / 10) * 7.5;
  return { newtons, coinWeight: (coinGrams / 1000) * 9.81 };
}

/** Figures the README quotes about the polarity-coded board. */
export function polarityFigures(): Record<string, string> {
  const sn = sensor(CHOSEN.sensor);
  const rows = polarityRows();
  const by = (prefix: string) => rows.find((r) => r.what.startsWith(prefix))!;
  const x = polarityCrosstalk();
  const r = polarityRange();
  const cnt = (gauss: number) => signed((gauss / MV_PER_COUNT) * sn.sens);
  return {
    mixedWhiteKing: signed(by('a White king crowned with a Black coin (under').counts),
    mixedSteps: Math.abs(by('a White king crowned with a Black coin (under').steps).toFixed(2),
    flippedBlack: signed(by('a Black coin upside down').counts),
    codedStartXtalk: cnt(x.start),
    codedStartXtalkSquare: String(x.startSquare),
    codedWorstXtalk: cnt(x.worst).replace('+', '±'),
    worstLowV: (r.low / 1000).toFixed(2),
    worstHighV: (r.high / 1000).toFixed(2),
    outMinV: (r.outMin / 1000).toFixed(2),
    outMaxV: (r.outMax / 1000).toFixed(2),
    lowShortCounts: f0(r.lowShortMv / MV_PER_COUNT),
    stackNewtons: stackForce().newtons.toFixed(1),
    stackWeights: f0(stackForce().newtons / stackForce().coinWeight),
  };
}

export function polarityTable(g: Geometry = GEOMETRY): string {
  return table(
    ['piece on the square (polarity-coded coins)', 'field at the sensor', 'reading from empty, counts (typical SS49E)', 'one-coin steps'],
    polarityRows(g).map((r) => [r.what, f0(r.gauss) + ' G', signed(r.counts), (r.steps >= 0 ? '+' : '−') + Math.abs(r.steps).toFixed(2)]),
  );
}

/** Counts a king 3 mm off-centre must stay above a centred man: three times the worst crosstalk, with room for noise. */
export const MIN_MARGIN = 20;

/** Tile thickness range that works: no worst-case saturation, king off-centre still above a man. */
export function tileRange(): [number, number] {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const ok = (tile: number) => {
    const g = { ...GEOMETRY, tile };
    const f = figures(m, g);
    return worstPartKingOk(sn, f) && rise(sn, f.kingOff) - rise(sn, f.man) >= MIN_MARGIN;
  };
  let lo = NaN,
    hi = NaN;
  for (let t = 0.5; t <= 10.001; t += 0.1) {
    const tt = Math.round(t * 10) / 10;
    if (ok(tt)) {
      if (Number.isNaN(lo)) lo = tt;
      hi = tt;
    }
  }
  return [lo, hi];
}

/** Figures quoted in the prose (the test checks them too). */
export function keyFigures(): Record<string, string> {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const f = figures(m);
  const old = figures(magnet('8x1.5-N42'));
  const [lo, hi] = tileRange();
  const a1324 = sensor('A1324');
  // height at which a typical A1324's king stops saturating
  let zA = z1();
  while (sensorMv(a1324, pieceField(m, { coins: 2 }, { ...GEOMETRY, tile: zA - GEOMETRY.gap - GEOMETRY.element })) >= a1324.outMax)
    zA += 0.1;
  let zOld = z1();
  while (
    sensorMv(a1324, pieceField(magnet('8x1.5-N42'), { coins: 2 }, { ...GEOMETRY, tile: zOld - GEOMETRY.gap - GEOMETRY.element })) >=
    a1324.outMax
  )
    zOld += 0.1;
  return {
    z1: z1().toFixed(1),
    z2: (z1() + GEOMETRY.coin).toFixed(1),
    man: f0(f.man),
    king: f0(f.king),
    ratio: f2(f.ratio),
    manCounts: f0(rise(sn, f.man)),
    kingCounts: f0(rise(sn, f.king)),
    gapCounts: f0(rise(sn, f.king) - rise(sn, f.man)),
    kingOffMargin: f0(rise(sn, f.kingOff) - rise(sn, f.man)),
    manOffLoss: f0((1 - f.manOff / f.man) * 100),
    manRingLoss: f0((1 - f.manRing / f.man) * 100),
    flippedBelow: f0(-rise(sn, f.flipped)),
    flippedSteps: (-rise(sn, f.flipped) / rise(sn, f.man)).toFixed(2),
    flippedOffBelow: f0(-rise(sn, pieceField(m, { coins: 1, flipped: true, off: OFF }))),
    flippedOffSteps: (-rise(sn, pieceField(m, { coins: 1, flipped: true, off: OFF })) / rise(sn, f.man)).toFixed(2),
    oldKingOffMargin: signed(rise(sn, old.kingOff) - rise(sn, old.man)),
    oldKing: f0(old.king),
    tileMin: lo.toFixed(1),
    tileMax: hi.toFixed(1),
    a1324z: zA.toFixed(1),
    a1324zOld: zOld.toFixed(1),
    mvPerCount: MV_PER_COUNT.toFixed(2),
    ...polarityFigures(),
    gaussPerCount: (MV_PER_COUNT / sn.sens).toFixed(1),
  };
}

/** Every generated block of the README, by marker name. */
export function blocks(): Record<string, string> {
  const k = keyFigures();
  return {
    magnets: magnetTable(),
    field: fieldTable(),
    tiles: tileTable(),
    sensors: sensorTable(),
    crosstalk: crosstalkTable(),
    polarity: polarityTable(),
    figures: table(
      ['figure', 'value'],
      Object.entries(k).map(([name, v]) => [`\`${name}\``, v]),
    ),
  };
}

// ------------------------------------------------------------------ emulator table

/** Offsets (mm) the emulator's table is sampled at. */
export const TABLE_OFFSETS = [
  0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8, 10, 12.7, 17.96, 25.4, 35.92, 50.8, 56.79, 71.84, 76.2, 80.32, 101.6, 107.76, 127, 152.4, 180,
];

/** src/sensors/hall-table.ts: the chosen parts' fields, sampled for the emulated board. */
export function hallTableModule(): string {
  const m = magnet(CHOSEN.magnet);
  const sn = sensor(CHOSEN.sensor);
  const z = z1();
  const r = (x: number) => Math.round(x * 1000) / 1000;
  const t = discFieldTable(m, TABLE_OFFSETS);
  const [lower, upper, flipped] = [t.lower.map(r), t.upper.map(r), t.flipped.map(r)];
  return `// GENERATED by hardware/tools/physics.ts — do not edit; run
// \`node bin/run-ts.js hardware/tools/physics.ts\` after changing the physics.
// Field (gauss, Bz at the Hall element) of one coin's magnet against its
// sideways distance from the sensor, for the chosen parts: ${m.diameter} × ${m.thickness} mm ${m.grade}
// disc, ${sn.name}, ${GEOMETRY.tile} mm tile (magnet ${z.toFixed(1)} mm above the element).
// test/hardware/physics.test.ts checks this file is what the script writes.

export const HALL = {
  magnet: ${JSON.stringify(`${m.diameter}x${m.thickness} mm ${m.grade}`)},
  sensor: ${JSON.stringify(sn.key)},
  /** square pitch, mm */
  pitch: ${GEOMETRY.pitch},
  /** sideways distances the fields are sampled at, mm */
  offsets: ${JSON.stringify(TABLE_OFFSETS)},
  /** bottom coin (or a lone coin), gauss */
  lower: ${JSON.stringify(lower)},
  /** the upper coin of a king (one coin thickness higher), gauss */
  upper: ${JSON.stringify(upper)},
  /** a lone coin upside down (magnet on top, reversed), gauss */
  flipped: ${JSON.stringify(flipped)},
  /** sensor at 5 V: sensitivity mV/G (typ, min, max), zero-field output mV (typ, min, max), output span mV */
  sens: [${sn.sens}, ${sn.sensMin}, ${sn.sensMax}],
  quiescent: [${sn.q}, ${sn.qMin}, ${sn.qMax}],
  span: [${sn.outMin}, ${sn.outMax}],
} as const;
`;
}

export const HALL_TABLE_PATH = fileURLToPath(new URL('../../src/sensors/hall-table.ts', import.meta.url));
