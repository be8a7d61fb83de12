// The friend's seat page (/play/<token>): the browser side of a player who
// has no board. It keeps one reconnecting socket to /play/<token>/ws
// (reconnecting-socket.ts), folds what the server says into its state
// (play-state.ts), draws it (play-render.ts), and sends the friend's moves —
// a piece tapped then its landing(s), or dragged there, or by keyboard (Tab
// to a square that does something, Enter or Space) — and their resign,
// draw, takeback and rematch as seat actions (src/protocol/play-v1.ts).

import './play.css';
import { ReconnectingSocket } from './reconnecting-socket.ts';
import { clockFace, clockNow, initialPlay, onMessage, tap, type PlayState } from './play-state.ts';
import { renderPlay } from './play-render.ts';
import type { SeatAction } from '../protocol/play-v1.ts';

const token = /^\/play\/([^/]+)/.exec(location.pathname)?.[1] ?? '';
const root = document.getElementById('play')!;
let state: PlayState = initialPlay();
let ids = 0;

function draw(): void {
  // A keyboard player keeps their place: the square focused before is focused again (or the first that does something now).
  const focused = document.activeElement?.closest('[data-sq]')?.id ?? null;
  root.innerHTML = renderPlay(state, token, Date.now());
  if (focused === null) return;
  const again = document.getElementById(focused);
  const to = again?.hasAttribute('tabindex') ? again : root.querySelector<SVGElement>('[data-sq][tabindex]');
  (to as HTMLElement | SVGElement | null)?.focus();
}

function set(next: PlayState): void {
  state = next;
  // (A seat that ended never opens again by this link: no more tries.)
  if (state.ended) socket.stop();
  draw();
}

const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/play/${token}/ws`;
const socket = new ReconnectingSocket(url, {
  message: (raw) => set(onMessage(state, raw, Date.now())),
  open: () => set({ ...state, connected: true }),
  closed: () => set({ ...state, connected: false }),
});

function send(act: SeatAction): void {
  if (!socket.send(JSON.stringify({ v: 1, type: 'act', id: `p${++ids}`, act })))
    set({ ...state, error: 'not connected to the board: trying again…' });
}

function tapped(square: number): void {
  const r = tap(state, square);
  set(r.state);
  if (r.send) send({ name: 'move', ply: state.snap?.moves.length ?? 0, path: r.send });
}

const squareAt = (x: number, y: number): number | null => {
  const el = document.elementFromPoint(x, y)?.closest('[data-sq]');
  return el ? Number(el.getAttribute('data-sq')) : null;
};

// Click-click and drag: the square pressed picks (or lands), the square let go over lands when it is another.
let down: number | null = null;
root.addEventListener('pointerdown', (e) => {
  const sq = squareAt(e.clientX, e.clientY);
  if (sq === null) return;
  e.preventDefault();
  down = sq;
  tapped(sq);
});
root.addEventListener('pointerup', (e) => {
  const from = down;
  down = null;
  if (from === null) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (sq !== null && sq !== from && state.picked.length) tapped(sq);
});

root.addEventListener('keydown', (e) => {
  const sq = (e.target as Element).closest?.('[data-sq]');
  if (!sq || (e.key !== 'Enter' && e.key !== ' ')) return;
  e.preventDefault();
  tapped(Number(sq.getAttribute('data-sq')));
});

root.addEventListener('click', (e) => {
  const b = (e.target as Element).closest('[data-act]');
  const act = b?.getAttribute('data-act');
  if (!act || act === 'pdn') return;
  switch (act) {
    case 'resign':
      if (!state.armed) return set({ ...state, armed: true });
      set({ ...state, armed: false });
      return send({ name: 'resign' });
    case 'takeback-agree':
      return send({ name: 'takeback-answer', accept: true });
    case 'takeback-refuse':
      return send({ name: 'takeback-answer', accept: false });
    case 'offer-draw':
    case 'accept-draw':
    case 'decline-draw':
    case 'takeback':
    case 'rematch':
      return send({ name: act });
  }
});

// The running clock between the server's ticks.
setInterval(() => {
  const c = clockNow(state, Date.now());
  if (!c) return;
  for (const el of root.querySelectorAll<HTMLElement>('[data-clock]')) {
    const side = el.dataset.clock === 'black' ? 'black' : 'white';
    el.textContent = clockFace(c[side]);
  }
}, 200);

draw();
socket.connect();
