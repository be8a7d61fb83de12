// The static evaluation: what a checkers player looks at in a quiet position,
// as a score in hundredths of a man from the side to move's point of view.
// Every term has two weights, one for the middle game (`_m`) and one for the
// ending (`_e`), blended by the pieces left (PHASE_STEPS steps from 20 pieces
// down to 4): a man's and a king's worth on each square (two square tables,
// Black's side; White's are the same turned round), the terms in SCALARS, and
// the pattern tables of eval-patterns.ts (the men of small areas together).
// Features are computed on the bitboards from Black's side and negated for
// White. The score is linear in the weights: `features` gives each named
// weight's multiplier (eval-patterns.ts `patternFeatures` the patterns'), and
// bench/tune.ts fits the weights to self-play and corpus results (Texel's
// method) and writes them to eval-weights.ts, where WEIGHTS comes from.

import { popcount, stepDL, stepDR, stepUL, stepUR, lowestIndex, rowOf, colOf, type Position } from '../rules/index.ts';
import { TUNED_WEIGHTS } from './eval-weights.ts';
import { PATTERN_ENTRIES, PATTERNS, ROW_DIGITS, foldPatterns } from './eval-patterns.ts';

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
/** A weight table (WEIGHTS, or one being tried by the tuner), with pattern tables or without (eval-patterns.ts). */
export type Weights = { readonly [K in WeightName]: number } & { readonly patterns?: Int16Array };

/** Every weight's name: the scalars (middle game, ending), then the men's squares 1–28, then the kings' 1–32. */
export const WEIGHT_NAMES: readonly WeightName[] = [
  ...SCALARS.flatMap((s) => [`${s}_m`, `${s}_e`] as WeightName[]),
  ...Array.from({ length: 28 }, (_, i) => [`manOn${i + 1}_m`, `manOn${i + 1}_e`] as WeightName[]).flat(),
  ...Array.from({ length: 32 }, (_, i) => [`kingOn${i + 1}_m`, `kingOn${i + 1}_e`] as WeightName[]).flat(),
];

/** The table the engine plays with (eval-weights.ts, written by bench/tune.ts). */
export const WEIGHTS: Weights = Object.freeze({ ...TUNED_WEIGHTS, patterns: PATTERNS });

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

/** A weight table made ready for evaluation: the scalars' weights as one array, the square and pattern tables packed. */
export interface CompiledWeights {
  readonly weights: Weights;
  /** The scalars' weights, middle game 0–11 and ending 12–23 (one typed array: fewer checks a look-up than two). */
  readonly scalars: Int32Array;
  /**
   * The square tables as per-byte sums (a side's pieces sum in four look-ups), each entry both phases packed in one
   * integer (end · 2¹⁶ + mid; see `packTable`): black men, white men, black kings, white kings (table j from 1024·j).
   */
  readonly squares: Int32Array;
  /** The pattern tables folded per window (eval-patterns.ts foldPatterns) and packed the same way, or null for a table without them. */
  readonly patterns: Int32Array | null;
}

/** The largest |value| a phase of a packed sum may reach. */
const PACKED_LIMIT = 32767;

/**
 * Entries packed two phases to an integer, end · 2¹⁶ + mid. A sum of packed
 * values is the pack of the sums, unpacked (written out where it is used) as
 * mid = (x << 16) >> 16 and end = (x − mid) >> 16 while both sums stay within
 * ±2¹⁵: so the evaluation sums one look-up from each group of `group`
 * entries, and a table whose groups' largest values could add up past that
 * is refused.
 */
function packTable(what: string, length: number, group: number, midOf: (i: number) => number, endOf: (i: number) => number): Int32Array {
  const out = new Int32Array(length);
  let bound = 0;
  for (let g = 0; g < length; g += group) {
    let most = 0;
    for (let i = g; i < g + group; i++) {
      const m = midOf(i),
        e = endOf(i);
      out[i] = e * 65536 + m;
      most = Math.max(most, Math.abs(m), Math.abs(e));
    }
    bound += most;
  }
  if (bound > PACKED_LIMIT)
    throw new RangeError(`${what} weights too large: their sums may reach ${bound}, past the evaluation's ${PACKED_LIMIT}`);
  return out;
}

const compiled = new WeakMap<Weights, CompiledWeights>();

/** The square tables as per-byte sums, packed, the scalars as one array, the pattern tables folded and packed. */
export function compileWeights(W: Weights): CompiledWeights {
  const seen = compiled.get(W);
  if (seen) return seen;
  const sq = (kind: 'manOn' | 'kingOn', blackIndex: number, phase: Phase): number =>
    kind === 'manOn' && blackIndex > 27 ? 0 : W[`${kind}${blackIndex + 1}_${phase}` as WeightName];
  // [black men, white men, black kings, white kings] × [middle, ending]: 4 × 256 sums, one per byte of a bitboard.
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
  const squares = packTable(
    'square',
    4 * 1024,
    256,
    (i) => bytes[2 * (i >> 10)]![i & 1023]!,
    (i) => bytes[2 * (i >> 10) + 1]![i & 1023]!,
  );
  const scalars = new Int32Array(2 * S);
  SCALARS.forEach((name, i) => {
    scalars[i] = W[`${name}_m`];
    scalars[S + i] = W[`${name}_e`];
  });
  const folded = W.patterns && W.patterns.some((x) => x !== 0) ? foldPatterns(W.patterns) : null;
  const patterns = folded
    ? packTable(
        'pattern',
        folded.length / 2,
        PATTERN_ENTRIES,
        (i) => folded[2 * i]!,
        (i) => folded[2 * i + 1]!,
      )
    : null;
  const c: CompiledWeights = { weights: W, scalars, squares, patterns };
  compiled.set(W, c);
  return c;
}

/** Rows still to go of each square for a man of Black (7 − row) and of White (row), per byte of a bitboard. */
const ROWS_TO_GO_B = new Int32Array(4 * 256),
  ROWS_TO_GO_W = new Int32Array(4 * 256);
for (let byte = 0; byte < 4; byte++)
  for (let v = 1; v < 256; v++) {
    const i = byte * 8 + lowestIndex(v);
    ROWS_TO_GO_B[byte * 256 + v] = ROWS_TO_GO_B[byte * 256 + (v & (v - 1))]! + 7 - rowOf(i);
    ROWS_TO_GO_W[byte * 256 + v] = ROWS_TO_GO_W[byte * 256 + (v & (v - 1))]! + rowOf(i);
  }

// The evaluation runs at about half the search's nodes, so it is written for
// V8: a call it does not inline costs as much as a dozen bit operations, and
// TurboFan stops inlining once a function's inlined code grows past a budget.
// So the hot path below calls only two tiny helpers (bits, bits2), spells the
// diagonal steps out as shifts, and keeps the kings' terms (rare until the
// ending) in one function of their own.

/** popcount. */
function bits(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
/** popcount(a) + popcount(b) in one pass (fields never overflow: a byte holds at most 16 here). */
function bits2(a: number, b: number): number {
  a = a - ((a >>> 1) & 0x55555555);
  b = b - ((b >>> 1) & 0x55555555);
  let x = (a & 0x33333333) + ((a >>> 2) & 0x33333333) + (b & 0x33333333) + ((b >>> 2) & 0x33333333);
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f);
  return Math.imul(x, 0x01010101) >>> 24;
}

// The diagonal steps of rules/squares.ts as masks: a square of an even row
// (EVEN_ROWS) not in its row's last place (index % 4 ≠ 3), and one of an odd
// row (ODD_ROWS) not in its row's first place (index % 4 ≠ 0).
// stepDL(x) = (x & EVEN) << 4 | (x & ODD_NOT_FIRST) << 3;  stepDR(x) = (x & EVEN_NOT_LAST) << 5 | (x & ODD) << 4;
// stepUL(x) = (x & EVEN) >>> 4 | (x & ODD_NOT_FIRST) >>> 5; stepUR(x) = (x & EVEN_NOT_LAST) >>> 3 | (x & ODD) >>> 4.
const EVEN = 0x0f0f0f0f,
  ODD = 0xf0f0f0f0 | 0,
  ODD_NOT_FIRST = 0xe0e0e0e0 | 0,
  EVEN_NOT_LAST = 0x07070707;

/** The kings' terms (kingMobility, trappedKing) weighed, middle game into KT[0], ending into KT[1]. */
const KT = new Int32Array(2);
function kingTerms(c: CompiledWeights, b: number, w: number, bk: number, wk: number, empty: number): void {
  // Squares with an empty square down-left, down-right, up-left, up-right of them (the steps spelt out).
  const eDL = ((empty & EVEN_NOT_LAST) >>> 3) | ((empty & ODD) >>> 4), // stepUR(empty)
    eDR = ((empty & EVEN) >>> 4) | ((empty & ODD_NOT_FIRST) >>> 5), // stepUL(empty)
    eUL = ((empty & EVEN_NOT_LAST) << 5) | ((empty & ODD) << 4), // stepDR(empty)
    eUR = ((empty & EVEN) << 4) | ((empty & ODD_NOT_FIRST) << 3); // stepDL(empty)
  // A king's simple moves are its empty neighbours (counted from the king's side: the same number).
  const d6 = bits2(bk & eDL, bk & eDR) + bits2(bk & eUL, bk & eUR) - bits2(wk & eDL, wk & eDR) - bits2(wk & eUL, wk & eUR);
  const canStep = eDL | eDR | eUL | eUR;
  // A king that could capture is not trapped: an enemy next to it with an empty square beyond.
  let x = w & eDL;
  let canJumpB = ((x & EVEN_NOT_LAST) >>> 3) | ((x & ODD) >>> 4);
  x = w & eDR;
  canJumpB |= ((x & EVEN) >>> 4) | ((x & ODD_NOT_FIRST) >>> 5);
  x = w & eUL;
  canJumpB |= ((x & EVEN_NOT_LAST) << 5) | ((x & ODD) << 4);
  x = w & eUR;
  canJumpB |= ((x & EVEN) << 4) | ((x & ODD_NOT_FIRST) << 3);
  x = b & eDL;
  let canJumpW = ((x & EVEN_NOT_LAST) >>> 3) | ((x & ODD) >>> 4);
  x = b & eDR;
  canJumpW |= ((x & EVEN) >>> 4) | ((x & ODD_NOT_FIRST) >>> 5);
  x = b & eUL;
  canJumpW |= ((x & EVEN_NOT_LAST) << 5) | ((x & ODD) << 4);
  x = b & eUR;
  canJumpW |= ((x & EVEN) << 4) | ((x & ODD_NOT_FIRST) << 3);
  const d9 = -(bits(bk & ~canStep & ~canJumpB) - bits(wk & ~canStep & ~canJumpW));
  const w6 = c.scalars;
  KT[0] = w6[6]! * d6 + w6[9]! * d9;
  KT[1] = w6[S + 6]! * d6 + w6[S + 9]! * d9;
}

/**
 * The patterns' sum, both phases packed (CompiledWeights.patterns). Each
 * row's men as one byte (Black's four squares low, White's high) read as its
 * four eval-patterns.ts ROW_DIGITS (digit pairs a, a + 1 for a = 0…2, and the
 * whole row) once, then each window's entry: a 4 rows × 2 window's four pairs
 * weighted 1, 9, 81, 729; a 2-row window's two rows 1, 81.
 */
const DIGITS = new Int32Array(32);
function patternTerms(F: Int32Array, bm: number, wm: number): number {
  const G = DIGITS,
    Q = ROW_DIGITS;
  for (let r = 0; r < 8; r++) {
    const c = (((bm >>> (4 * r)) & 15) | (((wm >>> (4 * r)) & 15) << 4)) << 2;
    G[4 * r] = Q[c]!;
    G[4 * r + 1] = Q[c + 1]!;
    G[4 * r + 2] = Q[c + 2]!;
    G[4 * r + 3] = Q[c + 3]!;
  }
  let sum = 0,
    at = 0;
  for (let r = 0; r < 20; r += 4)
    for (let a = r; a < r + 3; a++) {
      sum += F[at + G[a]! + 9 * G[a + 4]! + 81 * G[a + 8]! + 729 * G[a + 12]!]!;
      at += PATTERN_ENTRIES;
    }
  for (let r = 3; r < 28; r += 4) {
    sum += F[at + G[r]! + 81 * G[r + 4]!]!;
    at += PATTERN_ENTRIES;
  }
  return sum;
}

/** popcount of a nibble (a back rank's four squares). */
const NIBBLE_BITS = Int32Array.from({ length: 16 }, (_, v) => ((v >> 3) & 1) + ((v >> 2) & 1) + ((v >> 1) & 1) + (v & 1));

/**
 * Score for Black (positive = Black better) under compiled weights: the
 * scalar terms of scalarTerms (which `features` uses, and the tests hold this
 * to) computed and weighed in one pass. The runaways without a per-man loop:
 * a man of Black is stopped when a White piece stands in the cone in front of
 * it (CONE_BLACK; its extra column either side holds no dark square, so the
 * cone is every square the man's diagonal steps reach), i.e. on a square that
 * some White piece reaches going up in one or more steps — a flood, stopped
 * once no square is added or every man is covered. White's the same way down.
 * (The work is evaluateWithin's, below, with a window no score reaches.)
 */
export function evaluateCompiled(c: CompiledWeights, b: number, w: number, k: number): number {
  return evaluateWithin(c, b, w, k, -OPEN, OPEN);
}

/** A window no score reaches: evaluateWithin with it is the exact evaluation. */
const OPEN = 1 << 30;
/**
 * How far outside the caller's window the score without the pattern tables
 * must fall for them to be skipped: the patterns' blended sum stays under it
 * on 99 % of self-play positions (the depth-6-labelled tables: median 26,
 * 99th percentile 123, largest seen 214).
 */
export const LAZY_MARGIN = 120;

/**
 * Score for Black as evaluateCompiled, but lazy about the pattern tables when
 * only the side of a window [lo, hi] (Black's point of view) matters: when the
 * score without them is LAZY_MARGIN or more below lo or above hi, that score is
 * returned as it is (it lies on the same side of the window as the full one
 * but for a pattern sum past the margin). Inside, or without patterns, the
 * score is exactly evaluateCompiled's. Many of a search's horizon positions
 * are far outside its window (a piece up or down): the 22 look-ups are made
 * at 46 % of the evaluations (1.46 M of 3.17 M, ten bench ballots searched to
 * depth 14); before the search stopped giving a free ply past its horizon
 * (0215b3d), at 7 % (bench ballots, depth 9).
 */
export function evaluateWithin(c: CompiledWeights, b: number, w: number, k: number, lo: number, hi: number): number {
  const T = c.squares,
    W = c.scalars;
  const bm = b & ~k,
    wm = w & ~k;
  const nbm = bits(bm),
    nwm = bits(wm);
  const empty = ~(b | w);
  // The square tables, both phases at once (packed: see CompiledWeights.squares).
  let sq =
    T[bm & 255]! +
    T[256 + ((bm >>> 8) & 255)]! +
    T[512 + ((bm >>> 16) & 255)]! +
    T[768 + (bm >>> 24)]! -
    (T[1024 + (wm & 255)]! + T[1280 + ((wm >>> 8) & 255)]! + T[1536 + ((wm >>> 16) & 255)]! + T[1792 + (wm >>> 24)]!);
  let nbk = 0,
    nwk = 0,
    mid = 0,
    end = 0;
  if (k !== 0) {
    const bk = b & k,
      wk = w & k;
    nbk = bits(bk);
    nwk = bits(wk);
    sq +=
      T[2048 + (bk & 255)]! +
      T[2304 + ((bk >>> 8) & 255)]! +
      T[2560 + ((bk >>> 16) & 255)]! +
      T[2816 + (bk >>> 24)]! -
      (T[3072 + (wk & 255)]! + T[3328 + ((wk >>> 8) & 255)]! + T[3584 + ((wk >>> 16) & 255)]! + T[3840 + (wk >>> 24)]!);
    kingTerms(c, b, w, bk, wk, empty);
    mid = KT[0]!;
    end = KT[1]!;
  }
  mid += (sq << 16) >> 16;
  end += (sq - ((sq << 16) >> 16)) >> 16;
  const pieces = nbm + nbk + nwm + nwk;
  const d0 = nbm - nwm,
    d1 = nbk - nwk;
  const d2 = (nwk === 0 ? NIBBLE_BITS[bm & 15]! : 0) - (nbk === 0 ? NIBBLE_BITS[wm >>> 28]! : 0);
  const d3 = (nwk === 0 && (bm & BRIDGE_B) === BRIDGE_B ? 1 : 0) - (nbk === 0 && (wm & BRIDGE_W) === BRIDGE_W ? 1 : 0);
  const d4 = (wm & (1 << 4) && bm & 1 ? 1 : 0) - (bm & (1 << 27) && wm & (1 << 31) ? 1 : 0);
  // Men's simple moves: Black's down-left and down-right, White's up-left and up-right.
  const d5 =
    bits2((((bm & EVEN) << 4) | ((bm & ODD_NOT_FIRST) << 3)) & empty, (((bm & EVEN_NOT_LAST) << 5) | ((bm & ODD) << 4)) & empty) -
    bits2((((wm & EVEN) >>> 4) | ((wm & ODD_NOT_FIRST) >>> 5)) & empty, (((wm & EVEN_NOT_LAST) >>> 3) | ((wm & ODD) >>> 4)) & empty);
  // Runaways (see above): the squares White's pieces reach going up (one step: up-left | up-right), and Black's going down.
  let x = (w >>> 4) | ((w & ODD_NOT_FIRST) >>> 5) | ((w & EVEN_NOT_LAST) >>> 3),
    blocked = 0;
  while ((x & ~blocked) !== 0 && (bm & ~blocked) !== 0) {
    blocked |= x;
    x = (x >>> 4) | ((x & ODD_NOT_FIRST) >>> 5) | ((x & EVEN_NOT_LAST) >>> 3);
  }
  const rb = bm & ~blocked;
  x = (b << 4) | ((b & ODD_NOT_FIRST) << 3) | ((b & EVEN_NOT_LAST) << 5);
  blocked = 0;
  while ((x & ~blocked) !== 0 && (wm & ~blocked) !== 0) {
    blocked |= x;
    x = (x << 4) | ((x & ODD_NOT_FIRST) << 3) | ((x & EVEN_NOT_LAST) << 5);
  }
  const rw = wm & ~blocked;
  let d7 = 0,
    d8 = 0;
  if ((rb | rw) !== 0) {
    d7 = bits(rb) - bits(rw);
    d8 = -(
      ROWS_TO_GO_B[rb & 255]! +
      ROWS_TO_GO_B[256 + ((rb >>> 8) & 255)]! +
      ROWS_TO_GO_B[512 + ((rb >>> 16) & 255)]! +
      ROWS_TO_GO_B[768 + (rb >>> 24)]! -
      (ROWS_TO_GO_W[rw & 255]! +
        ROWS_TO_GO_W[256 + ((rw >>> 8) & 255)]! +
        ROWS_TO_GO_W[512 + ((rw >>> 16) & 255)]! +
        ROWS_TO_GO_W[768 + (rw >>> 24)]!)
    );
  }
  const ahead = 2 * d0 + 3 * d1;
  const d10 = ahead > 0 ? 24 - pieces : ahead < 0 ? pieces - 24 : 0;
  const d11 = -(Math.abs(bits(bm & LEFT) - bits(bm & RIGHT)) - Math.abs(bits(wm & LEFT) - bits(wm & RIGHT)));
  mid += W[0]! * d0 + W[1]! * d1 + W[2]! * d2 + W[3]! * d3 + W[4]! * d4 + W[5]! * d5;
  mid += W[7]! * d7 + W[8]! * d8 + W[10]! * d10 + W[11]! * d11;
  end += W[S + 0]! * d0 + W[S + 1]! * d1 + W[S + 2]! * d2 + W[S + 3]! * d3 + W[S + 4]! * d4 + W[S + 5]! * d5;
  end += W[S + 7]! * d7 + W[S + 8]! * d8 + W[S + 10]! * d10 + W[S + 11]! * d11;
  const ph = pieces >= 20 ? PHASE_STEPS : pieces <= 4 ? 0 : pieces - 4;
  if (c.patterns !== null) {
    const named = ((mid * ph + end * (PHASE_STEPS - ph)) / PHASE_STEPS) | 0;
    if (named + LAZY_MARGIN <= lo || named - LAZY_MARGIN >= hi) return named;
    const p = patternTerms(c.patterns, bm, wm);
    mid += (p << 16) >> 16;
    end += (p - ((p << 16) >> 16)) >> 16;
  }
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
  return pos.turn === 'black' ? s : 0 - s; // 0 − s: a level score is 0 for either side, never −0
}
