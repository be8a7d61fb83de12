// Matching the board against the game, as a pure function: the board as read
// (with its other readings where one coin or two is soft) and what the game
// allows now go in; which case it is comes out, one Verdict variant per case.
// No time and no state: the tracker decides what to do with a verdict, and
// when (grace, patience and settle periods are its business). On a
// polarity-coded board the colours read go in too, as plain bitboards: a
// takeback must also show the earlier position's colours where the move
// changed the board.

import { sameResult, type Move, type Position, type RulesOptions } from '../rules/index.ts';
import { isPartOf, matchesResult, outcomes, sameCounts, type Counts, type Outcome } from './boards.ts';

/** What the game allows now, as counts. */
export interface Situation {
  /** the position's counts and the legal results from it (none once the game is over) */
  counts: Counts;
  outs: readonly Outcome[];
  /** the last move, while it may still be changed or taken back: the position and counts before it and the results from there */
  last: { before: Position; counts: Counts; outs: readonly Outcome[]; move: Move; opponentStarted: boolean } | null;
  /** the square where a crown is awaited */
  crown: number | null;
  /** huffing variant: the pieces that may be huffed, and the position without each */
  huffs: readonly { square: number; counts: Counts; outs: readonly Outcome[] }[];
  /** squares where a piece was put down since the last commit, in order */
  placements: readonly number[];
  /** the retraction rule: an illegal move was made (and taken back) with the piece on this square, which has a legal move */
  retract?: number | null;
  /** polarity-coded board: the colours the board reads clearly (absent or null: a board glued the old way, no colours) */
  colours?: ColoursRead | null;
  options: RulesOptions;
}

/**
 * Polarity-coded board: squares whose reading says clearly whose coin it is
 * (bitboards). `black`/`white`: a coin a full step on that side, not about
 * half a step (a coin upside down, a crown of the other colour under a man:
 * unsure, never a refusal); `blackKing`/`whiteKing`: a stack's worth on that
 * side (a king crowned with the opponent's coin reads less). Made from the
 * reader's view by coloursRead (colour.ts).
 */
export interface ColoursRead {
  black: number;
  white: number;
  blackKing: number;
  whiteKing: number;
}

export type Verdict =
  /** the board shows the position */
  | { kind: 'in-sync' }
  /** …but for the crown awaited (the man there, or lifted to slip a coin under) */
  | { kind: 'crown-awaited' }
  /** the result of one legal move (several: a king's routes to the same board) */
  | { kind: 'legal'; hits: Outcome[] }
  /** …but made with another piece than the one that moved illegally before (the retraction rule) */
  | { kind: 'other-piece'; hits: Outcome[]; square: number }
  /** huffing: a huffable piece removed, and maybe a move made after it (hit) */
  | { kind: 'huff'; square: number; hit: Outcome | null; partial: boolean }
  /** the last mover made another legal move instead, before the opponent started */
  | { kind: 'change-of-mind'; alternatives: Outcome[] }
  /** the position before the last move */
  | { kind: 'takeback' }
  /** the last mover part-way through another move (their piece lifted again) */
  | { kind: 'changing-mind' }
  /** part-way through a legal move; `finished`: the piece is down (captured coins still on, a jump stopped short) */
  | { kind: 'part-way'; partial: Outcome[]; finished: boolean }
  /** a move and the opponent's answer, both done before the board was seen still */
  | { kind: 'fast-reply'; first: Outcome; replies: Outcome[] }
  /** the opponent went on while a crown is awaited */
  | { kind: 'crown-missing'; partial: boolean }
  /** nothing legal explains the board */
  | { kind: 'illegal' };

/** The board with the awaited crown counted as placed (for matching). */
export function withCrown(board: Counts, square: number | null): Counts {
  if (square === null || board[square - 1] !== 1) return board;
  const b = new Uint8Array(board);
  b[square - 1] = 2;
  return b;
}

/**
 * Which case the board is. `boards[0]` is the board as read, the others the
 * same board with soft squares read the other way: a reading that matches the
 * game (in sync, a legal result, a change of mind, a takeback) wins over one
 * that does not; then part-way states; then a fast reply (as read).
 */
export function classify(boards: readonly Counts[], s: Situation): { verdict: Verdict; board: Counts } {
  for (const b of boards) {
    const v = matchVerdict(b, s);
    if (v) return { verdict: v, board: b };
  }
  const board = boards[0];
  const crownBlocks = s.crown !== null && board[s.crown - 1] < 2;
  for (const b of boards) {
    const view = withCrown(b, s.crown);
    // The last mover part-way through a different move (their piece lifted again). (Not the
    // position before the last move itself, nothing lifted: that is a takeback, or, refused by the
    // colours read, a board nothing explains.)
    if (
      s.last &&
      !s.last.opponentStarted &&
      !sameCounts(b, s.last.counts) &&
      s.last.outs.some((o) => isPartOf(b, s.last!.counts, o.move, true)) &&
      !s.outs.some((o) => isPartOf(view, s.counts, o.move, true))
    ) {
      return { verdict: { kind: 'changing-mind' }, board: b };
    }
    const partial = s.outs.filter((o) => isPartOf(view, s.counts, o.move, true));
    if (!partial.length) continue;
    if (crownBlocks) return { verdict: { kind: 'crown-missing', partial: true }, board: b };
    return { verdict: { kind: 'part-way', partial, finished: looksFinished(view, s.counts, partial) }, board: b };
  }
  // A fast reply: a reply always puts a piece down somewhere new, seen put down (a square whose
  // coins never changed is the same piece standing still); the crown comes before any reply. (On
  // any reading of the soft squares: a king that landed a moment before the reply began may read
  // as one coin, off-centre, where the game has it land.)
  for (const b of crownBlocks ? [] : boards) {
    if (!b.some((c, i) => c > s.counts[i])) continue;
    for (const o1 of s.outs) {
      if (o1.move.crowned) continue;
      const replies = outcomes(o1.after, s.options).filter((o2) => matchesResult(b, o2) && s.placements.includes(o2.move.to));
      if (replies.length) return { verdict: { kind: 'fast-reply', first: o1, replies }, board: b };
    }
  }
  if (crownBlocks) return { verdict: { kind: 'crown-missing', partial: false }, board };
  return { verdict: { kind: 'illegal' }, board };
}

/** In sync, a legal result, a huff, a change of mind or a takeback; null if none. */
function matchVerdict(board: Counts, s: Situation): Verdict | null {
  const view = withCrown(board, s.crown);
  if (sameCounts(view, s.counts)) return { kind: s.crown !== null ? 'crown-awaited' : 'in-sync' };
  if (s.crown !== null && crownWaitBoard(board, s.counts, s.crown)) return { kind: 'crown-awaited' };
  const crownBlocks = s.crown !== null && board[s.crown - 1] < 2;
  if (!crownBlocks) {
    const hits = s.outs.filter((o) => matchesResult(board, o));
    if (hits.length) {
      const r = s.retract ?? null;
      if (r !== null && s.outs.some((o) => o.move.from === r) && !hits.some((o) => o.move.from === r))
        return { kind: 'other-piece', hits, square: r };
      return { kind: 'legal', hits };
    }
    for (const h of s.huffs) {
      const hit = h.outs.find((o) => matchesResult(board, o)) ?? null;
      if (hit || sameCounts(board, h.counts) || h.outs.some((o) => isPartOf(board, h.counts, o.move, true))) {
        return { kind: 'huff', square: h.square, hit, partial: !hit };
      }
    }
  }
  if (s.last) {
    if (!s.last.opponentStarted) {
      const alternatives = s.last.outs.filter((o) => matchesResult(board, o) && !sameResult(o.move, s.last!.move));
      if (alternatives.length) return { kind: 'change-of-mind', alternatives };
    }
    if (sameCounts(board, s.last.counts) && !coloursRefuse(s.colours ?? null, s.last.before, s.last.move).length)
      return { kind: 'takeback' };
  }
  return null;
}

/**
 * Coded board: the squares whose colours read refuse taking `move` back to
 * `before` (none: no refusal): a square whose contents the move changed (its
 * from square, the pieces it captured) holds a piece in `before` and reads
 * clearly the other side's colour — the coin there is not the piece a
 * takeback puts back. An unsure reading never refuses.
 */
export function coloursRefuse(c: ColoursRead | null, before: Position, move: Move): number[] {
  if (!c) return [];
  const out: number[] = [];
  for (const sq of new Set([move.from, move.to, ...move.captures])) {
    const bit = 1 << (sq - 1);
    const king = before.kings & bit;
    if ((before.black & bit && (king ? c.whiteKing : c.white) & bit) || (before.white & bit && (king ? c.blackKing : c.black) & bit))
      out.push(sq);
  }
  return out;
}

/** The board while a crown is awaited: the man on the crowning square (1), or lifted to slip a coin under (0); the rest as the position. */
export function crownWaitBoard(board: ArrayLike<number>, expected: Counts, crown: number): boolean {
  const s = crown - 1;
  for (let i = 0; i < 32; i++) {
    if (i === s) {
      if (board[i] > 1) return false;
    } else if (board[i] !== expected[i]) return false;
  }
  return true;
}

/**
 * Part-way states that look like the player thinks they are done: the moving
 * piece put down on a landing square (not in the hand).
 */
export function looksFinished(board: Counts, before: Counts, partial: readonly Outcome[]): boolean {
  return partial.some((o) => {
    const from = o.move.from - 1;
    if (board[from] === before[from] && !o.move.path.includes(o.move.from)) return false; // piece not yet moved
    return o.move.path.some((p) => board[p - 1] !== 0 && before[p - 1] === 0);
  });
}
