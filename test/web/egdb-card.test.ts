// The endgame-database card on the board's page, in a real browser (Debian
// chromium) against the real service: it says what building costs, the
// button starts the build (a stand-in child here: the real one takes 13
// minutes) and the card shows its progress — a bar, slice k of n — and the
// stop button ends it, saying the build goes on from its last slice later.

import { describe, expect, it } from 'vitest';
import { useChromium } from './chromium.ts';
import { removeTempDirs, startSimService, tempDir } from '../server/helpers.ts';

const WAIT = 30_000;
const web = useChromium(removeTempDirs);
const closers = web.closers;

describe('the endgame database from the board’s page', () => {
  it('offers the build, shows its progress and stops it', { timeout: 120_000 }, async () => {
    // A child that solves a slice each time a file appears… here simply two slices at once, then waits to be stopped.
    const script = `process.stderr.write('slice 1/85 a solved, 2.0 s elapsed\\nslice 2/85 b solved, 4.0 s elapsed\\n'); setInterval(() => {}, 1000);`;
    const s = await startSimService({
      engine: {
        egdb: { dir: tempDir('crownhead-egdb-'), memory: () => 8 * 1024 ** 3, command: { cmd: process.execPath, args: ['-e', script] } },
      },
    });
    closers.push(() => s.service.close());
    const page = await web.browser.newPage();
    closers.push(() => page.close());
    await page.goto(s.service.url);
    await page.waitForSelector('#egdb >> text=/136 MB on disk and 2.4 GB of memory/', { timeout: WAIT });
    await page.click('[data-act="egdb-build"]');
    await page.waitForSelector('#egdb progress[value="2"][max="85"]', { timeout: WAIT });
    expect(await page.locator('#egdb [data-egdb="building"]').textContent()).toMatch(/slice 2 of 85/);
    await page.click('[data-act="egdb-stop"]');
    await page.waitForSelector('#egdb >> text=/stopped at slice 2: building again goes on from there/', { timeout: WAIT });
    expect(await page.locator('[data-act="egdb-build"]').textContent()).toBe('Build it again');
  });
});
