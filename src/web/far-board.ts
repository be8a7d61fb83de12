// The player at another board on the page (a game between two stations):
// their line — their move to carry out here, or whose turn it is — and the
// way to their board when it is down, with since when; and a station's own
// link to its broker when it is down (any station's page, far game or not).
// Pure: the snapshot's remote part (or the server's hub link) and the time
// in, HTML out.

import type { HubLink } from '../protocol/v1.ts';
import { sideName, type Side, type Snapshot } from './model.ts';
import { esc } from './html.ts';

type Remote = NonNullable<Snapshot['remote']>;

/** Their line: "Bob (White, at another board) plays 22-18: carry it out on the board." ("from a browser" for a friend with no board), and the way to them when it is down. */
export function renderFarPlayer(r: Remote, turn: Side, now?: number): string {
  const doing = r.move
    ? `plays <strong>${esc(r.move.text)}</strong>: carry it out on the board.`
    : turn === r.side
      ? 'moves next.'
      : 'waits for your move.';
  return `<p class="computer remote" role="status">${esc(r.name)} (${sideName(r.side)}, ${whereFrom(r)}) ${doing}</p>${farLink(r, now)}`;
}

/** Where they play from, in words: "at another board", or "from a browser" (a friend with no board). */
export const whereFrom = (r: Pick<Remote, 'where'>): string => (r.where === 'browser' ? 'from a browser' : 'at another board');

/** "Bob's board has been offline for 40 s: …" — the way to the far board when it is down, and since when (empty while it is up). */
export function farLink(r: Remote, now = Date.now()): string {
  const l = r.link;
  if (!l || l.state === 'online') return '';
  const took = lasted(now - l.since);
  const text =
    r.where === 'browser'
      ? `${r.name}'s page has been closed or offline for ${took}: their moves come when it is back.`
      : l.state === 'offline'
        ? `${r.name}'s board has been offline for ${took}: your move will reach it when it is back.`
        : `The way to ${r.name}'s board has been down for ${took} (the broker cannot be reached): moves are kept here and sent when it is back.`;
  return `<p class="link-down" role="alert" data-link="${l.state}">${esc(text)}</p>`;
}

/** "40 s", "2 min 5 s": how long something has lasted. */
function lasted(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "Can't reach the broker at mqtt://…: your moves are kept here and sent when it is back (for 40 s)." — a station's own link, while down. */
export function renderHubLink(h: HubLink, now = Date.now()): string {
  if (h.connected && !h.behind) return '';
  const text = !h.connected
    ? `Can't reach the broker at ${h.url}: your moves are kept here and sent when it is back (for ${lasted(now - h.since)}, since ${new Date(h.since).toLocaleTimeString()}).`
    : `The hub has taken none of your last ${h.behind!.records === 1 ? 'record' : `${h.behind!.records} records`} for ${lasted(now - h.behind!.since)} — is it running? They are kept here and sent when it is.`;
  return `<div class="banner banner-warn" role="alert" data-hub-link="${h.connected ? 'hub-behind' : 'down'}"><span>${esc(text)}</span></div>`;
}
