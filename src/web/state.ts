// The page's headless view state: a pure reducer from server messages
// (parsed once with the protocol's schema, src/protocol/v1.ts, and used as
// they are), socket changes and local UI actions (review mode, the archive)
// to the view model the renderer draws. No DOM, no timers, no I/O: every action
// carries the time it happened, so the whole page logic is testable in Node.
// Side effects (sounds, speech, the live region) are described here as
// numbered announcements and performed by main.ts.

import { ServerMessage, type Command, type GameEvent, type StorageHealth, type TrashList } from '../protocol/v1.ts';
import { foldState } from '../protocol/state-patch.ts';
import {
  clockAfter,
  piecesAfter,
  sideName,
  type ArchiveEntry,
  type Clock,
  type GameRecord,
  type Move,
  type Piece,
  type ServerInfo,
  type Side,
  type Snapshot,
  type Status,
} from './model.ts';

import { toneOf, type Tone } from './tones.ts';
import { asked, answered, type Asked } from './engine-work.ts';
import { handAfter } from './hand.ts';
export type { Tone } from './tones.ts';
export { handAfter };

export interface Announcement {
  /** Increases with every announcement (main.ts acts on new ones only). */
  seq: number;
  text: string;
  /** Alerts go to the assertive live region and interrupt speech. */
  urgent: boolean;
  tone: Tone | null;
  /** a quiet reminder (no tone, shown softly) */
  quiet?: boolean;
}

/** What the board shows instead of the live game: an earlier position of it, or of an archived game. */
export interface Review {
  /** plies played in the position shown (0 = the start) */
  ply: number;
  /** an archived game being replayed (null: the current game) */
  record: GameRecord | null;
}

export interface ArchiveView {
  open: boolean;
  entries: ArchiveEntry[] | null;
  loading: boolean;
  error: string | null;
  sort: 'date' | 'players' | 'event' | 'result' | 'length';
  /** newest (or largest) first */
  descending: boolean;
  /** deleted games waiting in the trash (absent: not read) */
  trash?: TrashList | null;
}

/** A hand action sent to the simulated board, shown at once until the board reports it. */
export interface PendingCoins {
  square: number;
  coins: number;
  at: number;
}

export interface ViewState {
  /** refused: the server said this page may not watch (no token from another device): no retry, said once */
  connection: 'connecting' | 'open' | 'reconnecting' | 'refused';
  /** why the server refused the page (its words), while refused */
  refusal: string | null;
  /** Failed connection attempts since the last successful one. */
  attempts: number;
  /** When the next reconnection attempt is due (ms), while reconnecting. */
  retryAt: number;
  server: ServerInfo | null;
  snap: Snapshot | null;
  /** the revision of `snap` an event's patch applies to; stale: a patch did not fit, the whole state is asked for again */
  rev: number | null;
  stale: boolean;
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
  /** What the hand picked up, lift by lift (coins each, the last on top): a second lift adds to the hand, nothing is dropped. */
  heldStack: number[];
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
  /** the games directory's health (from hello, then storage events) */
  storage: StorageHealth | null;
  /** a quiet reminder being shown (no buzzer, no alert tone) */
  notice: { text: string; squares: number[]; at: number } | null;
  /** review mode (null: live) */
  review: Review | null;
  archive: ArchiveView;
  /** the new-game form: the command in flight, the server's refusal shown beside the fields, and a count of games started from it */
  newGame: { pending: string | null; error: string | null; started: number };
  /** the board's one tab stop (a roving tabindex: arrow keys move it between the squares) */
  boardFocus: number;
  /** engine work asked for and not yet answered (engine-work.ts): its button stays disabled meanwhile */
  asked: Asked;
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
  | { type: 'tick'; now: number }
  /** review: a ply count, a step, or back to live */
  | { type: 'review'; to: number | 'prev' | 'next' | 'first' | 'last' | 'live' }
  | { type: 'archive'; open: boolean }
  | { type: 'archive-loading' }
  | { type: 'archive-list'; entries: ArchiveEntry[]; trash?: TrashList | null }
  | { type: 'archive-error'; message: string; now: number }
  | { type: 'archive-sort'; by: ArchiveView['sort'] }
  | { type: 'open-record'; record: GameRecord }
  /** the arrow keys moved the board's tab stop */
  | { type: 'board-focus'; square: number };

/** How long a hand action is shown before the board's own report must confirm it. */
export const PENDING_MS = 2500;
const LOG_SIZE = 6;
/** How long a dangerous button waits for its confirming click. */
export const ARM_MS = 4000;

export function initialState(): ViewState {
  return {
    connection: 'connecting',
    refusal: null,
    attempts: 0,
    retryAt: 0,
    server: null,
    snap: null,
    rev: null,
    stale: false,
    counts: new Array<number>(32).fill(0),
    differences: [],
    status: { kind: 'setup', fixes: [], message: '' },
    clock: null,
    clockAt: 0,
    pending: [],
    held: 0,
    heldStack: [],
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
    storage: null,
    notice: null,
    review: null,
    archive: { open: false, entries: null, loading: false, error: null, sort: 'date', descending: true },
    newGame: { pending: null, error: null, started: 0 },
    asked: {},
    boardFocus: 1,
  };
}

/** How long a quiet reminder stays shown. */
export const NOTICE_MS = 12_000;

function announce(s: ViewState, text: string, urgent: boolean, tone: Tone | null, quiet = false): ViewState {
  if (!text && !tone) return s;
  // The same quiet sentence again (a set-up list re-sent while the board settles): said and logged once.
  if (text && !urgent && s.log.at(-1)?.text === text) return s;
  const a: Announcement = { seq: (s.announcement?.seq ?? 0) + 1, text, urgent, tone, ...(quiet ? { quiet } : {}) };
  return { ...s, announcement: a, log: text ? [...s.log, a].slice(-LOG_SIZE) : s.log };
}

/** Drops optimistic hand actions the board has confirmed or that are too old. */
function settlePending(pending: PendingCoins[], counts: number[], now: number): PendingCoins[] {
  if (pending.length === 0) return pending;
  const left = pending.filter((p) => counts[p.square - 1] !== p.coins && now - p.at < PENDING_MS);
  return left.length === pending.length ? pending : left;
}

function withSnapshot(s: ViewState, snap: Snapshot, now: number): ViewState {
  // Reviewing the current game: a new game ends the review; a takeback keeps it within the moves left.
  let review = s.review;
  if (review && !review.record) {
    if (s.snap && s.snap.gameId !== snap.gameId) review = null;
    else if (review.ply > snap.moves.length) review = { ...review, ply: snap.moves.length };
  }
  return {
    ...s,
    review,
    snap,
    counts: snap.board.counts,
    differences: snap.board.differences,
    status: snap.status,
    clock: snap.clock,
    clockAt: now,
    pending: settlePending(s.pending, snap.board.counts, now),
  };
}

/** A game event folded into the state (or the state marked stale when its patch does not fit), announced. */
function onEvent(s: ViewState, msg: Extract<ServerMessage, { type: 'event' }>, now: number): ViewState {
  const folded = foldState(s, msg);
  if (!folded) return { ...s, stale: true };
  let next = withSnapshot({ ...s, rev: folded.rev }, folded.snap, now);
  const ev = msg.event;
  if (ev.type === 'storage') next = { ...next, storage: ev.storage };
  if (ev.type === 'hub-link' && next.server) next = { ...next, server: { ...next.server, hub: ev.hub } };
  if (ev.type === 'notice') {
    next = { ...next, notice: { text: ev.say, squares: ev.squares, at: now } };
    return announce(next, ev.say, false, null, true);
  }
  // Play went on: a reminder about the last position is no longer current.
  if (
    next.notice &&
    (ev.type === 'move' || ev.type === 'move-replaced' || ev.type === 'takeback' || ev.type === 'new-game' || ev.type === 'alert')
  )
    next = { ...next, notice: null };
  const { tone, urgent } = toneOf(ev);
  return announce(next, ev.say, urgent, tone);
}

/** A refusal: of the connection itself (the page stays refused), of a new game (shown by its form), or of a command. */
function onError(s: ViewState, msg: Extract<ServerMessage, { type: 'error' }>, now: number): ViewState {
  // The connection itself refused (no command of ours): trying again would only be refused again.
  if (msg.code === 'forbidden' && msg.id === undefined)
    return announce({ ...s, connection: 'refused', refusal: msg.message, inFlight: [] }, `Not allowed: ${msg.message}`, true, null);
  const inFlight = s.inFlight.filter((id) => id !== msg.id);
  s = { ...s, asked: answered(s.asked, msg.id) };
  // A refused new game (a bad FEN, a bad time control) is shown beside the form's fields, which stay open.
  if (msg.id !== undefined && msg.id === s.newGame.pending)
    return announce({ ...s, inFlight, newGame: { ...s.newGame, pending: null, error: msg.message } }, msg.message, true, 'alert');
  const next = { ...s, inFlight, error: { message: msg.message, at: now } };
  return announce(next, msg.message, true, 'alert');
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
      const server = msg.server;
      let next = withSnapshot(
        { ...s, server, storage: server.storage, connection: 'open', attempts: 0, rev: msg.rev ?? null, stale: false },
        msg.state,
        now,
      );
      if (wasLost) next = announce(next, `Reconnected. ${statusSentence(next)}`, false, null);
      return next;
    }
    case 'state':
      return withSnapshot({ ...s, rev: msg.rev ?? null, stale: false }, msg.state, now);
    case 'event':
      return onEvent(s, msg, now);
    case 'counts': {
      // A reminder stands while the board's status carries it; once put right it goes.
      const st = msg.status;
      const reminded = (st.kind === 'in-sync' || st.kind === 'moving') && st.reminder !== undefined;
      return {
        ...s,
        counts: msg.counts,
        differences: msg.differences,
        status: st,
        pending: settlePending(s.pending, msg.counts, now),
        notice: reminded ? s.notice : null,
      };
    }
    case 'clock':
      return { ...s, clock: msg.clock, clockAt: now };
    case 'ok': {
      const next = { ...s, inFlight: s.inFlight.filter((id) => id !== msg.id), asked: answered(s.asked, msg.id) };
      if (msg.id !== undefined && msg.id === s.newGame.pending)
        return { ...next, newGame: { pending: null, error: null, started: s.newGame.started + 1 } };
      return next;
    }
    case 'error':
      return onError(s, msg, now);
    case 'pong':
      return s;
  }
}

/** The connection lost (to be tried again at `retryAt`): nothing in flight or held any more; announced when it was open. */
function connectionLost(s: ViewState, retryAt: number): ViewState {
  const first = s.connection === 'open';
  const next: ViewState = {
    ...s,
    connection: 'reconnecting',
    attempts: s.attempts + 1,
    retryAt,
    inFlight: [],
    asked: {},
    pending: [],
    held: 0,
    heldStack: [],
  };
  return first && s.snap ? announce(next, 'Connection to the board service lost. Reconnecting.', true, 'alert') : next;
}

/** A command sent: in flight until answered; the hand's shown at once (confirmed by the board later), a new game's awaited by its form. */
function onCommandSent(s: ViewState, a: Extract<Action, { type: 'command-sent' }>): ViewState {
  let next: ViewState = { ...s, inFlight: [...s.inFlight, a.id], error: null, asked: asked(s.asked, a.id, a.command) };
  const c = a.command;
  if (c.name === 'hand') {
    const have = effectiveCounts(s, a.now)[c.square - 1];
    const coins =
      c.action === 'set' ? (c.coins ?? 0) : c.action === 'place' ? Math.min(2, have + 1) : Math.max(0, have - (c.coins ?? have));
    const heldStack = handAfter(s.heldStack, c.action, c.action === 'lift' ? have - coins : coins - have);
    next = {
      ...next,
      heldStack,
      held: heldStack.reduce((a, b) => a + b, 0),
      pending: [...s.pending.filter((p) => p.square !== c.square), { square: c.square, coins, at: a.now }],
    };
  } else if (c.name === 'hand-setup' || c.name === 'new-game') {
    next = { ...next, held: 0, heldStack: [], pending: [] };
    if (c.name === 'new-game') next = { ...next, newGame: { ...s.newGame, pending: a.id, error: null } };
  }
  return next;
}

export function reduce(s: ViewState, a: Action): ViewState {
  switch (a.type) {
    case 'message':
      return onMessage(s, a.raw, a.now);
    case 'socket':
      // Refused: the page stays refused (the socket closing after the refusal changes nothing).
      if (s.connection === 'refused') return s;
      if (a.state === 'open') return { ...s, connection: 'open' };
      return connectionLost(s, a.now + (a.retryInMs ?? 0));
    case 'command-sent':
      return onCommandSent(s, a);
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
      const notice = s.notice && a.now - s.notice.at >= NOTICE_MS ? null : s.notice;
      return pending === s.pending && armed === s.armed && notice === s.notice ? s : { ...s, pending, armed, notice };
    }
    case 'review':
      return reviewTo(s, a.to);
    case 'archive':
      return { ...s, archive: { ...s.archive, open: a.open, error: null } };
    case 'archive-loading':
      return { ...s, archive: { ...s.archive, loading: true, error: null } };
    case 'archive-list':
      return { ...s, archive: { ...s.archive, loading: false, error: null, entries: a.entries, trash: a.trash ?? null } };
    case 'archive-error':
      return { ...s, archive: { ...s.archive, loading: false, error: a.message } };
    case 'archive-sort': {
      const same = s.archive.sort === a.by;
      return {
        ...s,
        archive: { ...s.archive, sort: a.by, descending: same ? !s.archive.descending : a.by === 'date' || a.by === 'length' },
      };
    }
    case 'open-record':
      return { ...s, review: { ply: a.record.moves.length, record: a.record }, archive: { ...s.archive, open: false } };
    case 'board-focus':
      return a.square >= 1 && a.square <= 32 && a.square !== s.boardFocus ? { ...s, boardFocus: a.square } : s;
  }
}

/** The game the review steps through: an archived record, or the current game. */
function reviewGame(s: ViewState, review: Review | null): { start: Piece[]; moves: Move[] } | null {
  if (review?.record) return review.record;
  return s.snap ? { start: s.snap.start, moves: s.snap.moves } : null;
}

function reviewTo(s: ViewState, to: number | 'prev' | 'next' | 'first' | 'last' | 'live'): ViewState {
  if (to === 'live') return s.review ? { ...s, review: null } : s;
  const g = reviewGame(s, s.review);
  if (!g) return s;
  const total = g.moves.length;
  // Nothing to step through in a game with no moves yet.
  if (total === 0 && !s.review?.record) return s;
  const cur = s.review ? s.review.ply : total;
  const want = to === 'prev' ? cur - 1 : to === 'next' ? cur + 1 : to === 'first' ? 0 : to === 'last' ? total : to;
  const ply = Math.max(0, Math.min(total, want));
  // Stepping past the last move of the current game is being live again.
  if (!s.review?.record && ply === total && (to === 'next' || to === 'last' || to === total)) return s.review ? { ...s, review: null } : s;
  if (s.review && s.review.ply === ply) return s;
  return { ...s, review: { ply, record: s.review?.record ?? null } };
}

/** What the board shows while reviewing: the position after `ply` moves, its last move, and where it stands. */
export function reviewView(
  s: ViewState,
): { pieces: Piece[]; moves: Move[]; ply: number; total: number; last: Move | null; archived: boolean; moveLabel: string } | null {
  if (!s.review) return null;
  const g = reviewGame(s, s.review);
  if (!g) return null;
  const ply = Math.min(s.review.ply, g.moves.length);
  const last = ply > 0 ? g.moves[ply - 1] : null;
  const moveLabel = last ? `${last.number}${last.side === 'black' ? '.' : '...'} ${last.text}` : 'the start';
  return {
    pieces: piecesAfter(g.start, g.moves, ply),
    moves: g.moves,
    ply,
    total: g.moves.length,
    last,
    archived: s.review.record !== null,
    moveLabel,
  };
}

/** The archive list in the chosen order. */
export function sortedArchive(a: ArchiveView): ArchiveEntry[] {
  const key = (e: ArchiveEntry): string | number => {
    switch (a.sort) {
      case 'date':
        return e.modified;
      case 'players':
        return `${e.black} ${e.white}`.toLowerCase();
      case 'event':
        return e.event.toLowerCase();
      case 'result':
        return e.result;
      case 'length':
        return e.plies ?? -1;
    }
  };
  const dir = a.descending ? -1 : 1;
  return [...(a.entries ?? [])].sort((x, y) => {
    const kx = key(x),
      ky = key(y);
    return (kx < ky ? -1 : kx > ky ? 1 : 0) * dir || y.modified - x.modified;
  });
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
  // Offline the page does not know the clocks: they stay as last heard.
  return s.connection !== 'open' ? c : clockAfter(c, now - s.clockAt);
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
  // (Lifting while holding adds to the hand: what it held is kept, see handAfter.)
  if (have > 0) return { name: 'hand', action: 'lift', square };
  // The last thing picked up goes down first: a king as a king.
  if (s.heldStack[s.heldStack.length - 1] === 2) return { name: 'hand', action: 'set', square, coins: 2 };
  return { name: 'hand', action: 'place', square };
}

/**
 * ACF time per move: "time" called on a side (its limit reached, the grace
 * period running) in a game still going, with the grace left `now` (counted
 * down between the service's clock messages); null otherwise.
 */
export function timeCall(s: ViewState, now?: number): { side: Side; graceLeft: number } | null {
  const c = now === undefined ? s.clock : clockNow(s, now);
  const pm = c?.perMove;
  if (!c || !pm || !pm.timeCalled || c.flagged || !s.snap || s.snap.outcome || s.snap.result !== '*') return null;
  return { side: pm.timeCalled, graceLeft: pm.graceLeft };
}

/** The board's state in one short phrase (the big status line); with `now`, a time call counted down to it. */
export function statusHeadline(
  s: ViewState,
  now?: number,
): { tone: 'ok' | 'busy' | 'warn' | 'bad' | 'idle' | 'off' | 'time'; title: string } {
  if (s.connection === 'refused') return { tone: 'off', title: 'Not allowed' };
  if (!s.snap) return { tone: 'idle', title: 'Connecting…' };
  if (s.connection !== 'open') return { tone: 'off', title: 'Offline' };
  if (!s.snap.board.connected) return { tone: 'bad', title: 'Board not connected' };
  if (s.snap.calibration) return { tone: 'busy', title: 'Calibrating the board' };
  const st = s.status;
  // The arbiter's "Time": the headline while the board is in order (an illegal move or a crown to stack comes first).
  const called = st.kind === 'in-sync' || st.kind === 'moving' ? timeCall(s, now) : null;
  if (called) return { tone: 'time', title: `Time, ${sideName(called.side)}!` };
  switch (st.kind) {
    case 'setup':
      return { tone: 'idle', title: 'Set up the board' };
    case 'in-sync':
      // What players look for first: whose move it is (the board being in order is the tone and the small line).
      return s.snap.outcome || s.snap.result !== '*'
        ? { tone: 'ok', title: 'Game over' }
        : { tone: 'ok', title: `${sideName(s.snap.turn)} to move` };
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
  return s.status.kind === 'in-sync' ? `${h.title}.` : `${h.title}. ${sideName(snap.turn)} to move.`;
}

export type { Side };
