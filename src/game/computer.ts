// Playing the computer at the table: which side it plays and at what level,
// whether it is thinking, and the move it wants the player to carry out on
// the board. It asks an injected `think` (the engine worker, in the service)
// and drops an answer that comes back for a position that is no longer on the
// board (a takeback, a new game). Pure but for that promise.

import { moveText, legalMoves, playMove, sameResult, sideName, type Color, type Game, type Move, type Position } from '../rules/index.ts';
import { BLUNDER, MISTAKE, scoreText } from '../engine/analyse.ts';
import type { ComputerState } from '../protocol/v1.ts';
import type { Clock } from '../engine/search.ts';

export interface ComputerSetting {
  side: Color;
  /** 1 (fast and fallible) to 10 (full strength) */
  level: number;
}

/** What the engine is asked: the position, the level, the game's positions so far (for repetitions) and a seed. */
export interface ThinkRequest {
  position: Position;
  level: number;
  /** Zobrist keys of the positions before this one (repetition draws) */
  history: number[];
  /** quiet plies so far (the 40-move rule) */
  quietPlies: number;
  seed: number;
  /** play from the opening book (the computer opponent: a seeded choice among the book's moves, for variety) */
  book?: boolean;
  /** what the search is for (the service's engine takes the computer's move first; default 'computer') */
  purpose?: ThinkPurpose;
  /** the mover's clock when the game has a time control (GameClock.moverClock): the search keeps within it as well */
  clock?: Clock;
}

/** Why the engine is asked: the computer's move, a hint, the evaluation bar, or the after-game analysis. */
export type ThinkPurpose = 'computer' | 'hint' | 'evaluation' | 'analysis';

/** The engine's answer: its move (null: none legal) and its score, hundredths of a man from the side to move's view. */
export interface ThinkResult {
  move: Move | null;
  score: number;
}

export type Think = (req: ThinkRequest) => Promise<ThinkResult | null>;

export class ComputerSettingError extends Error {
  override readonly name = 'ComputerSettingError';
}

/** "white:7" → { side: 'white', level: 7 }; a clear error otherwise. */
export function parseComputerSetting(text: string): ComputerSetting {
  const m = /^(black|white):(\d{1,2})$/.exec(text.trim().toLowerCase());
  if (!m) throw new ComputerSettingError(`"${text}" is not SIDE:LEVEL (e.g. white:7): the side is black or white, the level 1 to 10`);
  const level = Number(m[2]);
  if (level < 1 || level > 10) throw new ComputerSettingError(`level ${level} in "${text}": levels go from 1 to 10`);
  return { side: m[1] as Color, level };
}

/** The PDN name of the computer as a player: "Crownhead (level 7)". */
export function computerName(level: number): string {
  return `Crownhead (level ${level})`;
}

/** The setting a game's player tags say (a game resumed after a restart), or null. */
export function computerFromTags(tags: Record<string, string>): ComputerSetting | null {
  for (const side of ['black', 'white'] as const) {
    const m = /^Crownhead \(level (\d{1,2})\)$/.exec(tags[side === 'black' ? 'Black' : 'White'] ?? '');
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= 10) return { side, level: Number(m[1]) };
  }
  return null;
}

export class ComputerPlayer {
  thinking = false;
  /** the move the player is to carry out for the computer (null: none yet, or done) */
  move: Move | null = null;
  private moveText = '';
  private token = 0;
  /** varies the book's choices from game to game (same game, same choices) */
  private readonly seedBase = Math.floor(Math.random() * 1_000_000);

  /** `stop` ends a search under way whose answer is no longer wanted (the engine's next search need not wait for it). */
  constructor(readonly setting: ComputerSetting, private readonly think: Think, private readonly stop?: () => void) {}

  /**
   * Starts thinking if it is the computer's turn in a game under way on a
   * board that is ready (`ready`), and it is not already thinking or waiting
   * for its move to be played. `onMove` gets the answer if the position is
   * still the same when it comes.
   */
  consider(game: Game, ready: boolean, onMove: (move: Move, text: string) => void, onError: (e: Error) => void, clock?: Clock): void {
    if (this.thinking || this.move || game.outcome || !ready || game.turn !== this.setting.side) return;
    const token = ++this.token;
    const plies = game.plies.length, hash = game.hash;
    this.thinking = true;
    const history = game.plies.slice(0, -1).map((p) => p.hash);
    const req: ThinkRequest = { position: game.position, level: this.setting.level, history, quietPlies: game.quietPlies, seed: plies + 1 + this.seedBase, book: true, purpose: 'computer', ...(clock ? { clock } : {}) };
    this.think(req).then(
      (r) => {
        if (token !== this.token) return;
        this.thinking = false;
        const m = r?.move;
        if (!m || game.plies.length !== plies || game.hash !== hash) return;
        this.move = m;
        this.moveText = moveText(m, legalMoves(game.position, game.options));
        onMove(m, this.moveText);
      },
      (e: unknown) => {
        if (token !== this.token) return;
        this.thinking = false;
        onError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }

  /** The game changed under it (a takeback, a new game, a reconnect): forget the pending answer. */
  cancel(): void {
    this.token++;
    if (this.thinking) this.stop?.();
    this.thinking = false;
    this.move = null;
  }

  /** Its move was played on the board. */
  played(): void {
    this.move = null;
  }

  state(): ComputerState {
    const m = this.move;
    return {
      side: this.setting.side,
      level: this.setting.level,
      thinking: this.thinking,
      move: m ? { text: this.moveText, from: m.from, path: [...m.path], captures: [...m.captures] } : null,
    };
  }

  /** "The computer plays White, level 7." */
  describe(): string {
    return `The computer plays ${sideName(this.setting.side)}, level ${this.setting.level}.`;
  }
}

/** A move the analysis marks: a mistake (?) or a blunder (??), with the better move and both scores. */
export interface AnalysisMark {
  ply: number;
  mark: '?' | '??';
  better: string;
  comment: string;
}

/** Scores are capped before comparing: a won game still won is no mistake. */
const CAP = 1000;
const cap = (s: number): number => Math.max(-CAP, Math.min(CAP, s));

/**
 * After the game: every position of it searched (through `think`, so the
 * engine's worker does the work), and each move that lost ground marked, as
 * the engine's analyse does for a PDN file (same thresholds).
 */
export async function analyseGame(start: Position, moves: readonly Move[], think: Think): Promise<AnalysisMark[]> {
  const positions: Position[] = [start];
  for (const m of moves) positions.push(playMove(positions[positions.length - 1]!, m));
  const results: ThinkResult[] = [];
  for (const [i, p] of positions.entries()) {
    if (!legalMoves(p).length) results.push({ move: null, score: -1_000_000 });
    else results.push((await think({ position: p, level: 10, history: [], quietPlies: 0, seed: i + 1, purpose: 'analysis' })) ?? { move: null, score: 0 });
  }
  const marks: AnalysisMark[] = [];
  for (const [i, played] of moves.entries()) {
    const r = results[i]!;
    const before = r.score, after = -results[i + 1]!.score;
    const loss = r.move && sameResult(r.move, played) ? 0 : cap(before) - cap(after);
    if (loss < MISTAKE || !r.move) continue;
    const mark = loss >= BLUNDER ? '??' : '?';
    const better = moveText(r.move, legalMoves(positions[i]!));
    marks.push({ ply: i, mark, better, comment: `${mark === '??' ? 'Blunder' : 'Mistake'}: ${better} was better (${scoreText(before)} against ${scoreText(after)})` });
  }
  return marks;
}
