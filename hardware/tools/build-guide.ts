// The build guide's magnet table (hardware/README.md, block "builders"): for
// each magnet a builder may use or substitute, what a typical SS49E reads for
// a man, the stack increment a king adds, a king 3 mm off-centre against a
// centred man, a coin upside down (centred and 3 mm off), the flip bar the
// reader derives from that board's own stack increment (src/reading: the same
// Calibration.flipBar the service uses, and THRESHOLDS.halfBar) and the margin a flipped
// coin keeps below it (on a polarity-coded board the same bar, on the side the
// game says a coin may lie magnet-up), on a polarity-coded board whether the
// level alone tells a flipped coin from a coin of the wrong colour, and
// whether a worst-case part saturates on a king; every magnet flush in the
// coin and glued proud under it. readme.ts writes it; the physics test checks
// the README still says it.

import { Calibration } from '../../src/reading/calibration.ts';
import { THRESHOLDS } from '../../src/reading/thresholds.ts';
import { BUILDER_MAGNETS, GEOMETRY, OFF, magnet, pieceField, sensor, type Geometry } from '../../src/sensors/magnet-physics.ts';
import { rise, worstPartKingOk, worstPartMv } from './physics.ts';

/** Frame noise of a sensor on the board (σ, counts: the simulated board's, a quiet SS49E behind a 10-bit ADC). */
export const NOISE = 2;
/** A coin's magnet may be this much weaker than the board's best (the magnets' spread). */
const WEAK = 0.92,
  STRONG = 1.08;

export interface BuilderRow {
  key: string;
  how: string;
  /** counts above empty, typical SS49E */
  man: number;
  king: number;
  /** stack increment as a fraction of the man's step */
  stack: number;
  kingOffMargin: number;
  /** a coin upside down, coin steps (negative: below empty), centred and 3 mm off */
  flipped: number;
  flippedOff: number;
  /** the reader's flip bar on such a board (coin steps below empty) and the margin a weak flipped coin 3 mm off keeps past it, counts */
  flipBar: number;
  flipMargin: number;
  /** coded: the half-step bar, a strong centred coin upside down, a weak wrong-colour coin 3 mm off (coin steps) */
  halfBar: number;
  codedFlip: number;
  codedWrong: number;
  worstKingMv: number;
  /** a worst-case SS49E still tells this magnet's kings from its men under its 4.0 V ceiling (physics.ts worstPartKingOk) */
  worstOk: boolean;
}

export function builderRow(key: string, g: Geometry = GEOMETRY, how = 'flush'): BuilderRow {
  // the field's own figures, unclipped (a typical part's ceiling would flatten the strongest magnets' kings into their
  // men and hide the margins); whether a part runs out of range is the verdict's `worstOk`
  const m = magnet(key),
    sn = { ...sensor('SS49E'), outMin: -Infinity, outMax: Infinity };
  const f = (s: Parameters<typeof pieceField>[1]) => rise(sn, pieceField(m, s, g));
  const man = f({ coins: 1 }),
    king = f({ coins: 2 });
  const all = (v: number) => new Array<number>(32).fill(v);
  const cal = Calibration.fromJSON({ version: 1, empty: all(512), one: all(512 + man), two: all(512 + king) });
  const flippedOff = f({ coins: 1, flipped: true, off: OFF }) / man;
  const flipBar = cal.flipBar(0, NOISE);
  return {
    key,
    how,
    man,
    king,
    stack: (king - man) / man,
    kingOffMargin: f({ coins: 2, off: OFF }) - man,
    flipped: f({ coins: 1, flipped: true }) / man,
    flippedOff,
    flipBar,
    flipMargin: (-flippedOff * WEAK - flipBar) * man,
    halfBar: THRESHOLDS.halfBar,
    codedFlip: (-f({ coins: 1, flipped: true }) / man) * STRONG,
    codedWrong: (f({ coins: 1, off: OFF }) / man) * WEAK,
    worstKingMv: worstPartMv(sn, pieceField(m, { coins: 2 }, g)),
    worstOk: worstPartKingOk(sensor('SS49E'), {
      man: pieceField(m, { coins: 1 }, g),
      king: pieceField(m, { coins: 2 }, g),
      kingOff: pieceField(m, { coins: 2, off: OFF }, g),
    }),
  };
}

/** What a builder should make of a row. */
export function verdict(r: BuilderRow): string {
  const out: string[] = [];
  if (!r.worstOk) out.push('king saturates a worst-case part: thicker tile');
  if (r.kingOffMargin < 0) out.push('centring rings needed');
  if (r.flipMargin < 10) out.push('flip margin small');
  if (r.codedFlip >= r.halfBar || r.codedWrong <= r.halfBar) out.push('coded: flip overlaps a wrong colour off-centre (the game decides)');
  return out.length ? out.join('; ') : 'good';
}

export function builderRows(): BuilderRow[] {
  return [
    ...BUILDER_MAGNETS.map((k) => builderRow(k)),
    ...BUILDER_MAGNETS.map((k) => builderRow(k, { ...GEOMETRY, mount: 'glued' }, 'glued proud')),
    builderRow('12x1-N35', { ...GEOMETRY, coin: 4.5 }, 'flush, 4.5 mm coin'),
  ];
}

const f0 = (x: number) => Math.round(x).toString();
const f2 = (x: number) => x.toFixed(2).replace('-', '−');
const signed = (x: number) => (Math.round(x) > 0 ? '+' : Math.round(x) < 0 ? '−' : '') + Math.abs(Math.round(x));

/** The README block. */
export function builderTable(): string {
  const head = [
    'magnet',
    'man, counts',
    'king − man',
    `king ${OFF} mm off − man`,
    'upside down (centred / 3 mm off), steps',
    'flip bar, steps',
    'flip margin, counts',
    'coded: flipped / half bar / wrong colour 3 mm off',
    'worst SS49E king',
    'verdict',
  ];
  const rows = builderRows().map((r) => {
    const [d, t] = r.key.split('-')[0].split('x');
    return [
      `${d} × ${t} mm ${r.key.split('-')[1]}${r.how === 'flush' ? '' : ` (${r.how})`}`,
      f0(r.man),
      `${f0(r.king - r.man)} (${f2(r.stack)})`,
      signed(r.kingOffMargin),
      `${f2(r.flipped)} / ${f2(r.flippedOff)}`,
      f2(-r.flipBar),
      signed(r.flipMargin),
      `${f2(r.codedFlip)} / ${f2(r.halfBar)} / ${f2(r.codedWrong)}`,
      (r.worstKingMv / 1000).toFixed(2) + ' V',
      verdict(r),
    ];
  });
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Figures the README's prose quotes from the guide. */
export function guideFigures(): Record<string, string> {
  const chosen = builderRow('12x1-N35'),
    glued = builderRow('8x1.5-N42', { ...GEOMETRY, mount: 'glued' }, 'glued proud'),
    old = builderRow('8x1.5-N42');
  return {
    flipBarSteps: chosen.flipBar.toFixed(2),
    flipMarginCounts: f0(chosen.flipMargin),
    oldFlippedSteps: (-old.flipped).toFixed(2),
    gluedFlippedSteps: (-glued.flipped).toFixed(2),
    gluedKingRatio: (glued.king / glued.man).toFixed(2),
  };
}
