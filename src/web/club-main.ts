// The club pages in the browser (/watch and /arbiter, one bundle; the page's
// <body data-mode> says which): connects the socket (club-socket.ts), folds
// each message into the state (club-state.ts) and draws it (club-render.ts)
// on the next animation frame. A card is redrawn only when its board changes;
// the clocks tick in place every few tenths of a second (text only, so focus
// and the screen reader's place stay put); a board turning illegal or
// disconnected is said once in the polite live region. Both read ?token=
// like the one-board page (a spectator on another device opens /watch with
// the watch token; it goes along to the socket and the boards' links); the
// arbiter's sends its corrections (club-correct.ts) to the board's own API with it;
// its tournament panel (tourney-main.ts) uses the tournament API the same way.

import './club.css';
import { ClubSocket } from './club-socket.ts';
import {
  clockNow,
  initialClubState,
  needsAttention,
  orderedBoards,
  reduceClub,
  timeCalled,
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
import { hubBroker, startStationsPanel } from './stations-panel.ts';
import { correctionCommand, renderCorrectionForm, renderPlyOptions } from './club-correct.ts';
import type { MoveRecord, Side, Snapshot } from '../protocol/v1.ts';
import { startTourneyPanel } from './tourney-main.ts';

const mode: ClubMode = document.body.dataset.mode === 'arbiter' ? 'arbiter' : 'watch';
// The token the page's own address gave (none: none is carried on).
const token = new URLSearchParams(location.search).get('token');
const opts: ClubRenderOptions = { mode, token, broker: hubBroker };
let state: ClubState = initialClubState(mode);

const socket = new ClubSocket(ClubSocket.urlFor(location, token), {
  message: (raw) => dispatch({ type: 'message', raw, now: Date.now() }),
  open: () => dispatch({ type: 'socket', state: 'open', now: Date.now() }),
  closed: (retryInMs) => dispatch({ type: 'socket', state: 'closed', now: Date.now(), retryInMs }),
});

// The arbiter's tournament panel (tourney-main.ts), loaded again when a board's game, round or result changes.
const tourney = mode === 'arbiter' ? startTourneyPanel(token) : null;
// On a hub, the arbiter also sees every station: paired, online, and what the hub refused from it.
// (On /watch the hub's link to the broker only, for the pill: never a green "Live" while the hub is cut off.)
startStationsPanel(token, 3000, mode === 'arbiter');
let resultsKey = '';

function dispatch(a: ClubAction): void {
  const before = state;
  state = reduceClub(state, a);
  if (state.connection === 'forbidden' && before.connection !== 'forbidden') socket.stop();
  if (state !== before) schedule();
  if (tourney && state.boards !== before.boards) {
    const key = JSON.stringify(orderedBoards(state).map((e) => [e.board.id, e.board.result, e.board.tags.Round, e.board.tags.Game]));
    if (key !== resultsKey) {
      resultsKey = key;
      tourney.boardsChanged();
    }
  }
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
/** Whether each board's card, as last drawn, shows "time" called (by board id). */
const calledShown = new Map<string, boolean>();
let announced = 0;

function setHtml(id: string, html: string): void {
  const el = document.getElementById(id);
  if (el && shown.get(id) !== html) {
    el.innerHTML = html;
    shown.set(id, html);
  }
}

/** Replace one card, keeping the focus on the same link or button if it was inside. */
function replaceCard(el: Element, html: string): void {
  const active = el.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
  const key = active?.dataset.open !== undefined ? 'open' : active?.dataset.correct !== undefined ? 'correct' : null;
  const value = key ? active!.dataset[key]! : '';
  el.outerHTML = html;
  if (key) document.querySelector<HTMLElement>(`[data-${key}="${CSS.escape(value)}"]`)?.focus();
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
    // The card as heard (clocks at the moment the board was heard): redrawn only when the board changes,
    // or when "time" falls due here before the server's word of it comes (then drawn as of now).
    const calledHere = timeCalled(e, now, live) !== null && timeCalled(e, e.at, live) === null;
    calledShown.set(e.board.id, timeCalled(e, now, live) !== null);
    const html = renderCard(e, calledHere ? now : e.at, { ...opts, live });
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
    // "Time" falls due between messages: the card's label says so at once.
    if (!calledShown.get(e.board.id) && timeCalled(e, now, live)) schedule();
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
  setHtml('club-conn', renderClubConnection(state, now, hubBroker()));
}

// ------------------------------------------------------------------ the arbiter's corrections

const authHeaders = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const boardApi = (id: string, path: string): string => `/boards/${encodeURIComponent(id)}/api/${path}`;
let correcting: string | null = null;

/** The game's moves, from the board's own API (the summary has only the last). */
async function loadMoves(id: string): Promise<MoveRecord[] | null> {
  try {
    const r = await fetch(boardApi(id, 'state'), { headers: authHeaders(), cache: 'no-store' });
    return r.ok ? ((await r.json()) as Snapshot).moves : null;
  } catch {
    return null;
  }
}

function correctStatus(ok: boolean, text: string): void {
  const el = document.getElementById('cf-status');
  if (!el) return;
  el.textContent = text;
  el.className = `cf-status ${ok ? 'ok' : 'bad'}`;
}

/** Shows only the fields the chosen kind of correction needs. */
function showKindFields(): void {
  const kind = document.querySelector<HTMLSelectElement>('#cf-kind')?.value ?? '';
  for (const row of document.querySelectorAll<HTMLElement>('#correct-form [data-for]'))
    row.hidden = !row.dataset.for!.split(' ').includes(kind);
}

async function refreshMoves(id: string): Promise<void> {
  const moves = await loadMoves(id);
  const select = document.getElementById('cf-ply');
  if (correcting !== id || !select) return;
  select.innerHTML = moves ? renderPlyOptions(moves) : '<option value="">The moves could not be read</option>';
}

function openCorrection(id: string): void {
  const e = state.boards[id];
  const panel = document.getElementById('club-correct');
  if (!e || !panel) return;
  correcting = id;
  panel.innerHTML = renderCorrectionForm(e.board, null, null);
  panel.hidden = false;
  showKindFields();
  panel.scrollIntoView({ block: 'start' });
  document.getElementById('cf-kind')?.focus();
  void refreshMoves(id);
}

function closeCorrection(): void {
  const id = correcting;
  correcting = null;
  const panel = document.getElementById('club-correct')!;
  panel.hidden = true;
  panel.innerHTML = '';
  if (id) document.querySelector<HTMLElement>(`[data-correct="${CSS.escape(id)}"]`)?.focus();
}

async function submitCorrection(form: HTMLFormElement): Promise<void> {
  const id = form.dataset.board!;
  const f = new FormData(form);
  const field = (k: string) => String(f.get(k) ?? '');
  const built = correctionCommand({
    kind: field('kind'),
    ply: field('ply'),
    move: field('move'),
    result: field('result'),
    side: field('side'),
    time: field('time'),
    by: field('by'),
    reason: field('reason'),
  });
  if (!built.ok) return correctStatus(false, `Not sent: ${built.message}.`);
  correctStatus(true, 'Sending…');
  try {
    const r = await fetch(boardApi(id, 'command'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...authHeaders() },
      body: JSON.stringify(built.command),
    });
    const body = (await r.json().catch(() => ({}))) as { message?: string; state?: Snapshot };
    if (!r.ok) return correctStatus(false, `Refused: ${body.message ?? `the server answered ${r.status}`}.`);
    const note = body.state?.corrections?.at(-1);
    correctStatus(true, `Done${note ? `: ${note.say}` : ''}. It is in the game’s history.`);
    void refreshMoves(id);
  } catch {
    correctStatus(false, 'Not sent: the server could not be reached.');
  }
}

if (mode === 'arbiter') {
  document.addEventListener('click', (ev) => {
    const el = (ev.target as Element | null)?.closest<HTMLElement>('[data-correct], #cf-close');
    if (!el) return;
    if (el.id === 'cf-close') closeCorrection();
    else openCorrection(el.dataset.correct!);
  });
  document.addEventListener('change', (ev) => {
    if ((ev.target as Element | null)?.id === 'cf-kind') showKindFields();
  });
  document.addEventListener('submit', (ev) => {
    const form = ev.target as HTMLFormElement;
    if (form.id !== 'correct-form') return;
    ev.preventDefault();
    void submitCorrection(form);
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && correcting && document.getElementById('club-correct')?.contains(document.activeElement)) closeCorrection();
  });
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
(globalThis as unknown as { crownheadClub: unknown }).crownheadClub = { state: () => state, tourney: () => tourney?.state() ?? null };

socket.connect();
schedule();
