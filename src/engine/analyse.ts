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
 *
 * With `confirm`, a move the quick pass finds close to a mistake (a drop of
 * at least CLOSE) is judged again on deeper searches of the positions before
 * and after it, the closest to the line first, as many as `confirm.positions`
 * allows: a short search is as often wrong on a mistake's edge as right, and
 * only a few moves of a game are near it.
 */
export interface AnalyseOptions {
  /** Positions searched at once, each lane a stretch of the line (default 1: the whole line, from its end back) */
  readonly lanes?: number;
  /** Told each move's ply once its verdict is final (progress: both positions around it scored, and confirmed if it was close) */
  readonly judged?: (ply: number) => void;
  /** The deeper look at close calls: the limits of its searches and how many positions it may search in all */
  readonly confirm?: { readonly limits: EngineLimits; readonly positions: number };
}

/** The limits of a deeper look: four times the time or the nodes, or four plies more. */
export function deeperLimits(limits: EngineLimits): EngineLimits {
  if (limits.depth !== undefined) return { ...limits, depth: limits.depth + 4 };
  if (limits.nodes !== undefined) return { ...limits, nodes: limits.nodes * 4 };
  return { ...limits, ...(limits.timeMs !== undefined ? { timeMs: limits.timeMs * 4 } : {}) };
}

/** A quick drop of at least this much is a close call, looked at again when `confirm` is given. */
export const CLOSE = MISTAKE / 2;

type Scored = { move: Move | null; score: number };

/** The verdict on the move `played` from the scores of the positions before and after it. */
function verdict(ply: number, played: Move, r: Scored, next: Scored): MoveVerdict {
  const before = r.score;
  const after = -next.score;
  const loss = r.move && sameResult(r.move, played) ? 0 : cap(before) - cap(after);
  const mark = loss >= BLUNDER ? '??' : loss >= MISTAKE ? '?' : '';
  return { ply, played, best: r.move, before, after, mark };
}

/** How far a quick verdict's drop is from the mistake line (the nearest are confirmed first). */
const nearness = (v: MoveVerdict): number => Math.abs(cap(v.before) - cap(v.after) - MISTAKE);

export async function analyseLine(
  start: Position,
  moves: readonly Move[],
  limits: EngineLimits,
  ask: Ask,
  { lanes = 1, judged, confirm }: AnalyseOptions = {},
): Promise<MoveVerdict[] | null> {
  // Scores of each position along the line (side to move's view); the last one after the final move.
  const positions: Position[] = [start];
  for (const m of moves) positions.push(playMove(positions[positions.length - 1]!, m));
  const quick: Scored[] = [];
  const close: MoveVerdict[] = [];
  let cancelled = false;
  const search = async (i: number, lim: EngineLimits, k: number): Promise<Scored | null> => {
    const p = positions[i]!;
    if (!legalMoves(p).length) return { move: null, score: -WIN };
    const r = await ask({ position: p, limits: lim, purpose: 'analysis', ...(lanes > 1 ? { lane: k } : {}) });
    if (!r) cancelled = true;
    return r;
  };
  // A move is judged (or kept for a deeper look) once the positions on both its sides are in.
  const settle = (ply: number): void => {
    if (ply < 0 || ply >= moves.length || !quick[ply] || !quick[ply + 1]) return;
    const v = verdict(ply, moves[ply]!, quick[ply]!, quick[ply + 1]!);
    const drop = !v.best || sameResult(v.best, v.played) ? 0 : cap(v.before) - cap(v.after);
    if (confirm && drop >= CLOSE) close.push(v);
    else judged?.(ply);
  };
  const lane = async (order: number[], k: number): Promise<void> => {
    for (const i of order) {
      if (cancelled) return;
      const r = await search(i, limits, k);
      if (!r) return;
      quick[i] = r;
      settle(i - 1);
      settle(i);
    }
  };
  await Promise.all(laneOrder(positions.length, lanes).map(lane));
  if (cancelled) return null;
  const deep = await confirmClose(
    close,
    confirm,
    lanes,
    (i, k) => search(i, confirm!.limits, k),
    () => cancelled,
  );
  if (!deep) return null;
  return moves.map((played, i) => {
    const judge = deep.has(i) && deep.has(i + 1);
    const v = judge ? verdict(i, played, deep.get(i)!, deep.get(i + 1)!) : verdict(i, played, quick[i]!, quick[i + 1]!);
    if (close.some((c) => c.ply === i)) judged?.(i);
    return v;
  });
}

/**
 * The deeper searches of the close calls' positions (both sides of each, the
 * calls nearest the mistake line first, within `confirm.positions`), shared
 * out over the lanes. Null when a search was cancelled.
 */
async function confirmClose(
  close: readonly MoveVerdict[],
  confirm: AnalyseOptions['confirm'],
  lanes: number,
  search: (i: number, k: number) => Promise<Scored | null>,
  cancelled: () => boolean,
): Promise<Map<number, Scored> | null> {
  const deep = new Map<number, Scored>();
  if (!confirm || !close.length) return deep;
  const wanted: number[] = [];
  for (const v of [...close].sort((a, b) => nearness(a) - nearness(b) || a.ply - b.ply)) {
    const more = [v.ply, v.ply + 1].filter((i) => !wanted.includes(i));
    if (wanted.length + more.length > confirm.positions) continue;
    wanted.push(...more);
  }
  let next = 0;
  const lane = async (k: number): Promise<void> => {
    while (next < wanted.length && !cancelled()) {
      const i = wanted[next++]!;
      const r = await search(i, k);
      if (!r) return;
      deep.set(i, r);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, wanted.length)) }, (_, k) => lane(k)));
  return cancelled() ? null : deep;
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
  confirm?: AnalyseOptions['confirm'],
): Promise<{ game: PdnGame; verdicts: MoveVerdict[] } | null> {
  const verdicts = await analyseLine(
    game.start,
    game.moves.map((m) => m.move),
    limits,
    ask,
    { lanes, ...(confirm ? { confirm } : {}) },
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
