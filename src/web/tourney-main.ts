// The arbiter's tournament panel in the browser (on /arbiter): loads GET
// /api/tournament into the panel's state (tourney-state.ts), draws it
// (tourney-render.ts), and sends the arbiter's actions — create, add a
// player, withdraw one, pair and start a round, enter or correct a result —
// to the tournament API with the page's control token, then loads again. The
// boards' socket says when a game ends at a board (`boardsChanged`): the
// panel loads again then too. A refusal is shown in the server's words.

import {
  createCall,
  initialTourney,
  playerCall,
  readTourney,
  reduceTourney,
  resultCall,
  withdrawCall,
  type TourneyAction,
  type TourneyCall,
  type TourneyState,
} from './tourney-state.ts';
import { renderTourney } from './tourney-render.ts';

export interface TourneyPanel {
  /** the boards' results or rounds changed (a game ended at a board): load the tournament again */
  boardsChanged(): void;
  state(): TourneyState;
}

/** Puts the panel's new HTML in, keeping the focused element and what is typed in its fields (a select's value only if still offered). */
function replaceKeepingInput(panel: HTMLElement, html: string): void {
  const active = document.activeElement instanceof HTMLElement && panel.contains(document.activeElement) ? document.activeElement.id : '';
  const typed = new Map<string, string>();
  for (const el of panel.querySelectorAll<HTMLInputElement>('input[type="text"], input:not([type]), select'))
    if (el.id) typed.set(el.id, el.value);
  panel.innerHTML = html;
  for (const [id, value] of typed) {
    const el = document.getElementById(id) as HTMLInputElement | null;
    if (el && el.id !== 'tt-game' && [...(el instanceof HTMLSelectElement ? el.options : [{ value }])].some((o) => o.value === value))
      el.value = value;
  }
  if (active) document.getElementById(active)?.focus();
}

/** GET /api/tournament as the action it comes to: loaded (or none), or a status saying why it could not be read. */
async function fetchTourney(headers: Record<string, string>): Promise<TourneyAction> {
  try {
    const r = await fetch('/api/tournament', { headers, cache: 'no-store' });
    if (r.status === 404) return { type: 'loaded', data: 'none' };
    if (r.ok) {
      const read = readTourney(await r.json());
      if (read.ok) return { type: 'loaded', data: read.data };
      return {
        type: 'status',
        ok: false,
        text: `The tournament could not be read: the server's answer is not one (${read.problem}).`,
      };
    }
    return { type: 'status', ok: false, text: `The tournament could not be read (the server answered ${r.status}).` };
  } catch {
    return { type: 'status', ok: false, text: 'The tournament could not be read: the server could not be reached.' };
  }
}

/** A form's fields by name. */
function fields(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) out[k] = String(v);
  return out;
}

/** The API call a submitted form of the panel asks for, checked; null for a form that is none of the panel's. */
function formCall(id: string, f: Record<string, string>): ReturnType<typeof createCall> | null {
  return id === 'tt-create' ? createCall(f) : id === 'tt-player' ? playerCall(f) : id === 'tt-result' ? resultCall(f) : null;
}

/** What the panel says once a form's call is done. */
function doneWords(id: string, f: Record<string, string>): string {
  return id === 'tt-create'
    ? 'Tournament created: add the players.'
    : id === 'tt-player'
      ? `${f.name?.trim()} added.`
      : 'Result set: the standings, the game’s PDN and the broadcast show it.';
}

/** POSTs a call to the tournament API: null when it is taken, else the refusal in the server's words. */
async function postTourney(call: TourneyCall, headers: Record<string, string>): Promise<string | null> {
  const r = await fetch(`/api/tournament${call.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(call.body),
  });
  const body = (await r.json().catch(() => ({}))) as { message?: string };
  return r.ok ? null : `Refused: ${body.message ?? `the server answered ${r.status}`}.`;
}

/** A game chosen from the table: the result form shows it, scrolled to, its result field focused. */
function showResultForm(game: string): void {
  const select = document.getElementById('tt-game') as HTMLSelectElement | null;
  if (select) select.value = game;
  document.getElementById('tt-result')?.scrollIntoView({ block: 'start' });
  document.getElementById('tt-res')?.focus();
}

export function startTourneyPanel(token: string | null): TourneyPanel {
  const panel = document.getElementById('club-tourney');
  let state = initialTourney();
  let shown = '';
  let loading: Promise<void> | null = null;
  let again = false;
  const headers = (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

  function dispatch(a: TourneyAction): void {
    state = reduceTourney(state, a);
    draw();
  }

  /** Redraws the panel, keeping the focus and what is typed in its forms. */
  function draw(): void {
    if (!panel) return;
    const html = renderTourney(state, token);
    if (html === shown) return;
    replaceKeepingInput(panel, html);
    shown = html;
  }

  async function load(): Promise<void> {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => dispatch(await fetchTourney(headers())))();
    await loading;
    loading = null;
    if (again) {
      again = false;
      await load();
    }
  }

  async function send(call: TourneyCall, done: string): Promise<void> {
    dispatch({ type: 'status', ok: true, text: 'Sending…' });
    try {
      const refused = await postTourney(call, headers());
      if (refused) return dispatch({ type: 'status', ok: false, text: refused });
      await load();
      dispatch({ type: 'status', ok: true, text: done });
    } catch {
      dispatch({ type: 'status', ok: false, text: 'Not sent: the server could not be reached.' });
    }
  }

  panel?.addEventListener('submit', (ev) => {
    const form = ev.target as HTMLFormElement;
    ev.preventDefault();
    const f = fields(form);
    const checked = formCall(form.id, f);
    if (!checked) return;
    if (!checked.ok) return dispatch({ type: 'status', ok: false, text: `Not sent: ${checked.message}.` });
    const done = doneWords(form.id, f);
    if (form.id === 'tt-player') (form.querySelector('#tt-pname') as HTMLInputElement).value = '';
    void send(checked.call, done);
  });

  panel?.addEventListener('click', (ev) => {
    const el = (ev.target as Element | null)?.closest<HTMLElement>('[data-tt-act], [data-tt-choose], [data-tt-withdraw]');
    if (!el) return;
    if (el.dataset.ttChoose) {
      dispatch({ type: 'choose', game: el.dataset.ttChoose });
      showResultForm(el.dataset.ttChoose);
    } else if (el.dataset.ttWithdraw) {
      const seed = Number(el.dataset.ttWithdraw);
      void send(withdrawCall(seed, 'withdrawn by the arbiter'), 'Player withdrawn: they are paired no more.');
    } else if (el.dataset.ttAct === 'pair') void send({ path: '/pair', body: {} }, 'Round paired: start it when the boards are set.');
    else if (el.dataset.ttAct === 'start-round') void send({ path: '/start-round', body: {} }, 'Round started: each board has its game.');
  });

  void load();
  return { boardsChanged: () => void load(), state: () => state };
}
