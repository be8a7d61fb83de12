// The opening book: the moves masters played from each position in the first
// BOOK_PLIES plies of the corpus' games (Tinsley's games, the Inferno ballot's,
// the Open Checkers Archive excerpt, the instructional games) and the ACF
// ballots' opening moves (the barred ballots left out). Built deterministically
// from PDN texts (src/engine-host/book-corpus.ts reads data/corpus on first
// use, a fraction of a second, and keeps it in memory);
// keyed by the position's Zobrist key, so transpositions share their moves.
//
// A move counts once per game that played it, unless the side that played it
// lost that game; moves only ever played by losers are not in the book. `choose`
// picks the most-played move ('best'), or one at random in proportion to how
// often it was played ('random', from a seeded generator: same seed, same
// choice). `randomBallot` starts a game from a random ACF ballot (seeded).

import { mulberry32, type Rng } from '../common/prng.ts';
import {
  BALLOTS,
  Game,
  START,
  hashKey,
  hashPosition,
  legalMoves,
  samePosition,
  sameResult,
  type Ballot,
  type GameOptions,
  type Move,
  type Position,
} from '../rules/index.ts';
import { readPdn, resultWinner } from '../pdn/index.ts';

/** How deep into a game the book reaches (plies from the start). */
export const BOOK_PLIES = 24;

export type BookMode = 'best' | 'random';

export interface BookMove {
  readonly move: Move;
  /** Games (and ballots) that played it from this position, the mover not losing. */
  readonly games: number;
}

interface Entry {
  move: Move;
  games: number;
}

export class Book {
  private readonly table = new Map<number, Entry[]>();
  /** Games that went into the book. */
  games = 0;

  /** Adds one game's opening (its moves from the standard start); `loser` is the side that lost, if any. */
  addLine(moves: readonly Move[], loser: 'black' | 'white' | null): void {
    let pos: Position = START;
    const game = new Game(START);
    for (const m of moves.slice(0, BOOK_PLIES)) {
      const legal = game.legalMoves().find((l) => sameResult(l, m));
      if (!legal) return; // not legal here: the rest of the line is not usable
      if (pos.turn !== loser) {
        const key = hashKey(hashPosition(pos));
        const list = this.table.get(key) ?? [];
        const e = list.find((x) => sameResult(x.move, legal));
        if (e) e.games++;
        else list.push({ move: legal, games: 1 });
        this.table.set(key, list);
      }
      game.play(legal);
      pos = game.position;
    }
    this.games++;
  }

  /** Positions in the book. */
  get size(): number {
    return this.table.size;
  }

  /** The book's moves from a position, most-played first (ties in move order), or [] when out of book. */
  lookup(pos: Position): BookMove[] {
    const list = this.table.get(hashKey(hashPosition(pos)));
    if (!list) return [];
    const legal = legalMoves(pos);
    return list
      .filter((e) => legal.some((l) => sameResult(l, e.move)))
      .sort((a, b) => b.games - a.games || a.move.from - b.move.from || a.move.to - b.move.to)
      .map((e) => ({ move: e.move, games: e.games }));
  }

  /** A book move for the position, or null when out of book. */
  choose(pos: Position, mode: BookMode = 'best', random: () => number = Math.random): Move | null {
    const moves = this.lookup(pos);
    if (moves.length === 0) return null;
    if (mode === 'best') return moves[0]!.move;
    const total = moves.reduce((s, m) => s + m.games, 0);
    let r = random() * total;
    for (const m of moves) if ((r -= m.games) < 0) return m.move;
    return moves[moves.length - 1]!.move;
  }

  /** Builds the book from PDN texts (games from the standard start, English rules) and the ACF ballots. */
  static build(pdnTexts: readonly string[], { ballots = true }: { ballots?: boolean } = {}): Book {
    const book = new Book();
    for (const text of pdnTexts) {
      for (const g of readPdn(text).games) {
        if (!samePosition(g.start, START) || g.moves.length === 0 || hasVariant(g.options)) continue;
        const winner = resultWinner(g.result);
        if (winner === null) continue; // unfinished or unknown result: no judgement of the moves
        book.addLine(
          g.moves.map((n) => n.move),
          winner === 'draw' ? null : winner === 'black' ? 'white' : 'black',
        );
      }
    }
    for (const b of ballots ? BALLOTS : []) {
      if (b.status === 'barred') continue;
      const { game } = Game.fromBallot(b.number);
      book.addLine(
        game.plies.map((p) => p.move),
        null,
      );
    }
    return book;
  }
}

/** The corpus files the book reads: whole games from the start position. */
export const BOOK_FILES = ['tinsley.pdn', 'inferno.pdn', 'OCA_2.0.pdn', 'principles_of_strategy.pdn', 'tricks_traps_and_shots.pdn'];

const hasVariant = (o: GameOptions): boolean => Object.values(o).some((v) => v === true);

/** The common generator (src/common/prng.ts `mulberry32`: same seed, same sequence), by the name the engine's callers use. */
export const seededRandom: (seed: number) => Rng = mulberry32;

/** A game started from a random ACF ballot (not a barred one), chosen by the seed. */
export function randomBallot(seed: number, options: GameOptions = {}): { game: Game; ballot: Ballot } {
  return Game.fromBallot('random', { ...options, random: seededRandom(seed) });
}
