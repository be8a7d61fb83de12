// The page's engine work in a real browser (Debian
// chromium via playwright-core) against the real service on the simulated
// board with the real engine, at a desktop (1280×800) and a phone (390×844)
// viewport: engine work shows progress (Hint's spinner, the analysis' moves
// checked of total), can't be asked twice by a double press, and can be
// cancelled (the server stops the search). Screenshots go to scratch/ (not
// committed).

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { clickConfirmed, launchChromium } from './chromium.ts';
import { startService } from '../../src/server/service.ts';
import { pino } from 'pino';

const SHOTS = join(import.meta.dirname, '../../scratch');
const WAIT = 15_000;

let svc: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-engine-work-'));
  mkdirSync(SHOTS, { recursive: true });
  svc = await startService({
    board: { spec: 'sim' },
    // One analysis lane: the positions are searched one after another (from the game's end back), so the progress
    // passes 1 of 3 with searches still to come, for the cancel; with a lane per core two land at once and it may skip
    // straight to the end (the lanes themselves: test/engine/analysis-pool.test.ts).
    engine: { analysisLanes: 1 },
    storage: { gamesDir: join(dir, 'games') },
    http: { host: '127.0.0.1', port: 0 },
    log: { level: 'silent' },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Commands the page sent, by name (counted in the page: a wrapper around WebSocket.send). */
const SENT = `(() => {
  const sent = (window.__sent = []);
  const orig = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const m = JSON.parse(data); if (m.type === 'command') sent.push(m.command.name); } catch {}
    return orig.call(this, data);
  };
})()`;

describe.each(VIEWPORTS)('the page with the engine at work, at $width×$height ($name)', (vp) => {
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.addInitScript(SENT);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    expect(problems).toEqual([]);
  });

  const shot = async (name: string) => {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(SHOTS, `engine-work-${vp.name}-${name}.png`) });
  };
  const sent = (name: string) =>
    page.evaluate((n: string) => (window as unknown as { __sent: string[] }).__sent.filter((x) => x === n).length, name);
  async function hand(...squares: number[]): Promise<void> {
    for (const s of squares) {
      await page.click(`#sq-${s}`);
      await page.waitForTimeout(180);
    }
  }
  async function waitMoves(n: number): Promise<void> {
    await page.waitForFunction((k: number) => document.querySelectorAll('.movelist td.mv:not(.empty)').length === k, n, { timeout: WAIT });
  }
  async function freshGame(): Promise<void> {
    if (!page.url().startsWith('http')) {
      await page.goto(svc.url);
      await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    }
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=start]');
    await page.selectOption('#ng-computer', '');
    await page.selectOption('#ng-tc', '');
    const id = await page.evaluate(
      () => (window as unknown as { crownhead: { state(): { snap: { gameId: string } } } }).crownhead.state().snap.gameId,
    );
    await page.click('#ng-submit');
    if ((await page.locator('#ng-submit.armed').count()) > 0) await page.click('#ng-submit');
    await page.waitForFunction(
      (old: string) =>
        (window as unknown as { crownhead: { state(): { snap: { gameId: string } } } }).crownhead.state().snap.gameId !== old,
      id,
      { timeout: WAIT },
    );
    await page.click('#b-hand-setup');
    await page.waitForSelector('#status [data-status="in-sync"]', { timeout: WAIT });
    await page.evaluate(() => window.scrollTo(0, 0));
  }

  it('Hint shows a spinner while the engine thinks and is not asked twice; the hint comes', async () => {
    await page.goto(svc.url);
    await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    await freshGame();
    // A double press (two clicks in the same task, before any render) asks once.
    await page.evaluate(() => {
      const b = document.getElementById('b-hint')!;
      b.click();
      b.click();
    });
    await page.waitForSelector('#b-hint[aria-busy="true"] .spinner', { timeout: WAIT });
    expect(await page.locator('#b-hint').isDisabled()).toBe(true);
    await page.keyboard.press('h');
    await shot('hint-thinking');
    await page.waitForFunction(() => /Hint for Black/.test(document.body.textContent ?? ''), null, { timeout: 60_000 });
    await page.waitForSelector('#b-hint:not([disabled])', { timeout: WAIT });
    expect(await sent('hint')).toBe(1);
  }, 120_000);

  it('a hint can be cancelled: the spinner goes and no hint comes', async () => {
    await hand(11, 15);
    await waitMoves(1);
    await page.click('#b-hint');
    await page.waitForSelector('#b-hint[aria-busy="true"]', { timeout: WAIT });
    await page.click('[data-act="cancel"][data-what="hint"]');
    await page.waitForSelector('#b-hint:not([disabled])', { timeout: WAIT });
    await page.waitForTimeout(2500);
    expect(await page.evaluate(() => /Hint for White/.test(document.body.textContent ?? ''))).toBe(false);
  }, 60_000);

  it('"Analyse game" shows moves checked of the total, is not asked twice, and can be cancelled; asked again it finishes', async () => {
    await hand(24, 20);
    await waitMoves(2);
    await hand(8, 11);
    await waitMoves(3);
    await clickConfirmed(page, '#b-resign-white', '#b-analyse', WAIT);
    await page.evaluate(() => {
      const b = document.getElementById('b-analyse')!;
      b.click();
      b.click();
    });
    await page.waitForFunction(() => /1 of 3 moves checked/.test(document.getElementById('analysis-progress')?.textContent ?? ''), null, {
      timeout: 60_000,
    });
    expect(await page.locator('#b-analyse').count()).toBe(0);
    expect(await page.locator('#analysis-bar').getAttribute('max')).toBe('3');
    expect(await sent('analyse')).toBe(1);
    await page.evaluate(() => window.scrollTo(0, document.getElementById('moves')!.getBoundingClientRect().top + scrollY - 40));
    await shot('analysing');
    await page.click('[data-act="cancel"][data-what="analysis"]');
    await page.waitForSelector('#b-analyse:not([disabled])', { timeout: WAIT });
    await page.waitForFunction(() => /Analysis cancelled/.test(document.body.textContent ?? ''), null, { timeout: WAIT });
    expect(await page.locator('#analysis-progress').count()).toBe(0);
    // Asked again, it runs to the end.
    await page.click('#b-analyse');
    await page.waitForFunction(() => /marked|No mistakes/.test(document.querySelector('#moves .analysis')?.textContent ?? ''), null, {
      timeout: 120_000,
    });
    expect(await sent('analyse')).toBe(2);
  }, 240_000);

  it('a takeback between two players is asked for by one side and accepted or declined by the other', async () => {
    await freshGame();
    await hand(11, 15);
    await waitMoves(1);
    await page.click('#b-takeback-black');
    await page.waitForSelector('#takeback-offer', { timeout: WAIT });
    expect(await page.locator('#takeback-offer').innerText()).toBe('Black asks to take back the last move.');
    await shot('takeback-asked');
    await page.click('#b-takeback-answer-decline');
    await page.waitForSelector('#b-takeback-black', { timeout: WAIT });
    expect(await page.locator('.movelist td.mv:not(.empty)').count()).toBe(1);
    expect(await page.locator('ol.log').innerText()).toContain('White declines the takeback.');
    await page.click('#b-takeback-black');
    await page.waitForSelector('#b-takeback-answer-accept', { timeout: WAIT });
    await page.click('#b-takeback-answer-accept');
    await page.waitForSelector('#moves .empty-moves', { timeout: WAIT });
    expect(await page.locator('#takeback-offer').count()).toBe(0);
  }, 60_000);

  it("a deleted game waits in the archive's trash and can be restored", async () => {
    await freshGame();
    await page.click('#b-archive-open');
    await page.waitForSelector('.archive-table tbody tr:not(.current)', { timeout: WAIT });
    const id = (await page.locator('.archive-table tbody tr:not(.current)').first().getAttribute('data-game'))!;
    await page.click(`#del-${id}`);
    await page.waitForSelector(`#del-${id}.armed`, { timeout: WAIT });
    await page.click(`#del-${id}`);
    await page.waitForSelector(`#trash li[data-trashed="${id}"]`, { timeout: WAIT });
    expect(await page.locator(`.archive-table tr[data-game="${id}"]`).count()).toBe(0);
    expect(await page.locator('#trash-title').innerText()).toMatch(/Deleted games\s+kept 30 days, then emptied/);
    await page.locator('#trash').scrollIntoViewIfNeeded();
    await shot('trash');
    await page.click(`#restore-${id}`);
    await page.waitForSelector(`.archive-table tr[data-game="${id}"]`, { timeout: WAIT });
    expect(await page.locator(`#trash li[data-trashed="${id}"]`).count()).toBe(0);
    await page.click('#b-archive-close');
  }, 60_000);

  it('the sensor view shows the live readings as a heat map with the learnt levels, and tests a square as the doctor does', async () => {
    await freshGame();
    await page.click('#b-sensors-open');
    await page.waitForSelector('#sensors:not([hidden]) .sv-board', { timeout: WAIT });
    await page.waitForFunction(() => document.querySelectorAll('#sv-board .r[data-reading]:not([data-reading=""])').length === 32, null, {
      timeout: WAIT,
    });
    // A square holding a man reads well above an empty one; the levels are on each square and in its title.
    await page.waitForFunction(
      () => {
        const r = (sq: number) => Number(document.querySelector(`#sv-${sq} .r`)?.getAttribute('data-reading'));
        return r(11) > r(14) + 50;
      },
      null,
      { timeout: WAIT },
    );
    expect(await page.locator('#sv-14').getAttribute('title')).toMatch(
      /^Square 14: reading \d+(\.\d)?; empty [\d.]+, one coin [\d.]+, two [\d.]+, upside down below [\d.]+$/,
    );
    expect(await page.locator('#sv-14 .lv').innerText()).toMatch(/^\d+\/\d+\/\d+$/);
    // Only this page asked: the readings came over HTTP, never over the game's WebSocket.
    expect(await page.evaluate(() => (window as unknown as { __sent: string[] }).__sent.includes('sensor-view'))).toBe(false);
    await shot('sensors');
    const hand = (action: 'place' | 'lift') =>
      fetch(new URL('/api/command', svc.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'hand', action, square: 14 }),
      });
    await page.click('#sv-14');
    await page.waitForSelector('#sv-14.testing', { timeout: WAIT });
    await page.waitForFunction(() => /Put a coin on 14/.test(document.getElementById('sv-step')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await hand('place');
    await page.waitForFunction(() => /Lift the coin off 14/.test(document.getElementById('sv-step')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await shot('sensor-test');
    await hand('lift');
    await page.waitForSelector('#sv-result.ok', { timeout: 30_000 });
    expect(await page.locator('#sv-result').innerText()).toMatch(
      /^14 is good: a coin reads \+\d+ counts above its zero and nothing else moved\.$/,
    );
    await page.click('#b-sensors-close');
    await page.waitForSelector('#sensors[hidden]', { state: 'attached', timeout: WAIT });
  }, 90_000);

  it('the sensor view is for pages with control rights only', async () => {
    const ro = await startService({
      board: { spec: 'sim' },
      storage: { gamesDir: join(dir, `ro-${vp.name}`) },
      http: { host: '127.0.0.1', port: 0, requireToken: true, token: 'tok-engine-work' },
      log: { level: 'silent' },
    });
    try {
      const res = await fetch(new URL('/api/sensors.json', ro.url));
      expect(res.status).toBe(403);
      expect((await res.json()).message).toMatch(/^the sensor view needs control rights/);
      expect((await fetch(new URL('/api/sensors/test/14', ro.url), { method: 'POST' })).status).toBe(403);
      const ok = await fetch(new URL('/api/sensors.json', ro.url), { headers: { Authorization: 'Bearer tok-engine-work' } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { levels: unknown[] }).levels).toHaveLength(32);
    } finally {
      await ro.close();
    }
  }, 60_000);
});

describe.each(VIEWPORTS)('a restart of the simulated board, at $width×$height ($name)', (vp) => {
  it('resumes with the pieces where the game left them: no set-up list or lift-the-coins message, no repeated lines', async () => {
    const games = mkdtempSync(join(tmpdir(), 'crownhead-restart-'));
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l).msg as string) });
    const open = (port: number) =>
      startService({ board: { spec: 'sim' }, storage: { gamesDir: games }, http: { host: '127.0.0.1', port }, log: { logger } });
    let first: Awaited<ReturnType<typeof startService>> | null = await open(0);
    let second: Awaited<ReturnType<typeof startService>> | null = null;
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      await page.goto(first.url);
      await page.waitForSelector('#status [data-status="in-sync"]', { timeout: WAIT });
      for (const [a, b] of [
        [11, 15],
        [23, 19],
        [8, 11],
      ]) {
        await page.click(`#sq-${a}`);
        await page.waitForTimeout(200);
        await page.click(`#sq-${b}`);
        await page.waitForTimeout(400);
      }
      await page.waitForFunction(() => document.querySelectorAll('.movelist td.mv:not(.empty)').length === 3, null, { timeout: WAIT });
      const port = first.port;
      await first.close();
      first = null;
      await page.waitForFunction(
        () => (window as unknown as { crownhead: { state(): { connection: string } } }).crownhead.state().connection !== 'open',
        null,
        { timeout: WAIT },
      );
      const before = lines.length;
      second = await open(port);
      await page.waitForFunction(
        () => (window as unknown as { crownhead: { state(): { connection: string } } }).crownhead.state().connection === 'open',
        null,
        { timeout: 30_000 },
      );
      // The page reconnects by itself and finds the game where it was, the board in sync.
      await page.waitForSelector('#status [data-status="in-sync"]', { timeout: 30_000 });
      await page.waitForTimeout(1500);
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).not.toMatch(/Lift the coins?|cannot yet tell/);
      // (The default simulated set is glued the old way, so "colour checks are off" is true of it, and said once per start.)
      expect(text).not.toMatch(/Set up the position/);
      const log = await page.locator('ol.log li').allInnerTexts();
      expect(new Set(log).size, `the page's log repeats a line: ${JSON.stringify(log)}`).toBe(log.length);
      const after = lines.slice(before);
      expect(new Set(after).size, `the server's log repeats a line: ${JSON.stringify(after)}`).toBe(after.length);
      expect(after.some((l) => /resumed unfinished game/.test(l))).toBe(true);
      await page.screenshot({ path: join(SHOTS, `engine-work-${vp.name}-restart.png`) });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await first?.close();
      await second?.close();
      rmSync(games, { recursive: true, force: true });
    }
  }, 120_000);
});
