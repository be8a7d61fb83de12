// The static evaluation: what a checkers player looks at in a quiet position,
// as a score in hundredths of a man from the side to move's point of view.
// Every weight is in WEIGHTS, with what it rewards; features are computed on
// the bitboards from Black's side and negated for White. The score is linear in
// the weights: `features` gives each weight's multiplier, and `npm run tune`
// (bench/tune.ts) fits the weights to the corpus' game results (Texel's method)
// and writes them back into the WEIGHTS table below.

import { popcount, stepDL, stepDR, stepUL, stepUR, lowestIndex, rowOf, colOf, type Position } from '../rules/index.ts';

export const WEIGHTS = Object.freeze({
  /** A man. */
  man: 100,
  /** A king (worth about 1.3 men in the middle game, more as the board empties). */
  king: 130,
  /** Extra per king when few pieces remain (kings rule open boards). */
  kingEndgame: 20,
  /** Per man still on its own back rank while the opponent has no king (it stops crowning). */
  backRank: 6,
  /** Bonus for the "bridge": both 1 and 3 held by Black (30 and 32 by White), the classic guard. */
  bridge: 12,
  /** Per man on the four centre squares 14, 15, 18, 19. */
  centreMan: 8,
  /** Per king on the eight central squares (10, 11, 14, 15, 18, 19, 22, 23). */
  centreKing: 10,
  /** A man sitting in the opponent's dog-hole (White on 5 against Black's 1; Black on 28 against White's 32): it cannot move. */
  dogHole: 15,
  /** Per simple move available (mobility). */
  mobility: 2,
  /** Per row a man has advanced, weighted by how many men are left (tempo: in the opening, not too fast; here mild). */
  tempo: 1,
  /** A man with no enemy piece in the cone in front of it (a runaway), less per row still to go. */
  runaway: 40,
  runawayPerRow: 5,
  /** A king with no move (trapped, typically in a corner by a man). */
  trappedKing: 30,
  /** When ahead in material, per piece the opponent no longer has (trade down when ahead). */
  tradeDown: 4,
});

/** A weight table (WEIGHTS, or one being tried by the tuner). */
export type Weights = typeof WEIGHTS;
export type WeightName = keyof Weights;
export const WEIGHT_NAMES = Object.keys(WEIGHTS) as WeightName[];

// Squares (index = square − 1).
const CENTRE = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
const CENTRE8 = CENTRE | (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
const BLACK_BACK = 0x0000000f; // 1–4
const WHITE_BACK = 0xf0000000 | 0; // 29–32
const BRIDGE_B = (1 << 0) | (1 << 2); // 1, 3
const BRIDGE_W = (1 << 29) | (1 << 31); // 30, 32

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

/** ROWS16[x]: the sum of the rows (0–3) of the squares set in a 16-bit half board. */
const ROWS16 = new Uint8Array(1 << 16);
for (let x = 1; x < 1 << 16; x++) ROWS16[x] = ROWS16[x & (x - 1)]! + rowOf(lowestIndex(x));

/** Rows advanced by a side's men, summed (two table look-ups, no loop). */
function advancement(men: number, black: boolean): number {
  const lo = men & 0xffff,
    hi = men >>> 16;
  const rows = ROWS16[lo]! + ROWS16[hi]! + 4 * popcount(hi); // Σ row over the men
  return black ? rows : 7 * popcount(men) - rows;
}

/** Kings of a side with no simple move and no capture. */
function trappedKings(kings: number, empty: number, enemy: number): number {
  const canStep = stepUL(empty) | stepUR(empty) | stepDL(empty) | stepDR(empty);
  // A king that could capture is not trapped.
  const canJump =
    stepUR(enemy & stepUR(empty)) | stepUL(enemy & stepUL(empty)) | stepDL(enemy & stepDL(empty)) | stepDR(enemy & stepDR(empty));
  return popcount(kings & ~canStep & ~canJump);
}

/** Simple moves available to a side (men forward, kings both ways). */
function mobility(own: number, kings: number, empty: number, black: boolean): number {
  const k = own & kings;
  const down = black ? own : k;
  const up = black ? k : own;
  return popcount(stepDL(down) & empty) + popcount(stepDR(down) & empty) + popcount(stepUL(up) & empty) + popcount(stepUR(up) & empty);
}

/**
 * Each weight's multiplier in Black's score: evaluateBlack(b, w, k, W) is the
 * sum of W[name] · features[name]. (Only the trade-down term's sign depends on
 * the weights: it follows the material count under W.)
 */
export function features(b: number, w: number, k: number, W: Weights = WEIGHTS): Record<WeightName, number> {
  const bm = b & ~k,
    bk = b & k,
    wm = w & ~k,
    wk = w & k;
  const nbm = popcount(bm),
    nbk = popcount(bk),
    nwm = popcount(wm),
    nwk = popcount(wk);
  const pieces = nbm + nbk + nwm + nwk;
  const empty = ~(b | w);
  const kingValue = W.king + (pieces <= 10 ? W.kingEndgame : 0);
  const matB = nbm * W.man + nbk * kingValue,
    matW = nwm * W.man + nwk * kingValue;
  const rbn = runaways(bm, w, true),
    rbr = RUN_ROWS[0]!;
  const rwn = runaways(wm, b, false),
    rwr = RUN_ROWS[0]!;
  return {
    man: nbm - nwm,
    king: nbk - nwk,
    kingEndgame: pieces <= 10 ? nbk - nwk : 0,
    backRank: (nwk === 0 ? popcount(bm & BLACK_BACK) : 0) - (nbk === 0 ? popcount(wm & WHITE_BACK) : 0),
    bridge: (nwk === 0 && (bm & BRIDGE_B) === BRIDGE_B ? 1 : 0) - (nbk === 0 && (wm & BRIDGE_W) === BRIDGE_W ? 1 : 0),
    centreMan: popcount(bm & CENTRE) - popcount(wm & CENTRE),
    centreKing: popcount(bk & CENTRE8) - popcount(wk & CENTRE8),
    dogHole: (wm & (1 << 4) && bm & 1 ? 1 : 0) - (bm & (1 << 27) && wm & (1 << 31) ? 1 : 0),
    mobility: mobility(b, k, empty, true) - mobility(w, k, empty, false),
    tempo: pieces >= 12 ? advancement(bm, true) - advancement(wm, false) : 0,
    runaway: rbn - rwn,
    runawayPerRow: -(rbr - rwr),
    trappedKing: -(trappedKings(bk, empty, w) - trappedKings(wk, empty, b)),
    tradeDown: matB > matW ? 24 - pieces : matW > matB ? -(24 - pieces) : 0,
  };
}

/** Score for Black (positive = Black better). */
export function evaluateBlack(b: number, w: number, k: number, W: Weights = WEIGHTS): number {
  if (k === 0) return menOnly(b, w, W);
  const bm = b & ~k,
    bk = b & k,
    wm = w & ~k,
    wk = w & k;
  const nbm = popcount(bm),
    nbk = popcount(bk),
    nwm = popcount(wm),
    nwk = popcount(wk);
  const pieces = nbm + nbk + nwm + nwk;
  const empty = ~(b | w);
  const kingValue = W.king + (pieces <= 10 ? W.kingEndgame : 0);
  const matB = nbm * W.man + nbk * kingValue;
  const matW = nwm * W.man + nwk * kingValue;
  let s = matB - matW;
  // Trade down when ahead: the side ahead likes an emptier board.
  if (matB > matW) s += W.tradeDown * (24 - pieces);
  else if (matW > matB) s -= W.tradeDown * (24 - pieces);
  // Back rank, while the opponent has no king yet.
  if (nwk === 0) {
    s += W.backRank * popcount(bm & BLACK_BACK);
    if ((bm & BRIDGE_B) === BRIDGE_B) s += W.bridge;
  }
  if (nbk === 0) {
    s -= W.backRank * popcount(wm & WHITE_BACK);
    if ((wm & BRIDGE_W) === BRIDGE_W) s -= W.bridge;
  }
  s += W.centreMan * (popcount(bm & CENTRE) - popcount(wm & CENTRE));
  s += W.centreKing * (popcount(bk & CENTRE8) - popcount(wk & CENTRE8));
  // Dog-holes: White man on 5 with a Black man on 1; Black man on 28 with a White man on 32.
  if (wm & (1 << 4) && bm & 1) s += W.dogHole;
  if (bm & (1 << 27) && wm & (1 << 31)) s -= W.dogHole;
  s += W.mobility * (mobility(b, k, empty, true) - mobility(w, k, empty, false));
  // Tempo: in the middle game (8+ men each side in play) advancing men gains space.
  if (pieces >= 12) s += W.tempo * (advancement(bm, true) - advancement(wm, false));
  // Runaways: a bonus each, less per row still to go.
  const rbn = runaways(bm, w, true),
    rbr = RUN_ROWS[0]!;
  const rwn = runaways(wm, b, false),
    rwr = RUN_ROWS[0]!;
  s += W.runaway * (rbn - rwn) - W.runawayPerRow * (rbr - rwr);
  s -= W.trappedKing * (trappedKings(bk, empty, w) - trappedKings(wk, empty, b));
  return s;
}

/** evaluateBlack without kings on the board (most of a game): the same terms, the kings' ones left out. */
function menOnly(b: number, w: number, W: Weights): number {
  const nb = popcount(b),
    nw = popcount(w);
  const pieces = nb + nw;
  const empty = ~(b | w);
  const matB = nb * W.man,
    matW = nw * W.man;
  let s = matB - matW;
  if (matB > matW) s += W.tradeDown * (24 - pieces);
  else if (matW > matB) s -= W.tradeDown * (24 - pieces);
  s += W.backRank * (popcount(b & BLACK_BACK) - popcount(w & WHITE_BACK));
  if ((b & BRIDGE_B) === BRIDGE_B) s += W.bridge;
  if ((w & BRIDGE_W) === BRIDGE_W) s -= W.bridge;
  s += W.centreMan * (popcount(b & CENTRE) - popcount(w & CENTRE));
  if (w & (1 << 4) && b & 1) s += W.dogHole;
  if (b & (1 << 27) && w & (1 << 31)) s -= W.dogHole;
  s += W.mobility * (popcount(stepDL(b) & empty) + popcount(stepDR(b) & empty) - popcount(stepUL(w) & empty) - popcount(stepUR(w) & empty));
  if (pieces >= 12) s += W.tempo * (advancement(b, true) - advancement(w, false));
  const rbn = runaways(b, w, true),
    rbr = RUN_ROWS[0]!;
  const rwn = runaways(w, b, false),
    rwr = RUN_ROWS[0]!;
  return s + W.runaway * (rbn - rwn) - W.runawayPerRow * (rbr - rwr);
}

/** Score for the side to move. */
export function evaluate(pos: Position, W: Weights = WEIGHTS): number {
  const s = evaluateBlack(pos.black, pos.white, pos.kings, W);
  return pos.turn === 'black' ? s : -s;
}
