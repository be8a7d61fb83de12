// The page's entry point: wires the WebSocket client, the reducer (state.ts)
// and the renderer (render.ts) to the DOM. Owns the DOM only: regions are
// re-rendered when their HTML changes (keeping keyboard focus), clicks on
// elements with data-act become local actions or server commands, the
// forms become new-game / set-tags commands, announcements are played as
// tones, spoken, and written to the ARIA live regions.

import './style.css';
import type { Command } from '../server/messages.ts';
import { canControl, clockNow, handCommand, initialState, isArmed, reduce, statusHeadline, type Action, type ViewState } from './state.ts';
import { formatClock, renderForms, renderRegions } from './render.ts';
import { ServerSocket } from './socket.ts';
import { Sounds, Speech } from './sound.ts';
import { squareXY, type Side } from './model.ts';

const PREFS_KEY = 'crownhead.prefs';
const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

let state: ViewState = initialState();
const sounds = new Sounds();
const speech = new Speech();
const token = new URLSearchParams(location.search).get('token');
const socket = new ServerSocket(ServerSocket.urlFor(location, token), {
  message: (raw) => dispatch({ type: 'message', raw, now: Date.now() }, raw),
  open: () => dispatch({ type: 'socket', state: 'open', now: Date.now() }),
  closed: (retryInMs) => dispatch({ type: 'socket', state: 'closed', now: Date.now(), retryInMs }),
}, token);

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
  } catch {
    // ignore
  }
}

let lastSeq = 0;
let scheduled = false;

function dispatch(action: Action, raw?: string): void {
  const before = state;
  state = reduce(state, action);
  if (state.invalid !== before.invalid) console.warn('crownhead: ignored an invalid message:', state.lastInvalid, raw?.slice(0, 300));
  if (state === before) return;
  if (state.flipped !== before.flipped || state.sound !== before.sound || state.speech !== before.speech) savePrefs();
  if (state.speech !== before.speech && !state.speech) speech.stop();
  perform();
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
  if (a.text) {
    if (state.speech) speech.say(a.text, a.urgent);
    const region = $(a.urgent ? 'live-assertive' : 'live-polite');
    // Clear first so the same sentence twice is announced twice.
    region.textContent = '';
    setTimeout(() => { region.textContent = a.text; }, 30);
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

function render(): void {
  const now = Date.now();
  const regions = renderRegions(state, now);
  for (const [id, html] of Object.entries(regions)) patch(id, html);
  const control = canControl(state);
  $('forms').hidden = !(state.server && !state.server.readOnly);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#forms button[type=submit]')) b.disabled = !control;
  document.body.classList.toggle('readonly', !!state.server?.readOnly);
  document.body.dataset.status = state.status.kind;
  const h = statusHeadline(state);
  document.title = `${h.title} · Crownhead`;
}

/** Between messages: count the running clock down, the reconnect countdown, expiring hand actions. */
function tick(): void {
  const now = Date.now();
  if (state.pending.length || state.armed) dispatch({ type: 'tick', now });
  const c = clockNow(state, now);
  if (c && c.running) {
    for (const side of ['black', 'white'] as Side[]) {
      const el = document.querySelector<HTMLElement>(`[data-clock=${side}]`);
      if (!el) continue;
      el.textContent = c.flagged === side ? '0:00' : formatClock(c[side]);
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
  const c = handCommand(state, square, { crown, now: Date.now() });
  if (c) send(c);
}

function onAct(el: HTMLElement, e: MouseEvent | KeyboardEvent): void {
  const act = el.dataset.act!;
  const side = el.dataset.side as Side | undefined;
  const now = Date.now();
  switch (act) {
    case 'square':
      onSquare(Number(el.dataset.sq), e.shiftKey || e.altKey);
      return;
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
    case 'takeback':
      send({ name: 'takeback' });
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

/** Arrow keys move between the dark squares as they are drawn. */
function moveFocus(from: number, key: string): void {
  const p = squareXY(from, state.flipped);
  const at = new Map<string, number>();
  for (let s = 1; s <= 32; s++) { const q = squareXY(s, state.flipped); at.set(`${q.x},${q.y}`, s); }
  const tries: [number, number][] = key === 'ArrowUp' ? [[1, -1], [-1, -1]]
    : key === 'ArrowDown' ? [[-1, 1], [1, 1]]
    : key === 'ArrowLeft' ? [[-2, 0], [-1, -1], [-1, 1]]
    : [[2, 0], [1, 1], [1, -1]];
  for (const [dx, dy] of tries) {
    const s = at.get(`${p.x + dx},${p.y + dy}`);
    if (s) { document.getElementById(`sq-${s}`)?.focus(); return; }
  }
}

// ------------------------------------------------------------------ forms

type FormEls = HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLSelectElement | RadioNodeList>;
const val = (form: HTMLFormElement, name: string): string => {
  const el = (form.elements as FormEls)[name] as HTMLInputElement | HTMLSelectElement | RadioNodeList | undefined;
  return el ? String(el.value).trim() : '';
};
const setVal = (form: HTMLFormElement, name: string, v: string): void => {
  const el = (form.elements as FormEls)[name] as HTMLInputElement | undefined;
  if (el && document.activeElement !== el) el.value = v;
};

function fillNames(form: HTMLFormElement): void {
  const tags = state.snap?.tags ?? {};
  for (const k of ['Black', 'White', 'Event']) setVal(form, k, tags[k] ?? '');
}

function wireForms(): void {
  $('forms').innerHTML = renderForms();
  const ng = $<HTMLFormElement>('new-game-form');
  const names = $<HTMLFormElement>('names-form');
  const syncFrom = () => { ng.dataset.from = val(ng, 'from') || 'start'; };
  syncFrom();
  ng.addEventListener('change', syncFrom);
  for (const [card, form] of [['new-game-card', ng], ['names-card', names]] as const) {
    $(card).addEventListener('toggle', () => { if (($(card) as HTMLDetailsElement).open) fillNames(form); });
  }
  ng.addEventListener('submit', (e) => {
    e.preventDefault();
    const tags: Record<string, string> = {};
    for (const k of ['Black', 'White', 'Event']) { const v = val(ng, k); if (v) tags[k] = v; }
    const from = val(ng, 'from');
    const cmd: Command = { name: 'new-game', ...(Object.keys(tags).length ? { tags } : {}) };
    if (from === 'fen') {
      const fen = val(ng, 'fen');
      if (!fen) { ($(`new-game-form`).querySelector('[name=fen]') as HTMLInputElement).focus(); return; }
      cmd.fen = fen;
    } else if (from === 'ballot') {
      const b = val(ng, 'ballot');
      const n = Number(b);
      cmd.ballot = b === '' ? 'random' : Number.isInteger(n) && n >= 1 && n <= 174 ? n : 'random';
    } else {
      const first = val(ng, 'first');
      if (first === 'white' || first === 'random') cmd.firstPlayer = first;
    }
    send(cmd);
    ($('new-game-card') as HTMLDetailsElement).open = false;
  });
  names.addEventListener('submit', (e) => {
    e.preventDefault();
    send({ name: 'set-tags', tags: { Black: val(names, 'Black'), White: val(names, 'White'), Event: val(names, 'Event') } });
    ($('names-card') as HTMLDetailsElement).open = false;
  });
}

// ------------------------------------------------------------------ start

function start(): void {
  loadPrefs();
  wireForms();
  const unlock = () => sounds.unlock();
  document.addEventListener('pointerdown', unlock, { capture: true });
  document.addEventListener('keydown', unlock, { capture: true });
  document.addEventListener('click', (e) => {
    const el = (e.target as Element).closest<HTMLElement>('[data-act]');
    if (el && !(el as HTMLButtonElement).disabled) onAct(el, e);
  });
  document.addEventListener('keydown', (e) => {
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
  document.addEventListener('visibilitychange', () => { if (!document.hidden) socket.nudge(); });
  setInterval(tick, 200);
  render();
  socket.connect();
  (globalThis as unknown as { crownhead: unknown }).crownhead = { state: () => state };
}

start();
