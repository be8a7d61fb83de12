// An arbiter's corrections, planned as pure functions of the game: a move
// replaced (the later moves kept when they stay legal, else refused naming
// the first that does not), moves deleted, a result decided, a clock set.
// The plan says what to undo and what to play; the table applies it and
// journals it as ordinary entries after a `correction` note (who, why, what),
// so the original moves stay in the journal and the game's history shows
// every correction. PDN: each correction is a comment at the end of the game.

import { Game, legalMoves, moveText, resolveMove, sameMove, MoveError, type Move, type ReadonlyGame } from '../rules/index.ts';
import type { Correction, CorrectionNote } from '../model/game.ts';
import type { PdnResult } from '../pdn/index.ts';
import { SessionError } from './errors.ts';

/** What a move correction does to the game: undo `undo` plies, then play `play`. */
export interface PliesPlan {
  kind: 'plies';
  undo: number;
  play: Move[];
  say: string;
}
export type CorrectionPlan =
  PliesPlan | { kind: 'result'; result: PdnResult; say: string } | { kind: 'clock'; side: 'black' | 'white'; ms: number; say: string };

/** "move 12 (White)": a ply's number as players count moves. */
function plyName(ply: number, game: ReadonlyGame): string {
  const side = game.plies[ply]?.before.turn ?? (ply % 2 === 0 ? game.start.turn : game.start.turn === 'black' ? 'white' : 'black');
  return `move ${Math.floor(ply / 2) + 1} (${side === 'black' ? 'Black' : 'White'})`;
}

const clockWords = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The game replayed up to (not including) `ply`. */
function replayTo(game: ReadonlyGame, ply: number): Game {
  const g = new Game(game.start, game.options);
  for (const p of game.plies.slice(0, ply)) g.play(p.move);
  return g;
}

function replaceMove(game: ReadonlyGame, ply: number, text: string): PliesPlan {
  const n = game.plies.length;
  if (ply >= n)
    throw new SessionError('bad-request', `there is no ${plyName(ply, game)}: the game has ${n} move${n === 1 ? '' : 's'} (plies)`);
  if (game.plies.slice(ply).some((p) => p.huff !== undefined))
    throw new SessionError('bad-request', 'a huffed move follows: delete the moves from there first, then replay them');
  const g = replayTo(game, ply);
  const old = game.plies[ply]!;
  let move: Move;
  try {
    move = resolveMove(g.position, text, g.options);
  } catch (e) {
    if (e instanceof MoveError) throw new SessionError('bad-request', `${plyName(ply, game)} cannot be ${text}: ${e.message}`);
    throw e;
  }
  const oldText = moveText(old.move, legalMoves(g.position, g.options));
  const newText = moveText(move, legalMoves(g.position, g.options));
  const play = [move];
  g.play(move);
  for (const [i, p] of game.plies.slice(ply + 1).entries()) {
    const same = g.legalMoves().find((m) => sameMove(m, p.move));
    if (!same)
      throw new SessionError(
        'bad-request',
        `${plyName(ply + 1 + i, game)} is not legal once ${plyName(ply, game)} is ${newText}: delete the moves from there first`,
      );
    play.push(same);
    g.play(same);
  }
  return { kind: 'plies', undo: n - ply, play, say: `${plyName(ply, game)} replaced: ${oldText} was recorded, ${newText} was played` };
}

function deleteMoves(game: ReadonlyGame, ply: number): PliesPlan {
  const n = game.plies.length;
  if (ply >= n)
    throw new SessionError(
      'nothing-to-undo',
      `there is no ${plyName(ply, game)} to delete: the game has ${n} move${n === 1 ? '' : 's'} (plies)`,
    );
  const k = n - ply;
  return { kind: 'plies', undo: k, play: [], say: `${k} move${k === 1 ? '' : 's'} deleted from ${plyName(ply, game)} on` };
}

/** Plans a correction of `game` (its clock for `adjust-clock`: null when it has none). Throws a SessionError naming the problem. */
export function planCorrection(game: ReadonlyGame, c: Correction, clock: { flagged: boolean } | null): CorrectionPlan {
  switch (c.kind) {
    case 'replace-move':
      return replaceMove(game, c.ply, c.move);
    case 'delete-moves':
      return deleteMoves(game, c.ply);
    case 'set-result':
      return { kind: 'result', result: c.result, say: c.result === '*' ? 'the game goes on (no result)' : `result set to ${c.result}` };
    case 'adjust-clock':
      if (!clock) throw new SessionError('not-allowed', 'this game has no time control');
      if (clock.flagged) throw new SessionError('not-allowed', "a flag has fallen: set the game's result instead");
      return { kind: 'clock', side: c.side, ms: c.ms, say: `${c.side === 'black' ? 'Black' : 'White'}'s clock set to ${clockWords(c.ms)}` };
  }
}

/** A correction as one PDN comment: "Arbiter (J. Smith) 2026-11-26 01:02 UTC: move 12 (White) replaced: … — board misread". */
export function correctionComment(n: CorrectionNote): string {
  const when = new Date(n.at).toISOString().slice(0, 16).replace('T', ' ');
  return `Arbiter${n.by && n.by !== 'arbiter' ? ` (${n.by})` : ''} ${when} UTC: ${n.say}${n.reason ? ` — ${n.reason}` : ''}`;
}
