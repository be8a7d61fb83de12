// Game analysis, the one the page (through the coach) and `crownhead
// analyse` both use: search every position of a game's main line, and mark each
// move that lost ground — a mistake (?) or a blunder (??) — with the better
// move and both scores as a comment. Works on the PDN model, so the result is
// written back as annotated PDN. It asks the engine through the port (a
// function), so it runs on the worker or in this thread alike. With several
// lanes (one engine each: a worker per core) the game is cut into that many
// stretches, searched at once; each lane goes through its stretch from the
// end back to the start, so what its hash table learnt of the later
// positions helps the earlier ones (the usual order of a backward analysis).

import { legalMoves, moveText, playMove, sameResult, type Move, type Position } from '../rules/index.ts';
import type { PdnGame, PdnMove } from '../pdn/index.ts';
import { WIN, WIN_BOUND } from './search.ts';
import type { EngineLimits, EngineRequest, EngineResult } from './port.ts';

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

/** How analysis asks the engine: the in-process `think`, or the service's workers (null: the search was cancelled). */
export type Ask = (req: EngineRequest) => EngineResult | null | Promise<EngineResult | null>;

/** The positions each lane searches, in its order: `lanes` stretches of the line as even as may be, each from its last position back to its first. */
export function laneOrder(positions: number, lanes: number): number[][] {
  const n = Math.max(1, Math.min(lanes, positions));
  return Array.from({ length: n }, (_, k) => {
    const from = Math.floor((k * positions) / n),
      to = Math.floor(((k + 1) * positions) / n);
    return Array.from({ length: to - from }, (_, i) => to - 1 - i);
  });
}

/**
 * The one game analysis (the page's, through the coach, and `crownhead
 * analyse`): every position of the line searched with `limits`, and each move
 * scored against the engine's choice. A position with no legal move scores
 * −WIN (lost). Null when a search was cancelled (a new game came first): the
 * rest is not asked.
 */
export interface AnalyseOptions {
  /** Positions searched at once, each lane a stretch of the line (default 1: the whole line, from its end back) */
  readonly lanes?: number;
  /** Told the index of each position once its score is in (progress: the move before i and the one after it are judged once both ends are) */
  readonly scored?: (index: number) => void;
}

export async function analyseLine(
  start: Position,
  moves: readonly Move[],
  limits: EngineLimits,
  ask: Ask,
  { lanes = 1, scored }: AnalyseOptions = {},
): Promise<MoveVerdict[] | null> {
  // Scores of each position along the line (side to move's view); the last one after the final move.
  const positions: Position[] = [start];
  for (const m of moves) positions.push(playMove(positions[positions.length - 1]!, m));
  const results: { move: Move | null; score: number }[] = [];
  let cancelled = false;
  const lane = async (order: number[], k: number): Promise<void> => {
    for (const i of order) {
      if (cancelled) return;
      const p = positions[i]!;
      if (!legalMoves(p).length) results[i] = { move: null, score: -WIN };
      else {
        const r = await ask({ position: p, limits, purpose: 'analysis', ...(lanes > 1 ? { lane: k } : {}) });
        if (!r) return void (cancelled = true);
        results[i] = r;
      }
      scored?.(i);
    }
  };
  await Promise.all(laneOrder(positions.length, lanes).map(lane));
  if (cancelled) return null;
  return moves.map((played, i) => {
    const r = results[i]!;
    const before = r.score;
    const after = -results[i + 1]!.score;
    const loss = r.move && sameResult(r.move, played) ? 0 : cap(before) - cap(after);
    const mark = loss >= BLUNDER ? '??' : loss >= MISTAKE ? '?' : '';
    return { ply: i, played, best: r.move, before, after, mark };
  });
}

/** The better move in PDN notation and the sentence for a marked move: "Mistake: 9-14 was better (+0.20 against −0.55)". */
export function verdictComment(v: MoveVerdict, legal: readonly Move[]): { better: string; comment: string } {
  const better = v.best ? moveText(v.best, legal) : '';
  return {
    better,
    comment: `${v.mark === '??' ? 'Blunder' : 'Mistake'}: ${better} was better (${scoreText(v.before)} against ${scoreText(v.after)})`,
  };
}

/** The game with `?`/`??` on its mistakes and blunders and the better move in a comment after each (null: cancelled). */
export async function annotateGame(
  game: PdnGame,
  limits: EngineLimits,
  ask: Ask,
  lanes = 1,
): Promise<{ game: PdnGame; verdicts: MoveVerdict[] } | null> {
  const verdicts = await analyseLine(
    game.start,
    game.moves.map((m) => m.move),
    limits,
    ask,
    { lanes },
  );
  if (!verdicts) return null;
  let pos = game.start;
  const moves: PdnMove[] = game.moves.map((node, i) => {
    const v = verdicts[i]!;
    const legal = legalMoves(pos);
    pos = playMove(pos, node.move);
    if (!v.mark || !v.best) return node;
    return { ...node, strength: v.mark, after: [...node.after, verdictComment(v, legal).comment] };
  });
  return { game: { ...game, moves }, verdicts };
}
