// The board page's endgame-database card (its own small script beside
// app.js, as the friend's card): asks the service how the 5-piece database
// stands (GET /api/egdb), draws it (egdb-view.ts), starts or stops a build
// (POST / DELETE /api/egdb/build: the board's player, with the page's token
// if it was opened with one; a refusal is shown in its own words), and asks
// again every 2 s while it builds, every 30 s otherwise.

import { egdbView, readEgdbView, type EgdbStatus } from './egdb-view.ts';

const root = document.getElementById('egdb');
const token = new URLSearchParams(location.search).get('token');
const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
let shown = '';
let last: EgdbStatus | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

async function call(method: 'GET' | 'POST' | 'DELETE'): Promise<EgdbStatus | string> {
  const r = await fetch(method === 'GET' ? '/api/egdb' : '/api/egdb/build', { method, headers });
  const json: unknown = await r.json().catch(() => null);
  if (!r.ok) return (json as { message?: string } | null)?.message ?? `the server answered ${r.status}`;
  return readEgdbView(json) ?? 'the server answered something this page does not know';
}

function draw(v: EgdbStatus, error = ''): void {
  if (!root) return;
  last = v;
  root.hidden = false;
  const html = egdbView(v, error);
  if (html !== shown) {
    shown = html;
    root.innerHTML = html;
  }
}

async function refresh(): Promise<void> {
  clearTimeout(timer);
  const got = await call('GET').catch(() => 'the server cannot be reached');
  if (typeof got !== 'string') draw(got);
  else if (!last && root) root.hidden = true; // a page that may not read it: nothing to show
  timer = setTimeout(() => void refresh(), last?.state === 'building' ? 2000 : 30_000);
}

root?.addEventListener('click', (e) => {
  const act = (e.target as Element).closest('[data-act]')?.getAttribute('data-act');
  if (act !== 'egdb-build' && act !== 'egdb-stop') return;
  void call(act === 'egdb-build' ? 'POST' : 'DELETE').then((r) => {
    if (typeof r === 'string' && last) draw(last, r);
    else if (typeof r !== 'string') draw(r);
    timer = setTimeout(() => void refresh(), 500);
  });
});

void refresh();
