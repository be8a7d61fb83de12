// The ACF rules on the page (Debian chromium via playwright-core, the real
// service in tournament mode on the simulated board): an illegal move shows
// the piece to use (the retraction rule), a correction with another piece is
// refused; a ballot game played to its end (a resignation) is followed by its
// paired game: sides and names swapped, the same opening on the board.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { clickConfirmed, launchChromium } from './chromium.ts';
import type { Service } from '../../src/server/service.ts';
import { startOnSim } from '../server/helpers.ts';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');
const WAIT = 15_000;

let svc: Service;
let browser: Browser;
let page: Page;
let dir: string;
const problems: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-acf-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  svc = await startOnSim(join(dir, 'games'), { game: { tournament: true } });
  browser = await launchChromium();
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
  await page.waitForFunction(
    (want: string[]) => {
      const got = [...document.querySelectorAll('.movelist td.mv:not(.empty)')].map((e) => e.textContent);
      return JSON.stringify(got) === JSON.stringify(want);
    },
    texts,
    { timeout: WAIT },
  );
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
    await page.waitForFunction(
      () => /must be put right with that piece, not the one on 23/.test(document.querySelector('#status')?.textContent ?? ''),
      null,
      { timeout: WAIT },
    );
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

  it('a ballot game to its end, then the other side of the ballot: names swapped, the same opening on the board', async () => {
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=ballot]');
    await page.fill('#ng-ballot', '5');
    await page.fill('#new-game-form input[name=Black]', 'Ann');
    await page.fill('#new-game-form input[name=White]', 'Bob');
    await page.click('#ng-submit');
    if ((await page.locator('#ng-submit.armed').count()) > 0) await page.click('#ng-submit');
    await waitMoves(['9-13', '22-18', '6-9']);
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    expect(await page.locator('.player-black .who').innerText()).toBe('Ann');
    expect(await page.locator('#players, .event').first().innerText()).toContain('Dreaded Edinburgh');

    // White plays 18-14 on the board; Black 9x18 takes; then White resigns (two clicks).
    await hand(18, 14);
    await waitMoves(['9-13', '22-18', '6-9', '18-14']);
    await hand(9, 18, 14);
    await waitMoves(['9-13', '22-18', '6-9', '18-14', '9x18']);
    expect(await page.locator('#b-next-game-other-side').count()).toBe(0);
    await clickConfirmed(page, '#b-resign-white', '.result[data-result="1-0"]', WAIT);

    // The paired game.
    await page.click('#b-next-game-other-side');
    await waitMoves(['9-13', '22-18', '6-9']);
    await page.waitForFunction(() => document.querySelector('.player-black .who')?.textContent === 'Bob', null, { timeout: WAIT });
    expect(await page.locator('.player-white .who').innerText()).toBe('Ann');
    // The board is set back to the ballot's position (the hand does what the set-up list says).
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    const squares = await page
      .locator('#board .piece')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-square'))).sort((a, b) => a - b));
    expect(squares).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 18, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]);
    expect(await page.locator('#players .event .round').innerText()).toBe('· round 1.2');
    const round = (svc.session.tags as Record<string, string>).Round;
    expect(round).toBe('1.2');
    expect(svc.session.pdn()).toMatch(/\[Black "Bob"\][\s\S]*\[White "Ann"\]/);
    await page.screenshot({ path: join(ARTIFACTS, 'web-ballot-pair.png') });
    expect(problems).toEqual([]);
  }, 90_000);

  it('an eleven-man ballot from the form: the coins to take off are said, and the board set to it', async () => {
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=eleven]');
    await page.fill('#ng-eleven', '1');
    await page.click('#ng-submit');
    if ((await page.locator('#ng-submit.armed').count()) > 0) await page.click('#ng-submit');
    await page.waitForFunction(() => /Eleven-man ballot 1/.test(document.querySelector('#players .event')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#live-polite, #live-assertive, #log, body')].some((e) =>
          /take Black's man off 8 and White's men off 24 and 28, and put a white man on 19/.test(e.textContent ?? ''),
        ),
      null,
      { timeout: WAIT },
    );
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    expect(await page.locator('#board .piece').count()).toBe(22);
    // A number out of range is refused by the form itself, with the browser's message naming the limit; no game is started.
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=eleven]');
    await page.fill('#ng-eleven', '2401');
    const id = svc.session.gameId;
    await page.click('#ng-submit');
    const validity = await page
      .locator('#ng-eleven')
      .evaluate((e) => ({ over: (e as HTMLInputElement).validity.rangeOverflow, message: (e as HTMLInputElement).validationMessage }));
    expect(validity.over).toBe(true);
    expect(validity.message).toMatch(/2400/);
    await page.waitForTimeout(300);
    expect(svc.session.gameId).toBe(id);
    expect(problems).toEqual([]);
  }, 60_000);
});
