// The club pages in the browser (/watch and /arbiter, one bundle; the page's
// <body data-mode> says which): connects the socket (club-socket.ts), folds
// each message into the state (club-state.ts) and draws it (club-render.ts)
// on the next animation frame. A card is redrawn only when its board changes;
// the clocks tick in place every few tenths of a second (text only, so focus
// and the screen reader's place stay put); a board turning illegal or
// disconnected is said once in the polite live region. The spectators' page
// never reads a token; the arbiter's reads ?token= like the one-board page.

import './club.css';
import { ClubSocket } from './club-socket.ts';
import {
  clockNow,
  initialClubState,
  needsAttention,
  orderedBoards,
  reduceClub,
  type ClubAction,
  type ClubMode,
  type ClubState,
} from './club-state.ts';
import {
  cardId,
  clockText,
  renderAlerts,
  renderCard,
  renderClubConnection,
  renderClubRegions,
  type ClubRenderOptions,
} from './club-render.ts';
import type { Side } from '../protocol/v1.ts';

const mode: ClubMode = document.body.dataset.mode === 'arbiter' ? 'arbiter' : 'watch';
// Only the arbiter's page takes a token from its address; a spectator's page has none to leak.
const token = mode === 'arbiter' ? new URLSearchParams(location.search).get('token') : null;
const opts: ClubRenderOptions = { mode, token };
let state: ClubState = initialClubState(mode);

const socket = new ClubSocket(ClubSocket.urlFor(location, token), {
  message: (raw) => dispatch({ type: 'message', raw, now: Date.now() }),
  open: () => dispatch({ type: 'socket', state: 'open', now: Date.now() }),
  closed: (retryInMs) => dispatch({ type: 'socket', state: 'closed', now: Date.now(), retryInMs }),
});

function dispatch(a: ClubAction): void {
  const before = state;
  state = reduceClub(state, a);
  if (state.connection === 'forbidden' && before.connection !== 'forbidden') socket.stop();
  if (state !== before) schedule();
}

// ------------------------------------------------------------------ drawing

let frame = 0;
function schedule(): void {
  if (!frame) frame = requestAnimationFrame(draw);
}

const shown = new Map<string, string>();
let gridKey = '';
/** Each card as last drawn (clocks as heard), by element id. */
const cardHtml = new Map<string, string>();
let announced = 0;

function setHtml(id: string, html: string): void {
  const el = document.getElementById(id);
  if (el && shown.get(id) !== html) {
    el.innerHTML = html;
    shown.set(id, html);
  }
}

/** Replace one card, keeping the focus on the same link if it was inside. */
function replaceCard(el: Element, html: string): void {
  const focused = el.contains(document.activeElement) ? (document.activeElement as HTMLElement | null)?.dataset.open : undefined;
  el.outerHTML = html;
  if (focused) document.querySelector<HTMLElement>(`[data-open="${CSS.escape(focused)}"]`)?.focus();
}

function draw(): void {
  frame = 0;
  const now = Date.now();
  // The boards dim while the page is not hearing them (club.css).
  document.body.dataset.connection = state.connection;
  const live = state.connection === 'open';
  const regions = renderClubRegions(state, now, opts);
  setHtml('club-conn', regions['club-conn']);
  setHtml('club-problem', regions['club-problem']);
  setHtml('club-alerts', regions['club-alerts']);
  // The grid is rebuilt when boards come or go or change group; otherwise each card on its own.
  const key = JSON.stringify([
    state.loaded,
    state.connection === 'forbidden',
    orderedBoards(state).map((e) => [e.board.id, e.board.tags.Event, e.board.tags.Round]),
  ]);
  const grid = document.getElementById('club-boards')!;
  if (key !== gridKey) {
    gridKey = key;
    grid.innerHTML = regions['club-boards'];
    cardHtml.clear();
  }
  for (const e of orderedBoards(state)) {
    // The card as heard (clocks at the moment the board was heard): redrawn only when the board changes.
    const html = renderCard(e, e.at, { ...opts, live });
    const id = cardId(e.board.id);
    if (cardHtml.get(id) !== html) {
      const el = document.getElementById(id);
      if (el && cardHtml.has(id)) replaceCard(el, html);
      cardHtml.set(id, html);
    }
  }
  tickClocks(now);
  const a = state.announcement;
  // The arbiter's tab says how many boards need attention, even when it is not the one in front.
  if (mode === 'arbiter') {
    const n = needsAttention(state, now).length;
    document.title = `${n ? `(${n}) ` : ''}Crownhead · Arbiter`;
  }
  if (a && a.n !== announced) {
    announced = a.n;
    // Emptied first, so the same words as last time (the same board illegal again) are said again.
    const region = document.getElementById('club-live')!;
    region.textContent = '';
    setTimeout(() => (region.textContent = a.text), 60);
  }
}

/** The clocks now, as text in place (and the arbiter's list, when a call happens between messages). */
function tickClocks(now: number): void {
  const live = state.connection === 'open';
  for (const e of orderedBoards(state)) {
    const c = clockNow(e, now, live);
    if (!c) continue;
    for (const side of ['black', 'white'] as Side[]) {
      const el = document.querySelector<HTMLElement>(`#${cardId(e.board.id)} [data-clock="${side}"]`);
      if (!el) continue;
      const text = clockText(c, side);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('called', c.flagged === side || c.perMove?.timeCalled === side);
    }
  }
  // A time call can come between messages (the limit runs out): the arbiter's list follows the clocks.
  if (mode === 'arbiter') setHtml('club-alerts', renderAlerts(state, now, opts));
  setHtml('club-conn', renderClubConnection(state, now));
}

// Clocks tick, and "reconnecting in n s" counts down, without a message.
setInterval(() => {
  if (!document.hidden) tickClocks(Date.now());
}, 250);

document.addEventListener('visibilitychange', () => {
  if (!document.hidden) {
    socket.nudge();
    schedule();
  }
});

// browser edge: the page's state for the browser tests and the console (window has no such property in the DOM types)
(globalThis as unknown as { crownheadClub: unknown }).crownheadClub = { state: () => state };

socket.connect();
schedule();
