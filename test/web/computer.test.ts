// Playing the computer in a real browser (Debian chromium via playwright-core)
// against the real service on the simulated board: the opponent chosen in the
// new-game form, the computer's move (from the engine's worker thread) drawn
// as a dashed route and said in the status, carried out with the page's hand,
// and the route gone once it is played. A file of its own (its own service and
// browser), so it runs beside the other browser tests.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { startOnSim } from '../server/helpers.ts';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');
const WAIT = 15_000;
let browser: Browser;
let dir: string;
const problems: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-web-computer-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the page, playing the computer', () => {
  it('plays the computer, chosen in the form: its move drawn and said on the page, carried out on the board', async () => {
    const own = await startOnSim(join(dir, 'games-computer'));
    const p = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    try {
      await p.goto(own.url);
      await p.waitForSelector('#board svg.board-svg', { timeout: WAIT });
      await p.click('#new-game-card summary');
      await p.selectOption('#ng-computer', 'white');
      await p.selectOption('#ng-level', '1');
      await p.click('#ng-submit');
      await p.waitForFunction(
        () =>
          (window as unknown as { crownhead: { state(): { snap: { tags: Record<string, string> } | null } } }).crownhead.state().snap?.tags
            .White === 'Crownhead (level 1)',
        undefined,
        { timeout: WAIT },
      );
      await p.waitForSelector('#b-hand-setup', { timeout: WAIT });
      await p.click('#b-hand-setup');
      await p.waitForSelector('#status [data-status="in-sync"]', { timeout: WAIT }).catch(async (e) => {
        throw new Error(
          `${e.message}; status: ${await p.locator('#status').innerText()}; sent: ${JSON.stringify(await p.evaluate(() => (window as unknown as { crownhead: { state(): unknown } }).crownhead.state()).then((st) => (st as { pending?: unknown }).pending))}`,
        );
      });
      const click = async (...squares: number[]) => {
        for (const sq of squares) {
          await p.click(`#sq-${sq}`);
          await p.waitForTimeout(180);
        }
      };
      await click(11, 15);
      // The computer (in its worker) answers: a dashed route on the board and the words in the status.
      const route = await p.waitForSelector('#board .computer-route', { timeout: WAIT });
      const text = (await route.getAttribute('data-computer'))!;
      expect(await p.locator('#status .computer').innerText()).toBe(
        `The computer (White, level 1) plays ${text}: carry it out on the board.`,
      );
      await p.screenshot({ path: join(ARTIFACTS, 'web-computer.png') });
      const [from, to] = text.split('-').map(Number);
      await click(from, to);
      await p.waitForFunction(
        (want: string) => [...document.querySelectorAll('.movelist td.mv:not(.empty)')].map((e) => e.textContent).join(' ') === want,
        `11-15 ${text}`,
        { timeout: WAIT },
      );
      expect(await p.locator('#board .computer-route').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await p.close();
      await own.close();
    }
  }, 60_000);
});
