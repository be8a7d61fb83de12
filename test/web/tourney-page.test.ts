// The arbiter's tournament panel on /arbiter in a real browser (Debian
// chromium via playwright-core) against the real service in club mode with
// two simulated boards: the arbiter creates a
// four-player round robin on the page (time control and tournament rules),
// adds the players, pairs and starts round 1 — each board gets its game —,
// a game ends at its board, and the arbiter corrects its result with a
// reason: the page's standings, the game's PDN (its [Result] and result
// token) and /broadcast.pdn all change. Then at a phone's size (390×844) the
// panel fits the screen (tables scroll in their own box), a late player is
// refused in the server's words for a round robin, a player is withdrawn,
// and the round's PDN and crosstable CSV links answer.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import type { Service } from '../../src/server/service.ts';
import { legalMoves, parseFen } from '../../src/rules/index.ts';
import { playOnSim, post, removeTempDirs, setUp, startClub, tempDir, until } from '../server/helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const WAIT = 15_000;
const SHOTS = join(import.meta.dirname, '../../scratch');
let svc: Service;
let sims: SimBoard[];
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  sims = [1, 2].map((n) => new SimBoard({ clock: 'manual', seed: 70 + n, id: `TP-${n}` }));
  svc = await startClub({ sources: sims }, { storage: { gamesDir: join(tempDir('crownhead-tourney-page-'), 'games') } });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  removeTempDirs();
});

/** The page's panel state says the tournament has what `ok` looks for. */
const panelHas = (page: Page, selector: string) => page.waitForSelector(selector, { timeout: WAIT });
const pointsOf = (page: Page, name: string) =>
  page.evaluate((n: string) => {
    const row = [...document.querySelectorAll('#tt-standings tbody tr')].find((r) => r.querySelector('th')?.textContent?.startsWith(n));
    return row?.querySelector('[data-points]')?.textContent ?? null;
  }, name);

describe('the arbiter’s tournament panel', () => {
  it('creates a 4-player round robin, starts round 1, corrects a result: standings, the game’s PDN and /broadcast.pdn change', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${svc.url}arbiter`);
    await panelHas(page, '#tt-create');
    await page.fill('#tt-name', 'Club Night');
    await page.selectOption('#tt-ballots', 'none');
    await page.fill('#tt-tc', '5m+3s');
    await page.click('#tt-create-go');
    await panelHas(page, '#tt-player');
    expect(await page.textContent('#tt-what')).toMatch(/Round robin · 3 rounds · go as you please · clock 5m\+3s · tournament rules/);
    for (const name of ['Ann', 'Bo', 'Cy', 'Di']) {
      await page.fill('#tt-pname', name);
      await page.click('#tt-player-go');
      await page.waitForFunction(
        (n: string) => [...document.querySelectorAll('.tt-players li')].some((li) => li.textContent?.includes(n)),
        name,
        {
          timeout: WAIT,
        },
      );
    }
    await page.click('#tt-pair');
    await panelHas(page, '#tt-start');
    await page.click('#tt-start');
    // Each board has its round-1 game, with the tournament's clock and rules.
    await until(() => svc.rooms.every((r) => r.session.tags.Round === '1'), 'round 1 on every board');
    for (const r of svc.rooms) {
      expect(r.session.snapshot().options.tournament).toBe(true);
      expect(r.session.tags.TimeControl).toBe('300+3');
    }
    await panelHas(page, 'tr[data-game="1.1.1"] td[data-result="*"]');
    // Board 1's game ends at the board: White resigns (1-0).
    const room = svc.rooms.find((r) => r.number === 1)!;
    const pos = unwrap(parseFen(room.session.snapshot().fen));
    setUp(sims[0]!, pos);
    playOnSim(sims[0]!, legalMoves(pos)[0]!);
    const black = room.session.tags.Black!;
    const white = room.session.tags.White!;
    expect((await post(`${svc.url}boards/TP-1/api/command`, { name: 'resign', side: 'white' })).status).toBe(200);
    await panelHas(page, 'tr[data-game="1.1.1"] td[data-result="1-0"]');
    expect(await pointsOf(page, black)).toBe('1');
    const cast = await fetch(`${svc.url}broadcast.pdn`);
    expect(await cast.text()).toMatch(/\[Result "1-0"\]/);
    // The arbiter corrects it on the page, with a reason.
    await page.click('tr[data-game="1.1.1"] [data-tt-choose]');
    await page.selectOption('#tt-res', '0-1');
    await page.fill('#tt-reason', 'Black had lost on time before the resignation');
    await page.fill('#tt-by', 'TD');
    await page.click('#tt-result-go');
    await panelHas(page, 'tr[data-game="1.1.1"] td[data-result="0-1"]');
    expect(await page.textContent('tr[data-game="1.1.1"] .tt-was')).toMatch(/was 1-0 — Black had lost on time/);
    expect(await pointsOf(page, black)).toBe('0');
    expect(await pointsOf(page, white)).toBe('1');
    expect(await page.textContent('#tt-status')).toMatch(/Result set/);
    const pdn = await (await fetch(`${svc.url}boards/TP-1/api/current.pdn`)).text();
    expect(pdn).toMatch(/\[Result "0-1"\]/);
    expect(pdn.trimEnd()).toMatch(/ 0-1$/);
    expect(pdn.replace(/\s+/g, ' ')).toMatch(/Arbiter \(TD\).*Black had lost on time before the resignation/);
    const after = await (await fetch(`${svc.url}broadcast.pdn`)).text();
    expect(after).toMatch(/\[Result "0-1"\]/);
    expect(after).not.toMatch(/\[Result "1-0"\]/);
    await page.screenshot({ path: join(SHOTS, 'tourney-desktop.png'), fullPage: true });
    await page.close();
  }, 90_000);

  it('fits a phone: the panel within 390 px, a late entry refused in words, a withdrawal, the round’s PDN and the crosstable CSV', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${svc.url}arbiter`);
    await panelHas(page, '#tt-standings');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await page.locator('#club-tourney').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // Every control of the result form is on screen once scrolled to: a phone can use it.
    for (const id of ['#tt-game', '#tt-res', '#tt-reason', '#tt-result-go']) {
      const b = await page.locator(id).boundingBox();
      expect(b!.x >= 0 && b!.x + b!.width <= 390, id).toBe(true);
    }
    await page.fill('#tt-pname', 'Ed');
    await page.click('#tt-player-go');
    await page.waitForFunction(
      () => /Refused: a round robin cannot take a new player/.test(document.querySelector('#tt-status')?.textContent ?? ''),
      null,
      {
        timeout: WAIT,
      },
    );
    await page.click('[data-tt-withdraw="4"]');
    await page.waitForFunction(() => /\(withdrawn\)/.test(document.querySelector('li[data-player="4"]')?.textContent ?? ''), null, {
      timeout: WAIT,
    });
    const pdnHref = await page.getAttribute('[data-round-pdn="1"]', 'href');
    const round = await fetch(new URL(pdnHref!, svc.url));
    expect(round.status).toBe(200);
    expect(await round.text()).toMatch(/\[Round "1"\]/);
    const csv = await fetch(new URL((await page.getAttribute('#tt-csv', 'href'))!, svc.url));
    expect(csv.status).toBe(200);
    expect(await csv.text()).toMatch(/Ann/);
    await page.screenshot({ path: join(SHOTS, 'tourney-phone.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
