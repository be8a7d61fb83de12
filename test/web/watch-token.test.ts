// Spectators on other devices, in a real browser (Debian
// chromium via playwright-core) that reaches the club service by a name that
// is not this machine's ("club.test", mapped to 127.0.0.1), as a phone on the
// club's network does: /watch?token=WATCH shows the boards and every "Follow
// board N" link carries the watch token on to a read-only board page (whose
// download works with it); with --public-watch, /watch needs no token and the
// board pages it links to open read-only; a board page refused for lack of a
// token says so once, in words, and does not knock again.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import type { Service } from '../../src/server/service.ts';
import { removeTempDirs, setUp, startClub, tempDir } from '../server/helpers.ts';

const WAIT = 15_000;
const TOKEN = 'ctrl-5Rt8-watch-token';
const WATCH = 'watch-9Lm2-watch-token';

let browser: Browser;
const services: Service[] = [];

/** A club of two simulated boards that needs a token from other devices (`publicWatch`: the broadcast open to anyone). */
async function club(publicWatch: boolean): Promise<Service> {
  const sims = [1, 2].map((n) => new SimBoard({ clock: 'manual', seed: 30 + n, id: `SIM-${n}` }));
  const s = await startClub(
    { sources: sims },
    {
      storage: { gamesDir: join(tempDir('crownhead-watch-token-'), 'games') },
      http: { requireToken: true, token: TOKEN, readToken: WATCH, publicWatch },
    },
  );
  services.push(s);
  for (const sim of sims) setUp(sim);
  return s;
}

beforeAll(async () => {
  // Another device: the page's Host is not a loopback name, so only a token (or a public broadcast) lets it watch.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP club.test 127.0.0.1'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const s of services.splice(0)) await s.close();
  removeTempDirs();
});

const at = (s: Service, path: string) => `http://club.test:${s.port}/${path}`;

/** Follows board 1's link from /watch in a new tab; the tab once its page has its first answer from the server. */
async function followBoard1(page: Page): Promise<Page> {
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.locator('a[data-open="SIM-1"]').click({ modifiers: ['Control'] }),
  ]);
  await tab.waitForFunction(() => !!(window as any).crownhead?.state().server, null, { timeout: WAIT });
  return tab;
}

describe('spectators on other devices', () => {
  it('/watch?token= (the watch token) shows the boards, and each board’s link carries it on to a read-only page', async () => {
    const s = await club(false);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(at(s, `watch?token=${WATCH}`));
      await page.waitForSelector('#club-conn [data-connection="open"]', { timeout: WAIT });
      await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 2, null, { timeout: WAIT });
      expect(await page.locator('[data-forbidden]').count()).toBe(0);
      expect(await page.locator('a[data-open="SIM-1"]').getAttribute('href')).toBe(`/boards/SIM-1/?token=${WATCH}`);
      const tab = await followBoard1(page);
      const server = await tab.evaluate(() => (window as any).crownhead.state().server);
      expect(server.readOnly).toBe(true);
      expect(await tab.evaluate(() => (window as any).crownhead.state().connection)).toBe('open');
      await tab.waitForSelector('#board svg.board-svg', { timeout: WAIT });
      // Its socket left the token as a cookie on the board's API: the page's download works from this device.
      expect(await tab.evaluate(() => fetch('api/current.pdn').then((r) => r.status))).toBe(200);
      await tab.close();
      // Opened with the control token, the spectators' page swaps it for the watch token: no spectators' page holds it.
      await page.goto(at(s, `watch?token=${TOKEN}`));
      expect(new URL(page.url()).search).toBe(`?token=${WATCH}`);
      await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 2, null, { timeout: WAIT });
      expect(await page.content()).not.toContain(TOKEN);
    } finally {
      await page.close();
    }
  });

  it('with --public-watch, the board pages /watch links to open read-only (no token, no retrying)', async () => {
    const s = await club(true);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(at(s, 'watch'));
      await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 2, null, { timeout: WAIT });
      expect(await page.locator('a[data-open="SIM-1"]').getAttribute('href')).toBe('/boards/SIM-1/');
      const tab = await followBoard1(page);
      expect(await tab.evaluate(() => (window as any).crownhead.state().server.readOnly)).toBe(true);
      expect(await tab.evaluate(() => (window as any).crownhead.state().connection)).toBe('open');
      // A public spectator is not told where the server keeps its games.
      expect(await tab.evaluate(() => (window as any).crownhead.state().server.gamesDir)).toBeUndefined();
      await tab.waitForSelector('#board svg.board-svg', { timeout: WAIT });
      await tab.close();
    } finally {
      await page.close();
    }
  });

  it('a board page refused for lack of a token says so once, in words, and stops trying', async () => {
    const s = await club(false);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    try {
      await page.goto(at(s, 'boards/SIM-1/'));
      await page.waitForSelector('[data-refused]', { timeout: WAIT });
      expect(await page.locator('[data-refused]').innerText()).toMatch(
        /^Not allowed\. Requests without a token .*not "club\.test:\d+"\. The page does not try again\.$/s,
      );
      expect(await page.locator('[data-refused]').count()).toBe(1);
      await page.waitForFunction(() => (window as any).crownhead?.state().connection === 'refused', null, { timeout: WAIT });
      // Refused: it does not keep knocking (a retry would come within a second).
      await page.waitForTimeout(1_500);
      expect(sockets).toHaveLength(1);
      expect(await page.locator('[data-refused]').count()).toBe(1);
    } finally {
      await page.close();
    }
  });
});
