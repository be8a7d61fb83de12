// The club pages' headless state (/watch for spectators, /arbiter for the
// arbiter): the spectators' socket messages (src/protocol/v1.ts WatchMessage)
// folded into a map of boards by id, each with the time it was heard (its
// clock ticks locally from then), the socket's state, and the one polite
// announcement of a board turning illegal or disconnected. Also the pure
// questions the renderer asks: boards in order under their Event/Round
// headings, a clock now, a time call, the moves played, the state in words
// and tone, and the arbiter's list of boards needing attention. No DOM.

import { clockAfter, RESULT_WORDS } from './model.ts';
import { type ClockState, type Side } from '../protocol/v1.ts';
import { WatchMessage, type BoardState, type BoardSummary } from '../protocol/club-v1.ts';

export type ClubMode = 'watch' | 'arbiter';

/** connecting (first time), open, reconnecting (dropped: a retry is scheduled), forbidden (the server said no: no retry). */
export type ClubConnection = 'connecting' | 'open' | 'reconnecting' | 'forbidden';

/** A board as last heard, and when (the page's clock, ms): its clock ticks from then. */
export interface BoardEntry {
  board: BoardSummary;
  at: number;
}

/** A sentence for the polite live region; `n` changes with every new one, so the same words twice are said twice. */
export interface ClubAnnouncement {
  n: number;
  text: string;
}

export interface ClubState {
  mode: ClubMode;
  /** every board by id (an empty map until the first `boards` message) */
  boards: Record<string, BoardEntry>;
  /** the first `boards` message has come */
  loaded: boolean;
  connection: ClubConnection;
  /** when the next attempt is due (page clock, ms), while reconnecting */
  retryAt: number | null;
  /** what the server refused or what went wrong, in its words */
  problem: string | null;
  announcement: ClubAnnouncement | null;
}

export type ClubAction =
  { type: 'message'; raw: string; now: number } | { type: 'socket'; state: 'open' | 'closed'; now: number; retryInMs?: number };

export function initialClubState(mode: ClubMode): ClubState {
  return { mode, boards: {}, loaded: false, connection: 'connecting', retryAt: null, problem: null, announcement: null };
}

/** The states a spectator or the arbiter is told about out loud (politely): not every move. */
const ANNOUNCED: ReadonlySet<BoardState> = new Set(['illegal', 'disconnected']);

function announceChanges(s: ClubState, before: Record<string, BoardEntry>, after: BoardSummary[]): ClubAnnouncement | null {
  // The first list is not a change: nothing is announced until the page has known the boards.
  if (!s.loaded) return s.announcement;
  const said: string[] = [];
  for (const b of after) {
    const old = before[b.id]?.board;
    if (ANNOUNCED.has(b.state) && (!old || old.state !== b.state)) said.push(`Board ${b.number}: ${b.say}`);
  }
  if (!said.length) return s.announcement;
  return { n: (s.announcement?.n ?? 0) + 1, text: said.join('. ') };
}

function foldMessage(s: ClubState, raw: string, now: number): ClubState {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ...s, problem: 'the server sent something that is not JSON' };
  }
  const parsed = WatchMessage.safeParse(json);
  if (!parsed.success) {
    const type = typeof json === 'object' && json && 'type' in json ? String((json as { type: unknown }).type) : '?';
    return { ...s, problem: `the server sent a message this page does not understand (type "${type.slice(0, 40)}")` };
  }
  const m = parsed.data;
  switch (m.type) {
    case 'boards': {
      const boards: Record<string, BoardEntry> = {};
      for (const b of m.boards) boards[b.id] = { board: b, at: now };
      return { ...s, boards, loaded: true, problem: null, announcement: announceChanges(s, s.boards, m.boards) };
    }
    case 'board':
      return {
        ...s,
        boards: { ...s.boards, [m.board.id]: { board: m.board, at: now } },
        announcement: announceChanges(s, s.boards, [m.board]),
      };
    case 'error':
      return m.code === 'forbidden'
        ? { ...s, connection: 'forbidden', retryAt: null, problem: m.message }
        : { ...s, problem: `${m.message} (${m.code})` };
    case 'pong':
      return s;
  }
}

/** The state after an action: pure, the same action on the same state gives the same state. */
export function reduceClub(s: ClubState, a: ClubAction): ClubState {
  switch (a.type) {
    case 'message':
      return foldMessage(s, a.raw, a.now);
    case 'socket':
      if (a.state === 'open') return { ...s, connection: 'open', retryAt: null };
      // Refused: the page stays refused (reconnecting would only be refused again).
      if (s.connection === 'forbidden') return s;
      return { ...s, connection: 'reconnecting', retryAt: a.now + (a.retryInMs ?? 0) };
  }
}

// ------------------------------------------------------------------ questions the renderer asks

/** Every board by number (then id). */
export function orderedBoards(s: ClubState): BoardEntry[] {
  return Object.values(s.boards).sort((a, b) => a.board.number - b.board.number || a.board.id.localeCompare(b.board.id));
}

/** "Club night, round 2"; "Round 2"; the event alone; '' without either. */
export function groupTitle(b: BoardSummary): string {
  const event = (b.tags.Event ?? '').trim();
  const round = (b.tags.Round ?? '').trim();
  const r = round && round !== '-' && round !== '?' ? `Round ${round}` : '';
  const e = event && event !== '?' ? event : '';
  return e && r ? `${e}, ${r.toLowerCase()}` : e || r;
}

/** Boards in number order under their Event/Round heading; a heading again only where it changes. */
export function boardGroups(s: ClubState): { title: string; boards: BoardEntry[] }[] {
  const out: { title: string; boards: BoardEntry[] }[] = [];
  for (const e of orderedBoards(s)) {
    const title = groupTitle(e.board);
    const last = out[out.length - 1];
    if (last && last.title === title) last.boards.push(e);
    else out.push({ title, boards: [e] });
  }
  return out;
}

/** Moves, not plies: 11-15 alone is move 1, 11-15 23-19 still move 1. */
export const movesPlayed = (plies: number): number => Math.ceil(plies / 2);

/**
 * The board's clock now: the running side counted down since the board was
 * heard (and, with time per move, the grace period once the limit is out).
 * Not live (the socket is down) or a finished game: as last heard.
 */
export function clockNow(e: BoardEntry, now: number, live: boolean): ClockState | null {
  const c = e.board.clock;
  if (!c) return null;
  return !live || e.board.result !== '*' ? c : clockAfter(c, now - e.at);
}

/** "Time" called on a side (ACF time per move: the limit is out, the grace period runs), or a flag fallen in a game not yet over. */
export function timeCalled(e: BoardEntry, now: number, live: boolean): { side: Side; graceLeft: number | null } | null {
  if (e.board.result !== '*') return null;
  const c = clockNow(e, now, live);
  if (!c) return null;
  if (c.flagged) return { side: c.flagged, graceLeft: null };
  if (c.perMove?.timeCalled) return { side: c.perMove.timeCalled, graceLeft: c.perMove.graceLeft };
  return null;
}

export type Tone = 'ok' | 'busy' | 'warn' | 'bad' | 'off' | 'done' | 'idle';

const sideWord = (s: Side): string => (s === 'black' ? 'Black' : 'White');

/** "1-0 (Black wins)"; '' while the game goes on. */
export function resultWords(result: string): string {
  if (result === '*') return '';
  return RESULT_WORDS[result] ? `${result} (${RESULT_WORDS[result]})` : result;
}

/** The state at a glance: a word or two, and the tone its colour comes from (never the colour alone). */
export function stateLabel(b: BoardSummary): { label: string; tone: Tone } {
  switch (b.state) {
    case 'setup':
      return { label: 'Setting up', tone: 'idle' };
    case 'in-sync':
      return { label: 'In sync', tone: 'ok' };
    case 'moving':
      return { label: 'Moving', tone: 'busy' };
    case 'awaiting-crown':
      return { label: 'Awaiting a crown', tone: 'warn' };
    case 'illegal':
      return { label: 'ILLEGAL', tone: 'bad' };
    case 'reminder':
      return { label: 'Reminder', tone: 'warn' };
    case 'disconnected':
      return { label: 'Board disconnected', tone: 'off' };
    case 'game-over':
      return { label: b.result === '*' ? 'Game over' : `Game over: ${b.result}`, tone: 'done' };
  }
}

/**
 * The card's word or two: the board's state, except that "time" called on a
 * board in order (in sync or a move in progress) is what the arbiter must see.
 */
export function glance(e: BoardEntry, now: number, live: boolean): { label: string; tone: Tone } {
  const base = stateLabel(e.board);
  if (e.board.state !== 'in-sync' && e.board.state !== 'moving') return base;
  const t = timeCalled(e, now, live);
  if (!t) return base;
  return { label: t.graceLeft === null ? `${sideWord(t.side)} out of time` : `Time, ${sideWord(t.side)}!`, tone: 'warn' };
}

/** The state's sentence less what the label already says ("Board disconnected: the cable" → "the cable"); '' when nothing is left. */
export function stateDetail(b: BoardSummary): string {
  const label = stateLabel(b).label;
  const say = b.state === 'disconnected' ? b.say.trim().replace(/^Board disconnected:?\s*/i, '') : b.say.trim();
  return say === label ? '' : say.charAt(0).toUpperCase() + say.slice(1);
}

/** Why the arbiter should look at a board now. */
export interface Attention {
  entry: BoardEntry;
  kind: 'illegal' | 'disconnected' | 'time';
  text: string;
}

/** The boards needing the arbiter, by number: an illegal board, a board disconnected, time called or a flag fallen. */
export function needsAttention(s: ClubState, now: number): Attention[] {
  const live = s.connection === 'open';
  const out: Attention[] = [];
  for (const e of orderedBoards(s)) {
    const b = e.board;
    if (b.state === 'illegal' || b.state === 'disconnected') out.push({ entry: e, kind: b.state, text: stateDetail(b) || b.say });
    const t = timeCalled(e, now, live);
    if (t)
      out.push({
        entry: e,
        kind: 'time',
        text: t.graceLeft === null ? `${sideWord(t.side)} ran out of time` : `Time called on ${sideWord(t.side)}`,
      });
  }
  return out;
}
