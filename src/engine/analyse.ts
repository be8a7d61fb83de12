// Game analysis: search every position of a game's main line, and mark each
// move that lost ground — a mistake (?) or a blunder (??) — with the better
// move and both scores as a comment. Works on the PDN model, so the result is
// written back as annotated PDN.

import { legalMoves, moveText, playMove, sameResult, type Move, type Position } from '../rules/index.ts';
import type { PdnGame, PdnMove } from '../pdn/index.ts';
import { Searcher, WIN, WIN_BOUND, type SearchLimits } from './search.ts';

/** A drop of at least this much (hundredths of a man) is a mistake; at least BLUNDER a blunder. */
export const MISTAKE = 60;
export const BLUNDER = 150;
/** Scores are capped here before comparing: a won game still won is no mistake. */
const CAP = 1000;

export interface MoveVerdict {
  readonly ply: number;
  readonly played: Move;
  readonly best: Move | null;
  /** Score before the move, side to move's view. */
  readonly before: number;
  /** Score after the played move, from the same side's view. */
  readonly after: number;
  readonly mark: '' | '?' | '??';
}

/** "+1.20", "−0.35", "win in 7", "loss in 4" (plies). */
export function scoreText(score: number): string {
  if (score >= WIN_BOUND) return `win in ${WIN - score}`;
  if (score <= -WIN_BOUND) return `loss in ${WIN + score}`;
  return `${score >= 0 ? '+' : '-'}${(Math.abs(score) / 100).toFixed(2)}`;
}

const cap = (s: number): number => Math.max(-CAP, Math.min(CAP, s));

export function analyseLine(start: Position, moves: readonly Move[], limits: SearchLimits, searcher = new Searcher()): MoveVerdict[] {
  // Scores of each position along the line (side to move's view); the last one after the final move.
  const positions: Position[] = [start];
  for (const m of moves) positions.push(playMove(positions[positions.length - 1]!, m));
  const results = positions.map((p) => (legalMoves(p).length ? searcher.search(p, limits) : { move: null, score: -WIN }));
  return moves.map((played, i) => {
    const r = results[i]!;
    const before = r.score;
    const after = -results[i + 1]!.score;
    const loss = r.move && sameResult(r.move, played) ? 0 : cap(before) - cap(after);
    const mark = loss >= BLUNDER ? '??' : loss >= MISTAKE ? '?' : '';
    return { ply: i, played, best: r.move, before, after, mark };
  });
}

/** The game with `?`/`??` on its mistakes and blunders and the better move in a comment after each. */
export function annotateGame(game: PdnGame, limits: SearchLimits, searcher = new Searcher()): { game: PdnGame; verdicts: MoveVerdict[] } {
  const verdicts = analyseLine(game.start, game.moves.map((m) => m.move), limits, searcher);
  let pos = game.start;
  const moves: PdnMove[] = game.moves.map((node, i) => {
    const v = verdicts[i]!;
    const legal = legalMoves(pos);
    pos = playMove(pos, node.move);
    if (!v.mark || !v.best) return node;
    const comment = `${v.mark === '??' ? 'Blunder' : 'Mistake'}: ${moveText(v.best, legal)} was better (${scoreText(v.before)} against ${scoreText(v.after)})`;
    return { ...node, strength: v.mark, after: [...node.after, comment] };
  });
  return { game: { ...game, moves }, verdicts };
}
