// The page's view of the server's data: the snapshot, moves, board status and
// clock as the page uses them, read defensively out of a message that already
// passed the v1 schema (src/server/messages.ts checks the key fields; the rest
// is filled with safe defaults here so a slightly different server never
// breaks rendering). Also the board geometry the renderer needs.

export type Side = 'black' | 'white';

// Shapes the server sends as they are (type-only imports: nothing of the server is bundled).
import type { Fix } from '../tracking/diagnose.ts';
import type { MoveRecord } from '../game/session.ts';
import type { ClockState } from '../game/clock.ts';

export type { Fix };
export type Move = MoveRecord;
export type Clock = ClockState;

export interface Alert {
  category: string;
  message: string;
  squares: number[];
  fixes: Fix[];
}

export type Status =
  | { kind: 'setup'; fixes: Fix[]; message: string }
  | { kind: 'in-sync' }
  | { kind: 'moving' }
  | { kind: 'awaiting-crown'; square: number }
  | { kind: 'illegal'; alert: Alert };

export interface Piece {
  square: number;
  color: Side;
  king: boolean;
}

/** The explicit calibration routine's progress while it runs. */
export interface Calibration {
  step: string;
  square: number | null;
  done: number;
  total: number;
  message: string;
}

export interface Snapshot {
  gameId: string;
  tags: Record<string, string>;
  fen: string;
  startFen: string;
  ballot: number | null;
  turn: Side;
  firstPlayer: Side;
  tournament: boolean;
  pieces: Piece[];
  moves: Move[];
  status: Status;
  board: { counts: number[]; differences: number[]; connected: boolean; calibrated: boolean; source: string; detail: string };
  result: string;
  outcome: { winner: Side | null; reason: string } | null;
  drawOffer: Side | null;
  drawClaim: 'repetition' | 'forty-move' | null;
  clock: Clock | null;
  calibration: Calibration | null;
}

export interface ServerInfo {
  name: string;
  version: string;
  readOnly: boolean;
  sim: boolean;
  source: string;
  /** other devices need the control token to control the game */
  tokenRequired: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown, d = ''): string => (typeof x === 'string' ? x : d);
const num = (x: unknown, d = 0): number => (typeof x === 'number' && Number.isFinite(x) ? x : d);
const bool = (x: unknown, d = false): boolean => (typeof x === 'boolean' ? x : d);
const side = (x: unknown): Side | null => (x === 'black' || x === 'white' ? x : null);
const isSquare = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= 32;
const squares = (x: unknown): number[] => (Array.isArray(x) ? x.filter(isSquare) : []);

export function readFixes(x: unknown): Fix[] {
  if (!Array.isArray(x)) return [];
  const out: Fix[] = [];
  for (const f of x) {
    if (!isObj(f) || !isSquare(f.square)) continue;
    out.push({ square: f.square, action: f.action === 'remove' ? 'remove' : 'place', piece: str(f.piece, 'a coin'), coins: num(f.coins, 1) });
  }
  return out;
}

export function readAlert(x: unknown): Alert {
  const a = isObj(x) ? x : {};
  const fixes = readFixes(a.fixes);
  const sq = squares(a.squares);
  return { category: str(a.category, 'illegal-move'), message: str(a.message, 'The board does not match the game.'), squares: sq.length ? sq : fixes.map((f) => f.square), fixes };
}

export function readStatus(x: unknown): Status {
  const s = isObj(x) ? x : {};
  switch (s.kind) {
    case 'setup':
      return { kind: 'setup', fixes: readFixes(s.fixes), message: str(s.message) };
    case 'moving':
      return { kind: 'moving' };
    case 'awaiting-crown':
      return isSquare(s.square) ? { kind: 'awaiting-crown', square: s.square } : { kind: 'moving' };
    case 'illegal':
      return { kind: 'illegal', alert: readAlert(s.alert) };
    default:
      return { kind: 'in-sync' };
  }
}

export function readClock(x: unknown): Clock | null {
  if (!isObj(x) || typeof x.black !== 'number' || typeof x.white !== 'number') return null;
  return { control: str(x.control), black: Math.max(0, x.black), white: Math.max(0, x.white), running: side(x.running), flagged: side(x.flagged) };
}

export function readCounts(x: unknown): number[] {
  const out = new Array<number>(32).fill(0);
  if (Array.isArray(x)) for (let i = 0; i < 32 && i < x.length; i++) out[i] = Math.max(0, Math.min(2, Math.round(num(x[i]))));
  return out;
}

function readMove(x: unknown): Move | null {
  if (!isObj(x) || typeof x.text !== 'string') return null;
  const s = side(x.side);
  if (!s) return null;
  const m = /^(\d+)[-x](?:.*[-x])?(\d+)$/.exec(x.text);
  const from = isSquare(x.from) ? x.from : m ? Number(m[1]) : 0;
  const to = isSquare(x.to) ? x.to : m ? Number(m[2]) : 0;
  return { number: num(x.number, 1), side: s, text: x.text, from, to, path: squares(x.path), captures: squares(x.captures), crowned: bool(x.crowned) };
}

/** The snapshot as the page uses it (input: the `state` of a schema-valid message). */
export function readSnapshot(x: unknown): Snapshot {
  const s = isObj(x) ? x : {};
  const tags: Record<string, string> = {};
  if (isObj(s.tags)) for (const [k, v] of Object.entries(s.tags)) if (typeof v === 'string') tags[k] = v;
  const board = isObj(s.board) ? s.board : {};
  const options = isObj(s.options) ? s.options : {};
  const pieces: Piece[] = [];
  if (Array.isArray(s.pieces)) for (const p of s.pieces) if (isObj(p) && isSquare(p.square) && side(p.color)) pieces.push({ square: p.square, color: side(p.color)!, king: bool(p.king) });
  const moves: Move[] = [];
  if (Array.isArray(s.moves)) for (const m of s.moves) { const r = readMove(m); if (r) moves.push(r); }
  const cal = isObj(s.calibration) ? s.calibration : null;
  const outcome = isObj(s.outcome) ? { winner: side(s.outcome.winner), reason: str(s.outcome.reason) } : null;
  return {
    gameId: str(s.gameId),
    tags,
    fen: str(s.fen),
    startFen: str(s.startFen, str(s.fen)),
    ballot: typeof s.ballot === 'number' ? s.ballot : null,
    turn: side(s.turn) ?? 'black',
    firstPlayer: side(options.firstPlayer) ?? 'black',
    tournament: bool(options.tournament),
    pieces,
    moves,
    status: readStatus(s.status),
    board: {
      counts: readCounts(board.counts),
      differences: squares(board.differences),
      connected: bool(board.connected),
      calibrated: bool(board.calibrated, true),
      source: str(board.source),
      detail: str(board.detail),
    },
    result: str(s.result, '*'),
    outcome,
    drawOffer: side(s.drawOffer),
    drawClaim: s.drawClaim === 'repetition' || s.drawClaim === 'forty-move' ? s.drawClaim : null,
    clock: readClock(s.clock),
    calibration: cal ? { step: str(cal.step), square: isSquare(cal.square) ? cal.square : null, done: num(cal.done), total: num(cal.total), message: str(cal.message, 'Calibrating the board.') } : null,
  };
}

export function readServerInfo(x: unknown): ServerInfo {
  const s = isObj(x) ? x : {};
  return { name: str(s.name, 'crownhead'), version: str(s.version), readOnly: bool(s.readOnly), sim: bool(s.sim), source: str(s.source), tokenRequired: bool(s.tokenRequired) };
}

// ------------------------------------------------------------------ geometry

/** Row (0–7, 0 = squares 1–4 at Black's side) and column (0–7) of square 1–32. */
export function squareRowCol(square: number): { row: number; col: number } {
  const i = square - 1;
  const row = i >> 2;
  return { row, col: 2 * (i & 3) + ((row & 1) === 0 ? 1 : 0) };
}

/** Where square 1–32 is drawn (x = column, y = row from the top), flipped or not. */
export function squareXY(square: number, flipped: boolean): { x: number; y: number } {
  const { row, col } = squareRowCol(square);
  return flipped ? { x: 7 - col, y: 7 - row } : { x: col, y: row };
}

/** The number of coins the game position puts on each square (a king is two). */
export function expectedCounts(pieces: readonly Piece[]): number[] {
  const out = new Array<number>(32).fill(0);
  for (const p of pieces) out[p.square - 1] = p.king ? 2 : 1;
  return out;
}

export const sideName = (s: Side): string => (s === 'black' ? 'Black' : 'White');
export const other = (s: Side): Side => (s === 'black' ? 'white' : 'black');
