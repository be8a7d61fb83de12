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
//   quit                         (the process ends)
//
// FEN is PDN FEN (`B:W21,22,…:B1,2,K3`). LIMIT is the time for this move in
// milliseconds (a bare number), `depth N` or `nodes N`. The history lists the
// positions before this one since the last capture or man move, oldest first:
// they give the repetition draws and the 40-move count. MOVE is PDN with every
// landing square of a capture (`16x23x30`); `bestmove none` when the side to
// move has no move (it has lost). S is hundredths of a man for the side to
// move, or `win N` / `loss N` plies. A line that cannot be understood is
// answered `error …` naming the problem, and the engine carries on. The
// session is a plain class over injected output and tools, so tests drive it
// in-process as well as through a child process.

import { think, Searcher, WIN, WIN_BOUND, type Book, type EndgameProbe, type EngineLimits } from '../engine/index.ts';
import { FenError, hashKey, hashPosition, longText, parseFen, popcount } from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';

/** What the session searches with: the endgame database (loaded when first near the end) and the book. */
export interface LineEngineTools {
  /** The endgame database, asked for once a position has few pieces (it may be built then: half a minute). */
  readonly egdb?: () => EndgameProbe | null;
  readonly book?: Book | null;
}

/** Pieces on the board from which the endgame database is loaded (as the worker and the CLI do). */
const ENDGAME_PIECES = 6;

export class LineEngine {
  private readonly searcher = new Searcher();
  private egdb: EndgameProbe | null = null;

  constructor(
    private readonly out: (line: string) => void,
    private readonly tools: LineEngineTools = {},
  ) {}

  /** Handles one line; false once the session is over (`quit`). */
  handle(line: string): boolean {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const cmd = words[0];
    if (cmd === undefined) return true;
    switch (cmd) {
      case 'quit':
        return false;
      case 'isready':
        this.out('readyok');
        return true;
      case 'newgame':
        this.searcher.reset();
        return true;
      case 'go':
        try {
          this.go(words.slice(1));
        } catch (e) {
          if (e instanceof ProtocolError || e instanceof FenError) this.out(`error ${e.message}`);
          else throw e;
        }
        return true;
      default:
        this.out(`error unknown command "${cmd}" (isready, newgame, go FEN LIMIT [history FEN…], quit)`);
        return true;
    }
  }

  private go(args: string[]): void {
    const [fen, ...rest] = args;
    if (fen === undefined) throw new ProtocolError('go needs a position: go FEN LIMIT [history FEN…]');
    const pos = parseFen(fen);
    const { limits, after } = limitOf(rest);
    let history: number[] = [];
    if (after.length) {
      if (after[0] !== 'history') throw new ProtocolError(`after the limit, "history FEN…" or nothing, not "${after[0]}"`);
      history = after.slice(1).map((f) => hashKey(hashPosition(parseFen(f))));
    }
    if (!this.egdb && this.tools.egdb && popcount(pos.black | pos.white) <= ENDGAME_PIECES) this.egdb = this.tools.egdb();
    const r = think(
      { position: pos, history, quietPlies: history.length, limits },
      { searcher: this.searcher, egdb: this.egdb, book: this.tools.book ?? null },
    );
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
