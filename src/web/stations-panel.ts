// The hub's stations on the arbiter's page (/arbiter on a hub): every paired
// board with its station's key fingerprint, whether it is online, and the
// messages the hub refused for it and why ("board NORTH: 3 messages refused —
// not signed by its station"), and those for boards nobody paired; loaded
// from GET /api/stations every few seconds. Not a hub (the call answers 404):
// the panel stays hidden. Rendering is a pure function of the list. The
// hub's own link to the broker, as last read, is kept for the page's
// connection pill (not a green "Live" while the hub is cut off).

import { esc } from './html.ts';
import type { Refusals, StationsList } from '../protocol/stations-v1.ts';

export type { StationsList };

type Refused = Refusals;

const refusedText = (r: Refused): string =>
  `${r.count === 1 ? '1 message' : `${r.count} messages`} refused — ${r.last}${r.claim && r.claim !== r.last ? `; last refused claim: ${r.claim}` : ''}`;

/** The panel's HTML: the hub's way to the broker when it is down, one row a paired board, then what came for boards nobody paired. */
export function renderStations(list: StationsList, now = Date.now()): string {
  const b = list.broker;
  const down = !b.connected
    ? `<p class="refused" role="alert" data-broker="down">The hub cannot reach the broker${b.since ? ` (for ${Math.max(0, Math.round((now - b.since) / 1000))} s)` : ''}: the boards' moves are kept on their stations and arrive when it is back; what is shown here may be behind.</p>`
    : '';
  const rows = list.stations
    .map(
      (s) =>
        `<li data-station="${esc(s.board)}" class="${s.online ? 'online' : 'offline'}"><strong>${esc(s.board)}</strong> ` +
        `<span class="pill ${s.online ? 'pill-ok' : 'pill-bad'}">${s.online ? 'online' : 'offline'}</span> ` +
        `<span class="note">key ${esc(s.key)}</span>${s.refused ? ` <span class="refused">${esc(refusedText(s.refused))}</span>` : ''}</li>`,
    )
    .join('');
  const none = list.stations.length === 0 ? '<li class="note">No station has paired yet.</li>' : '';
  const unpaired = list.unpaired ? `<p class="refused" data-unpaired>Boards nobody paired: ${esc(refusedText(list.unpaired))}</p>` : '';
  return `<h2 id="stations-title">Stations</h2>${down}<ul class="stations-list">${rows}${none}</ul>${unpaired}`;
}

let broker: StationsList['broker'] | null = null;
/** The hub's own link to the broker as last read (null: not read yet, or not a hub): the page's pill is not "Live" while it is down. */
export function hubBroker(): StationsList['broker'] | null {
  return broker;
}

/**
 * Loads the list every `everyMs` into the #club-stations section (shown only on a hub); `show` false (/watch):
 * only the hub's link to the broker is kept, for the pill.
 */
export function startStationsPanel(token: string | null, everyMs = 3000, show = true): void {
  const panel = show ? document.getElementById('club-stations') : null;
  if (show && !panel) return;
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let shown = '';
  const load = async (): Promise<void> => {
    try {
      const r = await fetch('/api/stations', { headers, cache: 'no-store' });
      if (r.status === 404) return void (panel && (panel.hidden = true)); // (not a hub: no stations, and no asking again)
      if (r.status === 403) return; // (this page may not read it: the page says why it is refused; no asking again)
      if (r.ok) {
        const list = (await r.json()) as StationsList;
        broker = list.broker;
        const html = panel ? renderStations(list) : '';
        if (panel) panel.hidden = false;
        if (panel && html !== shown) panel.innerHTML = shown = html;
      }
    } catch {
      /* the connection pill says the server is out of reach */
    }
    setTimeout(() => void load(), everyMs);
  };
  void load();
}
