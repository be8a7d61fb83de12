// The page's layout and form in a real browser (Debian chromium via
// playwright-core) against the real service on the simulated board, at a
// desktop (1280×800) and a phone (390×844) viewport: the new-game form starts
// from the current game and only its Opponent control picks the computer; the
// board and both clocks share the first screen; the board's bounding box does
// not move during a game (moves, an illegal move's alert, review, the
// computer's move, "time" called, the end); the ACF time call is the status;
// the evaluation is a vertical bar beside the board; the small things (the
// board's one tab stop, a held coin kept, the assertive region cleared, focus
// kept on the move list, Flip's aria-pressed, square numbers, no ✓ on a
// finished game, "Ballot 51" without a colon, the archive's moves and times).
// Screenshots go to scratch/ (not committed).

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { clickConfirmed, launchChromium } from './chromium.ts';
import type { Service } from '../../src/server/service.ts';
import { startOnSim } from '../server/helpers.ts';

const SHOTS = join(import.meta.dirname, '../../scratch');
const WAIT = 15_000;

let svc: Service;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-page-layout-'));
  mkdirSync(SHOTS, { recursive: true });
  svc = await startOnSim(join(dir, 'games'));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Snap {
  gameId: string;
  tags: Record<string, string>;
  computer?: { side: string; level: number } | null;
  clock: { control: string } | null;
  moves: unknown[];
}
type Box = { x: number; y: number; w: number; h: number };

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.each(VIEWPORTS)('the page, third edition, at $width×$height ($name)', (vp) => {
  const phone = vp.width < 600;
  let page: Page;
  const problems: string[] = [];
  /** Where the board was when the game began: it stays there (within half a pixel). */
  let home: Box | null = null;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: vp.width, height: vp.height }, acceptDownloads: true });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    expect(problems).toEqual([]);
  });

  const snap = () => page.evaluate(() => (window as unknown as { crownhead: { state(): { snap: Snap } } }).crownhead.state().snap);
  const waitStatus = (kind: string) => page.waitForSelector(`#status [data-status="${kind}"]`, { timeout: WAIT });
  const shot = async (name: string) => {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(SHOTS, `page-layout-${vp.name}-${name}.png`) });
  };
  async function hand(...squares: number[]): Promise<void> {
    for (const s of squares) {
      await page.click(`#sq-${s}`);
      await page.waitForTimeout(180);
    }
  }
  async function waitMoves(n: number): Promise<void> {
    await page.waitForFunction((k: number) => document.querySelectorAll('.movelist td.mv:not(.empty)').length === k, n, { timeout: WAIT });
  }
  /** The board's box on the page (document coordinates, whatever the scroll). */
  const boardBox = (): Promise<Box> =>
    page.evaluate(() => {
      const r = document.querySelector('#board svg.board-svg')!.getBoundingClientRect();
      return { x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height };
    });
  async function stillHome(when: string): Promise<void> {
    // Let a render land first (the page draws on the next animation frame).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const b = await boardBox();
    const moved = Math.max(Math.abs(b.x - home!.x), Math.abs(b.y - home!.y), Math.abs(b.w - home!.w), Math.abs(b.h - home!.h));
    expect(moved, `the board moved ${moved.toFixed(1)} px (${when}): ${JSON.stringify(home)} → ${JSON.stringify(b)}`).toBeLessThan(0.5);
  }
  /** Inside the viewport with the page scrolled to the top. */
  const onFirstScreen = (selector: string) =>
    page.evaluate((sel: string) => {
      const el = document.querySelector(sel);
      if (!el) return `${sel}: missing`;
      const r = el.getBoundingClientRect();
      const ok = scrollY === 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.width > 0;
      return ok
        ? 'ok'
        : `${sel}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}×${innerHeight} (scrolled ${scrollY})`;
    }, selector);

  async function submitNewGame(): Promise<string> {
    const id = (await snap()).gameId;
    await page.click('#ng-submit');
    if ((await page.locator('#ng-submit.armed').count()) > 0) await page.click('#ng-submit');
    await page.waitForFunction(
      (old: string) => (window as unknown as { crownhead: { state(): { snap: Snap } } }).crownhead.state().snap.gameId !== old,
      id,
      { timeout: WAIT },
    );
    return id;
  }
  async function openForm(): Promise<void> {
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
  }
  async function setUp(): Promise<void> {
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    await page.evaluate(() => window.scrollTo(0, 0));
  }

  it('the new-game form starts from the current game; only the Opponent control picks the computer; then back to the board', async () => {
    await page.goto(svc.url);
    await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    await openForm();
    await page.check('#new-game-form input[name=from][value=start]');
    await page.selectOption('#ng-tc', '10m+5s');
    await page.selectOption('#ng-computer', 'white');
    await page.selectOption('#ng-level', '1');
    await submitNewGame();
    expect((await snap()).tags.White).toBe('Crownhead (level 1)');
    await setUp();

    // A fresh visitor opens the form: it shows this game's clock, opponent and level; no computer's name as a player.
    await page.reload();
    await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    // (The form is filled from the game when it opens: wait for the game to be here, not just the board.)
    await page.waitForFunction(
      () => (window as unknown as { crownhead: { state(): { snap: Snap | null } } }).crownhead.state().snap !== null,
      null,
      {
        timeout: WAIT,
      },
    );
    await openForm();
    expect(await page.inputValue('#ng-tc')).toBe('10m+5s');
    expect(await page.inputValue('#ng-computer')).toBe('white');
    expect(await page.inputValue('#ng-level')).toBe('1');
    expect(await page.inputValue('#new-game-form input[name=White]')).toBe('');
    await shot('form');

    // Two players: no computer, whatever the names said; the clock is kept. (Black, at the top, stays unnamed:
    // its row's "to move" line comes and goes, and must not move the board.)
    await page.selectOption('#ng-computer', '');
    await page.fill('#new-game-form input[name=White]', 'Ben');
    await submitNewGame();
    const s = await snap();
    expect(s.computer ?? null).toBeNull();
    expect(s.tags.White ?? '').not.toMatch(/Crownhead/);
    expect(s.tags.White).toBe('Ben');
    expect(s.clock?.control).toBe('10 min + 5 s');
    expect(s.tags.TimeControl).toBe('600+5');
    // "Start new game" brings the page back to the board.
    await page.waitForFunction(
      () => {
        const r = document.querySelector('#board svg.board-svg')!.getBoundingClientRect();
        return r.top >= 0 && r.top < innerHeight / 2;
      },
      null,
      { timeout: WAIT },
    );
  }, 90_000);

  it('shows the board, both clocks and their buttons on the first screen', async () => {
    await setUp();
    home = await boardBox();
    for (const sel of [
      '#board svg.board-svg',
      '[data-clock=black]',
      '[data-clock=white]',
      '#b-resign-black',
      '#b-resign-white',
      '#b-offer-draw-black',
      '#b-offer-draw-white',
    ]) {
      expect(await onFirstScreen(sel)).toBe('ok');
    }
    // At 1280×800 the simulated board's bar is on the first screen too.
    if (!phone) expect(await onFirstScreen('.hand-bar')).toBe('ok');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await shot('start');
  }, 60_000);

  it('keeps the board still through moves, an illegal move and its fix, and review; focus stays on the move list', async () => {
    await hand(11, 15);
    await waitMoves(1);
    await stillHome('after the first move');
    await hand(24, 19);
    await waitMoves(2);
    await stillHome('after the second move');
    // Illegal: the man on 15 goes back to 11.
    await hand(15, 11);
    await waitStatus('illegal');
    await page.waitForFunction(() => /backwards/.test(document.getElementById('live-assertive')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await stillHome('with the illegal-move alert');
    await shot('illegal');
    await hand(11, 15);
    await waitStatus('in-sync');
    await stillHome('after the fix');
    // The alert is put right: the assertive live region no longer holds it.
    await page.waitForFunction(() => (document.getElementById('live-assertive')?.textContent ?? '') === '', null, { timeout: WAIT });

    // Review: a click on the first move; the focus stays on it (not on <body>).
    await page.click('#mv-1');
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    await stillHome('reviewing');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('mv-1');
    await shot('review');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    await stillHome('back to live');
  }, 90_000);

  it('makes "time" the status (words, colour, the grace counting down) and keeps the board still through the computer\'s move and the end', async () => {
    await openForm();
    await page.check('#new-game-form input[name=from][value=start]');
    await page.selectOption('#ng-computer', 'white');
    await page.selectOption('#ng-level', '1');
    await page.selectOption('#ng-tc', 'custom');
    await page.fill('#ng-tc-text', '2s/move,2s/forced,60s/grace');
    await submitNewGame();
    await setUp();
    await stillHome('in a new game');

    await page.click('#b-clock-start');
    await page.waitForSelector('#status [data-time="called"]', { timeout: WAIT });
    expect(await page.locator('#status .status-title').innerText()).toBe('Time, Black!');
    expect(await page.title()).toMatch(/^Time, Black!/);
    expect(await page.locator('#status .status-time').count()).toBe(1);
    const grace = await page.locator('#status [data-grace]').innerText();
    expect(grace).toMatch(/^\d+:\d\d$|^\d\.\d$/);
    await page.waitForFunction(
      (g: string) => {
        const t = document.querySelector('#status [data-grace]')?.textContent;
        return !!t && t !== g;
      },
      grace,
      { timeout: WAIT },
    );
    // Spoken and sounded as an alert (the service's "time" event), and the status colour is the alert's.
    await page.waitForFunction(() => /Time, Black/.test(document.getElementById('live-assertive')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await stillHome('with time called');
    // (On a phone the status is on the first screen with the board.)
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await onFirstScreen('#status [data-time="called"] .status-title')).toBe('ok');
    expect(await onFirstScreen('#board svg.board-svg')).toBe('ok');
    await shot('time');

    // Black moves: the call is over; the computer (White) answers; its move is carried out on the board.
    await hand(11, 15);
    await waitMoves(1);
    await page.waitForFunction(() => !document.querySelector('#status [data-time-called="black"]'), null, { timeout: WAIT });
    const text = await page
      .waitForSelector('#board polyline.computer-route', { timeout: 30_000 })
      .then((el) => el.getAttribute('data-computer'));
    await stillHome("with the computer's move to carry out");
    await shot('computer');
    const [from, to] = text!.split(/[-x]/).map(Number);
    await hand(from, to);
    await waitMoves(2);
    await stillHome("after the computer's move");

    // The end: Black resigns; a finished game shows no tick.
    await clickConfirmed(page, '#b-resign-black', '#moves .result', WAIT);
    expect(await page.locator('#status .status-icon').innerText()).not.toBe('✓');
    await stillHome('after the game');
    await shot('over');
  }, 120_000);

  it('shows the evaluation as a vertical bar beside the board, a signed score from a stated side or "equal"', async () => {
    await page.click('#t-evaluation');
    await page.waitForSelector('#evalbar .evalbar', { timeout: WAIT });
    await page.waitForFunction(() => !/thinking/.test(document.querySelector('.eval-text')?.textContent ?? 'thinking'), null, {
      timeout: 30_000,
    });
    const [bar, board] = await page.evaluate(() =>
      [document.querySelector('#evalbar .evalbar')!, document.querySelector('#board svg.board-svg')!].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
    expect(bar.h).toBeGreaterThan(bar.w * 5);
    expect(bar.x + bar.w).toBeLessThanOrEqual(board.x + 1);
    expect(Math.abs(bar.h - board.h)).toBeLessThan(board.h * 0.05);
    const words = await page.locator('.eval-text strong').innerText();
    expect(words).toMatch(/^(equal|(Black|White) [+-]\d+\.\d\d|(Black|White): (win|loss) in \d+|(Black|White) won|draw)$/);
    expect(words).not.toMatch(/level/);
    await shot('evaluation');
    await page.click('#t-evaluation');
    await page.waitForSelector('#evalbar .evalbar', { state: 'detached', timeout: WAIT });
  }, 60_000);

  it('in review, draws the better move the analysis found on the board', async () => {
    await openForm();
    await page.check('#new-game-form input[name=from][value=fen]');
    await page.fill('#ng-fen', 'B:W22,32:B13,14');
    await page.selectOption('#ng-computer', '');
    await page.selectOption('#ng-tc', '');
    await submitNewGame();
    await setUp();
    // 13-17 gives a man away (22x13); 14-17 keeps it.
    await hand(13, 17);
    await waitMoves(1);
    await hand(22, 13, 17);
    await waitMoves(2);
    await clickConfirmed(page, '#b-resign-black', '#b-analyse', WAIT);
    await page.click('#b-analyse');
    await page.waitForFunction(() => /marked|No mistakes/.test(document.querySelector('#moves .analysis')?.textContent ?? ''), null, {
      timeout: 120_000,
    });
    expect(await page.locator('#moves .analysis').innerText()).toMatch(/1 move marked/);
    await page.click('#mv-1');
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    const better = await page
      .waitForSelector('#board polyline.better-route', { timeout: WAIT })
      .then((el) => el.getAttribute('data-better'));
    expect(better).toMatch(/^14[-x]/);
    expect(await page.locator('.review-note').innerText()).toContain(`${better} was better`);
    await stillHome('reviewing an analysed move');
    await shot('better');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    expect(await page.locator('#board polyline.better-route').count()).toBe(0);
  }, 180_000);

  it('the board has one tab stop (arrow keys move it), keeps a held coin, Flip says it is pressed, and its numbers can be read', async () => {
    await openForm();
    await page.check('#new-game-form input[name=from][value=start]');
    await page.selectOption('#ng-computer', '');
    await page.selectOption('#ng-tc', '');
    await submitNewGame();
    await setUp();
    expect(await page.locator('#board [tabindex="0"]').count()).toBe(1);
    await page.focus('#board [tabindex="0"]');
    const first = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((f: string) => document.activeElement?.id !== f && /^sq-/.test(document.activeElement?.id ?? ''), first!, {
      timeout: WAIT,
    });
    const now = await page.evaluate(() => document.activeElement!.id);
    expect(await page.locator('#board [tabindex="0"]').evaluateAll((els) => els.map((e) => e.id))).toEqual([now]);

    // A held coin is not dropped by a click on an occupied square: the hand holds both, and puts them down one by one.
    await hand(11);
    await page.waitForSelector('.held[data-held="1"]', { timeout: WAIT });
    await hand(10);
    await page.waitForSelector('.held[data-held="2"]', { timeout: WAIT });
    expect(await page.locator('.held').innerText()).toBe('In hand: 2 coins');
    await page.waitForSelector('#board .piece[data-square="10"][data-coins="0"]', { timeout: WAIT });
    await shot('held');
    await hand(10);
    await page.waitForSelector('#board .piece[data-square="10"][data-coins="1"]', { timeout: WAIT });
    await page.waitForSelector('.held[data-held="1"]', { timeout: WAIT });
    await hand(11);
    await waitStatus('in-sync');
    await page.waitForSelector('.held[data-held="0"]', { timeout: WAIT });

    // Flip is a toggle that says so.
    expect(await page.getAttribute('#t-flip', 'aria-pressed')).toBe('false');
    await page.click('#t-flip');
    await page.waitForSelector('#t-flip[aria-pressed="true"]', { timeout: WAIT });
    await page.click('#t-flip');
    await page.waitForSelector('#t-flip[aria-pressed="false"]', { timeout: WAIT });

    // Square numbers: at least 10 px on a phone, and 4.5:1 against the square under them.
    const num = await page.evaluate(() => {
      const lum = (c: string) => {
        const [r, g, b] = (c.match(/[\d.]+/g) ?? [])
          .slice(0, 3)
          .map(Number)
          .map((v) => v / 255)
          .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const text = document.querySelector('#board .nums text')!;
      const dark = document.querySelector('#board rect.dark')!;
      const fg = getComputedStyle(text).fill,
        bg = getComputedStyle(dark).fill;
      const alpha = /rgba/.test(fg) ? Number(fg.match(/[\d.]+/g)![3]) : 1;
      const [lf, lb] = [lum(fg), lum(bg)];
      // A translucent fill over the square: blend first.
      const l = alpha * lf + (1 - alpha) * lb;
      const ratio = (Math.max(l, lb) + 0.05) / (Math.min(l, lb) + 0.05);
      return { height: text.getBoundingClientRect().height, ratio };
    });
    expect(num.ratio).toBeGreaterThanOrEqual(4.5);
    if (phone) expect(num.height).toBeGreaterThanOrEqual(10);
  }, 90_000);

  it('says "Ballot 51" with no dangling colon, and the archive counts moves and gives the time', async () => {
    await openForm();
    await page.check('#new-game-form input[name=from][value=ballot]');
    await page.fill('#ng-ballot', '51');
    await submitNewGame();
    await setUp();
    const event = (await page.locator('#players .event').innerText()).trim();
    expect(event).toMatch(/^Ballot 51\b/);
    expect(event).not.toMatch(/:\s*$|:\s*·/);
    // The ballot's three moves are played: in the archive that is 2 moves (3 plies), with the time of day.
    await page.click('#b-archive-open');
    await page.waitForSelector('#archive .archive-table tbody tr.current', { timeout: WAIT });
    const cells = await page.locator('#archive tr.current td').allInnerTexts();
    expect(cells[0]).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(cells[4]).toBe('2');
    await shot('archive');
    await page.click('#b-archive-close');
  }, 60_000);
});
