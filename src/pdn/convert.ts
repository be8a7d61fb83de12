// Between a rules Game (what is being played) and a PdnGame (what is written):
// results from outcomes, and replaying a record's main line into a Game.

import { Game, type Outcome, type ReadonlyGame } from '../rules/index.ts';
import type { PdnGame, PdnMove, PdnResult } from './model.ts';

export function resultOf(outcome: Outcome | null): PdnResult {
  if (!outcome) return '*';
  if (outcome.winner === null) return '1/2-1/2';
  return outcome.winner === 'black' ? '1-0' : '0-1';
}

export interface RecordInfo {
  /** Tags in order (Event, Black, White, …); Result, GameType, SetUp and FEN are derived. */
  tags?: [string, string][];
  /** Comments after given plies (index into game.plies). */
  comments?: Map<number, string[]>;
  /** Overrides the result derived from the game's outcome. */
  result?: PdnResult;
  /** Comments after the last move (the whole game's notes). */
  trailing?: string[];
  index?: number;
}

/** The record of a played game. */
export function pdnFromGame(game: ReadonlyGame, info: RecordInfo = {}): PdnGame {
  const moves: PdnMove[] = game.plies.map((ply, k) => ({
    move: ply.move,
    text: '',
    strength: '',
    nags: [],
    before: [],
    after: [...(info.comments?.get(k) ?? [])],
    variations: [],
    ...(ply.huff !== undefined ? { huff: ply.huff } : {}),
  }));
  return {
    index: info.index ?? 1,
    line: 1,
    tags: info.tags ? [...info.tags] : [],
    start: game.start,
    options: { ...game.options },
    trailing: [...(info.trailing ?? [])],
    moves,
    result: info.result ?? resultOf(game.outcome),
    warnings: [],
  };
}

/** Replays a record's main line into a Game (moves were resolved when it was read). */
export function gameFromPdn(pdn: PdnGame): Game {
  const game = new Game(pdn.start, pdn.options);
  for (const node of pdn.moves) {
    if (node.huff !== undefined) game.huffAndPlay(node.huff, node.move);
    else game.play(node.move);
  }
  return game;
}
