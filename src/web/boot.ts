// The page's first script (a few hundred bytes, inline in the HTML's head, run
// as the HTML is read): opens the WebSocket at once, so the server's hello
// (the game to draw) is on its way and heard while the page's main script
// (app.js) downloads and compiles; what arrives is kept in order until
// socket.ts takes the socket over. If this never runs (or only after app.js
// connected by itself), socket.ts has its own connection and this opens none.

import { EARLY_SOCKET, socketUrl, type EarlySocket } from './base.ts';

/** Messages kept for socket.ts at the most (the hello and a few seconds of clock ticks and counts are a handful). */
const KEEP_AT_MOST = 200;

// browser edge: the hand-over to socket.ts is a property of the page's global object
const g = globalThis as unknown as Record<string, EarlySocket | null | undefined>;
if (g[EARLY_SOCKET] === undefined) openEarly();

function openEarly(): void {
  const url = socketUrl(location, new URLSearchParams(location.search).get('token'));
  let ws: WebSocket;
  try {
    ws = new WebSocket(url);
  } catch {
    return; // no WebSocket here (or a bad address): socket.ts connects, and says so, as usual
  }
  const early: EarlySocket = { url, ws, opened: false, closed: false, messages: [] };
  ws.onopen = () => {
    early.opened = true;
    performance.mark('crownhead-socket-open');
  };
  ws.onmessage = (e) => {
    if (typeof e.data !== 'string') return;
    if (!early.messages.length) performance.mark('crownhead-first-message');
    early.messages.push(e.data);
    // Nobody took it over (app.js did not load): stop keeping messages; socket.ts, if it comes, connects anew.
    if (early.messages.length >= KEEP_AT_MOST) ws.close();
  };
  ws.onclose = () => {
    early.closed = true;
  };
  g[EARLY_SOCKET] = early;
}
