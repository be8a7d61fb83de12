// The page's headless view state: a pure reducer from server messages
// (validated with the v1 schema), socket changes and local UI actions to the
// view model the renderer draws. No DOM, no timers, no I/O: every action
// carries the time it happened, so the whole page logic is testable in Node.
// Side effects (sounds, speech, the live region) are described here as
// numbered announcements and performed by main.ts.

import { ServerMessage, type Command } from '../server/messages.ts';
import {
  expectedCounts, readClock, readCounts, readServerInfo, readSnapshot, readStatus, sideName,
  type Clock, type ServerInfo, type Side, type Snapshot, type Status,
} from './model.ts';

export type Tone = 'alert' | 'click' | 'crown' | 'ready' | 'end';

export interface Announcement {
  /** Increases with every announcement (main.ts acts on new ones only). */
  seq: number;
  text: string;
  /** Alerts go to the assertive live region and interrupt speech. */
  urgent: boolean;
  tone: Tone | null;
}

/** A hand action sent to the simulated board, shown at once until the board reports it. */
export interface PendingCoins {
  square: number;
  coins: number;
  at: number;
}

export interface ViewState {
  connection: 'connecting' | 'open' | 'reconnecting';
  /** Failed connection attempts since the last successful one. */
  attempts: number;
  /** When the next reconnection attempt is due (ms), while reconnecting. */
  retryAt: number;
  server: ServerInfo | null;
  snap: Snapshot | null;
  /** Live board: coins per square (index 0 = square 1), differences from the game, tracker status. */
  counts: number[];
  differences: number[];
  status: Status;
  clock: Clock | null;
  /** Local time the clock values were received (for interpolation). */
  clockAt: number;
  pending: PendingCoins[];
  /** Coins in the simulated hand (lifted and not yet put down). */
  held: number;
  handMode: 'move' | 'crown';
  flipped: boolean;
  sound: boolean;
  speech: boolean;
  announcement: Announcement | null;
  /** The last few announcements, newest last (shown as a small log). */
  log: Announcement[];
  error: { message: string; at: number } | null;
  /** Messages that failed validation (ignored). */
  invalid: number;
  lastInvalid: string;
  /** Ids of commands sent and not yet answered. */
  inFlight: string[];
  /** A dangerous button clicked once and waiting for the confirming second click. */
  armed: { key: string; until: number } | null;
}

export type Action =
  | { type: 'message'; raw: string; now: number }
  | { type: 'socket'; state: 'open' | 'closed'; now: number; retryInMs?: number }
  | { type: 'command-sent'; id: string; command: Command; now: number }
  | { type: 'flip' }
  | { type: 'toggle-sound' }
  | { type: 'toggle-speech' }
  | { type: 'hand-mode'; mode: 'move' | 'crown' }
  | { type: 'prefs'; flipped?: boolean; sound?: boolean; speech?: boolean }
  | { type: 'dismiss-error' }
  | { type: 'arm'; key: string; now: number }
  | { type: 'disarm' }
  | { type: 'tick'; now: number };

/** How long a hand action is shown before the board's own report must confirm it. */
export const PENDING_MS = 2500;
const LOG_SIZE = 6;
/** How long a dangerous button waits for its confirming click. */
export const ARM_MS = 4000;

export function initialState(): ViewState {
  return {
    connection: 'connecting',
    attempts: 0,
    retryAt: 0,
    server: null,
    snap: null,
    counts: new Array<number>(32).fill(0),
    differences: [],
    status: { kind: 'setup', fixes: [], message: '' },
    clock: null,
    clockAt: 0,
    pending: [],
    held: 0,
    handMode: 'move',
    flipped: false,
    sound: true,
    speech: false,
    announcement: null,
    log: [],
    error: null,
    invalid: 0,
    lastInvalid: '',
    inFlight: [],
    armed: null,
  };
}

function announce(s: ViewState, text: string, urgent: boolean, tone: Tone | null): ViewState {
  if (!text && !tone) return s;
  const a: Announcement = { seq: (s.announcement?.seq ?? 0) + 1, text, urgent, tone };
  return { ...s, announcement: a, log: text ? [...s.log, a].slice(-LOG_SIZE) : s.log };
}

/** Drops optimistic hand actions the board has confirmed or that are too old. */
function settlePending(pending: PendingCoins[], counts: number[], now: number): PendingCoins[] {
  if (pending.length === 0) return pending;
  const left = pending.filter((p) => counts[p.square - 1] !== p.coins && now - p.at < PENDING_MS);
  return left.length === pending.length ? pending : left;
}

function withSnapshot(s: ViewState, snap: Snapshot, now: number): ViewState {
  return {
    ...s,
    snap,
    counts: snap.board.counts,
    differences: snap.board.differences,
    status: snap.status,
    clock: snap.clock,
    clockAt: now,
    pending: settlePending(s.pending, snap.board.counts, now),
  };
}

/** Which sound goes with a session event. */
function toneOf(type: string, event: Record<string, unknown>): { tone: Tone | null; urgent: boolean } {
  switch (type) {
    case 'alert':
      return { tone: 'alert', urgent: true };
    case 'move':
    case 'move-replaced':
    case 'takeback':
      return { tone: 'click', urgent: false };
    case 'crown-awaited':
    case 'crowned':
      return { tone: 'crown', urgent: false };
    case 'ready':
    case 'alert-cleared':
    case 'calibrated':
      return { tone: 'ready', urgent: false };
    case 'game-over':
      return { tone: 'end', urgent: true };
    case 'board':
      return event.connected === false ? { tone: 'alert', urgent: true } : { tone: 'ready', urgent: false };
    default:
      return { tone: null, urgent: false };
  }
}

function onMessage(s: ViewState, raw: string, now: number): ViewState {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ...s, invalid: s.invalid + 1, lastInvalid: 'not JSON' };
  }
  const r = ServerMessage.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path?.length ? ` at ${issue.path.join('.')}` : '';
    return { ...s, invalid: s.invalid + 1, lastInvalid: `${issue?.message ?? 'invalid message'}${where}` };
  }
  const msg = r.data;
  switch (msg.type) {
    case 'hello': {
      const wasLost = s.snap !== null;
      let next = withSnapshot({ ...s, server: readServerInfo(msg.server), connection: 'open', attempts: 0 }, readSnapshot(msg.state), now);
      if (wasLost) next = announce(next, `Reconnected. ${statusSentence(next)}`, false, null);
      return next;
    }
    case 'state':
      return withSnapshot(s, readSnapshot(msg.state), now);
    case 'event': {
      const next = withSnapshot(s, readSnapshot(msg.state), now);
      const ev = msg.event as Record<string, unknown>;
      const say = typeof ev.say === 'string' ? ev.say : '';
      const { tone, urgent } = toneOf(msg.event.type, ev);
      return announce(next, say, urgent, tone);
    }
    case 'counts': {
      const counts = readCounts(msg.counts);
      return {
        ...s,
        counts,
        differences: msg.differences.filter((x) => Number.isInteger(x) && x >= 1 && x <= 32),
        status: readStatus(msg.status),
        pending: settlePending(s.pending, counts, now),
      };
    }
    case 'clock': {
      const clock = readClock({ ...s.clock, ...msg.clock });
      return { ...s, clock, clockAt: now };
    }
    case 'ok':
      return { ...s, inFlight: s.inFlight.filter((id) => id !== msg.id) };
    case 'error': {
      const next = { ...s, inFlight: s.inFlight.filter((id) => id !== msg.id), error: { message: msg.message, at: now } };
      return announce(next, msg.message, true, 'alert');
    }
    case 'pong':
      return s;
  }
}

export function reduce(s: ViewState, a: Action): ViewState {
  switch (a.type) {
    case 'message':
      return onMessage(s, a.raw, a.now);
    case 'socket':
      if (a.state === 'open') return { ...s, connection: 'open' };
      {
        const first = s.connection === 'open';
        const next: ViewState = { ...s, connection: 'reconnecting', attempts: s.attempts + 1, retryAt: a.now + (a.retryInMs ?? 0), inFlight: [], pending: [], held: 0 };
        return first && s.snap ? announce(next, 'Connection to the board service lost. Reconnecting.', true, 'alert') : next;
      }
    case 'command-sent': {
      let next: ViewState = { ...s, inFlight: [...s.inFlight, a.id], error: null };
      const c = a.command;
      if (c.name === 'hand') {
        const have = effectiveCounts(s, a.now)[c.square - 1];
        const coins = c.action === 'set' ? (c.coins ?? 0) : c.action === 'place' ? Math.min(2, have + 1) : Math.max(0, have - (c.coins ?? have));
        const held = c.action === 'lift' ? have - coins : 0;
        next = { ...next, held, pending: [...s.pending.filter((p) => p.square !== c.square), { square: c.square, coins, at: a.now }] };
      } else if (c.name === 'hand-setup' || c.name === 'new-game') {
        next = { ...next, held: 0, pending: [] };
      }
      return next;
    }
    case 'flip':
      return { ...s, flipped: !s.flipped };
    case 'toggle-sound':
      return { ...s, sound: !s.sound };
    case 'toggle-speech':
      return { ...s, speech: !s.speech };
    case 'hand-mode':
      return { ...s, handMode: a.mode };
    case 'prefs':
      return { ...s, flipped: a.flipped ?? s.flipped, sound: a.sound ?? s.sound, speech: a.speech ?? s.speech };
    case 'dismiss-error':
      return s.error ? { ...s, error: null } : s;
    case 'arm':
      return { ...s, armed: { key: a.key, until: a.now + ARM_MS } };
    case 'disarm':
      return s.armed ? { ...s, armed: null } : s;
    case 'tick': {
      const pending = settlePending(s.pending, s.counts, a.now);
      const armed = s.armed && a.now >= s.armed.until ? null : s.armed;
      return pending === s.pending && armed === s.armed ? s : { ...s, pending, armed };
    }
  }
}

// ------------------------------------------------------------------ derived views

/** Coins per square as the page shows them: the board's report with the hand's actions not yet reported. */
export function effectiveCounts(s: ViewState, now: number): number[] {
  const live = s.pending.filter((p) => now - p.at < PENDING_MS);
  if (live.length === 0) return s.counts;
  const out = s.counts.slice();
  for (const p of live) out[p.square - 1] = p.coins;
  return out;
}

/** The clock's remaining times now, counting down the running side since the last tick. */
export function clockNow(s: ViewState, now: number): Clock | null {
  const c = s.clock;
  if (!c) return null;
  if (!c.running || c.flagged) return c;
  const elapsed = Math.max(0, now - s.clockAt);
  return { ...c, [c.running]: Math.max(0, c[c.running] - elapsed) };
}

/** Is the button `key` waiting for its confirming click? */
export function isArmed(s: ViewState, key: string, now: number): boolean {
  return s.armed !== null && s.armed.key === key && now < s.armed.until;
}

export function canControl(s: ViewState): boolean {
  return s.server !== null && !s.server.readOnly && s.connection === 'open';
}

export function canUseHand(s: ViewState): boolean {
  return canControl(s) && s.server!.sim;
}

/**
 * What the simulated hand does when a square is clicked: lift the coins off an
 * occupied square, or put the held piece (or one coin) on an empty one. In
 * crown mode (or with a modifier key) a second coin is stacked on a man, and
 * the top coin taken off a king.
 */
export function handCommand(s: ViewState, square: number, opts: { crown?: boolean; now: number }): Command | null {
  if (!canUseHand(s) || !(square >= 1 && square <= 32)) return null;
  const have = effectiveCounts(s, opts.now)[square - 1];
  if (s.handMode === 'crown' || opts.crown) {
    if (have === 1) return { name: 'hand', action: 'place', square };
    if (have === 2) return { name: 'hand', action: 'lift', square, coins: 1 };
    return { name: 'hand', action: 'place', square };
  }
  if (have > 0) return { name: 'hand', action: 'lift', square };
  if (s.held === 2) return { name: 'hand', action: 'set', square, coins: 2 };
  return { name: 'hand', action: 'place', square };
}

/** The board's state in one short phrase (the big status line). */
export function statusHeadline(s: ViewState): { tone: 'ok' | 'busy' | 'warn' | 'bad' | 'idle'; title: string } {
  if (!s.snap) return { tone: 'idle', title: 'Connecting…' };
  if (!s.snap.board.connected) return { tone: 'bad', title: 'Board not connected' };
  if (s.snap.calibration) return { tone: 'busy', title: 'Calibrating the board' };
  const st = s.status;
  switch (st.kind) {
    case 'setup':
      return { tone: 'idle', title: 'Set up the board' };
    case 'in-sync':
      return s.snap.outcome ? { tone: 'ok', title: 'Game over' } : { tone: 'ok', title: 'In sync' };
    case 'moving':
      return { tone: 'busy', title: 'Move in progress' };
    case 'awaiting-crown':
      return { tone: 'warn', title: `Crown the king on ${st.square}` };
    case 'illegal':
      return { tone: 'bad', title: 'Illegal move' };
  }
}

/** A sentence describing where things stand (spoken after reconnecting). */
export function statusSentence(s: ViewState): string {
  const snap = s.snap;
  if (!snap) return '';
  if (snap.outcome || snap.result !== '*') return `Game over, ${snap.result}.`;
  const h = statusHeadline(s);
  if (s.status.kind === 'illegal') return s.status.alert.message;
  if (s.status.kind === 'setup') return s.status.message || h.title + '.';
  return `${h.title}. ${sideName(snap.turn)} to move.`;
}

/** Squares where the game position and the board differ in the number of coins. */
export function boardDiff(s: ViewState, now: number): { want: number[]; have: number[] } {
  return { want: s.snap ? expectedCounts(s.snap.pieces) : new Array<number>(32).fill(0), have: effectiveCounts(s, now) };
}

export type { Side };
