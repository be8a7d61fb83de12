// The page's entry point: wires the WebSocket client, the reducer (state.ts)
// and the renderer (render.ts) to the DOM. The game comes first: the socket
// (boot.ts's, opened from the HTML's head) is taken over and a hello already
// heard is drawn at once; the rest is wired once it is on screen. Owns the
// DOM and the page's own HTTP reads (the archive and its trash; the builder's sensor view, asked for
// a few times a second only while its panel is open: sensors.ts): regions are re-rendered when their HTML changes
// (keeping keyboard focus), clicks on elements with data-act become local
// actions or server commands, arrow keys and swipes step through the game
// (on the board the arrow keys move its one tab stop: board-keys.ts), the forms (the new-game
// form filled from the current game) become new-game / set-tags commands,
// announcements are played as tones, spoken, and written to the ARIA live
// regions, and between messages the clocks and a time call's grace count down
// (the forms are forms.ts's; an event's patch that did not fit asks for the state).

import { at } from './base.ts';
import './style.css';
import { ApiErrorBody, ArchiveList, GameRecord, TrashList, type Command } from '../protocol/v1.ts';
import {
  canControl,
  clockNow,
  handCommand,
  initialState,
  isArmed,
  reduce,
  statusHeadline,
  timeCall,
  type Action,
  type ViewState,
} from './state.ts';
import { clockFace, formatClock, renderArchive, renderRegions } from './render.ts';
import { wireForms, type Forms } from './forms.ts';
import { hintBusy } from './engine-work.ts';
import { SensorPanelView } from './sensor-panel.ts';
import { ServerSocket } from './socket.ts';
import { Sounds, Speech } from './sound.ts';
import { type Side } from './model.ts';
import { arrowTarget } from './board-keys.ts';

const PREFS_KEY = 'crownhead.prefs';
const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

let state: ViewState = initialState();
const sounds = new Sounds();
const speech = new Speech();
const token = new URLSearchParams(location.search).get('token');
let heard = false;
const socket = new ServerSocket(
  ServerSocket.urlFor(location, token),
  {
    message: (raw) => {
      if (!heard) {
        heard = true;
        // (boot.ts marks it when it heard the hello before this script ran)
        if (!performance.getEntriesByName('crownhead-first-message').length) performance.mark('crownhead-first-message');
      }
      dispatch({ type: 'message', raw, now: Date.now() }, raw);
      if (!performance.getEntriesByName('crownhead-parsed').length) performance.mark('crownhead-parsed');
    },
    open: () => {
      if (!heard && !performance.getEntriesByName('crownhead-socket-open').length) performance.mark('crownhead-socket-open');
      dispatch({ type: 'socket', state: 'open', now: Date.now() });
    },
    closed: (retryInMs) => dispatch({ type: 'socket', state: 'closed', now: Date.now(), retryInMs }),
  },
  token,
);

// ------------------------------------------------------------------ state

function loadPrefs(): void {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as { flipped?: unknown; sound?: unknown; speech?: unknown };
    state = reduce(state, {
      type: 'prefs',
      flipped: typeof p.flipped === 'boolean' ? p.flipped : undefined,
      sound: typeof p.sound === 'boolean' ? p.sound : undefined,
      speech: typeof p.speech === 'boolean' ? p.speech : undefined,
    });
  } catch {
    // Private mode or bad JSON: defaults.
  }
}

function savePrefs(): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ flipped: state.flipped, sound: state.sound, speech: state.speech }));
  } catch {} // private mode: the preferences are not kept
}

let lastSeq = 0;
let scheduled = false;

function dispatch(action: Action, raw?: string): void {
  const before = state;
  state = reduce(state, action);
  if (state.connection === 'refused' && before.connection !== 'refused') socket.stop();
  if (state.stale && !before.stale) socket.askState();
  if (state.invalid !== before.invalid) console.warn('crownhead: ignored an invalid message:', state.lastInvalid, raw?.slice(0, 300));
  if (state === before) return;
  if (state.flipped !== before.flipped || state.sound !== before.sound || state.speech !== before.speech) savePrefs();
  if (state.speech !== before.speech && !state.speech) speech.stop();
  perform();
  // The first game to show is drawn at once (not a frame later): it is what the page was opened for.
  if (!firstGame && state.snap) return render();
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      render();
    });
  }
}

/** Plays, speaks and announces what the reducer asked for. */
function perform(): void {
  const a = state.announcement;
  if (!a || a.seq <= lastSeq) return;
  lastSeq = a.seq;
  if (a.tone && state.sound) sounds.play(a.tone);
  // An alert put right (or any calmer news) leaves no stale alert in the assertive region.
  if (!a.urgent) $('live-assertive').textContent = '';
  if (a.text) {
    if (state.speech) speech.say(a.text, a.urgent);
    const region = $(a.urgent ? 'live-assertive' : 'live-polite');
    // Clear first so the same sentence twice is announced twice.
    region.textContent = '';
    setTimeout(() => {
      region.textContent = a.text;
    }, 30);
  }
}

// ------------------------------------------------------------------ rendering

const rendered: Record<string, string> = {};

function patch(id: string, html: string): void {
  if (rendered[id] === html) return;
  rendered[id] = html;
  const el = $(id);
  if (!el) return;
  const active = document.activeElement as HTMLElement | null;
  const focusId = active && active.id && el.contains(active) ? active.id : null;
  el.innerHTML = html;
  if (focusId) (document.getElementById(focusId) as HTMLElement | null)?.focus({ preventScroll: true });
}

let closedFor = 0;

/** Moves made and no result: a new game would abandon it. */
function gameInProgress(): boolean {
  const snap = state.snap;
  return !!snap && snap.moves.length > 0 && snap.result === '*' && !snap.outcome;
}

let firstGame = false;
/** The forms, once wired (start): kept filled from the game while closed. */
let forms: Forms | null = null;

function render(): void {
  forms?.sync();
  if (!firstGame && state.snap) performance.mark('crownhead-render-start');
  const now = Date.now();
  const regions = renderRegions(state, now);
  for (const [id, html] of Object.entries(regions)) patch(id, html);
  if (!firstGame && state.snap) {
    // The first render of the game (the bench reads it: time from navigation start to the board on screen).
    firstGame = true;
    performance.mark('crownhead-first-render');
    afterPaint(wireOnce);
  }
  patch('archive', renderArchive(state, now));
  $('archive').hidden = !state.archive.open;
  const control = canControl(state);
  $('forms').hidden = !(state.server && !state.server.readOnly);
  const ngError = $('ng-error');
  if (ngError) {
    ngError.hidden = !state.newGame.error;
    ngError.textContent = state.newGame.error ?? '';
  }
  if (state.newGame.started !== closedFor) {
    closedFor = state.newGame.started;
    ($('new-game-card') as HTMLDetailsElement).open = false;
    // The new game is on the board: back up to it (the form was far down the page).
    window.scrollTo({ top: 0 });
  }
  const ngSubmit = $<HTMLButtonElement>('ng-submit');
  if (ngSubmit)
    ngSubmit.textContent = isArmed(state, 'new-game', now)
      ? 'Confirm: abandon the game in progress'
      : gameInProgress()
        ? 'Start new game…'
        : 'Start new game';
  ngSubmit?.classList.toggle('armed', isArmed(state, 'new-game', now));
  document.body.classList.toggle('offline', state.connection !== 'open' && state.snap !== null);
  document.body.classList.toggle('reviewing', state.review !== null);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#forms button[type=submit]')) b.disabled = !control;
  document.body.classList.toggle('readonly', !!state.server?.readOnly);
  document.body.dataset.status = state.status.kind;
  const h = statusHeadline(state, now);
  renderedCall = timeCall(state, now)?.side ?? null;
  document.title = `${h.title} · Crownhead`;
}

/** The side "time" was called on when the page was last drawn (the status follows the clock between messages). */
let renderedCall: Side | null = null;

/** Between messages: count the running clock down (and a time call's grace), the reconnect countdown, expiring hand actions. */
function tick(): void {
  const now = Date.now();
  if (state.pending.length || state.armed || state.notice) dispatch({ type: 'tick', now });
  const called = timeCall(state, now);
  if ((called?.side ?? null) !== renderedCall) render();
  else if (called) for (const el of document.querySelectorAll<HTMLElement>('[data-grace]')) el.textContent = formatClock(called.graceLeft);
  const c = clockNow(state, now);
  if (c && c.running && state.connection === 'open') {
    for (const side of ['black', 'white'] as Side[]) {
      const el = document.querySelector<HTMLElement>(`[data-clock=${side}]`);
      if (!el) continue;
      el.textContent = clockFace(c, side);
      el.classList.toggle('time-called', c.perMove?.timeCalled === side);
      el.classList.toggle('low', c[side] < 30_000);
    }
  }
  if (state.connection === 'reconnecting') patch('banner', renderRegions(state, now).banner);
}

// ------------------------------------------------------------------ commands

function send(command: Command): void {
  const id = socket.command(command);
  if (id) dispatch({ type: 'command-sent', id, command, now: Date.now() });
}

function onSquare(square: number, crown: boolean): void {
  const now = Date.now();
  dispatch({ type: 'board-focus', square });
  const c = handCommand(state, square, { crown, now });
  if (c) send(c);
}

/** A click (or Enter/Space) on an element with data-act: a local action, a guarded one, or a command to the service. */
function onAct(el: HTMLElement, e: MouseEvent | KeyboardEvent): void {
  const act = el.dataset.act!;
  const side = el.dataset.side as Side | undefined;
  const now = Date.now();
  if (act === 'square') return onSquare(Number(el.dataset.sq), e.shiftKey || e.altKey);
  if (onArchiveAct(act, el, now) || onSensorAct(act, el)) return;
  onGameAct(act, el, side, now);
}

/** The page's own actions on the archive (the dialog, its order, opening, deleting and restoring a game); false for any other act. */
function onArchiveAct(act: string, el: HTMLElement, now: number): boolean {
  switch (act) {
    case 'archive-open':
      dispatch({ type: 'archive', open: true });
      void loadArchive();
      // The dialog takes the focus (Escape or Close gives it back).
      requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById('b-archive-close')?.focus()));
      return true;
    case 'archive-close':
      dispatch({ type: 'archive', open: false });
      document.getElementById('b-archive-open')?.focus();
      return true;
    case 'archive-sort':
      dispatch({ type: 'archive-sort', by: el.dataset.by as 'date' });
      return true;
    case 'archive-view':
      if (el.dataset.id) void openRecord(el.dataset.id);
      return true;
    case 'archive-delete': {
      const id = el.dataset.id;
      if (!id) return true;
      if (!isArmed(state, `delete-${id}`, now)) {
        dispatch({ type: 'arm', key: `delete-${id}`, now });
        return true;
      }
      dispatch({ type: 'disarm' });
      void deleteGame(id);
      return true;
    }
    case 'archive-restore':
      if (el.dataset.id) void restoreGame(el.dataset.id);
      return true;
  }
  return false;
}

/** The builder's sensor panel: open, close, light a square, stop; false for any other act. */
function onSensorAct(act: string, el: HTMLElement): boolean {
  switch (act) {
    case 'sensors-open':
      sensors.open(true);
      return true;
    case 'sensors-close':
      sensors.open(false);
      return true;
    case 'sensor-test':
      void sensors.request('POST', `/api/sensors/test/${Number(el.dataset.sq)}`);
      return true;
    case 'sensor-test-stop':
      void sensors.request('DELETE', '/api/sensors/test');
      return true;
  }
  return false;
}

/** The game's acts: the page's toggles and review steps, and the commands to the service (those that end or reopen a game asked twice). */
function onGameAct(act: string, el: HTMLElement, side: Side | undefined, now: number): void {
  switch (act) {
    case 'hand-mode':
      dispatch({ type: 'hand-mode', mode: el.dataset.mode === 'crown' ? 'crown' : 'move' });
      return;
    case 'hand-setup':
      send({ name: 'hand-setup' });
      return;
    case 'flip':
    case 'toggle-sound':
    case 'toggle-speech':
    case 'dismiss-error':
      dispatch({ type: act });
      if (act === 'toggle-sound' && state.sound) sounds.play('click');
      if (act === 'toggle-speech' && state.speech) speech.say('Speech on.', true);
      return;
    case 'takeback': {
      // After a result the takeback reopens the game: it asks first.
      const over = !!state.snap && (state.snap.outcome !== null || state.snap.result !== '*');
      if (over && !isArmed(state, 'takeback', now)) return dispatch({ type: 'arm', key: 'takeback', now });
      dispatch({ type: 'disarm' });
      send(side && !over ? { name: 'takeback', side } : { name: 'takeback' });
      return;
    }
    case 'review': {
      const to = el.dataset.to ?? 'live';
      dispatch({ type: 'review', to: /^\d+$/.test(to) ? Number(to) : (to as 'prev' | 'next' | 'first' | 'last' | 'live') });
      return;
    }
    case 'hint':
      if (!hintBusy(state.asked, state.snap)) send({ name: 'hint' });
      return;
    case 'takeback-answer':
      send({ name: 'takeback-answer', accept: el.dataset.kind === 'accept' });
      return;
    case 'cancel':
      send({ name: 'cancel', what: el.dataset.what === 'hint' ? 'hint' : 'analysis' });
      return;
    case 'toggle-evaluation':
      send({ name: 'evaluation', on: !state.snap?.evaluation });
      return;
    case 'analyse':
      if (!state.asked.analyse && !state.snap?.analysis?.running) send({ name: 'analyse' });
      return;
    case 'calibrate':
      send({ name: 'calibrate' });
      return;
    case 'claim-draw':
      send({ name: 'claim-draw' });
      return;
    case 'clock-start':
      send({ name: 'clock-start' });
      return;
    case 'next-game':
      send({ name: 'next-game', kind: el.dataset.kind === 'other-side' ? 'other-side' : 'next' });
      return;
    case 'clock-pause':
      send({ name: 'clock-pause' });
      return;
    case 'decline-draw':
      send({ name: 'decline-draw' });
      return;
    case 'offer-draw':
      if (side) send({ name: 'offer-draw', side });
      return;
    case 'accept-draw':
      if (side) send({ name: 'accept-draw', side });
      return;
    case 'resign':
      if (!side) return;
      if (isArmed(state, `resign-${side}`, now)) {
        dispatch({ type: 'disarm' });
        send({ name: 'resign', side });
      } else {
        dispatch({ type: 'arm', key: `resign-${side}`, now });
      }
      return;
  }
}

/** Arrow keys move between the dark squares as they are drawn (which square: board-keys.ts). */
function moveFocus(from: number, key: string): void {
  const s = arrowTarget(from, key, state.flipped);
  if (!s) return;
  // The board's one tab stop follows (a roving tabindex).
  dispatch({ type: 'board-focus', square: s });
  render();
  document.getElementById(`sq-${s}`)?.focus();
}

// ------------------------------------------------------------------ the archive (HTTP)

const authHeaders = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

/** The API's error sentence from a refused request's body (ApiErrorBody), or the status when the body is not one. */
function refusal(res: Response, body: unknown): Error {
  const e = ApiErrorBody.safeParse(body);
  return new Error(e.success ? e.data.message : `the server answered ${res.status}`);
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: authHeaders(), cache: 'no-store' });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw refusal(res, body);
  return body;
}

async function loadArchive(): Promise<void> {
  dispatch({ type: 'archive-loading' });
  try {
    const r = ArchiveList.safeParse(await getJson(at('/api/archive.json')));
    if (!r.success) throw new Error('the archive list is not in the expected form');
    // The trash is a second, optional list: the archive shows without it if it cannot be read.
    const t = TrashList.safeParse(await getJson('/api/trash.json').catch(() => null));
    dispatch({ type: 'archive-list', entries: r.data.games, trash: t.success ? t.data : null });
  } catch (e) {
    dispatch({ type: 'archive-error', message: `Cannot list the saved games: ${(e as Error).message}`, now: Date.now() });
  }
}

async function openRecord(id: string): Promise<void> {
  if (id === state.snap?.gameId) {
    dispatch({ type: 'archive', open: false });
    dispatch({ type: 'review', to: 'first' });
    return;
  }
  try {
    const r = GameRecord.safeParse(await getJson(at(`/api/games/${encodeURIComponent(id)}.json`)));
    if (!r.success) throw new Error('the game is not in the expected form');
    dispatch({ type: 'open-record', record: r.data });
  } catch (e) {
    dispatch({ type: 'archive-error', message: `Cannot open game ${id}: ${(e as Error).message}`, now: Date.now() });
  }
}

/** The builder's sensor view (sensor-panel.ts), asking over HTTP with this page's token. */
const sensors = new SensorPanelView({
  getJson: (url) => getJson(url),
  headers: () => authHeaders(),
  patch: (html) => patch('sensors', html),
});

async function restoreGame(id: string): Promise<void> {
  try {
    const res = await fetch(`/api/trash/${encodeURIComponent(id)}/restore`, { method: 'POST', headers: authHeaders() });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
      throw new Error(typeof body?.message === 'string' ? body.message : `the server answered ${res.status}`);
    }
    await loadArchive();
  } catch (e) {
    dispatch({ type: 'archive-error', message: `Cannot restore game ${id}: ${(e as Error).message}`, now: Date.now() });
  }
}

async function deleteGame(id: string): Promise<void> {
  try {
    const res = await fetch(at(`/api/games/${encodeURIComponent(id)}`), { method: 'DELETE', headers: authHeaders() });
    if (!res.ok) throw refusal(res, await res.json().catch(() => null));
    await loadArchive();
  } catch (e) {
    dispatch({ type: 'archive-error', message: `Cannot delete game ${id}: ${(e as Error).message}`, now: Date.now() });
  }
}

// ------------------------------------------------------------------ start

/** Left/right arrows (and Home/End) step through the game unless typing or moving between squares; Escape goes back to live; H asks for a hint (once per press, not per key repeat). */
function onKey(e: KeyboardEvent): void {
  const t = e.target as HTMLElement;
  if (e.altKey || e.ctrlKey || e.metaKey || t.closest('input, select, textarea, [data-act=square]')) return;
  if ((e.key === 'h' || e.key === 'H') && document.getElementById('b-hint')) {
    // One hint per press: a held key repeats about 30 times a second, and each would be a search.
    if (!e.repeat && !hintBusy(state.asked, state.snap)) send({ name: 'hint' });
    return;
  }
  if (e.key === 'Escape') {
    if (state.archive.open) dispatch({ type: 'archive', open: false });
    else if (state.review) dispatch({ type: 'review', to: 'live' });
    return;
  }
  const to =
    e.key === 'ArrowLeft' ? 'prev' : e.key === 'ArrowRight' ? 'next' : e.key === 'Home' ? 'first' : e.key === 'End' ? 'last' : null;
  if (!to || !state.snap || state.archive.open) return;
  if (to === 'first' || to === 'last') {
    if (!state.review) return;
  }
  e.preventDefault();
  dispatch({ type: 'review', to });
}

/** A horizontal swipe on the board steps through the game (right: back, left: forward). */
function wireSwipe(): void {
  let x0 = 0,
    y0 = 0,
    t0 = 0,
    on = false;
  const board = $('board');
  board.addEventListener(
    'touchstart',
    (e) => {
      if (e.touches.length !== 1) {
        on = false;
        return;
      }
      on = true;
      x0 = e.touches[0].clientX;
      y0 = e.touches[0].clientY;
      t0 = Date.now();
    },
    { passive: true },
  );
  board.addEventListener('touchend', (e) => {
    if (!on) return;
    on = false;
    const t = e.changedTouches[0];
    const dx = t.clientX - x0,
      dy = t.clientY - y0;
    if (Math.abs(dx) < 60 || Math.abs(dy) > Math.abs(dx) / 2 || Date.now() - t0 > 800) return;
    dispatch({ type: 'review', to: dx > 0 ? 'prev' : 'next' });
  });
}

function start(): void {
  performance.mark('crownhead-script');
  loadPrefs();
  // Connect first: boot.ts's socket, when it is there, has usually heard the hello (the game to draw) already, and
  // the game is drawn right here. The rest is wired once the game is on screen (render: a hello still on its way is
  // drawn first), or in 150 ms without it.
  socket.connect();
  setTimeout(wireOnce, 150);
}

let wired = false;
function wireOnce(): void {
  if (wired) return;
  wired = true;
  wire();
}

/** Runs `f` after the next frame is painted (a page opened in a background tab gets no frames: the timer runs it anyway). */
function afterPaint(f: () => void): void {
  requestAnimationFrame(() => setTimeout(f, 0));
  setTimeout(f, 100);
}

/** The forms, the swipe, the keys and clicks, the clocks' tick; then the page drawn with them. */
function wire(): void {
  forms = wireForms({ state: () => state, dispatch, render, send, gameInProgress });
  wireSwipe();
  document.addEventListener('keydown', onKey);
  const unlock = () => sounds.unlock();
  document.addEventListener('pointerdown', unlock, { capture: true });
  document.addEventListener('keydown', unlock, { capture: true });
  document.addEventListener('click', (e) => {
    const el = (e.target as Element).closest<HTMLElement>('[data-act]');
    if (el && !(el as HTMLButtonElement).disabled) onAct(el, e);
  });
  document.addEventListener('keydown', (e) => {
    const cell = (e.target as Element).closest?.<HTMLElement>('td[data-act=review]');
    if (cell && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onAct(cell, e);
      return;
    }
    const el = (e.target as Element).closest?.<HTMLElement>('[data-act=square]');
    if (!el) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onAct(el, e);
    } else if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      moveFocus(Number(el.dataset.sq), e.key);
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) socket.nudge();
  });
  setInterval(tick, 200);
  // The state so far (connecting, or the game already drawn) with the forms now wired.
  render();
  // browser edge: the page's state for the browser tests and the console (window has no such property in the DOM types)
  (globalThis as unknown as { crownhead: unknown }).crownhead = { state: () => state };
}

start();
