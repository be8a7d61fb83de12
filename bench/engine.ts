// The engine's figures: search speed (nodes per second, median of 3 runs per
// position), a short match against rapid-draughts' alpha-beta from ACF
// ballots (each ballot with both colours, our time per move at most theirs),
// and level monotonicity (level k against level k−1).
//
// `npm run bench` runs the short version; `npm run match` runs the full match
// (200 games, rapid-draughts at depth 8 — its strongest practical depth; in
// our runs it took a median of about 0.1 s and a mean of about 0.3 s a move —
// against a 120 ms budget for us, so that both our mean and our median time per
// move stay at or below its; at 180 ms our median was above its). Flags:
//   --match            full match only (no speed, no levels)
//   --games N          games in the match (ballots × 2 colours)
//   --ms T             our time per move, ms
//   --rd-depth D       rapid-draughts' maxDepth
//   --corpus           only the corpus figures (Tinsley's moves matched, problems solved)
//   --levels           only level monotonicity (every level against the one below, 8 ballots × 2 colours)
//   --pairs K,K,…      with --levels: only these levels k (each against k−1)
//   --ballots N        with --levels: N ballots (spread over the 156), each with both colours
//   --speed            only the search speed (nodes/s at a fixed depth from 5 ballots)
//   --depth D, --runs R  with the speed: the depth (default 15) and runs per position (default 3)
//   --hand             with the speed: this tree's engine with the hand-tuned evaluation, not the network
//   --baseline REF     with the speed: also the engine of git revision REF, run in turn with this
//                      one in the same process, and the ratio (e.g. --baseline main)
//   --versus REF       a match: this engine against git revision REF's (in-process), --games N, --ms T
//   --gauntlet "CMD"   a match: `crownhead engine` against any engine speaking its line protocol
//                      (src/engine-host/line-engine.ts), --cwd DIR for it; --games N, --ms T or --fixed-depth D
//   --part K/N         with --versus/--gauntlet: only every N-th ballot of the match, from the K-th (1…N), so
//                      N processes play one match's games between them (one per core); the parts' PDN files
//                      together are the whole match
//   --reach N          only the depth reached at N nodes a move (e.g. 3000000, about 1 s), from ten ballots
//                      (the opening) and the middle game of ten of Tinsley's games, a fresh searcher each; nodes per iteration give the
//                      effective branching factor; with --baseline REF that revision's engine too, in turn
//   --time-use         only the time used per move at --ms T (default 200) on a fixed set (every other
//                      position of four ballots' games played at depth 5, 40 plies each); with
//                      --baseline REF that revision's engine too, in turn
//   --sprt REF         sequential test: this tree's `crownhead engine` against REF's (each a child process pinned
//                      to a core of its own), pairs of games (a ballot, colours swapped) until the
//                      pentanomial GSPRT decides: --elo0 0 --elo1 5 (logistic Elo), --alpha/--beta 0.05,
//                      --ms T (default 100) or --nodes N a move, --max-pairs P (default 2000)
//   --grace MS         with --versus/--gauntlet: the grace over twice the time before a move is lost on
//                      time (default 1000; a niced match on a loaded machine can stall longer)
//   --out FILE         where the match's PDN goes (default: bench/results/match-YYYY-MM-DD.pdn
//                      for the full match, a temporary file otherwise); rewritten after every game,
//                      so an interrupted match keeps the games it played
// Our engine plays with its opening book (most-played move), the 4-piece
// endgame database and the 40-move rule; in --gauntlet it is `crownhead
// engine`, which uses the 5-piece database instead when one is built
// (`crownhead egdb status` says).

import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  BALLOTS,
  Game,
  START,
  samePosition,
  hashKey,
  hashPosition,
  legalMoves,
  playMove as playMoveOf,
  sameResult,
  type Move,
} from '../src/rules/index.ts';
import { readPdn, resultWinner } from '../src/pdn/index.ts';
import { corpusFile } from '../test/harness/corpus.ts';
import { playsSolution } from '../test/harness/shots.ts';
import { EGDB_PIECES, Searcher, think } from '../src/engine/index.ts';
import { loadEgdb } from '../src/engine-host/egdb-cache.ts';
import { bookFromCorpus } from '../src/engine-host/book-corpus.ts';
import { makePdnFile, pdnFromGame, type PdnGame } from '../src/pdn/index.ts';

const { values } = parseArgs({
  options: {
    match: { type: 'boolean' },
    corpus: { type: 'boolean' },
    games: { type: 'string' },
    ms: { type: 'string' },
    'rd-depth': { type: 'string' },
    out: { type: 'string' },
    levels: { type: 'boolean' },
    pairs: { type: 'string' },
    ballots: { type: 'string' },
    speed: { type: 'boolean' },
    hand: { type: 'boolean' },
    depth: { type: 'string' },
    runs: { type: 'string' },
    baseline: { type: 'string' },
    versus: { type: 'string' },
    gauntlet: { type: 'string' },
    cwd: { type: 'string' },
    'fixed-depth': { type: 'string' },
    grace: { type: 'string' },
    part: { type: 'string' },
    'time-use': { type: 'boolean' },
    reach: { type: 'string' },
    sprt: { type: 'string' },
    nodes: { type: 'string' },
    elo0: { type: 'string' },
    elo1: { type: 'string' },
    alpha: { type: 'string' },
    beta: { type: 'string' },
    'max-pairs': { type: 'string' },
  },
});
const onlyLevels = !!values.levels;
const full = !!values.match;
const GAMES = Number(values.games ?? (full ? 200 : 20));
const OUR_MS = Number(values.ms ?? (full ? 120 : 50));
const RD_DEPTH = Number(values['rd-depth'] ?? (full ? 8 : 7));
/** The endgame database (built and cached on first use), for exact play near the end. */
const egdb = loadEgdb(EGDB_PIECES);
/** The opening book from the corpus. */
const book = bookFromCorpus() ?? undefined;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// rapid-draughts' .d.ts files use extensionless relative imports NodeNext cannot follow: describe what we use.
interface RdMove {
  readonly origin: number;
  readonly destination: number;
  readonly captures: number[];
}
interface RdGame {
  readonly moves: RdMove[];
  move(m: RdMove): void;
}
const rd = (await import('rapid-draughts/english')) as unknown as {
  EnglishDraughts: { setup(): RdGame };
  EnglishDraughtsComputerFactory: { alphaBeta(o: { maxDepth: number }): (g: RdGame) => Promise<RdMove> };
};

/** rapid-draughts' 1-D squares are ours minus one, dark = Black. */
function toRd(g: RdGame, m: Move): RdMove {
  const caps = m.captures.map((c) => c - 1).sort((a, b) => a - b);
  const found = g.moves.find(
    (r) => r.origin === m.from - 1 && r.destination === m.to - 1 && [...r.captures].sort((a, b) => a - b).join() === caps.join(),
  );
  if (!found) throw new Error(`rapid-draughts has no move ${m.from}-${m.to}`);
  return found;
}
function fromRd(legal: Move[], r: RdMove): Move {
  const caps = [...r.captures]
    .map((c) => c + 1)
    .sort((a, b) => a - b)
    .join();
  const found = legal.find(
    (m) => m.from === r.origin + 1 && m.to === r.destination + 1 && [...m.captures].sort((a, b) => a - b).join() === caps,
  );
  if (!found) throw new Error(`rapid-draughts played ${r.origin + 1}-${r.destination + 1}, not legal here`);
  return found;
}

const MAX_PLIES = 300;
type Player = (game: Game) => Promise<Move> | Move;

/** Plays one game from a ballot; returns 1 / 0.5 / 0 for Black and the record. */
async function playGame(ballot: number, black: Player, white: Player, onMove?: (m: Move) => void): Promise<{ black: number; game: Game }> {
  const { game } = Game.fromBallot(ballot);
  while (!game.outcome && game.plies.length < MAX_PLIES) {
    if (game.drawClaim()) {
      game.claimDraw();
      break;
    }
    const m = await (game.turn === 'black' ? black : white)(game);
    onMove?.(m);
    game.play(m);
  }
  const o = game.outcome;
  if (!o) game.agreeDraw(); // adjudicated after MAX_PLIES
  const w = game.outcome!.winner;
  return { black: w === 'black' ? 1 : w === null ? 0.5 : 0, game };
}

const historyOf = (game: Game): number[] => [hashKey(hashPosition(game.start)), ...game.plies.map((p) => hashKey(hashPosition(p.after)))];

function enginePlayer(limits: { timeMs?: number; level?: number; seed?: number }): Player {
  const searcher = new Searcher();
  return (game) =>
    think(
      { position: game.position, quietPlies: game.quietPlies, history: historyOf(game).slice(0, -1), limits },
      { searcher, egdb, book: book ?? null },
    ).move!;
}

// ---------------------------------------------------------------------------
// Corpus figures (reported, not asserted).
if (!full && !onlyLevels && !values.speed && !values.versus && !values.gauntlet && !values['time-use'] && !values.sprt && !values.reach) {
  // Set-ups (not whole games from the start) with a stated solution, won by the side to move.
  const problems = readPdn(corpusFile('tricks_traps_and_shots.pdn')).games.filter(
    (g) => g.moves.length > 0 && resultWinner(g.result) === g.start.turn && !samePosition(g.start, START),
  );
  let solved = 0;
  const times: number[] = [];
  for (const g of problems) {
    // Solved: the stated solution (its first move, or the same shot in another order) is the answer at 5 s
    // (and was already at the reported time).
    let firstRight = -1;
    const r = think(
      { position: g.start, limits: { timeMs: 5000 } },
      {
        onIteration: (it) => {
          if (playsSolution(g.start, it.pv, g.moves)) {
            if (firstRight < 0) firstRight = it.ms;
          } else firstRight = -1;
        },
      },
    );
    if (playsSolution(g.start, r.pv, g.moves)) {
      solved++;
      times.push(firstRight);
    }
  }
  console.log(
    `problems with a stated solution (Tricks, Traps and Shots, won by the side to move): ${solved}/${problems.length} solved within 5 s; median time to settle on the solution ${median(times).toFixed(0)} ms`,
  );
  // Tinsley's moves: every 6th position from ply 16 on (past the opening) of his first 40 games, 1 s a move.
  const tinsley = readPdn(corpusFile('tinsley.pdn')).games.slice(0, 40);
  let asked = 0,
    matched = 0;
  for (const g of tinsley) {
    const isTinsley = (turn: 'black' | 'white'): boolean =>
      (g.tags.find(([k]) => k === (turn === 'black' ? 'Black' : 'White'))?.[1] ?? '').toLowerCase().includes('tinsley');
    let pos = g.start;
    for (let i = 0; i < g.moves.length; i++) {
      const m = g.moves[i]!.move;
      if (i >= 16 && i % 6 === 0 && isTinsley(pos.turn) && legalMoves(pos).length > 1) {
        const r = think({ position: pos, limits: { timeMs: 1000 } });
        asked++;
        if (r.move && sameResult(r.move, m)) matched++;
      }
      pos = playMoveOf(pos, m);
    }
  }
  console.log(
    `Tinsley's moves matched at 1 s a move: ${matched}/${asked} (${((100 * matched) / Math.max(1, asked)).toFixed(0)} %), positions from ply 16 on in his first 40 games`,
  );
}
if (values.corpus) process.exit(0);

// ---------------------------------------------------------------------------
if (values['time-use'] || values.sprt || values.reach) {
  await (values.sprt ? (await import('./sprt.ts')).sprt(values.sprt, values) : values.reach ? reach(Number(values.reach)) : timeUse());
  process.exit(0);
}
if (!full && !onlyLevels && !values.versus && !values.gauntlet) await speed();
if (values.speed) process.exit(0);
if (values.versus || values.gauntlet) {
  await engineMatch();
  process.exit(0);
}

/**
 * --versus REF: this tree's engine against git revision REF's, in this process
 * (one searcher each, the endgame database, no book: the ballots give the
 * variety). --gauntlet "CMD ARGS": `crownhead engine` (a child process) against
 * any engine speaking its line protocol (--cwd DIR: where that one runs), e.g.
 * the sparring engines of ../shared/opponents. Both: --games N (ballots spread
 * over the open ones, each with both colours), --ms T a move (default 100), or
 * --fixed-depth D.
 */
async function engineMatch(): Promise<void> {
  const { playMatch, eloText, ProtocolPlayer } = await import('../src/engine-host/match.ts');
  const games = Number(values.games ?? 24);
  const limit = values['fixed-depth'] ? { depth: Number(values['fixed-depth']) } : { ms: Number(values.ms ?? 100) };
  const open = BALLOTS.filter((b) => b.status !== 'barred');
  const n = Math.ceil(games / 2);
  const part = /^(\d+)\/(\d+)$/.exec(values.part ?? '1/1');
  const [k, parts] = part ? [Number(part[1]), Number(part[2])] : [0, 0];
  if (!part || k < 1 || k > parts) throw new Error(`--part must be K/N with 1 ≤ K ≤ N, not "${values.part}"`);
  const ballots = Array.from({ length: n }, (_, i) => open[Math.floor((i * open.length) / n)]!.number).filter(
    (_, i) => i % parts === k - 1,
  );
  const inProcess = (name: string, engine: Engine): import('../src/engine-host/match.ts').Player => {
    const fn = engine.think;
    // Its own revision's searcher (a searcher of this tree would run this tree's search under the other's think).
    const searcher = new engine.Searcher();
    return {
      name,
      newGame: async () => searcher.reset(),
      move: async (game, lim) =>
        fn(
          {
            position: game.position,
            quietPlies: game.quietPlies,
            history: historyOf(game).slice(0, -1),
            limits: 'ms' in lim ? { timeMs: lim.ms } : lim,
          },
          { searcher, egdb },
        ).move!,
      close: async () => undefined,
    };
  };
  const ours = values.versus
    ? inProcess('this', { think, Searcher })
    : new ProtocolPlayer('crownhead', process.execPath, [resolve(import.meta.dirname, '../bin/crownhead.js'), 'engine'], {
        env: { ...process.env, CROWNHEAD_FROM_SOURCE: '1' },
      });
  let theirs: import('../src/engine-host/match.ts').Player;
  if (values.versus) theirs = inProcess(values.versus, await baselineEngine(values.versus));
  else {
    const [cmd, ...args] = values.gauntlet!.split(/\s+/);
    theirs = new ProtocolPlayer(cmd!.split('/').pop()!, cmd!, args, values.cwd ? { cwd: values.cwd } : {});
  }
  console.log(
    `match: ${ours.name} against ${theirs.name}, ${ballots.length} ballots${parts > 1 ? ` (part ${k} of ${parts})` : ''} × both colours, ${'ms' in limit ? `${limit.ms} ms` : `depth ${limit.depth}`} a move`,
  );
  const records: PdnGame[] = [];
  const file = values.out ? resolve(values.out) : join(tmpdir(), `crownhead-engine-match-${process.pid}.pdn`);
  const m = await playMatch(
    ours,
    theirs,
    ballots,
    limit,
    (g, score) => {
      records.push(
        pdnFromGame(g.game, {
          index: records.length + 1,
          tags: [
            ['Event', `${ours.name} v ${theirs.name}`],
            ['Round', `ballot ${g.ballot}`],
            ['Black', g.black],
            ['White', g.white],
          ],
        }),
      );
      writeFileSync(file, makePdnFile(records));
      console.log(
        `  game ${score.games} (ballot ${g.ballot}, ${g.black} v ${g.white}): ${g.blackScore === 1 ? '1-0' : g.blackScore === 0 ? '0-1' : '½-½'}${g.reason ? ` (${g.reason})` : ''}; ${eloText(score)}`,
      );
    },
    Number(values.grace ?? 1000),
  );
  await ours.close();
  await theirs.close();
  const timing = [ours.name, theirs.name]
    .map((name) => {
      const t = m.records.flatMap((r) => r.moveMs[name] ?? []);
      return `${name} median ${median(t).toFixed(0)} ms, mean ${(t.reduce((a, b) => a + b, 0) / Math.max(1, t.length)).toFixed(0)}, max ${Math.max(...t).toFixed(0)}`;
    })
    .join('; ');
  console.log(`  time per move: ${timing}`);
  console.log(`engine match: ${ours.name} v ${theirs.name}: ${m.games} games, ${eloText(m)}; games in ${file}`);
}

/**
 * Nodes per second at a fixed depth from fixed positions, median of RUNS runs
 * each; with --baseline REF the engine of that git revision runs too, turn
 * about with this one in the same process (the machine is shared: only a
 * ratio measured side by side means anything), and the ratio is printed.
 */
async function speed(): Promise<void> {
  const depth = Number(values.depth ?? 15);
  const runs = Number(values.runs ?? 3);
  type ThinkFn = typeof think;
  const engines: { name: string; think: ThinkFn }[] = [];
  if (values.baseline) engines.push({ name: values.baseline, think: (await baselineEngine(values.baseline)).think });
  // --hand: this tree with the hand-tuned evaluation (the network off), to see what its hooks cost the search.
  engines.push({
    name: values.hand ? 'this (hand)' : 'this',
    think: values.hand ? (req, tools) => think(req, { ...tools, net: null }) : think,
  });
  console.log(
    `search speed (fixed depth ${depth}, ${runs} runs each, median${engines.length > 1 ? `; ${engines[0]!.name} and this tree in turn` : ''}):`,
  );
  const rates: number[][] = engines.map(() => []);
  for (const b of [1, 8, 31, 62, 100]) {
    const pos = Game.fromBallot(b).game.position;
    const per = engines.map(() => [] as { nps: number; nodes: number; ms: number }[]);
    for (let i = 0; i < runs; i++)
      engines.forEach((e, j) => {
        const r = e.think({ position: pos, limits: { depth } });
        per[j]!.push({ nps: r.nodes / (r.ms / 1000), nodes: r.nodes, ms: r.ms });
      });
    const parts = engines.map((e, j) => {
      const nps = median(per[j]!.map((r) => r.nps));
      rates[j]!.push(nps);
      return `${e.name}: ${per[j]![0]!.nodes} nodes, median ${median(per[j]!.map((r) => r.ms)).toFixed(0)} ms, ${(nps / 1e6).toFixed(2)} M nodes/s`;
    });
    console.log(`  ballot ${b}: ${parts.join(' | ')}`);
  }
  const summary = engines.map((e, j) => `${e.name} ${(median(rates[j]!) / 1e6).toFixed(2)}`).join(', ');
  const ratio = engines.length > 1 ? `; ratio ${(median(rates[1]!) / median(rates[0]!)).toFixed(2)}` : '';
  console.log(`engine search: median M nodes/s ${summary}${ratio}`);
  // Depth and time used at 1 s a move (a fresh searcher each time, no book), the engines in turn.
  console.log('depth reached at 1 s a move (and the time it took):');
  const depths: number[][] = engines.map(() => []);
  // Ballots whose first move is not forced (a forced move is answered at once).
  const open = [1, 8, 31, 62, 100, 20, 45, 77, 130, 150].filter((b) => legalMoves(Game.fromBallot(b).game.position).length > 1).slice(0, 5);
  for (const b of open) {
    const pos = Game.fromBallot(b).game.position;
    const parts = engines.map((e, j) => {
      const r = e.think({ position: pos, limits: { timeMs: 1000 } });
      depths[j]!.push(r.depth);
      return `${e.name}: depth ${r.depth} in ${r.ms.toFixed(0)} ms`;
    });
    console.log(`  ballot ${b}: ${parts.join(' | ')}`);
  }
  console.log(`engine depth at 1 s: median ${engines.map((e, j) => `${e.name} ${median(depths[j]!)}`).join(', ')}`);
}

/** --time-use: the time each engine takes per move at a time per move, on positions of four fixed games. */
async function timeUse(): Promise<void> {
  const ms = Number(values.ms ?? 200);
  const engines: { name: string; engine: Engine }[] = [];
  if (values.baseline) engines.push({ name: values.baseline, engine: await baselineEngine(values.baseline) });
  engines.push({ name: 'this', engine: { think, Searcher } });
  const positions = [1, 31, 62, 100].flatMap((b) => {
    const { game } = Game.fromBallot(b);
    const out = [];
    for (let ply = 0; ply < 40 && !game.outcome; ply++) {
      if (ply % 2 === 0) out.push({ position: game.position, quietPlies: game.quietPlies, history: historyOf(game).slice(0, -1) });
      game.play(think({ position: game.position, limits: { depth: 5 } }).move!);
    }
    return out;
  });
  const used = engines.map(() => [] as number[]),
    depths = engines.map(() => [] as number[]);
  const searchers = engines.map((e) => new e.engine.Searcher());
  for (const p of positions)
    engines.forEach((e, j) => {
      const r = e.engine.think({ ...p, limits: { timeMs: ms } }, { searcher: searchers[j]! });
      used[j]!.push(r.ms / ms);
      depths[j]!.push(r.depth);
    });
  const pct = (x: number): string => `${(100 * x).toFixed(0)} %`;
  for (const [j, e] of engines.entries()) {
    const u = used[j]!;
    console.log(
      `time used at ${ms} ms a move, ${positions.length} positions, ${e.name}: median ${pct(median(u))}, mean ${pct(u.reduce((a, b) => a + b, 0) / u.length)}, max ${pct(Math.max(...u))}, under 50 % ${u.filter((x) => x < 0.5).length}, over 100 % ${u.filter((x) => x > 1).length}; median depth ${median(depths[j]!)}`,
    );
  }
}

/**
 * --reach N: the depth each engine completes within N nodes (the node budget stands for time: the machine is
 * shared, so a clock would measure the load), from ten ballots (the opening) and from the middle game
 * (the 20th and 30th ply of Tinsley's first ten games in the corpus, where the move is not forced); and the effective branching
 * factor, the geometric mean of nodes(d) / nodes(d − 1) over each search's last four completed iterations.
 */
async function reach(nodes: number): Promise<void> {
  const engines: { name: string; engine: Engine }[] = [];
  if (values.baseline) engines.push({ name: values.baseline, engine: await baselineEngine(values.baseline) });
  engines.push({ name: 'this', engine: { think, Searcher } });
  const opening = [1, 8, 31, 62, 100, 20, 45, 77, 130, 150, 10, 55, 90, 115, 140, 5, 70, 120]
    .map((b) => ({ name: `ballot ${b}`, position: Game.fromBallot(b).game.position, quietPlies: 0, history: [] as number[] }))
    .filter((p) => legalMoves(p.position).length > 1)
    .slice(0, 10);
  // The middle game: Tinsley's games (fixed positions, whichever engine runs), the 20th and 30th ply of the first ten.
  const middle = readPdn(corpusFile('tinsley.pdn'))
    .games.slice(0, 10)
    .flatMap((g, gi) => {
      const out = [];
      let pos = g.start;
      const keys = [hashKey(hashPosition(pos))];
      let quiet = 0;
      for (let ply = 0; ply <= 30 && ply < g.moves.length; ply++) {
        if ((ply === 20 || ply === 30) && legalMoves(pos).length > 1)
          out.push({ name: `Tinsley game ${gi + 1} ply ${ply}`, position: pos, quietPlies: quiet, history: keys.slice(0, -1) });
        const m = g.moves[ply]!.move;
        quiet = m.captures.length || !(pos.kings & (1 << (m.from - 1))) ? 0 : quiet + 1;
        pos = playMoveOf(pos, m);
        keys.push(hashKey(hashPosition(pos)));
      }
      return out;
    });
  console.log(
    `depth reached at ${nodes} nodes a move (a fresh searcher each${engines.length > 1 ? `; ${engines[0]!.name} and this tree in turn` : ''}):`,
  );
  for (const [label, set] of [
    ['opening', opening],
    ['middle game', middle],
  ] as const) {
    const depths = engines.map(() => [] as number[]),
      ebfs = engines.map(() => [] as number[]);
    for (const p of set) {
      const parts = engines.map((e, j) => {
        const at: number[] = [];
        const r = e.engine.think(
          { position: p.position, quietPlies: p.quietPlies, history: p.history, limits: { nodes } },
          { searcher: new e.engine.Searcher(), onIteration: (it) => void (at[it.depth] = it.nodes) },
        );
        const d = r.depth;
        const last = at.slice(Math.max(1, d - 4), d + 1).filter((x) => x !== undefined);
        const ebf = last.length > 1 ? (last[last.length - 1]! / last[0]!) ** (1 / (last.length - 1)) : NaN;
        depths[j]!.push(d);
        ebfs[j]!.push(ebf);
        return `${e.name}: depth ${d}, ebf ${ebf.toFixed(2)}, move ${r.move ? `${r.move.from}-${r.move.to}` : '-'} score ${r.score}`;
      });
      console.log(`  ${p.name}: ${parts.join(' | ')}`);
    }
    console.log(
      `depth at ${nodes} nodes, ${label} (${set.length} positions): ${engines.map((e, j) => `${e.name} median ${median(depths[j]!)} (mean ${(depths[j]!.reduce((a, b) => a + b, 0) / set.length).toFixed(1)}), ebf median ${median(ebfs[j]!).toFixed(2)}`).join('; ')}`,
    );
  }
}

/** The engine (`think` and its Searcher) of a git revision. */
interface Engine {
  readonly think: typeof think;
  readonly Searcher: typeof Searcher;
}

/** The engine of another git revision: its src/ unpacked into a temporary folder and imported. */
async function baselineEngine(ref: string): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-baseline-'));
  const root = resolve(import.meta.dirname, '..');
  execSync(`git -C ${JSON.stringify(root)} archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`);
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  return (await import(pathToFileURL(join(dir, 'src/engine/index.ts')).href)) as Engine;
}

// ---------------------------------------------------------------------------
if (!onlyLevels) {
  const open = BALLOTS.filter((b) => b.status !== 'barred');
  const ballots = Array.from(
    { length: Math.ceil(GAMES / 2) },
    (_, i) => open[Math.floor((i * open.length) / Math.ceil(GAMES / 2))]!.number,
  );
  console.log(
    `\nmatch: crownhead (${OUR_MS} ms a move) against rapid-draughts alpha-beta (maxDepth ${RD_DEPTH}), ${ballots.length} ballots × both colours`,
  );
  let ours = 0,
    wins = 0,
    draws = 0,
    losses = 0,
    games = 0;
  const rdTimes: number[] = [],
    ourTimes: number[] = [];
  const records: PdnGame[] = [];
  const file = values.out
    ? resolve(values.out)
    : full
      ? resolve(import.meta.dirname, 'results', `match-${new Date().toISOString().slice(0, 10)}.pdn`)
      : join(tmpdir(), `crownhead-engine-match-${process.pid}.pdn`);
  mkdirSync(dirname(file), { recursive: true });
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const times = (): string =>
    `time per move: crownhead median ${median(ourTimes).toFixed(0)} ms (mean ${mean(ourTimes).toFixed(0)}), rapid-draughts median ${median(rdTimes).toFixed(0)} ms (mean ${mean(rdTimes).toFixed(0)})`;
  for (const ballot of ballots) {
    for (const weAreBlack of [true, false]) {
      const rg = rd.EnglishDraughts.setup();
      const ai = rd.EnglishDraughtsComputerFactory.alphaBeta({ maxDepth: RD_DEPTH });
      const us = enginePlayer({ timeMs: OUR_MS });
      const mine: Player = (g) => {
        const t0 = performance.now();
        const m = us(g) as Move;
        ourTimes.push(performance.now() - t0);
        return m;
      };
      const theirs: Player = async (g) => {
        const t0 = performance.now();
        const r = await ai(rg);
        rdTimes.push(performance.now() - t0);
        return fromRd(legalMoves(g.position), r);
      };
      // The ballot's opening moves first, on rapid-draughts' board too.
      const { game: opening } = Game.fromBallot(ballot);
      for (const p of opening.plies) rg.move(toRd(rg, p.move));
      const { black, game } = await playGame(ballot, weAreBlack ? mine : theirs, weAreBlack ? theirs : mine, (m) => rg.move(toRd(rg, m)));
      const s = weAreBlack ? black : 1 - black;
      ours += s;
      games++;
      if (s === 1) wins++;
      else if (s === 0) losses++;
      else draws++;
      records.push(
        pdnFromGame(game, {
          index: games,
          tags: [
            ['Event', `crownhead ${OUR_MS} ms v rapid-draughts depth ${RD_DEPTH}`],
            ['Round', `ballot ${ballot}`],
            ['Black', weAreBlack ? 'crownhead' : 'rapid-draughts'],
            ['White', weAreBlack ? 'rapid-draughts' : 'crownhead'],
          ],
        }),
      );
      writeFileSync(file, makePdnFile(records));
      if (full && games % 10 === 0)
        console.log(`  after ${games} games: +${wins} =${draws} -${losses} (${((100 * ours) / games).toFixed(1)} %); ${times()}`);
    }
  }
  console.log(`  ${times()}`);
  console.log(
    `engine match: ${games} games, +${wins} =${draws} -${losses}, score ${((100 * ours) / games).toFixed(1)} % for crownhead; games in ${file}`,
  );
}

// ---------------------------------------------------------------------------
if (!full) {
  // The bench's short check: 5 pairs on 4 ballots; --levels: every pair on 8 ballots.
  const ks = values.pairs ? values.pairs.split(',').map(Number) : onlyLevels ? [2, 3, 4, 5, 6, 7, 8, 9, 10] : [2, 4, 6, 8, 10];
  if (ks.some((k) => !Number.isInteger(k) || k < 2 || k > 10)) throw new Error(`--pairs wants levels 2–10, not "${values.pairs}"`);
  const nBallots = Number(values.ballots ?? 0);
  if (values.ballots && (!Number.isInteger(nBallots) || nBallots < 1 || nBallots > 156))
    throw new Error(`--ballots wants 1–156, not "${values.ballots}"`);
  // --ballots N: spread over the 156 (1, then every 156/N-th).
  const levelBallots = nBallots
    ? Array.from({ length: nBallots }, (_, i) => 1 + Math.floor((i * 156) / nBallots))
    : onlyLevels
      ? [1, 20, 40, 60, 80, 100, 120, 140]
      : [1, 40, 80, 120];
  console.log(`\nlevel monotonicity: level k against level k−1, ${levelBallots.length} ballots × both colours, 100 ms a move`);
  for (const k of ks) {
    let score = 0,
      n = 0;
    for (const ballot of levelBallots) {
      for (const kIsBlack of [true, false]) {
        const hi = enginePlayer({ level: k, seed: ballot, timeMs: 100 });
        const lo = enginePlayer({ level: k - 1, seed: ballot + 1, timeMs: 100 });
        const { black } = await playGame(ballot, kIsBlack ? hi : lo, kIsBlack ? lo : hi);
        score += kIsBlack ? black : 1 - black;
        n++;
      }
    }
    console.log(`  level ${k} v level ${k - 1}: ${score}/${n} (${((100 * score) / n).toFixed(0)} %)`);
  }
}
