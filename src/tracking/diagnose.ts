// Diagnosis of an illegal board: what went wrong, in words a player
// understands, and what to put where to get back to the position before the
// mistake. The retraction rule (ACF): an illegal move made with a piece that
// has a legal move is put right with that same piece, so the alert names it
// ("Put 22 back and capture with it: 22x15."), and `sameHandCheck` tells a
// correction made with another piece. Pure: a board, the position and the
// legal moves in, an Alert out.

import { joinWords } from '../words/index.ts';
import { NEIGHBOUR, JUMP_LAND, colorAt, moveText, opposite, shortText, type Color, type Move, type Position } from '../rules/index.ts';
import { pieceName, sideName, type Counts } from './boards.ts';
import type { Alert, Fix } from '../model/board.ts';

export type AlertCategory =
  | 'wrong-side'
  | 'backwards'
  | 'not-diagonal'
  | 'capture-compulsory'
  | 'incomplete-jump'
  | 'capture-not-removed'
  | 'wrong-piece-removed'
  | 'own-piece-removed'
  | 'piece-missing'
  | 'extra-piece'
  | 'not-crowned'
  | 'stack-not-king'
  | 'takeback-refused'
  | 'not-computers-move'
  | 'wrong-piece-retraction'
  | 'illegal-move';

/** What to put where (the model's type: one schema, src/model/board.ts). */
export type { Fix } from '../model/board.ts';
/**
 * An illegal board: what is wrong, in words, and what to put where (the model's
 * type; its category is one of AlertCategory, kept open in the schema).
 */
export type { Alert } from '../model/board.ts';

/** The retraction rule: the piece moved incorrectly (back on `square`), its legal moves in PDN notation, and whether they are captures. */
export type Retract = NonNullable<Alert['retract']>;

/** "Put 22 back and capture with it: 22x15." / "Put 22 back and move it again: 22-17 or 22-18." */
export function retractSentence(r: Retract): string {
  return `Put ${r.square} back and ${r.capture ? 'capture with it' : 'move it again'}: ${anyOf(r.moves)}.`;
}

/**
 * The retraction rule on a correction: `move` was played after an illegal
 * move made with the piece on `r.square`, which had a legal move. Null when it
 * is that piece; otherwise the words for it (an illegal move in tournament
 * mode, a notice outside it).
 */
export function otherPieceCorrection(r: Retract, move: Move): string | null {
  if (move.from === r.square) return null;
  return `The illegal move was made with the piece on ${r.square}, so it must be put right with that piece, not the one on ${move.from}: ${r.capture ? 'capture with it' : 'move it'} (${anyOf(r.moves)}).`;
}

/** What to put where to turn `board` back into `target`. */
export function fixesTo(board: ArrayLike<number>, target: Position, targetCounts: Counts): Fix[] {
  const out: Fix[] = [];
  for (let i = 0; i < 32; i++) {
    const have = board[i],
      want = targetCounts[i];
    if (have === want) continue;
    const sq = i + 1;
    if (want > have) {
      const name = pieceName(target, sq)!;
      out.push({
        square: sq,
        action: 'place',
        piece: have === 1 && want === 2 ? 'a second coin (crown)' : `a ${name}`,
        coins: want - have,
      });
    } else {
      out.push({
        square: sq,
        action: 'remove',
        piece: have - want === 1 ? (want === 1 ? 'one coin' : 'the coin') : 'both coins',
        coins: have - want,
      });
    }
  }
  return out;
}

export function describeFixes(fixes: readonly Fix[]): string {
  if (fixes.length === 0) return '';
  const parts = fixes.map((f) => (f.action === 'place' ? `put ${f.piece} on ${f.square}` : `take ${f.piece} off ${f.square}`));
  const text = joinWords(parts);
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** Alternatives ("13 or 14": moves, destinations, captures to choose from). */
const anyOf = (xs: string[]): string => joinWords(xs, 'or');
/** Every one of them ("18 and 10": pieces to take off, squares something is missing from). */
const allOf = (xs: string[]): string => joinWords(xs, 'and');

function isNeighbour(a: number, b: number): number {
  for (let d = 0; d < 4; d++) if (NEIGHBOUR[(a - 1) * 4 + d] === b - 1) return d;
  return -1;
}
function jumpOver(a: number, b: number): number {
  for (let d = 0; d < 4; d++) if (JUMP_LAND[(a - 1) * 4 + d] === b - 1) return NEIGHBOUR[(a - 1) * 4 + d] + 1;
  return 0;
}

/**
 * What a diagnosis weighs: the board read against the position (its counts),
 * the side to move and its legal moves (the captures among them, in words),
 * the squares emptied, and how an alert is made (with the fixes back to the
 * position).
 */
interface Scene {
  board: ArrayLike<number>;
  pos: Position;
  posCounts: Counts;
  legal: readonly Move[];
  side: Color;
  gone: number[];
  captures: readonly Move[];
  captureText: string;
  mk: (category: AlertCategory, what: string, retract?: Retract) => Alert;
}

/**
 * Explains why `board` is not a legal continuation of `pos`. `legal` are the
 * side to move's legal moves. The fixes restore `pos` from `standing` (the
 * board as it stands now; by default `board` itself — it differs when the
 * mistake was made on an earlier board and the opponent has moved on since).
 */
export function diagnose(
  board: ArrayLike<number>,
  pos: Position,
  posCounts: Counts,
  legal: readonly Move[],
  t: number,
  standing: ArrayLike<number> = board,
): Alert {
  const side = pos.turn;
  const fixes = fixesTo(standing, pos, posCounts);
  const squares = fixes.map((f) => f.square);
  const restore = describeFixes(fixes);
  const mk = (category: AlertCategory, what: string, retract?: Retract): Alert => ({
    category,
    message: [what, restore, retract ? retractSentence(retract) : ''].filter(Boolean).join(' '),
    squares,
    fixes,
    t,
    ...(retract ? { retract } : {}),
  });

  const gone: number[] = [],
    added: number[] = [],
    stacked: number[] = [];
  for (let i = 0; i < 32; i++) {
    if (board[i] < posCounts[i]) gone.push(i + 1);
    if (board[i] > posCounts[i]) {
      if (posCounts[i] === 0) added.push(i + 1);
      if (board[i] === 2) stacked.push(i + 1);
    }
  }
  const captures = legal.filter((m) => m.captures.length > 0);
  const captureText = anyOf([...new Set(captures.map(shortText))]);

  // A stack where no king can be.
  const badStack = stacked.find((s) => !(posCounts[s - 1] === 0 && gone.some((g) => posCounts[g - 1] === 2)));
  if (badStack !== undefined) {
    return mk('stack-not-king', `Two coins are stacked on ${badStack}, but no king can be there.`);
  }

  // One piece moved from a to b (other pieces may also have gone).
  const moved = added.length === 1 ? movedPiece({ board, pos, posCounts, legal, side, gone, captures, captureText, mk }, added[0]) : null;
  if (moved) return moved;

  if (added.length === 0 && gone.length > 0) {
    const ownGone = gone.filter((s) => colorAt(pos, s) === side);
    const oppGone = gone.filter((s) => colorAt(pos, s) === opposite(side));
    if (ownGone.length === 0 && oppGone.length > 0 && captures.length === 0) {
      return mk(
        'piece-missing',
        `${oppGone.length === 1 ? 'A piece is' : 'Pieces are'} missing from ${allOf(oppGone.map(String))} (knocked over?).`,
      );
    }
    return mk(
      'piece-missing',
      `${gone.length === 1 ? 'A piece is' : 'Pieces are'} missing from ${allOf(gone.map(String))} (knocked over?).`,
    );
  }
  if (gone.length === 0 && added.length > 0) {
    return mk('extra-piece', `There ${added.length === 1 ? 'is an extra piece' : 'are extra pieces'} on ${allOf(added.map(String))}.`);
  }
  return mk('illegal-move', 'The board does not match any legal move.');
}

/**
 * One piece arrived on `to` (others may have gone too): which piece moved,
 * and what is wrong with it — the wrong side's, the mover's own pieces taken
 * off, the wrong captures, a jump stopped short, or a step no piece may make.
 * Null when no emptied square's piece can have come to `to`.
 */
function movedPiece(sc: Scene, to: number): Alert | null {
  const { board, pos, posCounts, legal, side, gone, mk } = sc;
  // (A king's two coins put down off-centre can read as one.)
  const movers = gone.filter(
    (s) => board[s - 1] === 0 && (posCounts[s - 1] === board[to - 1] || (posCounts[s - 1] === 2 && board[to - 1] === 1)),
  );
  // The piece that moved: one with a legal move to `to`, else one a step or a jump away, else any.
  const near = (s: number) => isNeighbour(s, to) >= 0 || jumpOver(s, to) > 0;
  const own = movers.filter((s) => colorAt(pos, s) === side);
  const from =
    own.find((s) => legal.some((m) => m.from === s && m.to === to)) ?? own.find(near) ?? movers.find(near) ?? own[0] ?? movers[0];
  if (from === undefined) return null;
  const owner = colorAt(pos, from)!;
  const name = pieceName(pos, from)!.split(' ')[1];
  const others = gone.filter((s) => s !== from);
  if (owner !== side) {
    return mk('wrong-side', `It is ${sideName(side)}'s turn, but a ${owner} ${name} moved from ${from} to ${to}.`);
  }
  const ownOthers = others.filter((s) => colorAt(pos, s) === side);
  if (ownOthers.length) {
    return mk(
      'own-piece-removed',
      `${sideName(side)}'s own ${ownOthers.length === 1 ? 'piece' : 'pieces'} on ${allOf(ownOthers.map(String))} must not be removed.`,
    );
  }
  return wrongCaptures(sc, from, to, others) ?? unfinishedJump(sc, from, to) ?? badStep(sc, from, to, others, name);
}

/** The right landing square for a legal move of `from`, with the wrong pieces taken off or captured ones left on (null: neither). */
function wrongCaptures({ board, legal, mk }: Scene, from: number, to: number, others: number[]): Alert | null {
  const exact = legal.filter((m) => m.from === from && m.to === to);
  if (!exact.length) return null;
  const caps = exact.map((m) => m.captures);
  const removed = new Set(others);
  const best = caps.find((c) => c.every((x) => removed.has(x) || board[x - 1] !== 0)) ?? caps[0];
  const wrong = others.filter((s) => !best.includes(s));
  const left = best.filter((s) => board[s - 1] !== 0);
  if (wrong.length) {
    return mk(
      'wrong-piece-removed',
      `The ${wrong.length === 1 ? 'piece' : 'pieces'} on ${allOf(wrong.map(String))} ${wrong.length === 1 ? 'was' : 'were'} not jumped; the captured ${best.length === 1 ? 'piece is' : 'pieces are'} on ${allOf(best.map(String))}.`,
    );
  }
  if (left.length) {
    return mk('capture-not-removed', `Take the captured ${left.length === 1 ? 'piece' : 'pieces'} off ${allOf(left.map(String))}.`);
  }
  return null;
}

/** Stopped part-way through a multi-jump of `from` (null: `to` is on no jump's way). */
function unfinishedJump({ legal, mk }: Scene, from: number, to: number): Alert | null {
  const prefix = legal.find((m) => m.from === from && m.path.slice(0, -1).includes(to));
  if (!prefix) return null;
  const k = prefix.path.indexOf(to);
  const rest = [to, ...prefix.path.slice(k + 1)].join('x');
  return mk('incomplete-jump', `The jump is not finished: continue jumping from ${to} (${rest}).`);
}

/** A move `from` → `to` no piece may make: not diagonal, backwards, a capture not made, a jump over nothing to take (with the retraction rule's piece, if it has moves). */
function badStep(sc: Scene, from: number, to: number, others: number[], name: string): Alert {
  const { pos, posCounts, legal, side, captures, captureText, mk } = sc;
  const dir = isNeighbour(from, to);
  const isKing = posCounts[from - 1] === 2;
  const over = jumpOver(from, to);
  const retract = retractOf(legal, from);
  // (With the retraction rule the piece's moves are named in its own sentence.)
  const own = legal.filter((m) => m.from === from).map((m) => m.to);
  const hint = own.length && !retract ? ` The ${name} on ${from} can go to ${anyOf([...new Set(own)].map(String))}.` : '';
  const notDiagonal = () =>
    mk(
      'not-diagonal',
      `${from} to ${to} is not a legal move: a ${name} moves one square diagonally${name === 'man' ? ' forward' : ''}, or jumps.${hint}`,
      retract,
    );
  if (dir < 0 && !over) return notDiagonal();
  if (dir >= 0) {
    const backwards = !isKing && (side === 'black' ? dir < 2 : dir >= 2);
    if (backwards) return mk('backwards', `A man cannot move backwards (${from} to ${to}).`, retract);
    if (captures.length) {
      // The piece moved has a capture itself: name it, not every capture on the board.
      if (retract) return mk('capture-compulsory', `A capture is compulsory: the ${name} on ${from} must capture.`, retract);
      return mk('capture-compulsory', `A capture is compulsory: ${captureText}.`);
    }
  }
  if (over && others.length === 0 && colorAt(pos, over) === opposite(side) && legal.some((m) => m.from === from)) {
    return mk('capture-not-removed', `Take the captured piece off ${over}.`);
  }
  if (captures.length && !captures.some((m) => m.from === from)) {
    return mk('capture-compulsory', `A capture is compulsory: ${captureText}.`);
  }
  return notDiagonal();
}

/** The retraction rule: the moved piece's own legal moves, if it has any. */
function retractOf(legal: readonly Move[], from: number): Retract | undefined {
  const mine = legal.filter((m) => m.from === from);
  if (!mine.length) return undefined;
  return { square: from, moves: [...new Set(mine.map((m) => moveText(m, legal)))], capture: mine[0].captures.length > 0 };
}
