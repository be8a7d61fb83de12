// Bench helper for bench/club.ts: COUNT spectators on one /watch/ws URL, in a
// process of their own (so their cost is not the service's). Reports to the
// parent when all are connected, and for each board update the wall time
// (ms since the epoch) at which the LAST spectator received it.
import WebSocket from 'ws';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const seen = new Map();
let open = 0;
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(url);
  ws.on('open', () => {
    if (++open === count) process.send({ connected: open });
  });
  ws.on('error', () => {});
  ws.on('message', (data) => {
    // (A page parses every message; here only the two numbers are read, so the
    // spectators' own process stays light and the figure is the service's.)
    const text = String(data);
    if (!text.startsWith('{"v":1,"type":"board"')) return;
    const number = /"number":(\d+)/.exec(text)?.[1];
    const plies = /"plies":(\d+)/.exec(text)?.[1];
    const m = { board: { number: Number(number), plies: Number(plies) } };
    const key = `${m.board.number}:${m.board.plies}`;
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    if (k === count)
      process.send({ type: 'last', board: m.board.number, plies: m.board.plies, t: performance.timeOrigin + performance.now() });
  });
}
