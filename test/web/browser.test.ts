// The page in a real browser (Debian chromium via playwright-core) against the
// real service on the simulated board: set the board up with the page's
// button, play moves and a capture with the page's hand by clicking squares,
// make an illegal move and see the alert and the squares to fix, put it right,
// download the PDN, start a game from a FEN and crown a king, switch the
// display toggles, and save screenshots to test-artifacts/.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
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
  dir = mkdtempSync(join(tmpdir(), 'crownhead-web-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  svc = await startOnSim(join(dir, 'games'));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
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

const status = () => page.locator('#status [data-status]');
const waitStatus = (kind: string) => page.waitForSelector(`#status [data-status="${kind}"]`, { timeout: WAIT });

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

/** A screenshot of the page from the top (test-artifacts/NAME). */
async function shot(name: string, fullPage = false): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage });
}

/** Clicks squares with the page's hand, one after the other, as a player's hand would move. */
async function hand(...squares: number[]): Promise<void> {
  for (const s of squares) {
    await page.click(`#sq-${s}`);
    await page.waitForTimeout(180);
  }
}

describe('the page on the simulated board', () => {
  it('loads, shows the board, and sets it up with the button', async () => {
    await page.goto(svc.url);
    await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    expect(await page.title()).toMatch(/Crownhead/);
    expect(await page.locator('#board rect.dark').count()).toBe(32);
    expect(await page.locator('#conn [data-board="connected"]').count()).toBe(1);
    expect(await page.locator('#hand').textContent()).toContain('Simulated board');
    // However the simulated board starts, the button puts the game's position on it.
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    // Take two men off by hand; the button puts them back.
    await hand(1, 32);
    await page.waitForSelector('#board .piece.differs[data-square="32"]', { timeout: WAIT });
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    expect(await status().innerText()).toContain('Black to move');
    expect(await status().innerText()).toContain('Board in sync.');
    await page.waitForFunction(() => document.querySelectorAll('#board .piece.differs').length === 0, null, { timeout: WAIT });
    expect(await page.locator('#board .piece').count()).toBe(24);
    expect(await page.locator('.player-black.to-move').count()).toBe(1);
  }, 60_000);

  it('plays moves with the hand, flags a man moved backwards, clears it when put back, then captures', async () => {
    await hand(11, 15);
    await waitMoves(['11-15']);
    await page.waitForFunction(() => document.getElementById('live-polite')?.textContent === 'Black, 11 to 15.', null, { timeout: WAIT });
    await hand(24, 19);
    await waitMoves(['11-15', '24-19']);
    expect(await page.locator('#moves').innerText()).toContain('Black to move');

    // Illegal: the man on 15 goes back to 11 (and the capture 15x24 is due).
    await hand(15, 11);
    await waitStatus('illegal');
    const text = await status().innerText();
    expect(text).toContain('Illegal move');
    expect(text).toContain('A man cannot move backwards (15 to 11)');
    expect(text).toContain('Put a black man on 15');
    expect(text).toContain('Take the coin off 11');
    const fixed = await page
      .locator('#board rect.mark.fix')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-mark'))).sort((a, b) => a - b));
    expect(fixed).toEqual([11, 15]);
    expect(await page.locator('#board [data-fix="15"].badge-place').count()).toBe(1);
    expect(await page.locator('#board [data-fix="11"].badge-remove').count()).toBe(1);
    await page.waitForFunction(() => /backwards/.test(document.getElementById('live-assertive')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    expect(await page.title()).toMatch(/^Illegal move/);
    await shot('web-illegal.png');

    // Put it right.
    await hand(11, 15);
    await waitStatus('in-sync');
    expect(await page.locator('#board rect.mark.fix').count()).toBe(0);
    await waitMoves(['11-15', '24-19']);

    // 2. 15x24 28x19: lift, land, take the jumped man off.
    await hand(15, 24, 19);
    await waitMoves(['11-15', '24-19', '15x24']);
    await hand(28, 19, 24);
    await waitMoves(['11-15', '24-19', '15x24', '28x19']);
    await waitStatus('in-sync');
    expect(await page.locator('#board [data-captured="24"]').count()).toBe(1);
    expect(await page.locator('#board rect.mark.last-from').getAttribute('data-mark')).toBe('28');
    expect(await page.locator('#board rect.mark.last-to').getAttribute('data-mark')).toBe('19');
    expect(await page.locator('#board polyline.route').count()).toBe(1);
    expect(await page.locator('#board .piece').count()).toBe(22);
    expect(await page.locator('.movelist td.mv.current').innerText()).toBe('28x19');
    await shot('web-display.png');
  }, 90_000);

  it('downloads the PDN with the moves', async () => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: WAIT }), page.click('#dl-pdn')]);
    const file = await download.path();
    const pdn = readFileSync(file, 'utf8');
    expect(pdn).toContain('[GameType "21"]');
    expect(pdn).toMatch(/1\. 11-15 24-19 2\. 15x24 28x19/);
    // The same through the API.
    const api = await (await fetch(new URL('/api/current.pdn', svc.url))).text();
    expect(api).toMatch(/1\. 11-15 24-19 2\. 15x24 28x19/);
  }, 60_000);

  it("sets the players' names", async () => {
    await page.click('#names-card summary');
    await page.fill('#names-form [name=Black]', 'Ann');
    await page.fill('#names-form [name=White]', 'Ben');
    await page.fill('#names-form [name=Event]', 'Club night');
    await page.click('#names-submit');
    await page.waitForFunction(() => document.querySelector('.player-black .who')?.textContent === 'Ann', null, { timeout: WAIT });
    expect(await page.locator('.player-white .who').innerText()).toBe('Ben');
    expect(await page.locator('#players .event').innerText()).toContain('Club night');
    const api = await (await fetch(new URL('/api/current.pdn', svc.url))).text();
    expect(api).toContain('[Black "Ann"]');
    expect(api).toContain('[Event "Club night"]');
  }, 60_000);

  it('starts a game from a FEN, sets it up, and crowns a king', async () => {
    await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=fen]');
    await page.fill('#new-game-form [name=fen]', 'B:W32:B26');
    // A game is in progress: the first click asks, the second confirms.
    await page.click('#ng-submit');
    await page.waitForFunction(() => document.getElementById('ng-submit')?.textContent === 'Confirm: abandon the game in progress', null, {
      timeout: WAIT,
    });
    expect(await page.locator('#board .piece').count()).toBe(22);
    await page.click('#ng-submit');
    await waitStatus('setup');
    // The card closes when the page renders the new status: wait for it (read at once it raced the render under load).
    await expect.poll(() => page.locator('#new-game-card').getAttribute('open')).toBeNull();
    // The setup view says what to take off and what to put where.
    const setup = await status().innerText();
    expect(setup).toContain('Set up the board');
    expect(setup).toContain('Take the coin off 1–10, 12, 19, 21–23, 25, 27 and 29–31');
    expect(await page.locator('#board rect.mark.setup-fix').count()).toBeGreaterThan(2);
    await page.click('#b-hand-setup');
    await waitStatus('in-sync');
    expect(await page.locator('#board .piece').count()).toBe(2);
    // The sensors cannot tell colours: the page asks for a check of who stands where.
    const check = await status().innerText();
    expect(check).toContain('The sensors cannot see colours: check them before the first move.');
    expect(check).toContain('A black man on 26');
    expect(check).toContain('A white man on 32');

    await hand(26, 30);
    await waitStatus('awaiting-crown');
    expect(await status().innerText()).toContain('Crown the king on 30');
    expect(await page.locator('#board rect.mark.crown-wait[data-mark="30"]').count()).toBe(1);
    // Crown mode: a click stacks a second coin.
    await page.click('#hm-crown');
    await page.waitForSelector('#hm-crown[aria-pressed="true"]', { timeout: WAIT });
    await hand(30);
    await waitStatus('in-sync');
    await page.waitForSelector('#board .piece.king[data-square="30"][data-color="black"]', { timeout: WAIT });
    expect(await page.locator('#board .piece.king[data-square="30"] .disc').count()).toBe(2);
    await waitMoves(['26-30']);
    expect(await page.locator('.movelist td.mv.crowned').count()).toBe(1);
    await page.click('#hm-move');
    await shot('web-crown.png');
  }, 60_000);

  it('toggles, flips and stays usable on a phone', async () => {
    const pressed = (id: string, on: boolean) => page.waitForSelector(`#${id}[aria-pressed="${on}"]`, { timeout: WAIT });
    await pressed('t-toggle-speech', false);
    await page.click('#t-toggle-speech');
    await pressed('t-toggle-speech', true);
    await page.click('#t-toggle-speech');
    await pressed('t-toggle-speech', false);
    await page.click('#t-toggle-sound');
    await pressed('t-toggle-sound', false);
    await page.click('#t-toggle-sound');
    await pressed('t-toggle-sound', true);
    const y30 = async () => Number(await page.locator('#sq-30').getAttribute('y'));
    expect(await y30()).toBe(7);
    await page.click('#t-flip');
    await page.waitForFunction(() => document.getElementById('sq-30')?.getAttribute('y') === '0', null, { timeout: WAIT });
    // Keyboard: Enter on a focused square acts like a click (lift the white man on 32).
    await page.focus('#sq-32');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#board .piece[data-square="32"][data-coins="0"]', { timeout: WAIT });
    await page.keyboard.press('Enter');
    await page.waitForSelector('#board .piece[data-square="32"][data-coins="1"]', { timeout: WAIT });
    await page.click('#t-flip');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    const box = await page.locator('#board svg').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(box!.width).toBeLessThanOrEqual(390);
    await shot('web-phone.png', true);
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows a reconnecting banner when the service goes away, and catches up when it is back', async () => {
    const gamesDir = join(dir, 'games-2');
    let other = await startOnSim(gamesDir);
    const port = other.port;
    const p2 = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    try {
      await p2.goto(other.url);
      await p2.waitForSelector('#sq-11', { timeout: WAIT });
      await other.close();
      await p2.waitForSelector('#banner .banner-warn', { timeout: WAIT });
      expect(await p2.locator('#banner').innerText()).toMatch(/Connection lost — reconnecting/);
      expect(await p2.locator('#conn').innerText()).toContain('Offline');
      // Controls are off while disconnected.
      expect(await p2.locator('#sq-11').count()).toBe(0);
      other = await startOnSim(gamesDir, { http: { port } });
      await p2.waitForFunction(() => !document.querySelector('#banner .banner-warn'), null, { timeout: WAIT });
      await p2.waitForSelector('#sq-11', { timeout: WAIT });
      expect(await p2.locator('#conn').innerText()).toContain('Simulated board');
    } finally {
      await p2.close();
      await other.close();
    }
  }, 60_000);
});

describe('the page, second edition', () => {
  const noHorizontalScroll = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  async function newGameFromForm(
    opts: { tc?: string; huffing?: boolean; computer?: { side: 'black' | 'white'; level: number } } = {},
  ): Promise<void> {
    await page.setViewportSize({ width: 1280, height: 860 });
    if (!(await page.locator('#new-game-card[open]').count())) await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=start]');
    await page.selectOption('#ng-tc', opts.tc ?? '');
    await page.selectOption('#ng-computer', opts.computer?.side ?? '');
    if (opts.computer) await page.selectOption('#ng-level', String(opts.computer.level));
    if (opts.huffing) await page.check('#ng-huffing');
    else await page.uncheck('#ng-huffing');
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
    await waitStatus('in-sync');
  }

  it('draws a piece moved out of turn in its own colour, and numbers a changed White move right', async () => {
    await newGameFromForm();
    // Black to move, but a white man goes from 22 to 17: drawn white, not in the mover's black.
    await hand(22, 17);
    await page.waitForSelector('#board .piece.differs[data-square="17"] .coin-w', { timeout: WAIT });
    expect(await page.locator('#board .piece[data-square="17"] .coin-b').count()).toBe(0);
    await shot('web-out-of-turn.png');
    await hand(17, 22);
    await waitStatus('in-sync');
    await hand(11, 16);
    await waitMoves(['11-16']);
    await hand(24, 19);
    await waitMoves(['11-16', '24-19']);
    // White changes its mind: 19 goes to 20 before Black replies.
    await hand(19, 20);
    await waitMoves(['11-16', '24-20']);
    const rows = await page.locator('.movelist tr').allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual(['1. 11-16 24-20']);
  }, 60_000);

  it('a held H key asks for one hint, not one per key repeat', async () => {
    if (!page.url().startsWith(svc.url)) await page.goto(svc.url); // (run alone)
    await page.waitForSelector('#new-game-card summary', { timeout: WAIT });
    await newGameFromForm();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.waitForSelector('#b-hint', { timeout: WAIT });
    // Count the hint commands the page sends: the first keydown of a held key, then its repeats.
    const sent = await page.evaluate(() => {
      let hints = 0;
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: Parameters<WebSocket['send']>[0]) {
        if (typeof data === 'string' && data.includes('"hint"')) hints++;
        return send.call(this, data);
      };
      try {
        for (let i = 0; i < 30; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', repeat: i > 0, bubbles: true }));
      } finally {
        WebSocket.prototype.send = send;
      }
      return hints;
    });
    expect(sent).toBe(1);
  }, 60_000);

  it('steps through the game with the keys and the move list, and goes back to live', async () => {
    await newGameFromForm();
    await hand(11, 16);
    await hand(24, 20);
    await hand(9, 14);
    await waitMoves(['11-16', '24-20', '9-14']);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    expect(await page.locator('.review-label').innerText()).toBe('Reviewing: move 1... 24-20 (2/3)');
    // The board shows that position: 9 still has its man, 14 is empty.
    expect(await page.locator('#board .piece[data-square="9"]').count()).toBe(1);
    expect(await page.locator('#board .piece[data-square="14"]').count()).toBe(0);
    expect(await page.locator('#conn').innerText()).toContain('Reviewing');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('.review-label')?.textContent === 'Reviewing: the start position (0/3)', null, {
      timeout: WAIT,
    });
    expect(await page.locator('#board .piece').count()).toBe(24);
    await shot('web-review.png');
    // The live game goes on underneath: a move while reviewing is recorded, the review stays.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('.review-label')?.textContent === 'Reviewing: move 1. 11-16 (1/3)', null, {
      timeout: WAIT,
    });
    // Clicking a move shows its position; "Back to live" returns.
    await page.click('.movelist td.mv[data-to="3"]');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    await page.click('.movelist td.mv[data-to="2"]');
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    await page.click('#rv-live');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    expect(await page.locator('#board .piece[data-square="14"]').count()).toBe(1);
    // A swipe on the board (touch) steps too: right is back.
    const swipe = (dx: number) =>
      page.evaluate((d: number) => {
        const el = document.getElementById('board')!;
        const r = el.getBoundingClientRect();
        const at = (x: number) =>
          new Touch({ identifier: 1, target: el, clientX: r.left + r.width / 2 + x, clientY: r.top + r.height / 2 });
        el.dispatchEvent(new TouchEvent('touchstart', { touches: [at(0)], changedTouches: [at(0)], bubbles: true }));
        el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [at(d)], bubbles: true }));
      }, dx);
    await swipe(120);
    await page.waitForFunction(() => document.querySelector('.review-label')?.textContent === 'Reviewing: move 1... 24-20 (2/3)', null, {
      timeout: WAIT,
    });
    await swipe(-120);
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    // Keys too: Left then Escape.
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    await page.keyboard.press('Escape');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
  }, 60_000);

  it('hides the takeback once a draw is agreed', async () => {
    expect(await page.locator('[data-act=takeback]').count()).toBe(1);
    await page.click('#b-offer-draw-black');
    await page.waitForSelector('#b-accept-draw-white', { timeout: WAIT });
    await page.click('#b-accept-draw-white');
    await page.waitForSelector('#moves .result[data-result="1/2-1/2"]', { timeout: WAIT });
    expect(await page.locator('[data-act=takeback]').count()).toBe(0);
    const pdn = await (await fetch(new URL('/api/current.pdn', svc.url))).text();
    expect(pdn).toContain('[Result "1/2-1/2"]');
    expect(pdn).toContain('[Termination "draw by agreement"]');
  }, 60_000);

  it('starts a new game with a time control and huffing from the form; the clocks start at the first move', async () => {
    await newGameFromForm({ tc: '5m+3s', huffing: true });
    expect(await page.locator('[data-clock=black]').innerText()).toBe('5:00');
    expect(await page.locator('#players .clock-ctl').innerText()).toContain('clocks start with the first move');
    expect(await page.locator('#b-clock-start').count()).toBe(1);
    const pdn = await (await fetch(new URL('/api/current.pdn', svc.url))).text();
    expect(pdn).toContain('[TimeControl "300+3"]');
    expect(pdn).toContain('[Variant "huffing"]');
    expect(await page.locator('#players .event').innerText()).toContain('huffing');
    // Waiting does not start them; the first move does (White's).
    await page.waitForTimeout(1500);
    expect(await page.locator('.clock.running').count()).toBe(0);
    await hand(11, 15);
    await waitMoves(['11-15']);
    await page.waitForSelector('.clock.running[data-clock=white]', { timeout: WAIT });
    expect(await page.locator('[data-clock=black]').innerText()).toBe('5:03');
    await shot('web-clock.png');
  }, 60_000);

  it('lists past games, opens an old one to replay and downloads it', async () => {
    await page.click('#b-archive-open');
    await page.waitForSelector('#archive .archive-table tbody tr', { timeout: WAIT });
    const rows = page.locator('#archive .archive-table tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    // Newest first: the game in play, then the drawn one (3 plies: 2 moves), dated with its time.
    expect(await rows.nth(0).getAttribute('class')).toBe('current');
    const drawn = rows.nth(1);
    expect((await drawn.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d Ann – Ben Club night 1\/2-1\/2 2 Open PDN Delete$/,
    );
    await shot('web-archive.png');
    const id = (await drawn.getAttribute('data-game'))!;
    await page.click(`#open-${id}`);
    await page.waitForSelector('.review-bar.reviewing', { timeout: WAIT });
    expect(await page.locator('.review-label').innerText()).toMatch(/^Archived game: .*move 2\. 9-14 \(3\/3\)$/);
    // The move list is that game's while it is open.
    await waitMoves(['11-16', '24-20', '9-14']);
    expect(await page.locator('#moves h2').innerText()).toMatch(/archived game/i);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => /1\.\.\. 24-20 \(2\/3\)$/.test(document.querySelector('.review-label')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: WAIT }), page.click('#rv-download')]);
    const pdn = readFileSync(await download.path(), 'utf8');
    expect(pdn).toMatch(/1\. 11-16 24-20 2\. 9-14 1\/2-1\/2/);
    await page.click('#rv-live');
    await page.waitForSelector('.review-bar.live', { timeout: WAIT });
    // Delete asks first; the game in play has no delete button.
    await page.click('#b-archive-open');
    await page.waitForSelector(`#del-${id}`, { timeout: WAIT });
    expect(await page.locator('#archive tr.current [data-act=archive-delete]').count()).toBe(0);
    await page.click(`#del-${id}`);
    await page.waitForSelector(`#del-${id}.armed`, { timeout: WAIT });
    await page.click(`#del-${id}`);
    await page.waitForFunction((g: string) => !document.querySelector(`#archive tr[data-game="${g}"]`), id, { timeout: WAIT });
    await page.click('#b-archive-close');
    await page.waitForSelector('#archive', { state: 'hidden', timeout: WAIT });
  }, 60_000);

  it('fits a phone: no sideways scroll with the forms open', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#new-game-card summary');
    await page.check('#new-game-form input[name=from][value=fen]');
    await page.selectOption('#ng-tc', 'custom');
    // A bad FEN: the server's refusal appears beside the field, the form stays open (the game in play is kept).
    await page.fill('#ng-fen', 'Q:W1');
    await page.click('#ng-submit');
    if ((await page.locator('#ng-submit.armed').count()) > 0) await page.click('#ng-submit');
    await page.waitForSelector('#ng-error:not([hidden])', { timeout: WAIT });
    expect(await page.locator('#ng-error').innerText()).toMatch(/FEN/);
    expect(await page.locator('#new-game-card[open]').count()).toBe(1);
    expect(await page.locator('#banner .banner-error').count()).toBe(0);
    expect(await page.locator('#ng-fen').getAttribute('aria-describedby')).toContain('ng-error');
    await page.waitForTimeout(200);
    expect(await noHorizontalScroll(page)).toBe(true);
    await shot('web-phone-form.png', true);
    await page.click('#new-game-card summary');
    await page.click('#b-archive-open');
    await page.waitForSelector('#archive .archive-table', { timeout: WAIT });
    expect(await noHorizontalScroll(page)).toBe(true);
    await shot('web-phone-archive.png');
    await page.click('#b-archive-close');
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(problems).toEqual([]);
  }, 60_000);

  it('read-only watchers see no forms and no controls', async () => {
    const other = await startOnSim(join(dir, 'games-ro'), { http: { requireToken: true, token: 'ro-test-token' } });
    const p2 = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    try {
      await p2.goto(other.url);
      await p2.waitForSelector('#banner .banner-info', { timeout: WAIT });
      expect(await p2.locator('#banner').innerText()).toContain('Read-only view');
      expect(await p2.locator('#forms').isVisible()).toBe(false);
      expect(await p2.locator('#new-game-card').isVisible()).toBe(false);
      expect(await p2.locator('[data-act=resign], [data-act=takeback], [data-act=square], #b-hand-setup').count()).toBe(0);
      expect(await p2.locator('#dl-pdn').isVisible()).toBe(true);
      await p2.screenshot({ path: join(ARTIFACTS, 'web-readonly.png') });
      // With the token, the same page controls the game.
      await p2.goto(`${other.url}?token=ro-test-token`);
      await p2.waitForSelector('#b-hand-setup', { timeout: WAIT });
      // (#forms shows on the render after the controls: read once, it raced that render under a full suite's load.)
      await expect.poll(() => p2.locator('#forms').isVisible(), { timeout: WAIT }).toBe(true);
    } finally {
      await p2.close();
      await other.close();
    }
  }, 60_000);

  // Last: it stops the service the page is connected to.
  it('offline: status greyed, clocks frozen, a banner', async () => {
    // The game with the 5 min + 3 s clock is in play: White's clock runs.
    await page.waitForSelector('.clock.running[data-clock=white]', { timeout: WAIT });
    await svc.close();
    await page.waitForSelector('#banner .banner-warn', { timeout: WAIT });
    await page.waitForSelector('#status [data-status="offline"]', { timeout: WAIT });
    expect(await page.locator('#status').innerText()).toContain('Offline');
    expect(await page.locator('#status').innerText()).not.toMatch(/in sync/i);
    expect(await page.locator('body.offline').count()).toBe(1);
    expect(await page.locator('#conn').innerText()).toContain('Offline');
    expect(await page.locator('.clock.running').count()).toBe(0);
    const before = await page.locator('[data-clock=white]').innerText();
    await page.waitForTimeout(2200);
    expect(await page.locator('[data-clock=white]').innerText()).toBe(before);
    await shot('web-offline.png');
  }, 60_000);
});
