// The coach at the table: everything the session asks of the engine — the
// computer opponent (computer.ts), a hint, the evaluation bar and the
// after-game analysis — and the state each leaves for the snapshot. It talks
// to the engine through the port (src/engine/port.ts: an injected `think`,
// the service's worker behind a scheduler) and keeps the engine's work to what
// still applies: one hint per position (a held key asks once), a changed
// position stops the hint and the evaluation asked for the old one, and a new
// game stops everything asked for the old game, the analysis included. The
// session checks whether a request is allowed (its errors are its own) and
// tells the coach when the game or the position changes.

import { legalMoves, moveText, sideName, type ReadonlyGame } from '../rules/index.ts';
import { analyseLine, scoreText, verdictComment } from '../engine/analyse.ts';
import { WIN } from '../engine/search.ts';
import { DEFAULT_THINK_MS } from '../engine/levels.ts';
import type { EngineLimits, Purpose, Think } from '../engine/port.ts';
import type { AnalysisMark } from '../model/game.ts';
import type { GameEvent, Snapshot } from '../protocol/v1.ts';
import { ComputerPlayer, computerFromTags, type ComputerSetting } from './computer.ts';

/** What each option is when it is not given. */
const DEFAULTS = { thinkMs: DEFAULT_THINK_MS } as const;

/**
 * The after-game analysis aims to be done in about this long, however long
 * the game (its lanes searching at once), each position given at least
 * ANALYSIS_MIN_MS and at most the full-strength time: a 40-move game (81
 * positions) on two cores gets about 0.6 s a position, a short one more.
 */
const ANALYSIS_MS = 24_000;
const ANALYSIS_MIN_MS = 250;

/** The time for each position of an analysis of `positions` positions over `lanes` lanes, at most `fullMs`. */
export function analysisTimeMs(positions: number, lanes: number, fullMs: number): number {
  return Math.min(fullMs, Math.max(ANALYSIS_MIN_MS, Math.round((ANALYSIS_MS * lanes) / Math.max(1, positions))));
}

export interface CoachOptions {
  /** How the engine is asked (the worker, wired by the service). Without it: no computer, hints, bar or analysis. */
  think?: Think;
  /** Ends the engine's work for a purpose whose answer is no longer wanted. */
  stopThinking?: (purpose: Purpose) => void;
  /** The engine's time per search at full strength, ms (a level uses its share); default 2000. */
  thinkMs?: number;
  /** The computer opponent thinks on the player's time (computer.ts); default on. */
  ponder?: boolean;
}

/** What the coach announces (the session passes it on as its own event). */
export type CoachEvent = Extract<GameEvent, { type: 'notice' } | { type: 'evaluation' } | { type: 'analysis' } | { type: 'coach' }>;

/** The coach's part of the snapshot (the protocol's shapes). */
export type CoachState = Required<Pick<Snapshot, 'computer' | 'analysis' | 'evaluation' | 'hinting'>>;

/** The game and position a piece of advice was asked for. */
const keyOf = (gameId: string, game: ReadonlyGame): string => `${gameId}:${game.plies.length}:${game.hash}`;

export class Coach {
  /** Playing the computer (null: two players). */
  computer: ComputerPlayer | null = null;
  /** The evaluation bar: on, and the score of the position it was worked out for (Black's view). */
  private evaluation: { on: boolean; score: number | null; text: string; key: string } = { on: false, score: null, text: '', key: '' };
  /** The analysis of the finished game (null: none asked for this game). */
  private analysis: { running: boolean; marks: AnalysisMark[]; done: number; total: number } | null = null;
  /** The position a hint is being worked out for (null: none asked). */
  private hintKey: string | null = null;
  /** Counts games: an answer asked for an earlier one is dropped. */
  private era = 0;
  /** Counts analyses: a cancelled one's answers are dropped. */
  private analysisRun = 0;

  constructor(
    private readonly options: CoachOptions,
    private readonly emit: (e: CoachEvent) => void,
  ) {}

  /** There is an engine to ask. */
  get engine(): boolean {
    return this.options.think !== undefined;
  }

  private get limits(): EngineLimits {
    return { level: 10, timeMs: this.options.thinkMs ?? DEFAULTS.thinkMs };
  }

  /**
   * A game was put on the table (new, resumed or restored): whatever was asked
   * for the previous one is stopped and its answers dropped; the computer plays
   * if the record's player tag says so. The bar stays as it was (on or off).
   */
  /** A new game (or a resumed one): `setting` says who the computer plays, else the record's player tags say it (a resumed game). */
  newGame(tags: Record<string, string>, setting?: ComputerSetting | null): void {
    this.era++;
    this.computer?.cancel();
    if (this.hintKey !== null) this.options.stopThinking?.('hint');
    this.hintKey = null;
    if (this.analysis?.running) this.options.stopThinking?.('analysis');
    this.analysis = null;
    if (this.evaluation.on && this.evaluation.score === null && this.evaluation.key) this.options.stopThinking?.('evaluation');
    this.evaluation = { ...this.evaluation, score: null, text: '', key: '' };
    const think = this.options.think;
    const plays = think ? (setting === undefined ? computerFromTags(tags) : setting) : null;
    this.computer =
      plays && think
        ? new ComputerPlayer(plays, think, (p) => this.options.stopThinking?.(p), this.options.thinkMs, this.options.ponder ?? true)
        : null;
  }

  /** After every change at the table: advice for a position that is gone is stopped; the bar scores the new one. */
  follow(game: ReadonlyGame, gameId: string): void {
    const key = keyOf(gameId, game);
    if (this.hintKey !== null && this.hintKey !== key) {
      this.hintKey = null;
      this.options.stopThinking?.('hint');
    }
    this.considerEvaluation(game, key);
  }

  /** The engine's move for the side to move, said quietly (a notice with its squares) when it comes; asked once per position. */
  hint(game: ReadonlyGame, gameId: string): void {
    const think = this.options.think;
    if (!think) return;
    const key = keyOf(gameId, game);
    if (this.hintKey === key) return; // already working it out (a held key, a second page)
    this.hintKey = key;
    this.emit({ type: 'coach', say: '' });
    const plies = game.plies.length;
    think({
      position: game.position,
      history: game.plies.slice(0, -1).map((p) => p.hash),
      quietPlies: game.quietPlies,
      limits: { ...this.limits, seed: plies + 1 },
      purpose: 'hint',
    }).then(
      (r) => {
        if (this.hintKey !== key) return;
        this.hintKey = null;
        const m = r?.move;
        if (!m || keyOf(gameId, game) !== key) return this.emit({ type: 'coach', say: '' });
        const text = moveText(m, legalMoves(game.position, game.options));
        this.emit({ type: 'notice', level: 'info', squares: [m.from, ...m.path], say: `Hint for ${sideName(game.turn)}: ${text}.` });
      },
      (e: unknown) => {
        if (this.hintKey !== key) return;
        this.hintKey = null;
        this.emit({ type: 'notice', level: 'info', squares: [], say: `No hint: ${(e as Error)?.message ?? String(e)}` });
      },
    );
  }

  /** The page no longer wants the hint being worked out: the engine stops it. */
  cancelHint(): void {
    if (this.hintKey === null) return;
    this.hintKey = null;
    this.options.stopThinking?.('hint');
    this.emit({ type: 'coach', say: '' });
  }

  /** The page no longer wants the analysis under way: the engine stops it and its answers are dropped. */
  cancelAnalysis(): void {
    if (!this.analysis?.running) return;
    this.analysisRun++;
    this.analysis = null;
    this.options.stopThinking?.('analysis');
    this.emit({ type: 'notice', level: 'info', squares: [], say: 'Analysis cancelled.' });
  }

  /** The analysis is under way. */
  get analysing(): boolean {
    return this.analysis?.running === true;
  }

  /**
   * After the game: the engine searches every position (on its analysis
   * lanes, a worker per core, at once) and marks the mistakes (?) and blunders (??) with the
   * better move. A new game stops it.
   */
  analyse(game: ReadonlyGame): void {
    const think = this.options.think;
    if (!think || this.analysis?.running) return;
    const era = this.era;
    const run = ++this.analysisRun;
    const live = () => era === this.era && run === this.analysisRun;
    const analysis = { running: true, marks: [] as AnalysisMark[], done: 0, total: game.plies.length };
    this.analysis = analysis;
    this.emit({ type: 'coach', say: '' });
    const moves = game.plies.map((p) => p.move);
    const lanes = think.lanes ?? 1;
    const limits = { ...this.limits, timeMs: analysisTimeMs(moves.length + 1, lanes, this.options.thinkMs ?? DEFAULTS.thinkMs) };
    // Each position is asked only while the game (and this analysis) is still wanted; a move is judged once the positions before and after it are scored.
    const scored = new Uint8Array(moves.length + 1);
    const onScored = (i: number): void => {
      if (!live()) return;
      scored[i] = 1;
      analysis.done += (i > 0 && scored[i - 1] ? 1 : 0) + (i < moves.length && scored[i + 1] ? 1 : 0);
      this.emit({ type: 'coach', say: '' });
    };
    const ask: Think = async (req) => (live() ? think(req) : null);
    analyseLine(game.start, moves, limits, ask, { lanes, scored: onScored }).then(
      (verdicts) => {
        if (!live() || !verdicts) return;
        const marks: AnalysisMark[] = [];
        for (const v of verdicts) {
          if (!v.mark || !v.best) continue;
          marks.push({ ply: v.ply, mark: v.mark, ...verdictComment(v, legalMoves(game.plies[v.ply]!.before)) });
        }
        this.analysis = { running: false, marks, done: analysis.total, total: analysis.total };
        const blunders = marks.filter((m) => m.mark === '??').length,
          mistakes = marks.length - blunders;
        const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
        this.emit({
          type: 'analysis',
          say: marks.length
            ? `Analysis done: ${count(mistakes, 'mistake')} and ${count(blunders, 'blunder')}, marked in the move list.`
            : 'Analysis done: no mistakes found.',
        });
      },
      (e: unknown) => {
        if (!live()) return;
        this.analysis = null;
        this.emit({ type: 'notice', level: 'info', squares: [], say: `The analysis failed: ${(e as Error)?.message ?? String(e)}` });
      },
    );
  }

  /** The finished analysis' marks (null: none, or still running). */
  marks(): readonly AnalysisMark[] | null {
    return this.analysis && !this.analysis.running ? this.analysis.marks : null;
  }

  /** The evaluation bar on or off; on, it scores the position on the board. */
  setEvaluation(on: boolean, game: ReadonlyGame, gameId: string): void {
    if (!on && this.evaluation.on && this.evaluation.score === null && this.evaluation.key) this.options.stopThinking?.('evaluation');
    this.evaluation = { on, score: null, text: '', key: '' };
    this.emit({ type: 'evaluation', say: '' });
    this.considerEvaluation(game, keyOf(gameId, game));
  }

  /** With the bar on: the engine's score of the position on the board, once per position (in the worker). */
  private considerEvaluation(game: ReadonlyGame, key: string): void {
    const ev = this.evaluation;
    const think = this.options.think;
    if (!ev.on || !think || ev.key === key) return;
    const pending = ev.key !== '' && ev.score === null;
    ev.key = key;
    ev.score = null;
    if (game.outcome) {
      if (pending) this.options.stopThinking?.('evaluation');
      ev.score = game.outcome.winner === 'black' ? WIN : game.outcome.winner === 'white' ? -WIN : 0;
      ev.text = game.outcome.winner ? `${sideName(game.outcome.winner)} won` : 'Drawn';
      this.emit({ type: 'evaluation', say: '' });
      return;
    }
    // A newer evaluation replaces the one asked for the old position (the scheduler drops or stops it).
    think({
      position: game.position,
      history: game.plies.slice(0, -1).map((p) => p.hash),
      quietPlies: game.quietPlies,
      limits: { ...this.limits, seed: 1 },
      purpose: 'evaluation',
    }).then(
      (r) => {
        if (!r || this.evaluation !== ev || ev.key !== key) return;
        const black = game.turn === 'black' ? r.score : -r.score;
        ev.score = black;
        ev.text = evaluationText(black);
        this.emit({ type: 'evaluation', say: '' });
      },
      () => undefined,
    );
  }

  state(): CoachState {
    const ev = this.evaluation;
    return {
      computer: this.computer ? this.computer.state() : null,
      analysis: this.analysis
        ? { running: this.analysis.running, marks: [...this.analysis.marks], done: this.analysis.done, total: this.analysis.total }
        : null,
      hinting: this.hintKey !== null,
      evaluation: ev.on ? { score: ev.score, text: ev.score === null ? 'thinking…' : ev.text } : null,
    };
  }
}

/** A score from Black's view in words: "Black +0.35", "equal", "Black: win in 7" (plies). */
export function evaluationText(black: number): string {
  if (Math.abs(black) < 10) return 'equal';
  const side = black > 0 ? 'Black' : 'White';
  const t = scoreText(Math.abs(black));
  return t.startsWith('win') ? `${side}: ${t}` : `${side} ${t}`;
}
