// A game under the rules: the moves played from a start position, who is to
// move, how it ended (no moves, resignation, agreement, time, or a claimed
// draw by repetition or the 40-move rule), and the variant options. Pure:
// randomness (random first player or ballot) comes in as a function.

import { legalMoves, playMove, hasCapture, capturingSquares, type Move, type RulesOptions } from './movegen.ts';
import { opposite, startPosition, colorAt, type Color, type Position } from './position.ts';
import { hashAfter, hashKey, hashPosition, hashWithout, type Hash } from './zobrist.ts';
import { resolveMove } from './notation.ts';
import { BALLOTS, type Ballot } from './ballots.ts';
import { CrownheadError } from '../common/errors.ts';

export interface GameOptions extends RulesOptions {
  /** End the game as a draw as soon as one can be claimed (repetition, 40-move rule). */
  readonly autoDraw?: boolean;
}

export type EndReason = 'no-moves' | 'resignation' | 'agreement' | 'time' | 'repetition' | 'forty-move' | 'arbiter';

export interface Outcome {
  /** The winner, or null for a draw. */
  readonly winner: Color | null;
  readonly reason: EndReason;
}

export type DrawClaim = 'repetition' | 'forty-move';

export interface Ply {
  readonly move: Move;
  /** Position the move was played from (after any huff). */
  readonly before: Position;
  readonly after: Position;
  /** Huffing variant: the square of the opponent's piece removed before this move. */
  readonly huff?: number;
  /** Position before the huff, when there was one. */
  readonly beforeHuff?: Position;
  /** Plies since the last capture or man move, including this one. */
  readonly quiet: number;
  readonly hash: number;
}

/** 80 plies — 40 moves by each side — with no capture and no man moving. */
export const FORTY_MOVE_PLIES = 80;

export type FirstPlayer = Color | 'random';

export type GameErrorCode = 'game-over' | 'illegal-move' | 'bad-ballot' | 'bad-huff' | 'nothing-to-undo';

export class GameError extends CrownheadError<GameErrorCode> {
  override readonly name = 'GameError';
}

/**
 * A game as its readers see it: the moves, the position, the outcome and what
 * the rules allow now, with none of the methods that change it (play, undo,
 * huffAndPlay, resign, the draws, setOutcome). The game at the table is
 * handed out as this: its one writer is src/game/table.ts.
 */
export interface ReadonlyGame {
  readonly start: Position;
  readonly options: GameOptions;
  readonly plies: readonly Ply[];
  readonly position: Position;
  readonly turn: Color;
  readonly outcome: Outcome | null;
  readonly hash: number;
  readonly quietPlies: number;
  legalMoves(): Move[];
  occurrences(): number;
  drawClaim(): DrawClaim | null;
  drawClaimingMoves(): { move: Move; claim: DrawClaim }[];
  huffable(): number[];
}

export class Game implements ReadonlyGame {
  readonly plies: Ply[] = [];
  private outcomeValue: Outcome | null = null;
  private readonly counts = new Map<number, number>();
  private hashValue: Hash;
  private legalCache: Move[] | null = null;

  constructor(
    readonly start: Position,
    readonly options: GameOptions = {},
  ) {
    this.hashValue = hashPosition(start);
    this.counts.set(hashKey(this.hashValue), 1);
    this.checkNoMoves();
  }

  static standard(options: GameOptions & { firstPlayer?: FirstPlayer; random?: () => number } = {}): Game {
    let first: Color = 'black';
    if (options.firstPlayer === 'white') first = 'white';
    if (options.firstPlayer === 'random') first = (options.random ?? Math.random)() < 0.5 ? 'black' : 'white';
    return new Game(startPosition(first), options);
  }

  /** A game from an ACF three-move ballot: its three moves already played. */
  static fromBallot(ballot: number | 'random', options: GameOptions & { random?: () => number } = {}): { game: Game; ballot: Ballot } {
    let chosen: Ballot | undefined;
    if (ballot === 'random') {
      const open = BALLOTS.filter((b) => b.status !== 'barred');
      chosen = open[Math.floor((options.random ?? Math.random)() * open.length)];
    } else {
      chosen = BALLOTS.find((b) => b.number === ballot);
      if (!chosen) throw new GameError('bad-ballot', `no ballot ${ballot}: ballots are numbered 1 to ${BALLOTS.length}`);
    }
    const game = new Game(startPosition('black'), options);
    for (const text of chosen.moves) game.playText(text);
    return { game, ballot: chosen };
  }

  get position(): Position {
    return this.plies.length ? this.plies[this.plies.length - 1].after : this.start;
  }

  get turn(): Color {
    return this.position.turn;
  }

  get outcome(): Outcome | null {
    return this.outcomeValue;
  }

  get hash(): number {
    return hashKey(this.hashValue);
  }

  get quietPlies(): number {
    return this.plies.length ? this.plies[this.plies.length - 1].quiet : 0;
  }

  legalMoves(): Move[] {
    if (this.outcomeValue) return [];
    return (this.legalCache ??= legalMoves(this.position, this.options));
  }

  /** How many times the current position (same side to move) has stood on the board. */
  occurrences(): number {
    return this.counts.get(this.hash) ?? 0;
  }

  /** The draw the side to move could claim now, if any. */
  drawClaim(): DrawClaim | null {
    if (this.occurrences() >= 3) return 'repetition';
    if (this.quietPlies >= FORTY_MOVE_PLIES) return 'forty-move';
    return null;
  }

  /** Legal moves that would let their player claim a draw (third repetition, or the 80th quiet ply). */
  drawClaimingMoves(): { move: Move; claim: DrawClaim }[] {
    const out: { move: Move; claim: DrawClaim }[] = [];
    const pos = this.position;
    for (const move of this.legalMoves()) {
      const h = hashKey(hashAfter(this.hashValue, pos, move));
      if ((this.counts.get(h) ?? 0) >= 2) out.push({ move, claim: 'repetition' });
      else if (this.quietAfter(move) >= FORTY_MOVE_PLIES) out.push({ move, claim: 'forty-move' });
    }
    return out;
  }

  private quietAfter(move: Move): number {
    const manMoved = (this.position.kings & (1 << (move.from - 1))) === 0;
    return move.captures.length > 0 || manMoved ? 0 : this.quietPlies + 1;
  }

  play(move: Move): Ply {
    if (this.outcomeValue) throw new GameError('game-over', 'the game is over');
    const legal = this.legalMoves();
    const chosen = legal.find(
      (m) => m.from === move.from && m.to === move.to && m.path.length === move.path.length && m.path.every((p, i) => p === move.path[i]),
    );
    if (!chosen) throw new GameError('illegal-move', `illegal move ${move.from}-${move.to}`);
    return this.commit(chosen);
  }

  /** Plays a move given in PDN notation; throws MoveError (invalid / illegal / ambiguous). */
  playText(text: string): Ply {
    if (this.outcomeValue) throw new GameError('game-over', 'the game is over');
    return this.commit(resolveMove(this.position, text, this.options, this.legalMoves()));
  }

  private commit(move: Move, huff?: { square: number; beforeHuff: Position; huffed: Position }): Ply {
    const before = huff ? huff.huffed : this.position;
    const after = playMove(before, move);
    this.hashValue = hashAfter(this.hashValue, before, move);
    const key = hashKey(this.hashValue);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const ply: Ply = {
      move,
      before,
      after,
      quiet: this.quietAfter(move),
      hash: key,
      ...(huff ? { huff: huff.square, beforeHuff: huff.beforeHuff } : {}),
    };
    this.plies.push(ply);
    this.checkNoMoves();
    if (!this.outcomeValue && this.options.autoDraw) {
      const claim = this.drawClaim();
      if (claim) this.outcomeValue = { winner: null, reason: claim };
    }
    return ply;
  }

  private checkNoMoves(): void {
    this.legalCache = legalMoves(this.position, this.options);
    if (this.legalCache.length === 0) {
      this.outcomeValue = { winner: opposite(this.position.turn), reason: 'no-moves' };
    }
  }

  /** Claims the draw that drawClaim() reports. */
  claimDraw(): Outcome {
    const claim = this.drawClaim();
    if (!claim)
      throw new GameError(
        'game-over',
        'no draw can be claimed: the position has not stood three times and the 40-move count is not reached',
      );
    return (this.outcomeValue = { winner: null, reason: claim });
  }

  resign(loser: Color): Outcome {
    this.ensureOpen();
    return (this.outcomeValue = { winner: opposite(loser), reason: 'resignation' });
  }

  agreeDraw(): Outcome {
    this.ensureOpen();
    return (this.outcomeValue = { winner: null, reason: 'agreement' });
  }

  /** A player's time ran out: they lose. */
  timeForfeit(loser: Color): Outcome {
    this.ensureOpen();
    return (this.outcomeValue = { winner: opposite(loser), reason: 'time' });
  }

  /** Records an outcome read from a game record (e.g. a PDN result on a game that plays on). */
  setOutcome(outcome: Outcome | null): void {
    this.outcomeValue = outcome;
  }

  private ensureOpen(): void {
    if (this.outcomeValue) throw new GameError('game-over', 'the game is over');
  }

  /** Takes back the last move (and any huff before it); reopens a finished game. */
  undo(): Ply {
    const ply = this.plies.pop();
    if (!ply) throw new GameError('nothing-to-undo', 'no move to take back');
    const key = ply.hash;
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
    this.hashValue = hashPosition(ply.beforeHuff ?? ply.before);
    this.outcomeValue = null;
    this.legalCache = null;
    return ply;
  }

  // -------------------------------------------------------------------------
  // Huffing variant

  /**
   * Squares of the opponent's pieces that may be huffed now: with huffing on,
   * the pieces that could have captured on the last move but did not.
   */
  huffable(): number[] {
    if (!this.options.huffing || this.outcomeValue) return [];
    const last = this.plies[this.plies.length - 1];
    if (!last || last.move.captures.length > 0 || !hasCapture(last.before)) return [];
    return capturingSquares(last.before)
      .map((s) => (s === last.move.from ? last.move.to : s))
      .filter((s) => colorAt(this.position, s) === opposite(this.turn))
      .sort((a, b) => a - b);
  }

  /** Huffs the piece on `square`, then plays `move` (the huff and the move are one turn). */
  huffAndPlay(square: number, moveText: string | Move): Ply {
    if (!this.huffable().includes(square)) {
      throw new GameError('bad-huff', `the piece on ${square} cannot be huffed${this.options.huffing ? '' : ' (huffing is not in play)'}`);
    }
    const beforeHuff = this.position;
    const b = 1 << (square - 1);
    const huffed: Position = {
      black: beforeHuff.black & ~b,
      white: beforeHuff.white & ~b,
      kings: beforeHuff.kings & ~b,
      turn: beforeHuff.turn,
    };
    const legal = legalMoves(huffed, this.options);
    const move =
      typeof moveText === 'string'
        ? resolveMove(huffed, moveText, this.options, legal)
        : legal.find((m) => m.from === moveText.from && m.to === moveText.to && m.path.every((p, i) => p === moveText.path[i]));
    if (!move) throw new GameError('illegal-move', `illegal move after huffing ${square}`);
    this.hashValue = hashWithout(this.hashValue, beforeHuff, square);
    return this.commit(move, { square, beforeHuff, huffed });
  }
}
