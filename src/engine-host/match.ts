// Matches between engines: any engine speaking the line protocol of
// line-engine.ts as a child process (ours: `crownhead engine`; simplech and
// GuiNN through the small shims of ../shared/opponents, which speak the same
// lines), or an in-process player, from ACF three-move ballots with each
// engine taking both colours. A game ends by the rules, by a draw claim (40
// moves, repetition), or is adjudicated a draw after MAX_PLIES; an engine
// that answers an illegal move, none, or more than its time plus a grace
// loses that game (the reason is kept). The score comes with an Elo
// difference and its 95 % interval.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { Game, longText, resolveMove, makeFen, type Move, type Position } from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';

/** How long a move may take: milliseconds (judged with the grace), or a fixed depth or node count (not timed). */
export type MoveLimit = { readonly ms: number } | { readonly depth: number } | { readonly nodes: number };

/** One side of a match. */
export interface Player {
  readonly name: string;
  newGame(): Promise<void>;
  /** The move for the game's side to move (the game holds its history). */
  move(game: Game, limit: MoveLimit): Promise<Move>;
  close(): Promise<void>;
}

/** An engine broke the protocol or the rules (it loses the game in a match). */
export class EngineFault extends CrownheadError<'engine-fault'> {
  override readonly name = 'EngineFault';
  constructor(message: string) {
    super('engine-fault', message);
  }
}

/**
 * The positions since the last capture or man move, oldest first (what `go … history` wants): as many
 * as the game's 40-move count, which the engines take from its length — not the position the capture
 * or man move was made from (it cannot come again, and counting it had both engines see a 40-move
 * draw a ply early, one that the other side could not claim).
 */
export function quietHistory(game: Game): Position[] {
  const out: Position[] = [];
  const plies = game.plies;
  for (let i = plies.length - 1; i >= 0; i--) {
    const p = plies[i]!;
    const before = i === 0 ? game.start : plies[i - 1]!.after;
    if (p.move.captures.length || !(before.kings & (1 << (p.move.from - 1)))) break;
    out.unshift(before);
  }
  return out;
}

/** An engine in a child process speaking the line protocol. */
export class ProtocolPlayer implements Player {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: ((line: string | null) => void)[] = [];
  private readonly queued: string[] = [];
  private closed = false;
  /** The engine's last `info` line. */
  lastInfo = '';

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[] = [],
    options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.proc = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    this.proc.stderr.resume();
    this.lines = createInterface({ input: this.proc.stdout });
    this.lines.on('line', (l) => {
      const w = this.waiting.shift();
      if (w) w(l);
      else this.queued.push(l);
    });
    this.proc.on('close', () => {
      this.closed = true;
      for (const w of this.waiting.splice(0)) w(null);
    });
    this.proc.on('error', () => undefined); // reported as a closed stream
  }

  private next(): Promise<string | null> {
    const q = this.queued.shift();
    if (q !== undefined) return Promise.resolve(q);
    if (this.closed) return Promise.resolve(null);
    return new Promise((r) => this.waiting.push(r));
  }

  private send(line: string): void {
    if (this.closed) throw new EngineFault(`${this.name}: the engine has exited`);
    this.proc.stdin.write(line + '\n');
  }

  /** Lines until one starts with `word` (returned); `error` lines and a closed engine are faults. */
  private async until(word: string): Promise<string> {
    for (;;) {
      const l = await this.next();
      if (l === null) throw new EngineFault(`${this.name}: the engine exited before answering "${word}"`);
      if (l.startsWith('error')) throw new EngineFault(`${this.name}: ${l}`);
      if (l.startsWith('info')) this.lastInfo = l;
      if (l.startsWith(word)) return l;
    }
  }

  /** Sends a line as it is; with `until`, resolves with the first answer line that starts with it (else at once, with ''). */
  async command(line: string, until?: string): Promise<string> {
    this.send(line);
    return until ? this.until(until) : '';
  }

  async ready(): Promise<void> {
    this.send('isready');
    await this.until('readyok');
  }

  async newGame(): Promise<void> {
    this.send('newgame');
    await this.ready();
  }

  async move(game: Game, limit: MoveLimit): Promise<Move> {
    const hist = quietHistory(game).map(makeFen);
    const lim = 'ms' in limit ? String(Math.round(limit.ms)) : 'depth' in limit ? `depth ${limit.depth}` : `nodes ${limit.nodes}`;
    this.send(`go ${makeFen(game.position)} ${lim}${hist.length ? ' history ' + hist.join(' ') : ''}`);
    const text = (await this.until('bestmove')).split(/\s+/)[1] ?? '';
    try {
      return resolveMove(game.position, text);
    } catch (e) {
      throw new EngineFault(`${this.name} answered "${text}": ${(e as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const done = new Promise<void>((r) => this.proc.once('close', () => r()));
    this.proc.stdin.end('quit\n');
    const timer = setTimeout(() => this.proc.kill(), 5000);
    await done;
    clearTimeout(timer);
  }
}

export const MAX_PLIES = 300;

/**
 * Wall-clock time a move for `ms` may take before it is lost on time: twice
 * the time (the sparring engines, driven like CheckerBoard drives them, may
 * stretch a move that far) plus the grace (process turn-around, a busy machine).
 */
export const allowedMs = (ms: number, graceMs: number): number => 2 * ms + graceMs;

export interface GameRecord {
  readonly ballot: number;
  readonly black: string;
  readonly white: string;
  /** 1, 0.5 or 0 for Black. */
  readonly blackScore: number;
  /** Why it ended, when not by the rules or a draw claim: a fault, time, or adjudication. */
  readonly reason: string;
  readonly game: Game;
  /** Wall-clock time of each move played, ms, by the name of who played it. */
  readonly moveMs: Readonly<Record<string, readonly number[]>>;
}

/** One game from a ballot. A timed move that takes longer than allowedMs loses the game on time. */
export async function playGame(ballot: number, black: Player, white: Player, limit: MoveLimit, graceMs = 1000): Promise<GameRecord> {
  const { game } = Game.fromBallot(ballot);
  await black.newGame();
  await white.newGame();
  let reason = '';
  let blackScore: number | null = null;
  const moveMs: Record<string, number[]> = { [black.name]: [], [white.name]: [] };
  while (!game.outcome && game.plies.length < MAX_PLIES) {
    if (game.drawClaim()) {
      game.claimDraw();
      break;
    }
    const mover = game.turn === 'black' ? black : white;
    const t0 = performance.now();
    let m: Move;
    try {
      m = await mover.move(game, limit);
    } catch (e) {
      if (!(e instanceof EngineFault)) throw e;
      reason = e.message;
      blackScore = game.turn === 'black' ? 0 : 1;
      break;
    }
    const ms = performance.now() - t0;
    moveMs[mover.name]!.push(ms);
    if ('ms' in limit && ms > allowedMs(limit.ms, graceMs)) {
      reason = `${mover.name} took ${Math.round(ms)} ms for a ${limit.ms} ms move (${longText(m)})`;
      blackScore = game.turn === 'black' ? 0 : 1;
      break;
    }
    game.play(m);
  }
  if (blackScore === null) {
    if (!game.outcome) {
      game.agreeDraw();
      reason = `adjudicated a draw after ${MAX_PLIES} plies`;
    }
    const w = game.outcome!.winner;
    blackScore = w === 'black' ? 1 : w === null ? 0.5 : 0;
  }
  return { ballot, black: black.name, white: white.name, blackScore, reason, game, moveMs };
}

export interface MatchScore {
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** Score fraction, Elo difference and its 95 % interval (normal approximation over the games' scores). */
export function eloOf(s: MatchScore): { score: number; elo: number; low: number; high: number } {
  const n = s.games;
  const p = (s.wins + s.draws / 2) / n;
  const variance = (s.wins * (1 - p) ** 2 + s.draws * (0.5 - p) ** 2 + s.losses * p ** 2) / n;
  const se = Math.sqrt(variance / n);
  const elo = (x: number): number => {
    const c = Math.min(Math.max(x, 1e-3), 1 - 1e-3);
    return -400 * Math.log10(1 / c - 1);
  };
  return { score: p, elo: elo(p), low: elo(p - 1.96 * se), high: elo(p + 1.96 * se) };
}

export const eloText = (s: MatchScore): string => {
  const e = eloOf(s);
  const f = (x: number): string => (x >= 0 ? '+' : '') + x.toFixed(0);
  return `+${s.wins} =${s.draws} -${s.losses} (${(100 * e.score).toFixed(1)} %), Elo ${f(e.elo)} [${f(e.low)}, ${f(e.high)}]`;
};

/** A match: each ballot twice, `a` with Black then with White. Calls onGame after each game. */
export async function playMatch(
  a: Player,
  b: Player,
  ballots: readonly number[],
  limit: MoveLimit,
  onGame?: (g: GameRecord, score: MatchScore) => void,
  graceMs = 1000,
): Promise<MatchScore & { records: GameRecord[] }> {
  let wins = 0,
    draws = 0,
    losses = 0;
  const records: GameRecord[] = [];
  for (const ballot of ballots)
    for (const aBlack of [true, false]) {
      const g = await playGame(ballot, aBlack ? a : b, aBlack ? b : a, limit, graceMs);
      const s = aBlack ? g.blackScore : 1 - g.blackScore;
      if (s === 1) wins++;
      else if (s === 0) losses++;
      else draws++;
      records.push(g);
      onGame?.(g, { games: records.length, wins, draws, losses });
    }
  return { games: records.length, wins, draws, losses, records };
}
