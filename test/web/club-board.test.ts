// A club's board page in a real browser (Debian chromium via playwright-core):
// /boards/ID/ is the one-board page following that board only — its game,
// its socket, its downloads — and an arbiter's correction shows in the game's
// history on the page and in the PDN it downloads. Desktop and phone widths;
// screenshots go to scratch/ (not committed).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import type { Service } from '../../src/server/service.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { playOnSim, post, removeTempDirs, setUp, startClub, corpusMoves } from '../server/helpers.ts';

const SHOTS = join(import.meta.dirname, '../../scratch');
let svc: Service;
let browser: Browser;
const sims = [1, 2].map((i) => new SimBoard({ clock: 'manual', seed: 60 + i, id: `BRD-${i}` }));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  svc = await startClub({ sources: sims });
  browser = await launchChromium();
  for (const s of sims) setUp(s);
  await post(svc.url + 'boards/BRD-2/api/command', { name: 'set-tags', tags: { Black: 'Ann Arbor', White: 'Bo Brown' } });
  for (const m of corpusMoves(2)) playOnSim(sims[1]!, m);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  removeTempDirs();
});

describe.each([
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
])('a club board page at $width×$height ($name)', (vp) => {
  it("follows its own board, and shows the arbiter's correction in the game's history and its PDN", async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height }, acceptDownloads: true });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(svc.url + 'boards/BRD-2');
    expect(page.url()).toBe(svc.url + 'boards/BRD-2/');
    await page.waitForSelector('text=Ann Arbor', { timeout: 15_000 });
    await page.waitForSelector('.movelist', { timeout: 15_000 });
    // (The desktop run corrects White's first move; the phone run then opens the corrected game.)
    expect(await page.locator('.movelist').innerText()).toMatch(vp.name === 'desktop' ? /11-15[\s\S]*24-20/ : /11-15[\s\S]*23-19/);
    // Board 1 is untouched by what board 2's page shows.
    expect(svc.rooms[0]!.session.snapshot().moves).toHaveLength(0);
    if (vp.name === 'desktop') {
      const r = await post(svc.url + 'boards/BRD-2/api/command', {
        name: 'correct',
        correction: { kind: 'replace-move', ply: 1, move: '23-19' },
        by: 'Chief arbiter',
        reason: 'board misread',
      });
      expect(r.status).toBe(200);
    }
    const history = page.locator('section.corrections');
    await history.waitFor({ timeout: 15_000 });
    expect(await history.innerText()).toMatch(
      /Chief arbiter: move 1 \(White\) replaced: 24-20 was recorded, 23-19 was played — board misread/,
    );
    expect(await page.locator('.movelist').innerText()).toMatch(/23-19/);
    await page.screenshot({ path: join(SHOTS, `club-board-${vp.name}.png`), fullPage: true });
    // The page's download is this board's game, with the correction in it.
    const href = await page.locator('#dl-pdn').getAttribute('href');
    expect(href).toBe('/boards/BRD-2/api/current.pdn');
    const pdn = await (await fetch(new URL(href!, svc.url))).text();
    expect(pdn.replace(/\s+/g, ' ')).toMatch(
      /\{Arbiter \(Chief arbiter\) .* UTC: move 1 \(White\) replaced: 24-20 was recorded, 23-19 was played — board misread\}/,
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
