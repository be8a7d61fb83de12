// `crownhead engine`: the engine as one long-lived process speaking a small
// line protocol on standard input and output, so a match or a GUI keeps one
// process (and its hash table) for a whole game. The protocol is the one the
// sparring engines' shims speak (../shared/opponents), so one harness
// (match.ts) drives ours and theirs alike. One command a line, answered in
// order (a `go` holds the next command until its `bestmove`):
//
//   isready                      → readyok
//   newgame                      (forget the hash table and history; no answer)
//   go FEN LIMIT [history FEN…]  → info depth D score S nodes N time MS pv MOVES
//                                  bestmove MOVE
//   go ponder FEN LIMIT [history FEN…]
//                                (think on the opponent's time, as UCI does: FEN is the position after
//                                the reply expected; searched, with no time of its own, until…)
//   ponderhit                    (…that reply was played: the search for LIMIT starts on the ponder
//                                search's hash table → info …, bestmove MOVE), or
//   stop                         (…another was: the ponder search ends → info …, bestmove MOVE of the
//                                ponder position, to be ignored; a `go` or `newgame` meanwhile stops it
//                                first the same way). During a plain `go`, stop ends it early.
//   quit                         (the process ends)
//
// Pondering is off unless asked (`go ponder`). While a ponder search runs,
// `isready` is answered at once. FEN is PDN FEN (`B:W21,22,…:B1,2,K3`). LIMIT
// is the time for this move in milliseconds (a bare number), `depth N` or
// `nodes N`. The history lists the positions before this one since the last
// capture or man move (not the one it was made from), oldest first: they give
// the repetition draws, and their number is the 40-move count. MOVE is PDN with every landing square of a capture
// (`16x23x30`); `bestmove none` when the side to move has no move (it has
// lost). S is hundredths of a man for the side to move, or `win N` / `loss N`
// plies. A line that cannot be understood is answered `error …` naming the
// problem, and the engine carries on. The session is a plain class over
// injected output and a seat that searches (`LineSeat`: in this thread, or the
// worker of client.ts, which can hear `ponderhit` and `stop` while it
// searches), so tests drive it in-process as well as through a child process.

import { think, ponderLimits, Searcher, WIN, WIN_BOUND, PONDER_DEPTH } from '../engine/index.ts';
import type { Book, EndgameProbe, EngineLimits, EngineRequest, EngineResult } from '../engine/index.ts';
import { FenError, hashKey, hashPosition, longText, parseFen, popcount } from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';
import { unwrap } from '../common/result.ts';
import { ENDGAME_PIECES } from './egdb-cache.ts';

/** What searches for the session: one search at a time; stop() ends the running one early (its deepest iteration stands). */
export interface LineSeat {
  think(req: EngineRequest): Promise<EngineResult>;
  stop(): void;
  newGame(): Promise<void>;
  close(): Promise<void>;
}

/** What an in-thread seat searches with: the endgame database (loaded when first near the end) and the book. */
export interface LineEngineTools {
  /** The endgame database, asked for once a position has few pieces (it may be built then: half a minute). */
  readonly egdb?: () => EndgameProbe | null;
  readonly book?: Book | null;
}

export interface LineEngineOptions extends LineEngineTools {
  /** Who searches (default: this thread, with egdb and book; it cannot hear a line while it searches). */
  readonly seat?: LineSeat;
  /** The opening book on or off ('best', the default, or 'off'): a seat of its own (the worker) loads it when on. */
  readonly bookMode?: 'best' | 'off';
  /** Deepest iteration of a ponder search (default: until told, with a seat; 12 in this thread, which cannot be told). */
  readonly ponderDepth?: number;
}

/** A ponder search in this thread cannot hear ponderhit: it stops at this depth. */
const IN_THREAD_PONDER_DEPTH = 12;

/** Searches in this thread (the tests', and any caller that needs no pondering while it waits). */
export function inThreadSeat(tools: LineEngineTools = {}): LineSeat {
  const searcher = new Searcher();
  let egdb: EndgameProbe | null = null;
  let stopped = false;
  return {
    think: async (req) => {
      const pos = req.position;
      if (!egdb && tools.egdb && popcount(pos.black | pos.white) <= ENDGAME_PIECES) egdb = tools.egdb();
      stopped = false;
      const book = req.limits.book === 'off' ? null : (tools.book ?? null);
      return think(req, { searcher, egdb, book, shouldStop: () => stopped });
    },
    stop: () => {
      stopped = true;
    },
    newGame: async () => searcher.reset(),
    close: async () => undefined,
  };
}

/** A `go ponder` under way: what it searches, what comes after, and whether it has been told. */
interface Ponder {
  readonly ponderReq: EngineRequest;
  /** The search for after a ponderhit (the go's own limit). */
  readonly req: EngineRequest;
  told: 'hit' | 'stop' | null;
  searching: boolean;
  tell(): void;
  readonly toldNow: Promise<void>;
}

export class LineEngine {
  private readonly seat: LineSeat;
  private readonly bookMode: 'best' | 'off';
  private readonly ponderDepth: number;
  /** The commands in order: each runs when the one before it has answered. */
  private work: Promise<void> = Promise.resolve();
  private ponder: Ponder | null = null;
  /** A plain go's search is running (stop ends it early). */
  private searching = false;

  constructor(
    private readonly out: (line: string) => void,
    options: LineEngineOptions = {},
  ) {
    this.seat = options.seat ?? inThreadSeat(options);
    this.bookMode = options.bookMode ?? 'best';
    this.ponderDepth = options.ponderDepth ?? (options.seat ? PONDER_DEPTH : IN_THREAD_PONDER_DEPTH);
  }

  /** Handles one line; false once the session is over (`quit`). Answers may come later: settled() waits for them. */
  handle(line: string): boolean {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const cmd = words[0];
    if (cmd === undefined) return true;
    switch (cmd) {
      case 'quit':
        this.endPonder('stop');
        return false;
      case 'isready':
        if (this.ponder && !this.ponder.told) this.out('readyok');
        else this.then(async () => this.out('readyok'));
        return true;
      case 'ponderhit':
      case 'stop':
        if (this.ponder) this.endPonder(cmd === 'ponderhit' ? 'hit' : 'stop');
        else if (cmd === 'stop' && this.searching) this.seat.stop();
        else if (cmd === 'ponderhit') this.out('error ponderhit without a go ponder');
        return true;
      case 'newgame':
        this.endPonder('stop');
        this.then(() => this.seat.newGame());
        return true;
      case 'go':
        this.endPonder('stop');
        try {
          this.go(words.slice(1));
        } catch (e) {
          if (e instanceof ProtocolError || e instanceof FenError) this.out(`error ${e.message}`);
          else throw e;
        }
        return true;
      default:
        this.out(`error unknown command "${cmd}" (isready, newgame, go [ponder] FEN LIMIT [history FEN…], ponderhit, stop, quit)`);
        return true;
    }
  }

  /** Every answer to the lines handled so far has been given. */
  settled(): Promise<void> {
    return this.work;
  }

  /** Answers what is pending, then lets the seat go (a worker ends). */
  async close(): Promise<void> {
    this.endPonder('stop');
    await this.work;
    await this.seat.close();
  }

  private then(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((e: unknown) => this.out(`error engine: ${(e as Error)?.message ?? String(e)}`));
  }

  private endPonder(how: 'hit' | 'stop'): void {
    const p = this.ponder;
    if (!p || p.told) return;
    p.told = how;
    p.tell();
    if (p.searching) this.seat.stop();
  }

  private go(args: string[]): void {
    const ponder = args[0] === 'ponder';
    const [fen, ...rest] = ponder ? args.slice(1) : args;
    if (fen === undefined) throw new ProtocolError('go needs a position: go [ponder] FEN LIMIT [history FEN…]');
    const pos = unwrap(parseFen(fen));
    const { limits, after } = limitOf(rest);
    let history: number[] = [];
    if (after.length) {
      if (after[0] !== 'history') throw new ProtocolError(`after the limit, "history FEN…" or nothing, not "${after[0]}"`);
      history = after.slice(1).map((f) => hashKey(hashPosition(unwrap(parseFen(f)))));
    }
    const req: EngineRequest = { position: pos, history, quietPlies: history.length, limits: { ...limits, book: this.bookMode } };
    if (!ponder) {
      this.then(async () => {
        this.searching = true;
        try {
          this.report(await this.seat.think(req));
        } finally {
          this.searching = false;
        }
      });
      return;
    }
    let tell = (): void => undefined;
    const toldNow = new Promise<void>((r) => (tell = r));
    const p: Ponder = { ponderReq: { ...req, limits: ponderLimits(this.ponderDepth) }, req, told: null, searching: false, tell, toldNow };
    this.ponder = p;
    this.then(async () => {
      let r: EngineResult | null = null;
      if (!p.told) {
        p.searching = true;
        try {
          r = await this.seat.think(p.ponderReq);
        } finally {
          p.searching = false;
        }
      }
      await p.toldNow;
      if (this.ponder === p) this.ponder = null;
      // A hit: the search for the move, on the ponder search's hash table. A stop: what the ponder search found.
      this.report(p.told === 'hit' || !r ? await this.seat.think(p.told === 'hit' ? p.req : { ...p.req, limits: { depth: 1 } }) : r);
    });
  }

  private report(r: EngineResult): void {
    const pv = r.pv.map(longText).join(' ');
    this.out(`info depth ${r.depth} score ${protocolScore(r.score)} nodes ${r.nodes} time ${Math.round(r.ms)} pv ${pv}`.trimEnd());
    this.out(`bestmove ${r.move ? longText(r.move) : 'none'}`);
  }
}

/** A line of the protocol that cannot be understood (answered `error …`). */
export class ProtocolError extends CrownheadError<'bad-command'> {
  override readonly name = 'ProtocolError';
  constructor(message: string) {
    super('bad-command', message);
  }
}

function limitOf(words: string[]): { limits: EngineLimits; after: string[] } {
  const [a, b] = words;
  if (a === 'depth' || a === 'nodes') {
    const n = Number(b);
    if (!Number.isInteger(n) || n < 1 || (a === 'depth' && n > 100))
      throw new ProtocolError(`${a} must be a whole number${a === 'depth' ? ' from 1 to 100' : ' above 0'}, not "${b ?? ''}"`);
    return { limits: { [a]: n }, after: words.slice(2) };
  }
  const ms = Number(a);
  if (a === undefined || !Number.isFinite(ms) || ms <= 0)
    throw new ProtocolError(`the limit is milliseconds (a number above 0), "depth N" or "nodes N", not "${a ?? ''}"`);
  return { limits: { timeMs: ms }, after: words.slice(1) };
}

/** Centi-men, or `win N` / `loss N` plies. */
function protocolScore(s: number): string {
  if (s >= WIN_BOUND) return `win ${WIN - s}`;
  if (s <= -WIN_BOUND) return `loss ${WIN + s}`;
  return String(Math.round(s));
}
