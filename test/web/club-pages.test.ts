// The club pages in a real browser (Debian chromium via playwright-core)
// against the real service in club mode with four simulated boards (the
// manual clock, played by the test's hand: lift, put down, take off), at a
// desktop (1280×800) and a phone (390×844) viewport: /watch shows every board
// in number order under its Event/Round heading, a move played on board 3
// appears on it, an illegal board and an unplugged one are marked in colour
// and words and said once in the polite live region; nothing /watch loads (HTML, script, style,
// socket frames) holds the control token; the phone shows one column of
// readable cards; /arbiter refuses without the control token and with it
// lists the boards needing attention and opens a board's full page with its
// controls, and corrects a board's clock from the grid (in the game's
// history, with who and why); "time" called (ACF time per move) is on the arbiter's list and
// the card; a refused spectator sees why; a dropped socket shows
// "reconnecting". Screenshots go to scratch/ (not committed).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import type { Service } from '../../src/server/service.ts';
import { parseFen, resolveMove } from '../../src/rules/index.ts';
import { playOnSim, setUp, startClub, tempDir, removeTempDirs, until } from '../server/helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const SHOTS = join(import.meta.dirname, '../../scratch');
const WAIT = 15_000;
const TOKEN = 'ctrl-7Hq2-club-pages';
const WATCH = 'watch-3Kd9-club-pages';
const NAMES = [
  ['Ann Lee', 'Bob Marsh'],
  ['Marion Tinsley-Smythe', 'Derek Oldbury'],
  ['Cy Young', 'Ed Wood'],
  ['Dee Dee', 'Flo Rida'],
];

let svc: Service;
let sims: SimBoard[];

/**
 * A simulated board whose cable can be pulled: it says "lost" and comes back
 * as the serial source does when a USB board is unplugged and plugged in.
 */
class UnpluggableSim extends SimBoard {
  unplug(): void {
    this.setStatus({ state: 'lost', reason: 'the USB cable was pulled' });
  }
  replug(): void {
    this.setStatus({ state: 'reconnected', identity: this.identity() });
    this.advance(600);
  }
}
const board4 = () => sims[3] as UnpluggableSim;
let browser: Browser;

async function command(id: string, command: object): Promise<void> {
  const r = await fetch(`${svc.url}boards/${id}/api/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(command),
  });
  expect(r.status, `${JSON.stringify(command)} on ${id}: ${await r.clone().text()}`).toBe(200);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  sims = [1, 2, 3, 4].map((n) => new (n === 4 ? UnpluggableSim : SimBoard)({ clock: 'manual', seed: 10 + n, id: `SIM-${n}` }));
  svc = await startClub(
    { sources: sims },
    {
      storage: { gamesDir: join(tempDir('crownhead-club-pages-'), 'games') },
      game: { tags: { Event: 'Club night', Round: '1' }, timeControl: '5m' },
      http: { requireToken: true, token: TOKEN, readToken: WATCH, publicWatch: true },
    },
  );
  for (const [i, sim] of sims.entries()) {
    await command(`SIM-${i + 1}`, { name: 'set-tags', tags: { Black: NAMES[i]![0], White: NAMES[i]![1] } });
    setUp(sim);
  }
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  removeTempDirs();
});

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, moves: ['11-15'] },
  { name: 'phone', width: 390, height: 844, moves: ['23-19'] },
] as const;

/** Plays a move (its PDN text) by hand on a board's simulated board. */
function play(board: number, text: string): void {
  const pos = unwrap(parseFen(svc.rooms[board - 1]!.session.snapshot().fen));
  playOnSim(sims[board - 1]!, resolveMove(pos, text));
}

/** White moves out of turn on a board where Black is to move: lift 22, put it on 18 (an illegal board). */
function outOfTurn(board: number): void {
  const sim = sims[board - 1]!;
  sim.lift(22);
  sim.advance(150);
  sim.set(18, 1);
  sim.advance(900);
}
function putBack(board: number): void {
  const sim = sims[board - 1]!;
  sim.lift(18);
  sim.advance(150);
  sim.set(22, 1);
  sim.advance(900);
}

describe.each(VIEWPORTS)('the club pages at $width×$height ($name)', (vp) => {
  const phone = vp.width < 600;
  let page: Page;
  const problems: string[] = [];
  const seen: string[] = [];
  /** what the page's sockets sent, and its requests other than GET */
  const sent: string[] = [];

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // Everything the page loads and every frame its socket carries, to look for the token.
    page.on('request', (r) => {
      seen.push(`request ${r.url()} ${JSON.stringify(r.headers())}`);
      if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
    });
    page.on('response', async (r) => {
      seen.push(`response ${r.url()} ${JSON.stringify(await r.allHeaders())}`);
      if (r.status() < 300) seen.push(await r.text().catch(() => ''));
    });
    page.on('websocket', (ws) => {
      seen.push(`websocket ${ws.url()}`);
      ws.on('framereceived', (f) => seen.push(String(f.payload)));
      ws.on('framesent', (f) => {
        seen.push(String(f.payload));
        sent.push(String(f.payload));
      });
    });
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    expect(problems).toEqual([]);
  });

  const shot = async (name: string) => {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(SHOTS, `club-${vp.name}-${name}.png`), fullPage: true });
  };
  const card = (n: number) => page.getByRole('region', { name: `Board ${n}`, exact: true });

  it('/watch: every board in number order under its heading, a move on board 3 appears, nothing holds the control token', async () => {
    await page.goto(`${svc.url}watch`);
    await page.waitForSelector('#club-conn [data-connection="open"]', { timeout: WAIT });
    await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 4, null, { timeout: WAIT });
    expect(await page.locator('.club-card h3').allTextContents()).toEqual(['Board 1', 'Board 2', 'Board 3', 'Board 4']);
    expect(await page.locator('.club-heading').allTextContents()).toEqual(['Club night, round 1']);
    for (const n of [1, 2, 3, 4]) {
      // The names as written (a screen reader also hears each side, and who is to move).
      const names = await card(n)
        .locator('.cc-name')
        .evaluateAll((els) => els.map((e) => e.firstChild!.textContent));
      expect(names).toEqual([NAMES[n - 1]![0], NAMES[n - 1]![1]]);
      expect(await card(n).locator('[data-clock]').count()).toBe(2);
    }
    expect(await page.locator('a[href*="token"], button, input, select').count()).toBe(0);
    expect(await card(3).locator('a').getAttribute('href')).toBe('/boards/SIM-3/');
    const plies = svc.rooms[2]!.session.snapshot().moves.length;
    const live = await page.locator('#club-live').textContent();
    const t0 = performance.now();
    for (const m of vp.moves) play(3, m);
    await page.waitForFunction((want: string) => document.querySelector('#board-SIM-3 .cc-last')?.textContent === want, vp.moves.at(-1)!, {
      timeout: WAIT,
    });
    // Reported, not asserted (a busy machine): from the hand's last coin to the spectator's card.
    console.log(`${vp.name}: board 3's move on /watch after ${Math.round(performance.now() - t0)} ms`);
    // Moves, not plies: 11-15 is move 1, and so is 11-15 23-19.
    expect(svc.rooms[2]!.session.snapshot().moves.length).toBe(plies + vp.moves.length);
    expect(Number(await card(3).locator('[data-moves]').getAttribute('data-moves'))).toBe(Math.ceil((plies + vp.moves.length) / 2));
    // The move's squares are lit on the small board; a plain move is not announced.
    expect(await card(3).locator('.mark.last-to').count()).toBe(1);
    expect(await page.locator('#club-live').textContent()).toBe(live);
    await shot('watch');
    if (phone) {
      // One column of readable cards, no sideways scrolling.
      const boxes = await page.locator('.club-card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
      expect(new Set(boxes.map((b: DOMRect) => Math.round(b.x))).size).toBe(1);
      for (const b of boxes) expect(b.width).toBeGreaterThan(vp.width - 40);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
      const smallest = await page.evaluate(() =>
        Math.min(
          ...[...document.querySelectorAll('.cc-name, .cc-clock, .cc-moves, .cc-state')].map((e) =>
            parseFloat(getComputedStyle(e).fontSize),
          ),
        ),
      );
      expect(smallest).toBeGreaterThanOrEqual(14);
    }
  });

  it('/watch: an illegal board in colour and words, said once politely; back in sync when put right', async () => {
    outOfTurn(2);
    await page.waitForSelector('#board-SIM-2[data-state="illegal"]', { timeout: WAIT });
    expect(await card(2).locator('.cc-state').innerText()).toMatch(/ILLEGAL/);
    expect(await card(2).locator('.cc-say').textContent()).toMatch(/\S/);
    await page.waitForFunction(() => /^Board 2: /.test(document.querySelector('#club-live')?.textContent ?? ''), null, { timeout: WAIT });
    const color = await card(2).evaluate((e) => getComputedStyle(e).borderTopColor);
    expect(color).not.toBe(await card(1).evaluate((e) => getComputedStyle(e).borderTopColor));
    await shot('watch-illegal');
    putBack(2);
    await page.waitForSelector('#board-SIM-2[data-state="in-sync"]', { timeout: WAIT });
  });

  it('/watch: a board unplugged says so in colour and words and is announced; plugged back, it plays on', async () => {
    board4().unplug();
    await page.waitForSelector('#board-SIM-4[data-state="disconnected"]', { timeout: WAIT });
    expect(await card(4).locator('.cc-state').innerText()).toMatch(/Board disconnected/);
    expect(await card(4).locator('.cc-say').innerText()).toBe('The USB cable was pulled');
    await page.waitForFunction(() => /^Board 4: Board disconnected/.test(document.querySelector('#club-live')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    await shot('watch-disconnected');
    board4().replug();
    await page.waitForSelector('#board-SIM-4[data-state="in-sync"]', { timeout: WAIT });
  });

  it('/watch: a board opens read-only with review', async () => {
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      card(3)
        .locator('a')
        .click({ modifiers: ['Control'] }),
    ]);
    await tab.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    await tab.waitForFunction(() => (window as any).crownhead?.state().server !== null, null, { timeout: WAIT });
    expect(await tab.evaluate(() => (window as any).crownhead.state().server.readOnly)).toBe(true);
    await tab.close();
    // Nothing the spectators' page loaded holds the control token (nor the watch token: it was given none).
    const all = seen.join('\n');
    expect(all).toContain('/watch/ws');
    expect(all).not.toContain(TOKEN);
    // A spectator's page sends nothing but pings (and none was due yet).
    expect(sent.filter((m) => m !== '{"v":1,"type":"ping"}')).toEqual([]);
  });

  it('/arbiter: refused without the control token, and with it the list of boards needing attention and each board with its controls', async () => {
    const refused = await page.goto(`${svc.url}arbiter?token=${WATCH}`);
    expect(refused!.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('The arbiter’s page needs the control token');
    await page.goto(`${svc.url}arbiter?token=${TOKEN}`);
    await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 4, null, { timeout: WAIT });
    await page.waitForSelector('#club-alerts [data-alerts="0"]', { timeout: WAIT });
    outOfTurn(2);
    await page.waitForSelector('#club-alerts li[data-alert="illegal"][data-board="SIM-2"]', { timeout: WAIT });
    expect(await page.locator('#alerts-title').innerText()).toBe('1 board needs you');
    board4().unplug();
    await page.waitForSelector('#club-alerts li[data-alert="disconnected"][data-board="SIM-4"]', { timeout: WAIT });
    expect(await page.locator('#alerts-title').innerText()).toBe('2 boards need you');
    expect(await page.title()).toBe('(2) Crownhead · Arbiter');
    // The list's link takes the focus to the board's card.
    await page.locator('#club-alerts li[data-board="SIM-4"] a[href="#board-SIM-4"]').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('board-SIM-4');
    expect(await page.locator('#club-alerts li').evaluateAll((els) => els.map((e) => e.getAttribute('data-board')))).toEqual([
      'SIM-2',
      'SIM-4',
    ]);
    const href = await card(2).locator('a[data-open]').getAttribute('href');
    expect(href).toBe(`/boards/SIM-2/?token=${TOKEN}`);
    await shot('arbiter');
    board4().replug();
    await page.waitForSelector('#club-alerts li[data-alert]:only-child', { timeout: WAIT });

    // A correction from the grid: board 4's clock, with who and why, into the game's history.
    const time = phone ? '3:15' : '4:30';
    await card(4).locator('[data-correct="SIM-4"]').click();
    await page.waitForSelector('#correct-form[data-board="SIM-4"]', { timeout: WAIT });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cf-kind');
    // Nothing to replace on a board with no moves: said before anything is sent.
    await page.selectOption('#cf-kind', 'replace-move');
    await page.waitForFunction(() => document.querySelector('#cf-ply option')?.textContent === 'No moves yet', null, { timeout: WAIT });
    await page.fill('#cf-move', '11-15');
    await page.click('#cf-apply');
    expect(await page.locator('#cf-status').innerText()).toBe('Not sent: choose the move to correct.');
    await page.selectOption('#cf-kind', 'adjust-clock');
    expect(await page.locator('#cf-move').isVisible()).toBe(false);
    await page.selectOption('#cf-side', 'black');
    await page.fill('#cf-time', time);
    await page.fill('#cf-by', 'Ann Arbiter');
    await page.fill('#cf-reason', 'the clock was set wrong');
    await page.click('#cf-apply');
    await page.waitForFunction(() => /^Done/.test(document.querySelector('#cf-status')?.textContent ?? ''), null, { timeout: WAIT });
    await page.waitForFunction((t: string) => document.querySelector('#board-SIM-4 [data-clock="black"]')?.textContent === t, time, {
      timeout: WAIT,
    });
    const snap = (await (await fetch(`${svc.url}boards/SIM-4/api/state`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      corrections?: { by: string; reason: string; say: string }[];
    };
    expect(snap.corrections?.at(-1)).toMatchObject({ by: 'Ann Arbiter', reason: 'the clock was set wrong' });
    await shot('arbiter-correct');
    await page.click('#cf-close');
    expect(await page.locator('#club-correct').isHidden()).toBe(true);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.correct)).toBe('SIM-4');
    await card(2).locator('a[data-open]').click();
    await page.waitForSelector('#board svg.board-svg', { timeout: WAIT });
    await page.waitForFunction(() => (window as any).crownhead?.state().server?.readOnly === false, null, { timeout: WAIT });
    await page.waitForSelector('#status [data-status="illegal"]', { timeout: WAIT });
    putBack(2);
    await page.waitForSelector('#status [data-status="in-sync"]', { timeout: WAIT });
  });
});

describe('time called', () => {
  it('/arbiter: a board where "time" is called (ACF time per move) is on the list, and its clock says so', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${svc.url}arbiter?token=${TOKEN}`);
      await page.waitForSelector('#club-alerts [data-alerts="0"]', { timeout: WAIT });
      await command('SIM-1', { name: 'new-game', timeControl: '10s/move,5s/forced,60s/grace' });
      setUp(sims[0]!);
      play(1, '11-15'); // the clock starts with the first move: White's move is timed
      sims[0]!.advance(11_000); // White thinks past the limit (the board's own clock)
      await page.waitForSelector('#club-alerts li[data-alert="time"][data-board="SIM-1"]', { timeout: WAIT });
      expect(await page.locator('#club-alerts li[data-alert="time"]').innerText()).toMatch(/Board 1 Time: Time called on White/);
      expect(await page.locator('#board-SIM-1 [data-clock="white"]').innerText()).toMatch(/^Time [01]:\d\d$/);
      expect(await page.locator('#board-SIM-1 [data-clock="white"]').getAttribute('class')).toContain('called');
      // The card says it too, whether the page or the server saw the limit pass first.
      await page.waitForFunction(() => /Time, White!/.test(document.querySelector('#board-SIM-1 .cc-state')?.textContent ?? ''), null, {
        timeout: WAIT,
      });
      await page.screenshot({ path: join(SHOTS, 'club-desktop-arbiter-time.png') });
    } finally {
      await page.close();
    }
  });
});

describe('a spectator the server refuses, and a socket that drops', () => {
  it('says why when the socket answers forbidden (the broadcast not public, a page reached by a name not this machine)', async () => {
    const sims2 = [1, 2].map((n) => new SimBoard({ clock: 'manual', seed: 20 + n, id: `SIM-${n}` }));
    const closed = await startClub(
      { sources: sims2 },
      {
        storage: { gamesDir: join(tempDir('crownhead-club-closed-'), 'games') },
        http: { requireToken: true, token: TOKEN, readToken: WATCH },
      },
    );
    // The page comes from "club.test" (mapped to this machine): not a loopback name, and no token.
    const named = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP club.test 127.0.0.1`],
    });
    try {
      const page = await named.newPage({ viewport: { width: 390, height: 844 } });
      const sockets: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      await page.goto(`http://club.test:${closed.port}/watch`);
      await page.waitForSelector('[data-forbidden]', { timeout: WAIT });
      expect(await page.locator('[data-forbidden]').innerText()).toMatch(
        /^Not allowed\. Requests without a token .*not "club\.test:\d+"\. This server does not let this page watch the boards\.$/s,
      );
      expect(await page.locator('#club-conn [data-connection]').getAttribute('data-connection')).toBe('forbidden');
      await page.screenshot({ path: join(SHOTS, 'club-phone-forbidden.png') });
      // Refused: it does not keep knocking.
      await page.waitForTimeout(1_500);
      expect(sockets).toHaveLength(1);
    } finally {
      await named.close();
      await closed.close();
    }
  });

  it('shows "reconnecting" when the service goes away', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${svc.url}watch`);
    await page.waitForSelector('#club-conn [data-connection="open"]', { timeout: WAIT });
    await page.waitForFunction(() => document.querySelectorAll('.club-card').length === 4, null, { timeout: WAIT });
    await svc.close();
    await page.waitForSelector('#club-conn [data-connection="reconnecting"]', { timeout: WAIT });
    expect(await page.locator('#club-conn').innerText()).toMatch(/^Reconnecting/);
    // The boards stay as last heard, dimmed.
    expect(await page.locator('.club-card').count()).toBe(4);
    expect(
      await page
        .locator('.club-card')
        .first()
        .evaluate((e) => getComputedStyle(e).opacity),
    ).toBe('0.6');
    await page.screenshot({ path: join(SHOTS, 'club-desktop-reconnecting.png') });
    await page.close();
  });
});
