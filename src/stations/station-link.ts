// Honest status on a station's own pages: its link to the broker (up, or
// down since when) and, once a hub has paired with it, whether the hub is
// taking its records — a hub that has acknowledged none of the records
// waiting for HUB_SILENT_MS while the broker is up is said to be behind
// ("is it running?"), never while nothing waits, never for a station no hub
// has paired with (a game between two boards alone). Both travel in the
// hello's server part (HubLink) and, when they change, as a hub-link event
// said in words.

import type { MqttClient } from 'mqtt';
import type { Room } from '../server/room.ts';
import type { HubLink } from '../protocol/v1.ts';

/** How long the hub may take none of the records waiting before the station's page says so, ms. */
export const HUB_SILENT_MS = 10_000;
/** How often the station looks, ms. */
const LOOK_MS = 1000;

/** What the page says when the link changes from `was` to `link`. */
function sentence(was: HubLink, link: HubLink, now: number): string {
  if (!link.connected) return `Can't reach the broker at ${link.url}: your moves are kept here and sent when it is back.`;
  if (link.behind) {
    const what = link.behind.records === 1 ? 'record' : `${link.behind.records} records`;
    return `The hub has taken none of your last ${what} for ${Math.round((now - link.behind.since) / 1000)} s — is it running? They are kept here and sent when it is.`;
  }
  if (!was.connected) return `The broker at ${link.url} is back: the moves kept here are sent.`;
  return 'The hub is taking the moves kept here again.';
}

/** Keeps the room's hub link true and tells its pages when it changes; `behind` says what the hub has not taken (null: nothing, or no hub paired). */
export function showTheLink(
  room: Room,
  client: MqttClient,
  url: string,
  now: () => number,
  behind: () => { records: number; since: number } | null,
): void {
  let safe = url;
  try {
    const u = new URL(url);
    [u.username, u.password] = ['', ''];
    safe = u.toString().replace(/\/$/, '');
  } catch {
    // (not a URL: said as given)
  }
  let link: HubLink = { url: safe, connected: client.connected, since: now(), behind: null };
  room.hubLink = () => link;
  /** the broker has been reached once (its first connect is no news: nothing was down) */
  let reached = client.connected;
  const look = (): void => {
    const connected = client.connected;
    const b = connected ? behind() : null;
    const late = b !== null && now() - b.since >= HUB_SILENT_MS ? b : null;
    if (connected === link.connected && (late === null) === (link.behind === null)) {
      if (late && link.behind && late.records !== link.behind.records) link = { ...link, behind: late };
      return;
    }
    const was = link;
    link = { url: safe, connected, since: connected === was.connected ? was.since : now(), behind: late };
    const first = connected && !reached;
    reached ||= connected;
    if (first && !late) return;
    room.pages.notice({ type: 'hub-link', hub: link, say: sentence(was, link, now()) });
  };
  client.on('connect', look);
  client.on('offline', look);
  client.on('close', look);
  const timer = setInterval(look, LOOK_MS);
  timer.unref();
  client.once('end', () => clearInterval(timer));
}
