// The static evaluation: what a checkers player looks at in a quiet position,
// as a score in hundredths of a man from the side to move's point of view.
// Every term has two weights, one for the middle game (`_m`) and one for the
// ending (`_e`), blended by the pieces left (PHASE_STEPS steps from 20 pieces
// down to 4): a man's and a king's worth on each square (two square tables,
// Black's side; White's are the same turned round) and the terms in SCALARS.
// Features are computed on the bitboards from Black's side and negated for
// White. The score is linear in the weights: `features` gives each weight's
// multiplier, and bench/tune.ts fits the weights to self-play and corpus
// results (Texel's method) and writes them to eval-weights.ts, where WEIGHTS
// comes from.

import { popcount, stepDL, stepDR, stepUL, stepUR, lowestIndex, rowOf, colOf, type Position } from '../rules/index.ts';
import { TUNED_WEIGHTS } from './eval-weights.ts';

/** The terms besides the square tables, each the difference Black − White of what its comment says. */
export const SCALARS = [
  /** Men. */
  'man',
  /** Kings. */
  'king',
  /** Men still on their own back rank while the opponent has no king (they stop crowning). */
  'backRank',
  /** The "bridge": both 1 and 3 held by Black (30 and 32 by White), while the opponent has no king. */
  'bridge',
  /** A man sitting in the opponent's dog-hole (White on 5 against Black's 1; Black on 28 against White's 32). */
  'dogHole',
  /** Simple moves of the men. */
  'manMobility',
  /** Simple moves of the kings. */
  'kingMobility',
  /** Men with no enemy piece in the cone in front of them (runaways). */
  'runaway',
  /** Rows the runaways still have to go (counted negative: fewer is better). */
  'runawayRows',
  /** Kings with no move and no capture (counted negative). */
  'trappedKing',
  /** Pieces gone from the board, counted for the side ahead in material (trade down when ahead). */
  'tradeDown',
  /** |men on the left half − men on the right half| (counted negative: a lopsided side is weak). */
  'balance',
] as const;
export type ScalarName = (typeof SCALARS)[number];
type Phase = 'm' | 'e';
type ManSquare =
  1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 28;
type KingSquare = ManSquare | 29 | 30 | 31 | 32;
/** A weight's name: a scalar term, or a man's or king's square (Black's numbering), and the phase. */
export type WeightName = `${ScalarName | `manOn${ManSquare}` | `kingOn${KingSquare}`}_${Phase}`;
/** A weight table (WEIGHTS, or one being tried by the tuner). */
export type Weights = { readonly [K in WeightName]: number };

/** Every weight's name: the scalars (middle game, ending), then the men's squares 1–28, then the kings' 1–32. */
export const WEIGHT_NAMES: readonly WeightName[] = [
  ...SCALARS.flatMap((s) => [`${s}_m`, `${s}_e`] as WeightName[]),
  ...Array.from({ length: 28 }, (_, i) => [`manOn${i + 1}_m`, `manOn${i + 1}_e`] as WeightName[]).flat(),
  ...Array.from({ length: 32 }, (_, i) => [`kingOn${i + 1}_m`, `kingOn${i + 1}_e`] as WeightName[]).flat(),
];

/** The table the engine plays with (eval-weights.ts, written by bench/tune.ts). */
export const WEIGHTS: Weights = Object.freeze({ ...TUNED_WEIGHTS });

/** The blend's steps: the middle-game weights count phase/PHASE_STEPS, the ending's the rest. */
export const PHASE_STEPS = 16;
/** The phase of a position with this many pieces: PHASE_STEPS at 20 or more, 0 at 4 or fewer. */
export const phaseOf = (pieces: number): number => (pieces >= 20 ? PHASE_STEPS : pieces <= 4 ? 0 : pieces - 4);

// Squares (index = square − 1).
const BLACK_BACK = 0x0000000f; // 1–4
const WHITE_BACK = 0xf0000000 | 0; // 29–32
const BRIDGE_B = (1 << 0) | (1 << 2); // 1, 3
const BRIDGE_W = (1 << 29) | (1 << 31); // 30, 32
let LEFT = 0;
for (let i = 0; i < 32; i++) if (colOf(i) < 4) LEFT |= 1 << i;
const RIGHT = ~LEFT;

// Cones in front of each square: squares a man on it could ever be stopped from (its forward triangle).
const CONE_BLACK = new Int32Array(32); // Black moves down (higher rows)
const CONE_WHITE = new Int32Array(32);
for (let i = 0; i < 32; i++) {
  const r = rowOf(i),
    c = colOf(i);
  let down = 0,
    up = 0;
  for (let j = 0; j < 32; j++) {
    const rj = rowOf(j),
      cj = colOf(j);
    const dr = rj - r;
    // Squares within the cone; one extra column either side (a piece beside the path can still stop it).
    if (dr > 0 && Math.abs(cj - c) <= dr + 1) down |= 1 << j;
    if (dr < 0 && Math.abs(cj - c) <= -dr + 1) up |= 1 << j;
  }
  CONE_BLACK[i] = down;
  CONE_WHITE[i] = up;
}

/** Runaway men of a side: how many (returned) and the rows they still have to go in all (left in RUN_ROWS[0]). */
const RUN_ROWS = new Int32Array(1);
function runaways(men: number, enemy: number, black: boolean): number {
  let n = 0,
    rows = 0;
  let x = men;
  while (x) {
    const i = lowestIndex(x);
    x &= x - 1;
    const cone = black ? CONE_BLACK[i] : CONE_WHITE[i];
    if ((cone & enemy) === 0) {
      n++;
      rows += black ? 7 - rowOf(i) : rowOf(i);
    }
  }
  RUN_ROWS[0] = rows;
  return n;
}

/** Kings of a side with no simple move and no capture. */
function trappedKings(kings: number, empty: number, enemy: number): number {
  const canStep = stepUL(empty) | stepUR(empty) | stepDL(empty) | stepDR(empty);
  // A king that could capture is not trapped.
  const canJump =
    stepUR(enemy & stepUR(empty)) | stepUL(enemy & stepUL(empty)) | stepDL(enemy & stepDL(empty)) | stepDR(enemy & stepDR(empty));
  return popcount(kings & ~canStep & ~canJump);
}

/** Simple moves available to a side's kings. */
const kingMoves = (kings: number, empty: number): number =>
  popcount(stepDL(kings) & empty) + popcount(stepDR(kings) & empty) + popcount(stepUL(kings) & empty) + popcount(stepUR(kings) & empty);

const S = SCALARS.length;
/** The scalar terms' values (Black − White) of the position being evaluated, in SCALARS order. */
const D = new Int32Array(S);

/** Fills D with the scalar terms of a position; returns its piece count. */
function scalarTerms(b: number, w: number, k: number): number {
  const bm = b & ~k,
    wm = w & ~k;
  const nbm = popcount(bm),
    nwm = popcount(wm);
  const empty = ~(b | w);
  let nbk = 0,
    nwk = 0;
  if (k !== 0) {
    const bk = b & k,
      wk = w & k;
    nbk = popcount(bk);
    nwk = popcount(wk);
    D[6] = kingMoves(bk, empty) - kingMoves(wk, empty);
    D[9] = -(trappedKings(bk, empty, w) - trappedKings(wk, empty, b));
  } else D[6] = D[9] = 0;
  const pieces = nbm + nbk + nwm + nwk;
  D[0] = nbm - nwm;
  D[1] = nbk - nwk;
  D[2] = (nwk === 0 ? popcount(bm & BLACK_BACK) : 0) - (nbk === 0 ? popcount(wm & WHITE_BACK) : 0);
  D[3] = (nwk === 0 && (bm & BRIDGE_B) === BRIDGE_B ? 1 : 0) - (nbk === 0 && (wm & BRIDGE_W) === BRIDGE_W ? 1 : 0);
  D[4] = (wm & (1 << 4) && bm & 1 ? 1 : 0) - (bm & (1 << 27) && wm & (1 << 31) ? 1 : 0);
  D[5] = popcount(stepDL(bm) & empty) + popcount(stepDR(bm) & empty) - popcount(stepUL(wm) & empty) - popcount(stepUR(wm) & empty);
  const rbn = runaways(bm, w, true),
    rbr = RUN_ROWS[0]!;
  const rwn = runaways(wm, b, false),
    rwr = RUN_ROWS[0]!;
  D[7] = rbn - rwn;
  D[8] = -(rbr - rwr);
  const ahead = 2 * (nbm - nwm) + 3 * (nbk - nwk);
  D[10] = ahead > 0 ? 24 - pieces : ahead < 0 ? pieces - 24 : 0;
  D[11] = -(Math.abs(popcount(bm & LEFT) - popcount(bm & RIGHT)) - Math.abs(popcount(wm & LEFT) - popcount(wm & RIGHT)));
  return pieces;
}

/** A weight table made ready for evaluation: the scalars' weights as arrays, the square tables by byte. */
export interface CompiledWeights {
  readonly weights: Weights;
  readonly mid: Int32Array;
  readonly end: Int32Array;
  /** [black men, white men, black kings, white kings] × [middle, ending]: 4 × 256 sums, one per byte of a bitboard. */
  readonly bytes: readonly Int32Array[];
}

const compiled = new WeakMap<Weights, CompiledWeights>();

/** The square tables as per-byte sums (a side's pieces sum in four look-ups) and the scalars as arrays. */
export function compileWeights(W: Weights): CompiledWeights {
  const seen = compiled.get(W);
  if (seen) return seen;
  const sq = (kind: 'manOn' | 'kingOn', blackIndex: number, phase: Phase): number =>
    kind === 'manOn' && blackIndex > 27 ? 0 : W[`${kind}${blackIndex + 1}_${phase}` as WeightName];
  const bytes: Int32Array[] = [];
  for (const kind of ['manOn', 'kingOn'] as const)
    for (const black of [true, false])
      for (const phase of ['m', 'e'] as const) {
        const t = new Int32Array(4 * 256);
        for (let byte = 0; byte < 4; byte++)
          for (let v = 1; v < 256; v++) {
            const low = lowestIndex(v);
            const i = byte * 8 + low;
            t[byte * 256 + v] = t[byte * 256 + (v & (v - 1))]! + sq(kind, black ? i : 31 - i, phase);
          }
        bytes.push(t);
      }
  const c: CompiledWeights = {
    weights: W,
    mid: Int32Array.from(SCALARS, (s) => W[`${s}_m`]),
    end: Int32Array.from(SCALARS, (s) => W[`${s}_e`]),
    bytes,
  };
  compiled.set(W, c);
  return c;
}

/** Sum of a byte table over a bitboard's four bytes. */
const sum4 = (t: Int32Array, x: number): number =>
  t[x & 255]! + t[256 + ((x >>> 8) & 255)]! + t[512 + ((x >>> 16) & 255)]! + t[768 + (x >>> 24)]!;

/** Score for Black (positive = Black better) under compiled weights. */
export function evaluateCompiled(c: CompiledWeights, b: number, w: number, k: number): number {
  const pieces = scalarTerms(b, w, k);
  const t = c.bytes;
  const bm = b & ~k,
    wm = w & ~k;
  let mid = sum4(t[0]!, bm) - sum4(t[2]!, wm),
    end = sum4(t[1]!, bm) - sum4(t[3]!, wm);
  if (k !== 0) {
    const bk = b & k,
      wk = w & k;
    mid += sum4(t[4]!, bk) - sum4(t[6]!, wk);
    end += sum4(t[5]!, bk) - sum4(t[7]!, wk);
  }
  const cm = c.mid,
    ce = c.end;
  for (let i = 0; i < S; i++) {
    const d = D[i]!;
    mid += cm[i]! * d;
    end += ce[i]! * d;
  }
  const ph = phaseOf(pieces);
  return ((mid * ph + end * (PHASE_STEPS - ph)) / PHASE_STEPS) | 0;
}

/**
 * Each weight's multiplier in Black's score before the blend's division:
 * evaluateBlack(b, w, k, W) is trunc(Σ W[name] · features[name] / PHASE_STEPS).
 */
export function features(b: number, w: number, k: number): Record<WeightName, number> {
  const pieces = scalarTerms(b, w, k);
  const ph = phaseOf(pieces),
    pe = PHASE_STEPS - ph;
  const f = Object.fromEntries(WEIGHT_NAMES.map((n) => [n, 0])) as Record<WeightName, number>;
  SCALARS.forEach((s, i) => {
    f[`${s}_m`] = D[i]! * ph;
    f[`${s}_e`] = D[i]! * pe;
  });
  const add = (kind: 'manOn' | 'kingOn', x: number, sign: number, black: boolean): void => {
    for (; x; x &= x - 1) {
      const i = lowestIndex(x);
      const sq = (black ? i : 31 - i) + 1;
      f[`${kind}${sq}_m` as WeightName] += sign * ph;
      f[`${kind}${sq}_e` as WeightName] += sign * pe;
    }
  };
  add('manOn', b & ~k, 1, true);
  add('manOn', w & ~k, -1, false);
  add('kingOn', b & k, 1, true);
  add('kingOn', w & k, -1, false);
  return f;
}

/** Score for Black (positive = Black better). */
export function evaluateBlack(b: number, w: number, k: number, W: Weights = WEIGHTS): number {
  return evaluateCompiled(compileWeights(W), b, w, k);
}

/** Score for the side to move. */
export function evaluate(pos: Position, W: Weights = WEIGHTS): number {
  const s = evaluateBlack(pos.black, pos.white, pos.kings, W);
  return pos.turn === 'black' ? s : -s;
}
