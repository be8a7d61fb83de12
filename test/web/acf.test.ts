// The ACF rules on the page (Debian chromium via playwright-core, the real
// service in tournament mode on the simulated board): an illegal move shows
// the piece to use (the retraction rule), a correction with another piece is
// refused; the per-move clock shows "time" and the grace period left.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startService } from '../../src/server/service.ts';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');
const WAIT = 15_000;

let svc: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
let dir: string;
const problems: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-acf-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  svc = await startService({ board: 'sim', host: '127.0.0.1', port: 0, gamesDir: join(dir, 'games'), logLevel: 'silent', tournament: true });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const waitStatus = (kind: string) => page.waitForSelector(`#status [data-status="${kind}"]`, { timeout: WAIT });

async function hand(...squares: number[]): Promise<void> {
  for (const s of squares) {
    await page.click(`#sq-${s}`);
    await page.waitForTimeout(180);
  }
}

async function waitMoves(texts: string[]): Promise<void> {
  await page.waitForFunction((want: string[]) => {
    const got = [...document.querySelectorAll('.movelist td.mv:not(.empty)')].map((e) => e.textContent);
    return JSON.stringify(got) === JSON.stringify(want);
  }, texts, { timeout: WAIT });
}

describe('the ACF rules on the page', () => {
  it('a missed capture shows the piece to use; a correction with another piece is refused; the same piece plays on', async () => {
    // White to move: 22 and 23 can both capture 18.
    svc.session.newGame({ fen: 'W:W22,23:B18,1' });
    await page.goto(svc.url);
    await page.waitForSelector('#b-hand-setup', { timeout: WAIT });
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');

    // 22 moves on instead of capturing.
    await hand(22, 17);
    await waitStatus('illegal');
    await page.waitForSelector('#status .retract[data-retract="22"]', { timeout: WAIT });
    expect(await page.locator('#status .retract').innerText()).toBe('Use the piece on 22: 22x15');
    expect(await page.locator('#status').innerText()).toContain('Put 22 back and capture with it: 22x15.');
    expect(await page.locator('#board rect.mark.retract').getAttribute('data-mark')).toBe('22');
    await page.screenshot({ path: join(ARTIFACTS, 'web-retract.png') });

    // Put back, then captured with 23 instead: refused (tournament mode).
    await hand(17, 22);
    await waitStatus('in-sync');
    await hand(23, 14, 18);
    await waitStatus('illegal');
    await page.waitForFunction(() => /must be put right with that piece, not the one on 23/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: WAIT });
    expect(await page.locator('#status .retract[data-retract="22"]').count()).toBe(1);
    expect(await page.locator('.movelist td.mv:not(.empty)').count()).toBe(0);

    // The board put back as the game has it, then 22x15.
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    await hand(22, 15, 18);
    await waitMoves(['22x15']);
    expect(await page.locator('#status .retract').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 90_000);
});
