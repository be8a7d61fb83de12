// What the board shows against the game, for the move tracker: pure helpers
// on counts and the reader's view — the board read the other way where the
// reader was unsure (alternatives), the likeliest reading of an illegal board,
// a board moved on from a stuck one, where a stack is plausible and where a
// coin may lie magnet-up (the game as the reader's prior), a king recognised
// at set-up without lifting it, firm stacks, a crown's evidence, a king's
// route from the placements, and what the game allows per position
// (PositionCache). No state beyond that cache.

import { JUMP_LAND, NEIGHBOUR, legalMoves, type Move, type Position, type ReadonlyGame } from '../rules/index.ts';
import type { BoardView } from '../reading/view.ts';
import { FIRM_STACK } from '../reading/thresholds.ts';
import { countsOf, outcomes, type Counts, type Outcome } from './boards.ts';
import type { Crown } from './state.ts';

/**
 * What the game allows in its position, worked out once per position: keyed by
 * the position object itself (a change of mind replaces the last ply, so the
 * number of plies alone would not do) and whether the game is over.
 */
export class PositionCache {
  private key: Position | null = null;
  private over = false;
  private cache: { counts: Counts; outs: Outcome[]; before: Position | null; beforeCounts: Counts | null; beforeOuts: Outcome[] } | null =
    null;

  /** The position's counts and legal outcomes, and the same before the last ply (for a takeback or a change of mind). */
  of(game: ReadonlyGame) {
    const n = game.plies.length;
    const pos = game.position;
    const over = game.outcome !== null;
    if (this.key !== pos || this.over !== over || !this.cache) {
      const opts = game.options;
      const lastPly = game.plies[n - 1];
      const before = lastPly ? (lastPly.beforeHuff ?? lastPly.before) : null;
      this.cache = {
        counts: countsOf(pos),
        outs: game.outcome ? [] : outcomes(pos, opts),
        before,
        beforeCounts: before ? countsOf(before) : null,
        beforeOuts: lastPly && !lastPly.huff ? outcomes(lastPly.before, opts) : [],
      };
      this.key = pos;
      this.over = over;
    }
    return this.cache;
  }

  clear(): void {
    this.cache = null;
  }
}

/** The legal moves the priors look at (stackPrior, flipPrior): none once the game is over. One list for both. */
export function priorMoves(game: ReadonlyGame): readonly Move[] {
  return game.outcome ? [] : legalMoves(game.position, game.options);
}

/**
 * Where a two-coin stack is plausible now (bitboard): the game is the prior.
 * `carried`: the square a crowned man was taken back to as a stack (null: none); `moves`: the
 * position's legal moves (none once the game is over: see priorMoves).
 */
export function stackPrior(game: ReadonlyGame, carried: number | null, moves: readonly Move[]): number {
  // The game is the prior: a second coin is plausible only where the rules allow one — where a
  // king stands, where a king can land, where a man can reach the king row (it may arrive with
  // its crown, or as a ready-made stack), and on the square a crowned man was taken back to.
  // It is expected where a crown is awaited. Anywhere else a rise is a coin sitting better.
  const pos = game.position;
  let mask = pos.kings;
  for (const m of moves) {
    const king = (pos.kings & (1 << (m.from - 1))) !== 0;
    if (king) for (const p of m.path) mask |= 1 << (p - 1);
    else if (m.crowned) mask |= 1 << (m.to - 1);
  }
  // (Also every empty square next to a king, legal or not: a king stepping wrongly must still be
  // read as a king for the alert to say what to put back. Not a square a man stands on: no king
  // goes there, and a coin on that man is a stack where none can be.)
  const occupied = pos.black | pos.white;
  for (let i = 0; i < 32; i++) {
    if (!((pos.kings >>> i) & 1)) continue;
    for (let d = 0; d < 4; d++) {
      const n = NEIGHBOUR[i * 4 + d];
      if (n >= 0 && !((occupied >>> n) & 1)) mask |= 1 << n;
    }
  }
  if (carried !== null) mask |= 1 << (carried - 1);
  const last = game.plies.at(-1);
  if (last?.move.crowned) mask |= 1 << (last.move.from - 1);
  return mask;
}

/**
 * Polarity-coded board: where a coin may lie magnet-up now, by which way it
 * then reads (bitboards): the game is the prior. On every man of the
 * position (a man straightened in a j'adoube cannot change colour), where the
 * side to move's men may land (its own coin, put down the wrong way up) and
 * on the square where a crown is awaited (the man that landed there). A Black
 * coin upside down reads below empty, a White one above. Not on kings: a coin
 * put on a man magnet-up reads on the man's own side (the reader's crown flip).
 */
export function flipPrior(game: ReadonlyGame, crown: number | null, moves: readonly Move[]): { below: number; above: number } {
  const pos = game.position;
  let black = pos.black & ~pos.kings,
    white = pos.white & ~pos.kings;
  for (const m of moves) {
    if ((pos.kings >>> (m.from - 1)) & 1) continue;
    let landings = 0;
    for (const p of m.path) landings |= 1 << (p - 1);
    if (pos.turn === 'black') black |= landings;
    else white |= landings;
  }
  if (crown !== null) {
    const bit = 1 << (crown - 1);
    if (pos.black & bit) black |= bit;
    if (pos.white & bit) white |= bit;
  }
  return { below: black, above: white };
}

/**
 * The board read with the game's counts where one-or-two is the only
 * difference and the reading allows it (a coin there reading at least like a
 * fairly centred coin, for a king; no more than a clear stack, for a man).
 * Null if anything else differs.
 */
export function setupReading(board: Counts, want: Counts, v: BoardView): Counts | null {
  const b = new Uint8Array(board);
  for (let i = 0; i < 32; i++) {
    if (b[i] === want[i]) continue;
    if (b[i] === 0 || want[i] === 0) return null;
    if (v.settling) return null;
    if (want[i] === 2 && v.coins[i] < KING_MIN_READING) return null;
    b[i] = want[i];
  }
  return b;
}

/**
 * Squares read as two coins whose levels were measured (the routine) and whose reading stands in
 * the upper part of the one-to-two gap, where no man reads (a man's level may rise with better
 * centring only so far: see Calibration.learn).
 */
export function firmStacks(board: Counts, v: BoardView): number {
  let m = 0;
  let stack: Readonly<Float32Array> | null = null;
  for (let i = 0; i < 32; i++) if (board[i] === 2 && (v.measured >>> i) & 1 && (stack ??= v.stack)[i] >= FIRM_STACK) m |= 1 << i;
  return m;
}

/**
 * Does `board` follow from the stuck board by the opponent's hand alone: only
 * squares the unfinished move did not touch have changed, and a piece was put
 * down?
 */
export function movedOnFrom(pos: Position, counts: Counts, stuck: Counts, board: Counts): boolean {
  let placed = false;
  for (let i = 0; i < 32; i++) {
    if (board[i] === stuck[i]) continue;
    // The side to move's pieces and the squares the unfinished move left are theirs: untouched since.
    const bit = 1 << i;
    const mover = pos.turn === 'black' ? pos.black : pos.white;
    if (mover & bit) return false;
    if (counts[i] !== stuck[i]) return false;
    if (board[i] > stuck[i]) placed = true;
  }
  // (A piece only taken away is no reply: the opponent's move puts a piece down somewhere.)
  return placed;
}

/**
 * The board as read, but a man sitting better where no stack can be read as the man (two coins
 * there were never more than a guess), and a piece that appeared next to (or a jump from) where a
 * king vanished read as that king (an off-centre stack reads like one coin).
 */
export function likelyBoard(board: Counts, counts: Counts, v: BoardView, plausible: number): Counts {
  const b = new Uint8Array(board);
  const unexpected = v.unexpected;
  for (let i = 0; i < 32; i++) if ((unexpected >>> i) & 1 && b[i] === 2 && counts[i] < 2) b[i] = 1;
  const gone = (size: number) => {
    const out: number[] = [];
    for (let i = 0; i < 32; i++) if (counts[i] === size && b[i] === 0) out.push(i);
    return out;
  };
  const near = (from: number[], i: number) =>
    from.some((k) => [0, 1, 2, 3].some((d) => NEIGHBOUR[k * 4 + d] === i || JUMP_LAND[k * 4 + d] === i));
  // A faint reading where a man stood, while a piece appeared elsewhere: the man moved (its square's
  // empty level was only a guess).
  const placed = b.some((n, i) => n > counts[i]);
  for (let i = 0; i < 32; i++) if (placed && (v.faint >>> i) & 1 && b[i] === 1 && counts[i] === 1) b[i] = 0;
  const kingsGone = gone(2),
    menGone = gone(1);
  for (let i = 0; i < 32; i++) {
    if (b[i] !== 1 || counts[i] !== 0) continue;
    // (Not if a man that could have gone there is gone too: then it is likelier that man.)
    if (near(kingsGone, i) && !near(menGone, i) && (plausible >>> i) & 1) b[i] = 2;
  }
  return b;
}

/** Has the side to move touched the board: one of its pieces changed, or something put down on an empty square? */
export function sideToMoveTouched(pos: Position, counts: Counts, board: Counts): boolean {
  const own = pos.turn === 'black' ? pos.black : pos.white;
  for (let i = 0; i < 32; i++) {
    if (board[i] === counts[i]) continue;
    if (counts[i] === 0 || (own >>> i) & 1) return true;
  }
  return false;
}
/** Among results with the same board (a king's routes), the one the hand's placements followed. */
export function chooseRoute(hits: Outcome[], placements: readonly number[]): Outcome {
  if (hits.length === 1) return hits[0];
  let best = hits[0],
    bestScore = -1;
  for (const h of hits) {
    let k = 0,
      score = 0;
    for (const p of placements) {
      const idx = h.move.path.indexOf(p, k);
      if (idx >= 0) {
        score++;
        k = idx + 1;
      }
    }
    if (score > bestScore) {
      best = h;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Takes the man's level on the crowning square once its smoothed reading has stopped moving; from
 * then on, the highest the reading rises above it (the crown landing shows as a rise, however the
 * stack is knocked after).
 */
export function noteManLevel(wait: Extract<Crown, { kind: 'awaited' }>, board: Counts, view: BoardView): void {
  const i = wait.square - 1;
  if (wait.touched || board[i] !== 1) return;
  const level = view.coins[i];
  if (!Number.isNaN(wait.manLevel)) {
    wait.peak = Math.max(wait.peak, level - wait.manLevel);
    return;
  }
  if (Math.abs(level - wait.manLevelLast) <= MAN_STILL) wait.manLevel = level;
  wait.manLevelLast = level;
}

/** In set-up, a square where the game has a king and one coin is read counts as the king if it reads at least this (fraction of a coin above empty). */
const KING_MIN_READING = 0.75;

/** The same move: same start and the same landing squares in order (the rules' own). */
export { sameMove } from '../rules/index.ts';

/** Fraction of the way from one coin to two above which an awaited crown is taken as on once play goes on. */
export const AMBIGUOUS_CROWN = 0.1;
/** …and with no crowning seen, this far (a reading above any man seen on the square). */
export const UNSEEN_CROWN = 0.15;
/**
 * Where the square's levels were measured (the routine: one coin and two,
 * centred), this far, touched or not: the level is no guess, so the bar sits
 * between the men and the stacks. A man reads up to a third of the way (its
 * magnet up to 8 % stronger than the routine's coin, centred), a crown stack
 * put down as people do at least 0.46 (the simulated board, 240 of each
 * across 60 boards).
 */
export const MEASURED_CROWN = 0.4;
/**
 * A rise of at least this many coin steps from the man's own steady reading on the crowning square
 * is the crown put on top, once the opponent has begun: the smallest crown (a weak coin on a weak
 * man, both far off-centre) adds about 0.18 of a step; a man's reading does not move by itself.
 */
export const CROWN_RISE = 0.12;
/** The man's smoothed reading has stopped moving when two frames differ by at most this (coin steps). */
const MAN_STILL = 0.01;

/**
 * The board, then the boards with soft squares read the other way — one or two
 * coins where `uncertain`, empty or one where `faint` — at most 3 squares.
 */
export function alternatives(board: Counts, uncertain: number, faint = 0): Counts[] {
  if (uncertain === 0 && faint === 0) return [board];
  const squares: [number, number][] = [];
  for (let i = 0; i < 32 && squares.length < 3; i++) {
    if ((faint >>> i) & 1 && board[i] <= 1) squares.push([i, board[i] === 1 ? 0 : 1]);
    else if ((uncertain >>> i) & 1 && board[i] >= 1) squares.push([i, board[i] === 1 ? 2 : 1]);
  }
  const out = [board];
  for (let mask = 1; mask < 1 << squares.length; mask++) {
    const b = new Uint8Array(board);
    squares.forEach(([i, other], k) => {
      if ((mask >> k) & 1) b[i] = other;
    });
    out.push(b);
  }
  return out;
}

/**
 * An awaited crown read on its square (one coin counted there) once the
 * opponent has begun: a rise from the man's own steady reading (the man never
 * lifted), or a reading in the band where an off-centre stack and a
 * well-centred man overlap (on measured levels, past the men's band). A
 * crown seen landing (the reading rose a crown's rise above the man's, the
 * square never emptied) stays put on even if the stack was knocked
 * off-centre since and reads like the man again (or below: a stack 3 mm
 * off-centre on a small magnet): the game awaits a crown there, and the
 * player is asked to straighten it (see kings.ts).
 */
export function crownRead(v: BoardView, wait: Extract<Crown, { kind: 'awaited' }>): boolean {
  const i = wait.square - 1;
  const rose = !wait.touched && (v.coins[i] - wait.manLevel >= CROWN_RISE || wait.peak >= CROWN_RISE);
  return rose || v.stack[i] >= ((v.measured >>> i) & 1 ? MEASURED_CROWN : wait.touched ? AMBIGUOUS_CROWN : UNSEEN_CROWN);
}
