// Debian's Chromium for the browser tests (never a downloaded browser),
// headless and quiet: no network of its own, no first-run or sync work.
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A test file's Chromium: launched before its tests; when they end, every
 * closer run (newest first, failures ignored), the browser closed, then
 * `after` (e.g. removing temporary folders).
 */
export function useChromium(after: () => void = () => undefined): {
  readonly browser: Browser;
  readonly closers: (() => Promise<unknown>)[];
} {
  let browser: Browser | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
    await browser?.close();
    after();
  }, 60_000);
  return {
    get browser(): Browser {
      if (!browser) throw new Error('Chromium is not launched yet (use it inside a test)');
      return browser;
    },
    closers,
  };
}

/**
 * Clicks a button that asks for a second click to confirm (it shows `.armed`
 * for the page's ARM_MS, 4 s), then waits for `done`. On a loaded machine the
 * second click can land after the confirmation lapsed — that click arms it
 * again — so the button's state after each click decides: armed, click again;
 * not armed, the confirmation went through and `done` must follow.
 */
export async function clickConfirmed(page: Page, button: string, done: string, timeout: number): Promise<void> {
  const settled = (): Promise<void> => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
  for (let click = 0; click < 6; click++) {
    await page.click(button, { timeout });
    await settled();
    if ((await page.locator(`${button}.armed`).count()) === 0) {
      await page.waitForSelector(done, { timeout });
      return;
    }
  }
  throw new Error(`${button}: still asking to confirm after 6 clicks`);
}
