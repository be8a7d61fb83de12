// The magnets and Hall sensors of the board as numbers: the parts a builder
// may use (MAGNETS, SENSORS), the stack-up of a square (GEOMETRY), the field of
// an axially magnetised disc at the sensor (exact loop formula integrated over
// the thickness), what one coin, a king's stack or a coin upside down gives
// there, and what the sensor and the 10-bit ADC make of it. Pure. The sensor
// models (the simulated board, the emulator's parts) and `crownhead doctor`
// (which part a board's readings fit) use it; hardware/tools/physics.ts builds
// the README's tables on it. Distances in mm, fields in gauss.

// ------------------------------------------------------------------ parts

export interface Magnet {
  key: string;
  /** diameter × thickness, mm */
  diameter: number;
  thickness: number;
  grade: string;
  /** remanence, tesla (the grade's nominal value) */
  br: number;
  /** typical price each in packs of 50–100, USD */
  price: number;
}

const N35 = 1.19,
  N42 = 1.3,
  N52 = 1.44;
export const MAGNETS: readonly Magnet[] = [
  { key: '6x1-N35', diameter: 6, thickness: 1, grade: 'N35', br: N35, price: 0.05 },
  { key: '6x2-N52', diameter: 6, thickness: 2, grade: 'N52', br: N52, price: 0.12 },
  { key: '8x1-N35', diameter: 8, thickness: 1, grade: 'N35', br: N35, price: 0.06 },
  { key: '8x1.5-N42', diameter: 8, thickness: 1.5, grade: 'N42', br: N42, price: 0.1 },
  { key: '10x1-N35', diameter: 10, thickness: 1, grade: 'N35', br: N35, price: 0.08 },
  { key: '10x1.5-N35', diameter: 10, thickness: 1.5, grade: 'N35', br: N35, price: 0.1 },
  { key: '12x1-N35', diameter: 12, thickness: 1, grade: 'N35', br: N35, price: 0.1 },
  { key: '12x1-N42', diameter: 12, thickness: 1, grade: 'N42', br: N42, price: 0.12 },
  { key: '12x1.5-N35', diameter: 12, thickness: 1.5, grade: 'N35', br: N35, price: 0.14 },
];

/** The magnets a builder is likely to use or substitute (8 × 1.5, 10 × 1, 10 × 2, 12 × 1 mm; N35–N52), as `magnet()` keys: the build guide's table and the flip tests run over them. */
export const BUILDER_MAGNETS = [
  '8x1.5-N35',
  '8x1.5-N42',
  '8x1.5-N52',
  '10x1-N35',
  '10x1-N52',
  '10x2-N35',
  '10x2-N52',
  '12x1-N35',
  '12x1-N42',
  '12x1-N52',
] as const;

export interface Sensor {
  key: string;
  name: string;
  /** sensitivity at 5 V, mV/G: typical and the datasheet's range */
  sens: number;
  sensMin: number;
  sensMax: number;
  /** zero-field output at 5 V, mV: typical and range */
  q: number;
  qMin: number;
  qMax: number;
  /** where the output stops following the field (typical), mV */
  outMin: number;
  outMax: number;
  /** output only follows one pole (unipolar): the other reads as zero field */
  unipolar: boolean;
  price: number;
}

export const SENSORS: readonly Sensor[] = [
  // Honeywell SS49E at 5 V: 1.4 (1.0–1.75) mV/G, 2.5 (2.25–2.75) V at 0 G. Its output span is 0.86–4.21 V
  // typical but only 1.0 V to (VCC − 1.0 V) guaranteed (datasheet, "output voltage span"): the span the physics,
  // both simulations (hall-model.ts clips to it, sim/physics.ts saturates towards it) and the doctor use is the
  // guaranteed 1.0–4.0 V.
  {
    key: 'SS49E',
    name: 'Honeywell SS49E',
    sens: 1.4,
    sensMin: 1.0,
    sensMax: 1.75,
    q: 2500,
    qMin: 2250,
    qMax: 2750,
    outMin: 1000,
    outMax: 4000,
    unipolar: false,
    price: 0.3,
  },
  // TI DRV5055A4 at 5 V: 12.5 mV/mT, VCC/2 at 0 mT, ±169 mT. The TI and Allegro tolerances below are
  // approximate (a few per cent; they only decide the 'saturates' column): check the current datasheet.
  {
    key: 'DRV5055A4',
    name: 'TI DRV5055A4',
    sens: 1.25,
    sensMin: 1.19,
    sensMax: 1.31,
    q: 2500,
    qMin: 2450,
    qMax: 2550,
    outMin: 200,
    outMax: 4800,
    unipolar: false,
    price: 0.9,
  },
  // TI DRV5055A3 at 5 V (TI datasheet SBAS640, "Magnetic Characteristics"): 25 mV/mT = 2.5 mV/G (the 60 mV/mT
  // sometimes quoted is the A1 at 3.3 V; the A3 at 3.3 V gives 15), sensitivity within about ±5 %; quiescent
  // output VCC/2 (2.5 V), here ±50 mV; linear over ±85 mT, i.e. 2.5 ± 2.125 V: the span is that linear range.
  {
    key: 'DRV5055A3',
    name: 'TI DRV5055A3',
    sens: 2.5,
    sensMin: 2.38,
    sensMax: 2.62,
    q: 2500,
    qMin: 2450,
    qMax: 2550,
    outMin: 375,
    outMax: 4625,
    unipolar: false,
    price: 0.9,
  },
  // TI DRV5056A4 at 5 V: unipolar, 0.6 V at 0 mT, 25 mV/mT.
  {
    key: 'DRV5056A4',
    name: 'TI DRV5056A4',
    sens: 2.5,
    sensMin: 2.38,
    sensMax: 2.62,
    q: 600,
    qMin: 550,
    qMax: 650,
    outMin: 600,
    outMax: 4800,
    unipolar: true,
    price: 0.9,
  },
  // Allegro A1324: 5 mV/G, VCC/2; its output stops at ≈ 0.5 and 4.5 V (±400 G).
  {
    key: 'A1324',
    name: 'Allegro A1324',
    sens: 5,
    sensMin: 4.75,
    sensMax: 5.25,
    q: 2500,
    qMin: 2450,
    qMax: 2550,
    outMin: 500,
    outMax: 4500,
    unipolar: false,
    price: 1.1,
  },
];

/** Nominal remanence of the usual neodymium grades, tesla. */
export const GRADES: Readonly<Record<string, number>> = {
  N35: N35,
  N38: 1.23,
  N40: 1.26,
  N42: N42,
  N45: 1.34,
  N48: 1.39,
  N50: 1.42,
  N52: N52,
};

/**
 * A magnet by key: one of MAGNETS, or any disc a builder may substitute,
 * written "DxT-GRADE" (diameter × thickness in mm, grade N35–N52), e.g. "10x2-N52".
 */
export function magnet(key: string): Magnet {
  const m = MAGNETS.find((x) => x.key === key);
  if (m) return m;
  const p = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)-(N\d\d)$/.exec(key);
  const br = p ? GRADES[p[3]] : undefined;
  if (!p || br === undefined)
    throw new RangeError(
      `no magnet "${key}": write DIAMETERxTHICKNESS-GRADE in mm, e.g. 8x1.5-N42 (grades ${Object.keys(GRADES).join(', ')})`,
    );
  const [d, t] = [Number(p[1]), Number(p[2])];
  if (!(d >= 3 && d <= 20 && t >= 0.5 && t <= 3))
    throw new RangeError(`no magnet "${key}": a coin's magnet is 3–20 mm across and 0.5–3 mm thick`);
  return { key, diameter: d, thickness: t, grade: p[3], br, price: 0 };
}

/**
 * Heights of a square's magnets above the Hall element (near face), mm: a lone
 * coin's (or a king's lower coin's), a king's upper coin's, a coin lying
 * upside down (its magnet now at the top of the coin, field reversed) and a
 * king's upper coin upside down. A coin's magnet is one "level" (the coin with
 * its magnet: `coin`, plus the magnet where it is glued proud under the coin)
 * above the one below it; turned over, the magnet's near face sits a level
 * less the magnet's thickness higher.
 */
export function heights(m: Magnet, g: Geometry = GEOMETRY): { lower: number; upper: number; flipped: number; flippedUpper: number } {
  const z = z1(g),
    level = g.coin + (g.mount === 'glued' ? m.thickness : 0);
  return { lower: z, upper: z + level, flipped: z + level - m.thickness, flippedUpper: z + 2 * level - m.thickness };
}

/** A magnet's field against sideways distance from the sensor (gauss): a lone coin, a king's upper coin, a coin upside down (alone, and on top of a man). */
export function fieldTable(
  m: Magnet,
  offsets: readonly number[],
  g: Geometry = GEOMETRY,
): { lower: number[]; upper: number[]; flipped: number[]; flippedUpper: number[] } {
  const h = heights(m, g);
  return {
    lower: offsets.map((o) => discBz(m, o, h.lower)),
    upper: offsets.map((o) => discBz(m, o, h.upper)),
    flipped: offsets.map((o) => -discBz(m, o, h.flipped)),
    flippedUpper: offsets.map((o) => -discBz(m, o, h.flippedUpper)),
  };
}

/** Linear interpolation of a field table (`ys` sampled at `xs`, ascending) at distance d; 0 beyond its last distance. */
export function fieldAt(xs: readonly number[], ys: readonly number[], d: number): number {
  if (d <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++) {
    if (d <= xs[i]) {
      const t = (d - xs[i - 1]) / (xs[i] - xs[i - 1]);
      return ys[i - 1] + t * (ys[i] - ys[i - 1]);
    }
  }
  return 0;
}

export function sensor(key: string): Sensor {
  const s = SENSORS.find((x) => x.key === key);
  if (!s) throw new Error(`no sensor ${key}`);
  return s;
}

// ------------------------------------------------------------------ geometry

/** The stack-up of one square, mm (hardware/cross-section.svg draws it). */
export interface Geometry {
  /** piecepack tile */
  tile: number;
  /** paper template + air between the tile and the sensor's face */
  gap: number;
  /** depth of the Hall element below the SS49E's branded face */
  element: number;
  /** coin thickness (a king's upper magnet sits this much higher) */
  coin: number;
  /** square pitch (2-inch piecepack tiles of 2 × 2 squares) */
  pitch: number;
  /**
   * How the magnet sits in the coin: 'flush' — in a recess, flush with the
   * coin's underside (`coin` includes it: turned over, its near face is
   * coin − magnet thickness higher); 'glued' — glued proud under a coin
   * `coin` thick (a king's upper magnet then sits coin + magnet thickness
   * higher, a coin turned over has its magnet one coin thickness higher).
   */
  mount: 'flush' | 'glued';
}

export const GEOMETRY: Geometry = { tile: 2.5, gap: 0.5, element: 0.8, coin: 3, pitch: 25.4, mount: 'flush' };

/** Distance from the underside of the bottom coin (= the magnet's lower face) to the Hall element. */
export function z1(g: Geometry = GEOMETRY): number {
  return g.tile + g.gap + g.element;
}

/** The chosen parts (the README explains why, from the numbers below). */
export const CHOSEN = { magnet: '12x1-N35', sensor: 'SS49E' } as const;
/** How far off-centre the tables look at, mm (a coin dropped without a ring). */
export const OFF = 3;
/** A coin in a centring ring lands within this, mm. */
export const RING_TOLERANCE = 1;

// ------------------------------------------------------------------ field

/** Complete elliptic integrals K(m), E(m) (parameter m = k²), by the AGM. */
export function ellipticKE(m: number): [number, number] {
  let a = 1,
    b = Math.sqrt(1 - m),
    sum = m / 2,
    p = 0.5;
  for (let i = 0; i < 40 && Math.abs(a - b) > 1e-15; i++) {
    const c = (a - b) / 2;
    [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
    p *= 2;
    sum += p * c * c;
  }
  const K = Math.PI / (2 * a);
  return [K, K * (1 - sum)];
}

/** Bz of a current loop (radius a) at radial distance rho and axial distance z, per µ0·I/(2π). */
function loopBz(a: number, rho: number, z: number): number {
  const s = (a + rho) ** 2 + z * z;
  const [K, E] = ellipticKE((4 * a * rho) / s);
  return (K + ((a * a - rho * rho - z * z) / ((a - rho) ** 2 + z * z)) * E) / Math.sqrt(s);
}

/**
 * Bz in gauss of a disc magnet whose near face is `z` mm above the sensor, at
 * `rho` mm sideways from its axis; positive = the direction the coin's
 * magnet gives right under it (the sensor's output rises).
 */
export function discBz(m: Magnet, rho: number, z: number): number {
  const a = m.diameter / 2,
    L = m.thickness,
    n = 64; // Simpson over the thickness
  let s = 0;
  for (let i = 0; i <= n; i++) s += (i === 0 || i === n ? 1 : i % 2 ? 4 : 2) * loopBz(a, rho, z + (L * i) / n);
  return (m.br / (2 * Math.PI)) * (s * (L / n / 3)) * 1e4;
}

/** Closed form on the axis (the formula in the README), gauss. */
export function axialBz(m: Magnet, z: number): number {
  const a = m.diameter / 2,
    L = m.thickness;
  return (m.br / 2) * ((z + L) / Math.hypot(a, z + L) - z / Math.hypot(a, z)) * 1e4;
}

export interface Situation {
  /** coins stacked on the square */
  coins: 0 | 1 | 2;
  /** how far the piece is off-centre, mm */
  off?: number;
  /** a single coin lying magnet-side up */
  flipped?: boolean;
  /**
   * Which pole each coin's magnet has down, bottom coin first: +1 the pole
   * that raises the reading (every coin on a board glued the old way; Black's
   * coins on a polarity-coded board), −1 the other (White's, coded).
   */
  poles?: readonly [number, number?];
}

/** Field at a square's sensor from the piece standing on it, gauss. */
export function pieceField(m: Magnet, s: Situation, g: Geometry = GEOMETRY): number {
  const rho = s.off ?? 0,
    z = z1(g);
  const [p0, p1] = [s.poles?.[0] ?? 1, s.poles?.[1] ?? s.poles?.[0] ?? 1];
  if (s.coins === 0) return 0;
  const h = heights(m, g);
  if (s.flipped) {
    if (s.coins !== 1) throw new Error('only a single coin is modelled upside down');
    // the magnet is now at the top of the coin, its field reversed
    return -p0 * discBz(m, rho, h.flipped);
  }
  let b = p0 * discBz(m, rho, z);
  if (s.coins === 2) b += p1 * discBz(m, rho, h.upper);
  return b;
}

// ------------------------------------------------------------------ sensor + ADC

export const VREF_MV = 5000;
/** ADC counts of a voltage (ATmega328P: ADC = Vin · 1024 / Vref, at most 1023). */
export function countsOf(mv: number): number {
  return Math.min(1023, Math.max(0, (mv * 1024) / VREF_MV));
}
export const MV_PER_COUNT = VREF_MV / 1024;

/** Sensor output in mV for a field, with this part's sensitivity and zero level; clipped where the output stops. */
export function sensorMv(sn: Sensor, gauss: number, part: { sens?: number; q?: number } = {}): number {
  const b = sn.unipolar ? Math.max(0, gauss) : gauss;
  const v = (part.q ?? sn.q) + (part.sens ?? sn.sens) * b;
  return Math.min(sn.outMax, Math.max(sn.outMin, v));
}

// ------------------------------------------------------------------ a first real build

/**
 * The noise of one frame as a first build gives it, one figure for both
 * simulations (the simulated board draws it per frame; the emulator's harness,
 * firmware/emulator/sensor_model.h, gets the two parts below and the
 * firmware's averaging makes the frame figure of them): σ ≈ 1.5 counts per
 * frame, 5× the 0.3 the emulator had. Why that much: the SS49E's output noise
 * is not specified (its bandwidth is tens of kHz, so a conversion sees it
 * whole) and its output is ratiometric while USB's 5 V carries ripple of
 * several mV that AVCC filters differently; the mux adds charge injection on
 * every switch; the 328P's ADC at a 1 MHz clock is good to about ±2 LSB, one
 * count σ of it conversion to conversion. What a visit of a channel shares
 * (sensor, supply, mux): σ 8.6 mV ≈ 1.76 counts; each conversion's own: σ
 * 4.9 mV ≈ 1 count. The firmware averages 4 conversions a visit over 1 or 2
 * scans a frame (178 scans/s at 100 frames/s; 1/scans averages 0.61):
 * sqrt((1.76² + 1²/4) × 0.61 + 1/12) ≈ 1.45 counts, 1.49 as the emulator
 * measures it (test/firmware/emulator.test.ts); bench notes of "1–2 counts
 * peak to peak" per conversion are a quiet lab supply, not a laptop's USB port.
 */
export const FRAME_NOISE = { counts: 1.5, visitMv: 8.6, conversionMv: 4.9 } as const;

/**
 * Warm-up: ≈ 1 W (32 SS49E at 6 mA, the Nano, the muxes) in the closed
 * carrier warms the sensors by some 8 °C, an exponential approach with a
 * time constant of 4 minutes (most of it in the first 10); each sensor's zero
 * level moves with its own coefficient, 0.3–0.5 count/°C either way (the Hall
 * element's null drift; parts differ in sign too), so a square drifts up to
 * 4 counts. The magnets' own coefficient (NdFeB −0.12 %/°C: −1 % of a coin
 * step, ≈ 1.5 counts on a man, over the rise) is not modelled.
 */
export const WARM_UP = { riseC: 8, tauMs: 4 * 60_000, nullDriftPerC: [0.3, 0.5] } as const;

/** The board's temperature rise `ms` after power-on, °C (WARM_UP's exponential approach). */
export function warmth(ms: number, w: { riseC: number; tauMs: number } = WARM_UP): number {
  return ms <= 0 ? 0 : w.riseC * (1 - Math.exp(-ms / w.tauMs));
}

/** Each coin's magnet against the nominal, ± (N35 discs: remanence ±2 %, a 1 mm disc's thickness ±0.05 mm). */
export const MAGNET_SPREAD = 0.08;

/**
 * Where the fitted sensor's output stops following the field, in ADC counts:
 * the floor and rail are its guaranteed span (Sensor.outMin, outMax: for the
 * SS49E 1.0 and 4.0 V) and the output bends over in the last 40 counts
 * (≈ 0.2 V) before either. The simulated board saturates by this; the
 * emulator's model (hall-model.ts) clips at the same span.
 */
export function saturationOf(sn: Sensor): { knee: number; rail: number; lowKnee: number; floor: number } {
  const rail = countsOf(sn.outMax),
    floor = countsOf(sn.outMin),
    bend = 40;
  return { knee: rail - bend, rail, lowKnee: floor + bend, floor };
}

/** Reading of a typical part, ADC counts (unrounded). */
export function reading(sn: Sensor, gauss: number): number {
  return countsOf(sensorMv(sn, gauss));
}
