// `crownhead bestmove --fen FEN [--time T | --depth N | --nodes N] [--level N]`
// `crownhead analyse GAME.pdn [--time T | --depth N] [--out FILE]`
// `crownhead engine [--no-book]`: the engine as a long-lived process speaking
// the line protocol of src/engine-host/line-engine.ts on stdin/stdout

import { readFileSync, writeFileSync } from 'node:fs';
import { legalMoves, moveText, parseFen, playMove, START, type Move, type Position } from '../rules/index.ts';
import { readPdn, makePdnFile, gameName, type PdnGame } from '../pdn/index.ts';
import {
  annotateGame,
  deeperLimits,
  scoreText,
  think,
  Searcher,
  type EndgameProbe,
  type EngineLimits,
  type EngineRequest,
} from '../engine/index.ts';
import { defaultCacheDir, ENDGAME_PIECES, loadEndgame } from '../engine-host/egdb-cache.ts';
import { popcount } from '../rules/index.ts';
import { ANALYSE_USAGE, BESTMOVE_USAGE, ENGINE_USAGE } from './usage.ts';
import { createInterface } from 'node:readline';
import { LineEngine } from '../engine-host/line-engine.ts';
import { AnalysisPool, analysisLanes } from '../engine-host/pool.ts';
import { parse, UsageError, wholeNumber } from './args.ts';
import type { Io } from './io.ts';
import { attempt, type Result, unwrap } from '../common/result.ts';

/**
 * The endgame database (exact values of every position of up to 5 pieces when
 * `crownhead egdb build --pieces 5` has built that one, else up to 4), loaded
 * — the 4-piece one built and cached, about half a minute the first time —
 * only when the position has ENDGAME_PIECES or fewer, so that the search can
 * reach it.
 */
const egdbFor = (pos: Position): EndgameProbe | undefined =>
  popcount(pos.black | pos.white) <= ENDGAME_PIECES ? loadEndgame(defaultCacheDir()) : undefined;

/** "1s", "1.5s", "500ms", "2m", or a bare number of seconds → ms; or the UsageError naming what is wrong. */
export const parseDuration = (text: string, what: string): Result<number, UsageError> =>
  attempt(UsageError, () => readDuration(text, what));

function readDuration(text: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new UsageError(`${what} must be a duration like 1s, 500ms or 2m, not "${text}"`);
  const n = Number(m[1]);
  const ms = m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  if (ms <= 0 || ms > 24 * 3_600_000) throw new UsageError(`${what} must be more than 0 and at most a day, not "${text}"`);
  return ms;
}

function limitsFrom(values: { time?: string; depth?: string; nodes?: string }, defaultMs: number): EngineLimits {
  const given = ['time', 'depth', 'nodes'].filter((k) => values[k as keyof typeof values] !== undefined);
  if (given.length > 1)
    throw new UsageError(`give only one of --time, --depth and --nodes, not ${given.map((g) => '--' + g).join(' and ')}`);
  if (values.depth !== undefined) return { depth: wholeNumber(values.depth, '--depth', 1, 100) };
  if (values.nodes !== undefined) return { nodes: wholeNumber(values.nodes, '--nodes', 1) };
  return { timeMs: values.time !== undefined ? unwrap(parseDuration(values.time, '--time')) : defaultMs };
}

/** A line of moves in PDN notation from a position. */
export function lineText(pos: Position, moves: readonly Move[]): string {
  const out: string[] = [];
  for (const m of moves) {
    out.push(moveText(m, legalMoves(pos)));
    pos = playMove(pos, m);
  }
  return out.join(' ');
}

export function bestmoveCommand(argv: string[], io: Io): number {
  const { values, positionals } = parse(
    argv,
    {
      fen: { type: 'string' },
      time: { type: 'string' },
      depth: { type: 'string' },
      nodes: { type: 'string' },
      level: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    BESTMOVE_USAGE,
  );
  if (values.help) {
    io.out(
      `${BESTMOVE_USAGE}\nPrints the engine's move (first line, PDN notation), then its score in men for the side to move\n(or "win in N" plies) with depth, nodes and time, then the principal variation.\nWithout --fen, the starting position. Default --time 1s; --level 1-10 plays like that level (seeded by --seed).\nWith ${ENDGAME_PIECES} pieces or fewer on the board the search uses the endgame database (exact values of\nevery position of up to 4 pieces, or 5 once crownhead egdb build --pieces 5 has built that one); the 4-piece one\nis built on first use (about half a minute); both are cached in ${'$'}CROWNHEAD_CACHE (default ~/.cache/crownhead).`,
    );
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"\n${BESTMOVE_USAGE}`);
  let pos = START;
  if (values.fen !== undefined) {
    const read = parseFen(values.fen);
    if (!read.ok) throw new UsageError(`bad --fen: ${read.error.message}`);
    pos = read.value;
  }
  const level = values.level !== undefined ? wholeNumber(values.level, '--level', 1, 10) : undefined;
  const seed = values.seed !== undefined ? wholeNumber(values.seed, '--seed', 0, 2 ** 31 - 1) : undefined;
  const limits: EngineLimits = {
    ...limitsFrom(values, 1000),
    ...(level !== undefined ? { level } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
  const r = think({ position: pos, limits }, { egdb: egdbFor(pos) ?? null });
  if (!r.move) {
    io.err(`crownhead bestmove: ${pos.turn === 'black' ? 'Black' : 'White'} has no legal move (the game is lost)`);
    return 1;
  }
  io.out(moveText(r.move, legalMoves(pos)));
  io.out(`score ${scoreText(r.score)}  depth ${r.depth}  nodes ${r.nodes}  time ${(r.ms / 1000).toFixed(2)} s`);
  io.out(`pv ${lineText(pos, r.pv)}`);
  return 0;
}

export async function analyseCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      time: { type: 'string' },
      depth: { type: 'string' },
      nodes: { type: 'string' },
      out: { type: 'string' },
      threads: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    ANALYSE_USAGE,
  );
  if (values.help) {
    io.out(
      `${ANALYSE_USAGE}\nSearches every position of each game (default --time 1s each) and marks mistakes (?) and blunders (??)\nwith the better move as a comment (a close call is searched again four times deeper: at most a tenth of\nthe positions); --threads N searches N stretches of a game at once, an engine\nworker each (default: one per core, at most 4); writes the annotated PDN to --out or standard output,\nand one summary line per game to standard error. A game that cannot be read is named there and left out;\nthe others are analysed, and the exit code is then 1.`,
    );
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`analyse needs exactly one GAME.pdn\n${ANALYSE_USAGE}`);
  const file = positionals[0]!;
  const limits = limitsFrom(values, 1000);
  const lanes = values.threads !== undefined ? wholeNumber(values.threads, '--threads', 1, 16) : analysisLanes();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(
      `cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message}`,
    );
  }
  const { games, errors } = readPdn(text);
  // A file with some unreadable games (a corpus with one bad record): the
  // others are analysed, each bad one is named, and the exit code says so (1).
  if (!games.length) throw new UsageError(errors.length ? `${file}: ${errors[0]!.message}` : `${file}: no games in it`);
  for (const e of errors) io.err(`${file}: not analysed: ${e.message}`);
  const searcher = new Searcher();
  // The database when some game reaches the endgame.
  const endOf = (g: (typeof games)[number]): Position => g.moves.reduce((p, m) => playMove(p, m.move), g.start);
  const ending = games.find((g) => popcount(endOf(g).black | endOf(g).white) <= ENDGAME_PIECES);
  // The same analysis as the page's (engine/analyse.ts): in this thread, or with lanes on the analysis workers (each loads the database itself).
  const pool = lanes > 1 ? new AnalysisPool(lanes) : null;
  const egdb: EndgameProbe | null = !pool && ending ? (egdbFor(endOf(ending)) ?? null) : null;
  const ask = (req: Parameters<typeof think>[0]) => (pool ? pool.think(req) : think(req, { searcher, egdb }));
  const annotated: PdnGame[] = [];
  try {
    for (const g of games) annotated.push(await annotateOne(g, limits, ask, lanes, searcher, io));
  } finally {
    await pool?.close();
  }
  const pdn = makePdnFile(annotated);
  if (values.out !== undefined) {
    try {
      writeFileSync(values.out, pdn);
    } catch (e) {
      throw new UsageError(`cannot write ${values.out}: ${(e as Error).message}`);
    }
  } else io.out(pdn.replace(/\n$/, ''));
  return errors.length ? 1 : 0;
}

export async function engineCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { 'no-book': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, ENGINE_USAGE);
  if (values.help) {
    io.out(
      `${ENGINE_USAGE}\nReads one command a line on standard input and answers on standard output:\n  isready                      -> readyok\n  newgame                      forget the hash table (no answer)\n  go FEN LIMIT [history FEN...] -> info depth D score S nodes N time MS pv MOVES, then bestmove MOVE\n  go ponder FEN LIMIT [history FEN...]  think on the opponent's time (FEN: the position after the reply\n                               expected) until ponderhit (that reply was played: the search for LIMIT\n                               starts on the ponder search's work -> info, bestmove) or stop (another\n                               was: info, bestmove of the ponder position, to be ignored)\n  quit\nLIMIT is milliseconds for this move, "depth N" or "nodes N"; the history is the positions before this\none since the last capture or man move (repetitions, the 40-move count). MOVE lists every landing\nsquare of a capture (16x23x30); "bestmove none" when there is no move. A bad line is answered\n"error ..." and the engine carries on. The opening book is the corpus' (--no-book: none); the endgame\ndatabase is loaded near the end (built on first use, about half a minute).`,
    );
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"\n${ENGINE_USAGE}`);
  // The searches run in the engine's worker thread, so this one hears ponderhit and stop while they run.
  const { EngineClient } = await import('../engine-host/client.ts');
  const client = new EngineClient();
  const seat = {
    think: (req: EngineRequest) => client.think(req),
    stop: () => client.stop(),
    newGame: () => client.newGame(),
    close: () => client.close(),
  };
  const engine = new LineEngine((l) => io.out(l), { seat, bookMode: values['no-book'] ? 'off' : 'best' });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) if (!engine.handle(line)) break;
  lines.close();
  await engine.close();
  return 0;
}

/** One game annotated (its summary line on standard error); the searcher starts afresh for it. */
async function annotateOne(
  g: PdnGame,
  limits: EngineLimits,
  ask: (req: EngineRequest) => ReturnType<typeof think> | Promise<ReturnType<typeof think>>,
  lanes: number,
  searcher: Searcher,
  io: Io,
): Promise<PdnGame> {
  searcher.reset();
  // The close calls (a drop near the mistake line) looked at again four times deeper: at most a tenth of the positions, and 4 at least.
  const confirm = { limits: deeperLimits(limits), positions: Math.max(4, Math.ceil((g.moves.length + 1) / 10)) };
  const done = await annotateGame(g, limits, ask, lanes, confirm);
  if (!done) throw new Error('the analysis was cancelled'); // never: the engine here always answers
  const { game, verdicts } = done;
  const count = (mark: string): number => verdicts.filter((v) => v.mark === mark).length;
  const q = count('?'),
    qq = count('??');
  io.err(`${gameName(g)}: ${verdicts.length} moves, ${q} mistake${q === 1 ? '' : 's'}, ${qq} blunder${qq === 1 ? '' : 's'}`);
  return game;
}
