// A station's own link to its broker on its page, in a real browser (Debian
// chromium): the station reports to a Mosquitto that is stopped — its page
// says "Can't reach the broker at mqtt://…: your moves are kept here and sent
// when it is back (for … s, since …)"; started again on the same port, the
// words go. A page opened while the broker is down says it from its first
// message (the hello's server part). The words themselves are checked on the
// pure renderer.

import { describe, expect, it } from 'vitest';
import { useChromium } from './chromium.ts';
import { renderHubLink } from '../../src/web/far-board.ts';
import { Mosquitto, removeTempDirs, station, until } from '../stations/fixture.ts';

const WAIT = 30_000;
const web = useChromium(removeTempDirs);
const closers = web.closers;

describe('a station’s page and its broker', () => {
  it('says nothing while the link is up; down, the broker by address and since when', () => {
    expect(renderHubLink({ url: 'mqtt://hub.local:1883', connected: true, since: 0 })).toBe('');
    expect(renderHubLink({ url: 'mqtt://hub.local:1883', connected: false, since: 1000 }, 41_000)).toMatch(
      /data-hub-link="down".*Can(&#39;|')t reach the broker at mqtt:\/\/hub.local:1883: your moves are kept here and sent when it is back \(for 40 s, since /s,
    );
  });

  it('broker stopped: the page says it cannot reach it; started again: cleared', { timeout: 120_000 }, async () => {
    const m = await Mosquitto.start();
    closers.push(() => m.stop());
    const st = await station(m.url, 'NORTH', 71);
    closers.push(() => st.close());
    await until(() => st.client.connected, 'the station on the broker', WAIT);
    const page = await web.browser.newPage();
    closers.push(() => page.close());
    await page.goto(st.service.url);
    await page.waitForSelector('.status', { timeout: WAIT });
    expect(await page.locator('[data-hub-link]').count()).toBe(0);

    await m.stop();
    const words = `[data-hub-link="down"] >> text=/Can.t reach the broker at mqtt:\\/\\/127\\.0\\.0\\.1:${m.port}: your moves are kept here and sent when it is back/`;
    await page.waitForSelector(words, { timeout: WAIT });
    // A page opened now hears it in its first message.
    const late = await web.browser.newPage();
    closers.push(() => late.close());
    await late.goto(st.service.url);
    await late.waitForSelector(words, { timeout: WAIT });

    await m.run();
    await until(() => st.client.connected, 'the station back on the broker', WAIT);
    await page.waitForSelector('[data-hub-link]', { state: 'detached', timeout: WAIT });
    await late.waitForSelector('[data-hub-link]', { state: 'detached', timeout: WAIT });
  });
});
