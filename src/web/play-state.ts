// The friend's seat page (/play/<token>) as state: what the server last said
// (the seat, the game's snapshot, the clocks), the move being picked (a
// piece, then each landing: click-click or drag, multi-jumps one landing at
// a time, from the legal moves of the position), and the words the page
// shows — whose move it is, what the board's player is doing, how the game
// ended. Pure (no DOM): play-main.ts feeds it messages and taps, and renders
// it with play-render.ts.

import { legalMoves, parseFen, type Move } from '../rules/index.ts';
import type { ClockState, Side, Snapshot } from '../protocol/v1.ts';
import { SeatServerMessage, type SeatInfo } from '../protocol/play-v1.ts';
import { clockAfter } from './model.ts';
import { unwrap } from '../common/result.ts';

export interface PlayState {
  seat: SeatInfo | null;
  snap: Snapshot | null;
  /** the clocks as last heard, and when (ms, the page's clock) */
  clock: ClockState | null;
  clockAt: number;
  connected: boolean;
  /** the squares picked so far: the piece, then each landing chosen */
  picked: number[];
  /** the last thing said (an event's sentence) */
  said: string;
  /** the last refusal, in words */
  error: string | null;
  /** resign asked once: the button asks to be pressed again */
  armed: boolean;
  /** the server let this seat go (closed, or given to a new pairing): the page stops trying */
  ended: boolean;
}

export const initialPlay = (): PlayState => ({
  seat: null,
  snap: null,
  clock: null,
  clockAt: 0,
  connected: false,
  picked: [],
  said: '',
  error: null,
  armed: false,
  ended: false,
});

/** The events whose sentence is for the friend too (the rest tell the board's player what to do with the pieces). */
const FOR_THE_FRIEND: ReadonlySet<string> = new Set(['move', 'takeback', 'takeback-offer', 'draw-offer', 'game-over', 'corrected', 'time']);

/** A message from the server folded in (anything not of the seat protocol is a named error, the state kept). */
export function onMessage(s: PlayState, raw: string, now: number): PlayState {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ...s, error: 'the server sent something that is not JSON' };
  }
  const p = SeatServerMessage.safeParse(json);
  if (!p.success) return { ...s, error: 'the server sent a message this page does not know' };
  const m = p.data;
  switch (m.type) {
    case 'seat':
      return { ...s, seat: m.seat, snap: m.state, clock: m.state.clock, clockAt: now, picked: [], error: null };
    case 'event': {
      // A move, a takeback or a new game: what was picked no longer applies.
      const keep = m.state.fen === s.snap?.fen && m.state.moves.length === s.snap?.moves.length;
      const said = m.event.type === 'new-game' ? 'New game.' : FOR_THE_FRIEND.has(m.event.type) ? m.event.say : s.said;
      return { ...s, seat: m.seat, snap: m.state, clock: m.state.clock, clockAt: now, picked: keep ? s.picked : [], said };
    }
    case 'clock':
      return { ...s, clock: m.clock, clockAt: now };
    case 'error':
      return { ...s, error: m.message, picked: [], ended: s.ended || m.code === 'seat-closed' };
    default:
      return s;
  }
}

/** The friend's side, when the game now is theirs. */
export const mySide = (s: PlayState): Side | null => s.seat?.side ?? null;

export function isOver(s: PlayState): boolean {
  return s.snap !== null && (s.snap.outcome !== null || s.snap.result !== '*');
}

/** The friend may move: their turn, the game on, their last move not still waiting to be carried out. */
export function myTurn(s: PlayState): boolean {
  const side = mySide(s);
  return side !== null && s.snap !== null && !s.ended && !isOver(s) && s.snap.turn === side && !s.snap.remote?.move;
}

/** The legal moves the friend has now (none when it is not their move). */
export function myMoves(s: PlayState): Move[] {
  if (!myTurn(s) || !s.snap) return [];
  const o = s.snap.options;
  return legalMoves(unwrap(parseFen(s.snap.fen)), { huffing: o.huffing, crownContinue: o.crownContinue });
}

const squaresOf = (m: Move): number[] => [m.from, ...m.path];
const startsWith = (a: readonly number[], prefix: readonly number[]) => prefix.every((x, i) => a[i] === x);

/** Where the picked piece may go next (its next landings), or the pieces that can move when none is picked. */
export function targets(s: PlayState): { from: number[]; to: number[] } {
  const moves = myMoves(s);
  if (!s.picked.length) return { from: [...new Set(moves.map((m) => m.from))], to: [] };
  const next = moves.filter((m) => startsWith(squaresOf(m), s.picked)).map((m) => squaresOf(m)[s.picked.length]);
  return { from: [s.picked[0]!], to: [...new Set(next.filter((x): x is number => x !== undefined))] };
}

/**
 * A square tapped (or a piece dropped on it): a piece that can move is
 * picked; a landing of the picked piece is added — and when it ends exactly
 * one legal move, that move is what to send. Anything else lets go.
 */
export function tap(s: PlayState, square: number): { state: PlayState; send: number[] | null } {
  const moves = myMoves(s);
  const cleared = { ...s, picked: [], error: null, armed: false };
  if (!moves.length) return { state: cleared, send: null };
  const path = [...s.picked, square];
  if (s.picked.length) {
    const fits = moves.filter((m) => startsWith(squaresOf(m), path));
    const done = fits.find((m) => squaresOf(m).length === path.length);
    if (done && fits.length === 1) return { state: cleared, send: path };
    if (fits.length) return { state: { ...cleared, picked: path }, send: null };
  }
  if (moves.some((m) => m.from === square)) return { state: { ...cleared, picked: [square] }, send: null };
  return { state: cleared, send: null };
}

const sideWord = (x: Side) => (x === 'black' ? 'Black' : 'White');

/** The game's state in words, from the friend's side: "Your move", "Ann's move", "Ann is carrying out your move 11-15 on the board"… */
export function statusWords(s: PlayState): string {
  const seat = s.seat;
  const snap = s.snap;
  if (s.ended) return 'This link is no longer a seat: ask the player at the board for a new one.';
  if (!seat || !snap) return s.connected ? 'Waiting for the game…' : 'Connecting to the board…';
  const opp = seat.opponent;
  const side = seat.side;
  if (!side) return `${opp}'s board is not playing you now: ask them to start a game with you.`;
  if (isOver(s)) {
    const o = snap.outcome;
    const why = o ? REASONS[o.reason] : '';
    if (!o || o.winner === null) return `The game is drawn${why ? ` (${why})` : ''}.`;
    return `${o.winner === side ? 'You won' : `${opp} won`}${why ? ` (${why})` : ''}.`;
  }
  const waiting = snap.remote?.move;
  if (waiting) return `${opp} is carrying out your move ${waiting.text} on the board.`;
  if (snap.status.kind === 'setup') return `${opp} is setting up the board.`;
  return snap.turn === side ? 'Your move.' : `${opp}'s move.`;
}

const REASONS: Record<string, string> = {
  'no-moves': 'no moves left',
  resignation: 'by resignation',
  agreement: 'by agreement',
  time: 'on time',
  repetition: 'by repetition',
  'forty-move': 'forty-move rule',
  arbiter: "the arbiter's decision",
};

/** Who plays which side, in words: "You play White against Ann (Black)." */
export function sidesWords(seat: SeatInfo | null): string {
  if (!seat?.side) return '';
  return `You play ${sideWord(seat.side)} against ${seat.opponent} (${sideWord(seat.side === 'black' ? 'white' : 'black')}).`;
}

/** A clock face: "4:59", or "0:09.3" under ten seconds. */
export function clockFace(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const sec = Math.ceil(t / 1000);
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const ss = String(sec % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The clocks now (a running one counted down since it was heard). */
export function clockNow(s: PlayState, now: number): ClockState | null {
  return s.clock ? clockAfter(s.clock, now - s.clockAt) : null;
}
