// The board page's "Play a friend online" panel (its own small script beside
// app.js): the board's player names the friend and the side they take, the
// server starts the game with them and answers with the seat's link and its
// QR code (POST /api/friend); shown here to read out, copy or scan, with
// whether the friend's page is connected, and a way to close the seat.
// Needs control rights (the page's token, if it was opened with one): a
// read-only page shows nothing. (Its answers are checked by hand, not with
// zod: this script stays small beside app.js.)

import type { FriendSeatBody } from '../protocol/play-v1.ts';
import { esc } from './html.ts';

const root = document.getElementById('friend');
const token = new URLSearchParams(location.search).get('token');
const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
let shown = '';

/** The page may not start a friend's game (a watch-only page, club mode): asked once, not again. */
let refused = false;

async function call(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<FriendSeatBody | string> {
  const r = await fetch('/api/friend', {
    method,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json: unknown = await r.json().catch(() => null);
  if (method === 'GET' && (r.status === 403 || r.status === 404)) refused = true;
  if (!r.ok) return (json as { message?: string } | null)?.message ?? `the server answered ${r.status}`;
  return friendBody(json) ?? 'the server answered something this page does not know';
}

/**
 * The answer checked by hand against the protocol's FriendSeatBody (the
 * schema's zod would triple this little script beside app.js, which has its own copy).
 */
function friendBody(json: unknown): FriendSeatBody | null {
  if (typeof json !== 'object' || json === null || !('seat' in json)) return null;
  const seat = (json as { seat: unknown }).seat;
  if (seat === null) return { seat: null };
  const s = seat as Record<string, unknown>;
  const text = (k: string) => typeof s[k] === 'string';
  if (!text('name') || !text('link') || !text('qrSvg') || typeof s.online !== 'boolean') return null;
  if (s.side !== null && s.side !== 'black' && s.side !== 'white') return null;
  if (!/^<svg [^<]*>(<rect [^<]*\/>)?(<path [^<]*\/>)?<\/svg>$/.test(s.qrSvg as string)) return null;
  return { seat: s as NonNullable<FriendSeatBody['seat']> };
}

function form(error = ''): string {
  return `<h2 class="card-title">Play a friend online</h2>
<p class="hint">A friend with no board plays you from their phone or browser: you carry out their moves here.</p>
<form id="friend-form" class="friend-form">
<label>Friend's name <input name="name" required maxlength="60" autocomplete="off"></label>
<label>Your name <input name="host" maxlength="60" autocomplete="off"></label>
<label>Friend plays <select name="side"><option value="white">White (you move first)</option><option value="black">Black (they move first)</option></select></label>
<button type="submit" data-act="friend-start">Play a friend online</button>
</form>${error ? `<p class="friend-error" role="alert">${esc(error)}</p>` : ''}`;
}

function seatView(seat: NonNullable<FriendSeatBody['seat']>): string {
  const side = seat.side ? `plays ${seat.side === 'black' ? 'Black' : 'White'}` : 'is not in the game now';
  return `<h2 class="card-title">Playing a friend online</h2>
<p><strong>${esc(seat.name)}</strong> ${side} from a browser — <span data-friend-online="${seat.online}">${seat.online ? 'their page is connected' : 'their page is not connected'}</span>.</p>
<p>Their link: <a id="friend-link" href="${esc(seat.link)}" target="_blank" rel="noopener">${esc(seat.link)}</a></p>
<div id="friend-qr" class="friend-qr" style="background:#fff;display:inline-block;padding:4px;border-radius:6px">${seat.qrSvg}</div>
<p class="hint">Scan it or send the link. If it names this computer (localhost, 127.0.0.1), start the service with <code>--host 0.0.0.0</code> (and <code>--public-url</code>) so other devices can reach it.</p>
<button type="button" data-act="friend-close">Close the seat (the link stops working)</button>`;
}

async function refresh(error = ''): Promise<void> {
  if (!root) return;
  const got = await call('GET').catch(() => 'the server cannot be reached');
  if (typeof got === 'string') {
    // A page that may only watch has no part in this.
    root.hidden = true;
    return;
  }
  root.hidden = false;
  const html = got.seat ? seatView(got.seat) : form(error);
  if (html !== shown && !(root.contains(document.activeElement) && document.activeElement?.tagName === 'INPUT')) {
    shown = html;
    root.innerHTML = html;
  }
}

root?.addEventListener('submit', (e) => {
  e.preventDefault();
  const f = new FormData(e.target as HTMLFormElement);
  const host = String(f.get('host') ?? '').trim();
  void call('POST', {
    name: String(f.get('name') ?? '').trim(),
    side: f.get('side') === 'black' ? 'black' : 'white',
    ...(host ? { host } : {}),
  }).then((r) => {
    shown = '';
    return refresh(typeof r === 'string' ? r : '');
  });
});
root?.addEventListener('click', (e) => {
  if ((e.target as Element).closest('[data-act="friend-close"]'))
    void call('DELETE').then(() => {
      shown = '';
      return refresh();
    });
});

void refresh();
const poll = setInterval(() => (refused ? clearInterval(poll) : void refresh()), 5000);
