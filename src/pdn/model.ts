// The PDN game model shared by the reader and the writer: tags, the start
// position, the move tree with comments, NAGs and variations, and the result.

import type { Move, Position, GameOptions } from '../rules/index.ts';

export interface PdnMove {
  /** The move as resolved by the rules engine (its full path). */
  readonly move: Move;
  /** The text as it stood in the source (writers produce their own). */
  readonly text: string;
  /** `!`, `?`, `!!`, `!?`, `?!`, `??` or ''. */
  readonly strength: string;
  readonly nags: number[];
  /** Comments standing before this move. */
  readonly before: string[];
  /** Comments standing after this move. */
  readonly after: string[];
  /** Alternatives to this move, each a line from the position before it. */
  readonly variations: PdnMove[][];
  /** Huffing variant: square of the opponent's piece huffed before this move. */
  readonly huff?: number;
}

export type PdnResult = '1-0' | '0-1' | '1/2-1/2' | '*' | '2-0' | '0-2' | '1-1' | '0-0';

export interface PdnGame {
  /** 1-based position of the game in its file. */
  readonly index: number;
  /** Source line of the game's first token. */
  readonly line: number;
  /** Tags in source order, without the ones the model holds itself (Result, GameType, SetUp, FEN). */
  readonly tags: [string, string][];
  readonly start: Position;
  readonly options: GameOptions;
  /** Comments after the last move (or the only comments of a game with no moves). */
  readonly trailing: string[];
  readonly moves: PdnMove[];
  readonly result: PdnResult;
  /** Quirks of the source that were accepted (not written back). */
  readonly warnings: string[];
}

/** Winner of a result, in the convention of the corpus: 1-0 Black (the first player) won. */
export function resultWinner(result: PdnResult): 'black' | 'white' | 'draw' | null {
  switch (result) {
    case '1-0':
    case '2-0':
      return 'black';
    case '0-1':
    case '0-2':
      return 'white';
    case '1/2-1/2':
    case '1-1':
    case '0-0':
      return 'draw';
    default:
      return null;
  }
}

export const tagValue = (game: Pick<PdnGame, 'tags'>, name: string): string | undefined =>
  game.tags.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/** A short human name for a game in messages: its Event, else its players, else its number. */
export function gameName(game: Pick<PdnGame, 'tags' | 'index'>): string {
  const event = tagValue(game, 'Event');
  if (event && event !== '?') return `game ${game.index} "${event}"`;
  const b = tagValue(game, 'Black'),
    w = tagValue(game, 'White');
  if (b || w) return `game ${game.index} (${b || '?'} - ${w || '?'})`;
  return `game ${game.index}`;
}

/** Variant options written in the `Variant` tag. */
export const VARIANT_NAMES: Record<string, keyof GameOptions> = {
  huffing: 'huffing',
  'crown-continue': 'crownContinue',
};
