// First render of the page in headless Chromium (Debian's /usr/bin/chromium
// via playwright-core) against the real service on loopback: the time from
// navigation start to the first render of the game (the page's
// `crownhead-first-render` performance mark: HTML, script, WebSocket hello and
// the board drawn). Fresh browser context each load (cold HTTP cache, as a
// new visitor); the median and spread of the runs are printed, never clamped.
// Run: node bin/run-ts.js bench/page-render.ts [--json] (--json: the raw times as one more line, to pool runs side by side)

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const RUNS = 15;
const dir = mkdtempSync(join(tmpdir(), 'crownhead-bench-render-'));
// The service in its own process, as `crownhead serve` runs (the browser driver here does not share its event loop).
const child = spawn(
  process.execPath,
  [
    join(import.meta.dirname, '../bin/crownhead.js'),
    'serve',
    '--board',
    'sim',
    '--port',
    '0',
    '--games',
    join(dir, 'games'),
    '--log-level',
    'info',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  const look = (b: Buffer) => {
    out += b.toString();
    const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
    if (m) resolve(m[0]);
  };
  child.stdout.on('data', look);
  child.stderr.on('data', look);
  child.on('exit', (code) => reject(new Error(`crownhead serve exited (${code}) before printing its address:\n${out}`)));
  setTimeout(() => reject(new Error(`crownhead serve printed no address in 30 s:\n${out}`)), 30_000);
});
const svc = {
  url,
  close: async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  },
};
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
/** Runs in each page before its own scripts: says when the page marks its first render. */
const OBSERVE_MARK = `new PerformanceObserver((list, observer) => {
  for (const e of list.getEntries())
    if (e.name === 'crownhead-first-render') {
      observer.disconnect();
      console.log('crownhead-first-render ' + e.startTime);
    }
}).observe({ type: 'mark' });`;
const times: number[] = [];
const parts: Record<string, number[]> = { html: [], 'script run': [], 'socket open': [], hello: [], parsed: [], 'render start': [] };
try {
  for (let i = 0; i < RUNS + 2; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await ctx.newPage();
    // The mark is reported by a PerformanceObserver set up as the document starts (a console line, read over the
    // DevTools protocol): nothing is evaluated in the page while it loads and draws. (playwright's waitForFunction
    // first compiled its injected script there, on the page's main thread, just while the page drew.)
    await page.addInitScript(OBSERVE_MARK);
    const seen = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('crownhead-first-render '), timeout: 15_000 });
    await page.goto(svc.url);
    const ms = Number((await seen).text().split(' ')[1]);
    const p = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const at = ['crownhead-script', 'crownhead-socket-open', 'crownhead-first-message', 'crownhead-parsed', 'crownhead-render-start'].map(
        (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN,
      );
      return { html: nav.responseEnd, 'script run': at[0], 'socket open': at[1], hello: at[2], parsed: at[3], 'render start': at[4] };
    });
    if (i >= 2) {
      // two warm-up loads (the service's first requests, the browser's start-up)
      times.push(ms);
      for (const [k, v] of Object.entries(p)) parts[k].push(v);
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `  medians since navigation start: ${Object.entries(parts)
    .map(([k, v]) => `${k} ${med(v).toFixed(0)} ms`)
    .join(', ')}, first render ${med(times).toFixed(0)} ms`,
);
console.log(
  `first render in headless Chromium (loopback, cold context), ${RUNS} loads: median ${q(0.5).toFixed(0)} ms (min ${times[0].toFixed(0)}, p90 ${q(0.9).toFixed(0)}, max ${times[times.length - 1].toFixed(0)}); target ≤ 300 ms`,
);
if (process.argv.includes('--json')) console.log(JSON.stringify({ firstRender: times, parts }));
