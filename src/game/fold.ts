// The one fold of a game's journal into its rules game: a game's start from
// its new-game record (its opening moves played), then one record at a time —
// a move played (a huff with it), a takeback undone, a clock record read for
// the ply it follows. Every reader of a journal folds with it: the table's
// restore and its one-record apply (so the hub's copy of a station's game,
// mirror.ts), and a station following the far board's game (stations/opponent.ts).
// No state of its own, no I/O, no clock: the game handed in is the state, and
// a record that does not apply throws before it changes anything.

import { findMove, Game, parseFen, type Ply } from '../rules/index.ts';
import type { JournalEntry } from '../model/journal.ts';
import type { SavedClock } from '../model/clock.ts';
import { SessionError } from './errors.ts';
import { unwrap } from '../common/result.ts';

export type NewGameEntry = Extract<JournalEntry, { k: 'new' }>;

/** What one record did to the moves of the game: a ply played, a ply taken back, a clock reading after the last ply (its mover's), or nothing. */
export type Folded =
  { k: 'move'; ply: Ply } | { k: 'takeback'; ply: Ply } | { k: 'clock'; ply: Ply | undefined; clock: SavedClock } | { k: 'none' };

/** The game a new-game record starts: its position and rules, its opening moves (a ballot's) played. Throws when one is not legal. */
export function gameOf(start: NewGameEntry): Game {
  const game = new Game(unwrap(parseFen(start.fen, { allowUncrownedMen: true })), start.options);
  for (const path of start.moves) playPath(game, path);
  return game;
}

/** Folds one record (not a new-game record: that starts another game, gameOf) into `game`. Throws, changing nothing, when it does not apply. */
export function foldRecord(game: Game, e: JournalEntry): Folded {
  switch (e.k) {
    case 'move':
      return { k: 'move', ply: playPath(game, e.path, e.huff) };
    case 'takeback':
      return { k: 'takeback', ply: game.undo() };
    case 'clock':
      return { k: 'clock', ply: game.plies.at(-1), clock: e.clock };
    default:
      return { k: 'none' };
  }
}

/** Plays a journalled move by its squares (after the huff it records, if any). */
function playPath(game: Game, path: readonly number[], huff?: number): Ply {
  if (huff !== undefined)
    // huffAndPlay finds the legal move by its start and path.
    return game.huffAndPlay(huff, { from: path[0], to: path[path.length - 1], path: path.slice(1), captures: [], crowned: false });
  const move = findMove(game.legalMoves(), path);
  if (!move) throw new SessionError('bad-request', `journal move ${path.join('-')} is not legal`);
  return game.play(move);
}
