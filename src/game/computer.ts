// Playing the computer at the table: which side it plays and at what level,
// whether it is thinking, and the move it wants the player to carry out on
// the board. It asks an injected `think` (the engine's port; the worker, in the service)
// and drops an answer that comes back for a position that is no longer on the
// board (a takeback, a new game). While the player thinks and carries out a
// move it ponders (on by default, at the levels that search without noise):
// the engine searches the position after the reply it expects
// (src/engine/ponder.ts), a search the computer's next one finds in the hash
// table when that reply is played, and stops when another is. Pure but for
// those promises.

import { moveText, legalMoves, sideName, type Color, type Move, type ReadonlyGame } from '../rules/index.ts';
import type { ComputerState } from '../protocol/v1.ts';
import type { Clock, EngineRequest, Purpose, Think } from '../engine/port.ts';
import { DEFAULT_THINK_MS, levelOf } from '../engine/levels.ts';
import { ponderHit, ponderLimits, ponderPlan, type PonderPlan } from '../engine/ponder.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, type Result } from '../common/result.ts';

export interface ComputerSetting {
  side: Color;
  /** 1 (fast and fallible) to 10 (full strength) */
  level: number;
}

/** A computer opponent setting that is not SIDE:LEVEL. */
export class ComputerSettingError extends CrownheadError<'bad-computer'> {
  override readonly name = 'ComputerSettingError';
  constructor(message: string) {
    super('bad-computer', message);
  }
}

/** "white:7" → { side: 'white', level: 7 }; otherwise the ComputerSettingError naming what is wrong. */
export const parseComputerSetting = (text: string): Result<ComputerSetting, ComputerSettingError> =>
  attempt(ComputerSettingError, () => readComputerSetting(text));

function readComputerSetting(text: string): ComputerSetting {
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
/** Player tags without the computer's name: a two-player game never takes it (a resumed game would read it as the computer). */
export function withoutComputerNames(tags: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([k, v]) => !((k === 'Black' || k === 'White') && computerFromTags({ [k]: v }))));
}

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
  /** What to ponder once its move is played: the reply its last answer expects (null: none, or pondering is off). */
  private plan: { plan: PonderPlan; plies: number } | null = null;
  /** The ponder search under way: for the position after the expected reply, `plies` into the game. */
  private pondering: { plan: PonderPlan; plies: number } | null = null;
  /** The player's replies that were the expected one (the ponder search kept) and the others (stopped). */
  ponderHits = 0;
  ponderMisses = 0;

  /**
   * `stop` ends the search under way for a purpose whose answer is no longer
   * wanted (the engine's next search need not wait for it); `timeMs` is the
   * time per move at full strength (the level uses its share of it); `ponder`
   * thinks on the player's time (levels 7–10: the lower ones search a few
   * plies with noise, and pondering would make them stronger than their level).
   */
  constructor(
    readonly setting: ComputerSetting,
    private readonly think: Think,
    private readonly stop?: (purpose: Extract<Purpose, 'computer' | 'ponder'>) => void,
    private readonly timeMs = DEFAULT_THINK_MS,
    private readonly ponder = true,
  ) {}

  /** Ponders at this level (on, and a level without noise). */
  get ponders(): boolean {
    return this.ponder && levelOf(this.setting.level).noise === 0;
  }

  /**
   * Starts thinking if it is the computer's turn in a game under way on a
   * board that is ready (`ready`), and it is not already thinking or waiting
   * for its move to be played. `onMove` gets the answer if the position is
   * still the same when it comes.
   */
  consider(
    game: ReadonlyGame,
    ready: boolean,
    onMove: (move: Move, text: string) => void,
    onError: (e: Error) => void,
    clock?: Clock,
  ): void {
    this.followPonder(game);
    if (this.thinking || this.move || game.outcome || !ready || game.turn !== this.setting.side) return;
    const token = ++this.token;
    const plies = game.plies.length,
      hash = game.hash;
    this.thinking = true;
    const history = game.plies.slice(0, -1).map((p) => p.hash);
    // The book's choice is a seeded random one among its moves, for variety.
    const limits = {
      level: this.setting.level,
      timeMs: this.timeMs,
      seed: plies + 1 + this.seedBase,
      book: 'random' as const,
      ...(clock ? { clock } : {}),
    };
    const req: EngineRequest = { position: game.position, history, quietPlies: game.quietPlies, limits, purpose: 'computer' };
    this.think(req).then(
      (r) => {
        if (token !== this.token) return;
        this.thinking = false;
        const m = r?.move;
        if (!m || game.plies.length !== plies || game.hash !== hash) return;
        const plan = this.ponders && r ? ponderPlan(game.position, r) : null;
        this.plan = plan ? { plan, plies: plies + 2 } : null;
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

  /**
   * Pondering follows the game: once its move is on the board and the player
   * is to move, the position after the expected reply is searched; once the
   * player has moved it is stopped: on a hit its tree stays in the hash table
   * for the computer's search of that very position; on a miss (any other
   * position) the computer searches afresh.
   */
  private followPonder(game: ReadonlyGame): void {
    const p = this.pondering;
    if (p && (game.plies.length >= p.plies || game.outcome || game.plies.length < p.plies - 1)) {
      this.pondering = null;
      if (game.plies.length === p.plies && !game.outcome && ponderHit(p.plan, game.position)) this.ponderHits++;
      else this.ponderMisses++;
      // Either way the ponder search ends here: a hit leaves its tree in the hash table for the computer's search.
      this.stop?.('ponder');
    }
    const plan = this.plan;
    if (!plan || this.pondering || game.outcome || game.turn === this.setting.side) return;
    if (game.plies.length !== plan.plies - 1) return; // its move not on the board yet (or the game went elsewhere)
    this.plan = null;
    this.pondering = plan;
    const expected = plan.plan.expected;
    const irreversible = expected.captures.length > 0 || !(game.position.kings & (1 << (expected.from - 1)));
    const req: EngineRequest = {
      position: plan.plan.position,
      history: game.plies.map((p) => p.hash),
      quietPlies: irreversible ? 0 : game.quietPlies + 1,
      limits: ponderLimits(levelOf(this.setting.level).maxDepth),
      purpose: 'ponder',
    };
    // Its answer is not wanted: the work it leaves in the hash table is.
    this.think(req).then(
      () => undefined,
      () => undefined,
    );
  }

  /** The game changed under it (a takeback, a new game, a reconnect): forget the pending answer. */
  cancel(): void {
    this.token++;
    if (this.thinking) this.stop?.('computer');
    if (this.pondering) this.stop?.('ponder');
    this.pondering = null;
    this.plan = null;
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
