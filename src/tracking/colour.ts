// Colours on the board: what the reader's polarity coding (a coded set:
// Black's coins raise the reading, White's lower it) and coins lying
// magnet-up say against the game — a coin of the wrong side where a piece
// stands, a coin upside down, a king crowned with the opponent's coin, a move
// made by the wrong side — and the words for it; and which colour each coin
// reads clearly, for classify (coloursRead). It also keeps the colour
// issues' grace period (ColourWatch). Pure: the reader's view and the
// position in, bitboards and sentences out.

import type { Alert, Reminder } from '../model/board.ts';
import { moveText, type Move, type Position } from '../rules/index.ts';
import type { BoardView } from '../reading/view.ts';
import { joinWords } from '../words/index.ts';
import { describeFixes } from './diagnose.ts';
import { sameCounts, type Counts } from './boards.ts';
import { coloursRefuse, type ColoursRead } from './classify.ts';

/** Coded board: a king reading at least this many coin steps on the other side's colour is a king of the wrong colour (a stack of theirs reads ~1.5). */
const WRONG_KING = 1.1;

export interface ColourIssues {
  /** a coin of the other side where a piece stands (it reads a full step the other way) */
  wrong: number;
  /** a man reading about half a step the other way (its coin lying magnet-up) */
  upsideDown: number;
}

/**
 * What the colours read say against the position, on a polarity-coded board.
 * A king reading half a step the other way is a king crowned with the
 * opponent's coin under the man: no issue. Nothing on a board glued the old
 * way (colour checks off).
 */
export function colourIssues(v: BoardView, pos: Position, men = 0, moved = 0): ColourIssues {
  if (!v.coded) return { wrong: 0, upsideDown: 0 };
  const other = (pos.black & v.whiteSide) | (pos.white & v.blackSide);
  // A king on the other side's colour is wrong only if it reads like a stack of that colour: a
  // crown of the other colour under the man reads about half a coin, and even a well-placed one
  // less than a coin (the man on top pulls it back).
  let wrongKings = 0;
  const kingsOther = other & pos.kings;
  if (kingsOther) {
    const signed = v.signed;
    for (let i = 0; i < 32; i++) if ((kingsOther >>> i) & 1 && Math.abs(signed[i]) >= WRONG_KING) wrongKings |= 1 << i;
  }
  // (A man the hand just moved is its own coin: reading the other way, however far, it lies upside
  // down — on a square whose levels were only estimated a strong sensor reads it a full step.)
  const flipped = other & (v.half | moved) & ~(pos.kings & ~men);
  return { wrong: (other & ~pos.kings & ~flipped) | wrongKings, upsideDown: flipped };
}

/**
 * Coded board: the colours the reader reads clearly, for classify — a coin a
 * full step on its side (not about half a step: upside down, or a crown of
 * the other colour under a man), a king a stack's worth (WRONG_KING, as
 * colourIssues). Null on a board glued the old way. (The half band is the
 * reader's: a coin upside down on a thick magnet flush in its coin can read
 * past it — up to 0.9 of a step on the simulated 10 × 2 mm discs — and then
 * reads here as the other side's.)
 */
export function coloursRead(v: BoardView): ColoursRead | null {
  if (!v.coded) return null;
  let blackKing = 0,
    whiteKing = 0;
  for (let i = 0; i < 32; i++) {
    if (v.signed[i] >= WRONG_KING) blackKing |= 1 << i;
    else if (v.signed[i] <= -WRONG_KING) whiteKing |= 1 << i;
  }
  return {
    black: v.blackSide & ~v.half,
    white: v.whiteSide & ~v.half,
    blackKing: blackKing & v.blackSide,
    whiteKing: whiteKing & v.whiteSide,
  };
}

/**
 * Coded board, mid-move: coins lying magnet-up — a man of the position
 * reading about half a step on the other side, or, where the position has no
 * piece (the mover's piece landing), a coin reading about half a step on the
 * side not moving (a mover's coin upside down).
 */
function movingUpsideDown(v: BoardView, pos: Position): number {
  const men = (pos.black & v.whiteSide) | (pos.white & v.blackSide);
  const landing = ~(pos.black | pos.white) & (pos.turn === 'black' ? v.whiteSide : v.blackSide);
  return (men & ~pos.kings & v.half) | (landing & v.half & v.counts.reduce((m, c, i) => (c === 1 ? m | (1 << i) : m), 0));
}

/**
 * On a polarity-coded board, what the colours seen add to an alert about
 * `board` (the position's counts `counts`): coins put down that read as the
 * other side's (not the side to move) are named ("the coin put on 17 is
 * White's"), and when every coin put down is the other side's, one of theirs
 * left its square and none of the side to move's pieces moved, the mistake is
 * a move by the wrong side, whatever the squares alone suggested.
 */
export function withColoursSeen(alert: Alert, v: BoardView, pos: Position, counts: Counts, board: Counts): Alert {
  if (!v.coded) return alert;
  const mover = pos.turn,
    other = mover === 'black' ? 'white' : 'black';
  const otherSide = other === 'white' ? v.whiteSide : v.blackSide;
  const placed: number[] = [];
  let moverMoved = false,
    otherMoved = false;
  for (let i = 0; i < 32; i++) {
    if (board[i] > counts[i] && counts[i] === 0) placed.push(i + 1);
    if (board[i] !== counts[i] && ((mover === 'black' ? pos.black : pos.white) >>> i) & 1) moverMoved = true;
    if (board[i] !== counts[i] && ((mover === 'black' ? pos.white : pos.black) >>> i) & 1) otherMoved = true;
  }
  const theirs = placed.filter((sq) => (otherSide >>> (sq - 1)) & 1);
  if (!theirs.length) return alert;
  const Other = other === 'white' ? 'White' : 'Black',
    Mover = mover === 'white' ? 'White' : 'Black';
  const named = `The ${theirs.length > 1 ? 'coins' : 'coin'} put on ${joinWords(theirs.map(String))} ${theirs.length > 1 ? 'are' : 'is'} ${Other}'s.`;
  if (theirs.length === placed.length && !moverMoved && otherMoved && alert.category !== 'wrong-side') {
    return {
      ...alert,
      category: 'wrong-side',
      message: `It is ${Mover}'s turn: ${named.charAt(0).toLowerCase()}${named.slice(1)} ${describeFixes(alert.fixes)}`.trim(),
    };
  }
  return { ...alert, message: `${alert.message} ${named}` };
}

/**
 * Coded board, a board with the counts of the position `before` the last
 * move (`beforeCounts`, its legal moves `legal`) that classify refused as a
 * takeback for its colours (coloursRefuse): what each refusing square reads
 * and what the takeback needs there — "The coin on 22 is Black's: to take
 * 22-18 back, put White's man there (one upside down: turn it over)." A coin
 * upside down is named too: on a thick magnet it can read as the other
 * side's. '' for any other board.
 */
export function takebackColourWords(
  v: BoardView,
  board: Counts,
  last: { before: Position; beforeCounts: Counts; move: Move; legal: Move[] },
): string {
  if (!sameCounts(board, last.beforeCounts)) return '';
  const { before } = last;
  return coloursRefuse(coloursRead(v), before, last.move)
    .map((sq) => {
      const bit = 1 << (sq - 1);
      const mine = before.black & bit ? 'Black' : 'White',
        king = before.kings & bit;
      const what = `The ${king ? 'king' : 'coin'} on ${sq} is ${mine === 'Black' ? 'White' : 'Black'}'s`;
      return `${what}: to take ${moveText(last.move, last.legal)} back, put ${mine}'s ${king ? 'king' : 'man'} there (one upside down: turn it over).`;
    })
    .join(' ');
}

/**
 * Coded board: squares where a king of one side may stand crowned with the
 * opponent's coin under the man (reading about half a coin on the
 * opponent's side): the game's kings, the side to move's king landings
 * (within `plausible`), and an awaited crown. There one coin read may be two
 * (the game decides: a man put down upside down reads much the same).
 */
export function mixedKings(v: BoardView, pos: Position, plausible: number, crown: number | null): number {
  if (!v.coded) return 0;
  let m = (pos.kings & pos.black & v.whiteSide) | (pos.kings & pos.white & v.blackSide);
  const empty = ~(pos.black | pos.white);
  m |= plausible & empty & (pos.turn === 'black' ? v.whiteSide : v.blackSide);
  if (crown !== null) {
    const bit = 1 << (crown - 1);
    m |= bit & (pos.black & bit ? v.whiteSide : pos.white & bit ? v.blackSide : 0);
  }
  return m & v.half;
}

/**
 * Coded board, mid-move: the empty squares of the position (where the side
 * to move's piece may land) while none of its kings is off its square — a
 * coin landing there is a man (0 while a king is lifted). One reading half a
 * step the other way lies upside down, on a crowning square too: the same call
 * as once the move is made (the man on its crowning square, never lifted).
 */
export function menLanding(v: BoardView, pos: Position): number {
  if (!v.coded) return 0;
  const kings = pos.kings & (pos.turn === 'black' ? pos.black : pos.white);
  for (let i = 0; i < 32; i++) if ((kings >>> i) & 1 && v.counts[i] < 2) return 0;
  return ~(pos.black | pos.white);
}

/** Sentences for the colour issues: "The coin on 14 is White's: put a Black coin there." */
export function colourWords(issues: ColourIssues, pos: Position): string[] {
  const out: string[] = [];
  for (let i = 0; i < 32; i++) {
    const bit = 1 << i,
      sq = i + 1;
    if (issues.wrong & bit) {
      const mine = pos.black & bit ? 'Black' : 'White',
        theirs = mine === 'Black' ? 'White' : 'Black';
      const king = pos.kings & bit;
      out.push(`The ${king ? 'king' : 'coin'} on ${sq} is ${theirs}'s: put ${king ? `a ${mine} king` : `a ${mine} coin`} there.`);
    }
  }
  const flipped = squaresOf(issues.upsideDown);
  if (flipped.length)
    out.push(
      flipped.length === 1
        ? `The coin on ${flipped[0]} is upside down: turn it over.`
        : `The coins on ${joinWords(flipped.map(String))} are upside down: turn them over.`,
    );
  return out;
}

/**
 * The colour issues against a settled position, said only once they have
 * stood for the grace period (a crown being put together, a coin being
 * turned, pass through the other side's colour for a moment).
 */
export class ColourWatch {
  private key = 0;
  private since = -Infinity;
  /** When the issues now standing will have stood long enough to be said (look again then). */
  due = -Infinity;

  constructor(
    private readonly graceMs: number,
    /** the grace for coins upside down alone (see TrackerOptions.flipGraceMs) */
    private readonly flipGraceMs = graceMs,
  ) {}

  /**
   * A coin lying magnet-up (counted as a coin: the player is asked to turn it
   * over); on a coded board also a coin of the wrong side where a piece stands.
   * Null: nothing to say (yet).
   */
  reminder(
    v: BoardView,
    pos: Position,
    t: number,
    kind: 'moving' | 'in-sync' | 'awaiting-crown',
    { mixed = 0, men = 0, moved = 0 }: { mixed?: number; men?: number; moved?: number } = {},
  ): Reminder | null {
    if (v.coded) {
      // Mid-move a square may hold the other side's coin passing, and a crown being put together
      // the other side's coin: only coins upside down are said then — a man of the position, or
      // mid-move a coin where the mover's piece lands (an empty square of the position), reading
      // about half a step the other way (not where a king crowned with the opponent's coin may
      // stand: `mixed`, see mixedKings).
      const issues =
        kind === 'moving'
          ? { wrong: 0, upsideDown: movingUpsideDown(v, pos) & ~mixed }
          : kind === 'awaiting-crown'
            ? { wrong: 0, upsideDown: colourIssues(v, pos, men, moved).upsideDown & ~mixed }
            : colourIssues(v, pos, 0, moved);
      // (A crown put on its man magnet-up: the reader's flipped mask, on either kind of board.)
      issues.upsideDown |= v.flipped;
      const key = issues.wrong * 3 + issues.upsideDown;
      if (key !== this.key) {
        this.key = key;
        this.since = t;
      }
      if (!issues.wrong && !issues.upsideDown) return null;
      const grace = issues.wrong ? this.graceMs : this.flipGraceMs;
      if (t - this.since < grace) {
        this.due = this.since + grace;
        return null;
      }
      return {
        category: issues.wrong ? 'wrong-colour' : 'upside-down',
        message: colourWords(issues, pos).join(' '),
        squares: squaresOf(issues.wrong | issues.upsideDown),
        t,
      };
    }
    const squares = squaresOf(v.flipped);
    if (!squares.length) return null;
    const list = squares.length === 1 ? `${squares[0]}` : `${squares.slice(0, -1).join(', ')} and ${squares.at(-1)}`;
    return {
      category: 'upside-down',
      message:
        squares.length === 1
          ? `The coin on ${list} is upside down: turn it over.`
          : `The coins on ${list} are upside down: turn them over.`,
      squares,
      t,
    };
  }
}

/** The squares of a bitboard, in order. */
function squaresOf(mask: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 32; i++) if ((mask >>> i) & 1) out.push(i + 1);
  return out;
}
