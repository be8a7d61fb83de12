// The player at another board on the page (a game between two stations):
// their line — their move to carry out here, or whose turn it is — and the
// way to their board when it is down, with since when. Pure: the snapshot's
// remote part and the time in, HTML out.

import { sideName, type Side, type Snapshot } from './model.ts';
import { esc } from './html.ts';

type Remote = NonNullable<Snapshot['remote']>;

/** Their line: "Bob (White, at another board) plays 22-18: carry it out on the board.", and the way to their board when it is down. */
export function renderFarPlayer(r: Remote, turn: Side, now?: number): string {
  const doing = r.move
    ? `plays <strong>${esc(r.move.text)}</strong>: carry it out on the board.`
    : turn === r.side
      ? 'moves next.'
      : 'waits for your move.';
  return `<p class="computer remote" role="status">${esc(r.name)} (${sideName(r.side)}, at another board) ${doing}</p>${farLink(r, now)}`;
}

/** "Bob's board has been offline for 40 s: …" — the way to the far board when it is down, and since when (empty while it is up). */
export function farLink(r: Remote, now = Date.now()): string {
  const l = r.link;
  if (!l || l.state === 'online') return '';
  const s = Math.max(0, Math.round((now - l.since) / 1000));
  const took = s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const text =
    l.state === 'offline'
      ? `${r.name}'s board has been offline for ${took}: your move will reach it when it is back.`
      : `The way to ${r.name}'s board has been down for ${took} (the broker cannot be reached): moves are kept here and sent when it is back.`;
  return `<p class="link-down" role="alert" data-link="${l.state}">${esc(text)}</p>`;
}
