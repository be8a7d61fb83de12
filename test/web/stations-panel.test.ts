// The hub's stations on the arbiter's page (src/web/stations-panel.ts): the
// panel's HTML names every paired board, online or not, its key and what was
// refused from it; in a real browser (Debian chromium) the arbiter page of a
// hub shows a station that paired, then a message forged for it ("1 message
// refused — … not signed by its station") and the station gone offline; a
// club service that is not a hub shows no panel.

import { join } from 'node:path';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { useChromium } from './chromium.ts';
import { renderStations } from '../../src/web/stations-panel.ts';
import { renderClubConnection } from '../../src/web/club-render.ts';
import { initialClubState } from '../../src/web/club-state.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/stations/broker.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import { sealMessage } from '../../src/stations/messages.ts';
import { ephemeralIdentity } from '../../src/stations/identity.ts';
import { hub, removeTempDirs, station, tempDir, until } from '../stations/fixture.ts';
import type { Hub } from '../../src/stations/hub.ts';

const WAIT = 20_000;
const web = useChromium(removeTempDirs);
const closers = web.closers;

describe('the stations panel', () => {
  it('names every paired board, online or not, its key, and what was refused from it', () => {
    const html = renderStations({
      stations: [
        {
          board: 'NORTH',
          key: '3f2a9c1b',
          online: true,
          refused: { count: 3, last: 'entries: not signed by its station (key 00ff00ff)', at: 1 },
        },
        { board: 'SOUTH', key: 'aa11bb22', online: false, refused: null },
      ],
      unpaired: { count: 500, last: 'status: board GHOST-1 is not paired with any station', at: 2 },
      broker: { connected: true, since: 0 },
    });
    expect(html).toMatch(/data-station="NORTH".*online.*key 3f2a9c1b.*3 messages refused — entries: not signed by its station/s);
    expect(html).toMatch(/data-station="SOUTH".*offline.*key aa11bb22/s);
    expect(html).toMatch(/Boards nobody paired: 500 messages refused — status: board GHOST-1 is not paired with any station/);
    expect(renderStations({ stations: [], unpaired: null, broker: { connected: true, since: 0 } })).toContain('No station has paired yet.');
    expect(renderStations({ stations: [], unpaired: null, broker: { connected: false, since: 1000 } }, 41_000)).toMatch(
      /The hub cannot reach the broker \(for 40 s\): the boards' moves are kept on their stations/,
    );
    expect(renderStations({ stations: [], unpaired: null, broker: { connected: true, since: 1000 } })).not.toMatch(/cannot reach/);
    // The arbiter page's pill: not a green "Live" while the hub is cut off from the broker.
    const open = { ...initialClubState('arbiter'), connection: 'open' as const };
    expect(renderClubConnection(open, 0, { connected: false })).toMatch(/pill-bad.*Cut off from the boards/);
    expect(renderClubConnection(open, 0, { connected: true })).toMatch(/pill-ok.*Live/);
  });

  it(
    'on a hub’s arbiter page: the station paired, a message forged for it refused, then the station gone',
    { timeout: 90_000 },
    async () => {
      const b: EmbeddedBroker = await startEmbeddedBroker({ port: 0 });
      closers.push(() => b.close());
      const h: Hub = await hub(b.url, join(tempDir(), 'hub'));
      closers.push(() => h.close());
      const page = await web.browser.newPage();
      closers.push(() => page.close());
      await page.goto(h.service!.url + 'arbiter');
      await page.waitForSelector('#club-stations:not([hidden]) >> text=No station has paired yet.', { timeout: WAIT });
      const st = await station(b.url, 'NORTH', 7);
      closers.push(() => st.close());
      await page.waitForSelector('[data-station="NORTH"].online', { timeout: WAIT });
      expect(await page.textContent('[data-station="NORTH"]')).toContain(`key ${st.publisher.identity.fingerprint}`);
      const evil = await mqtt.connectAsync(b.url, { clientId: 'mallory', clean: true });
      closers.push(() => evil.endAsync());
      const forged = sealMessage('NORTH', 'alerts', { v: 1, gameId: 'x', alert: null, at: 1 }, ephemeralIdentity(), Date.now() * 1000);
      await evil.publishAsync(boardTopic('NORTH', 'alerts'), forged.payload, { qos: 1 });
      await page.waitForSelector('[data-station="NORTH"] >> text=/1 message refused — alerts: not signed by its station/', {
        timeout: WAIT,
      });
      await st.publisher.close();
      await page.waitForSelector('[data-station="NORTH"].offline', { timeout: WAIT });
      await until(() => h.refusals.get('NORTH')?.count === 1, 'one refusal counted');
    },
  );
});
