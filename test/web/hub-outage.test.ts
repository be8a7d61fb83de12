// The hub's arbiter page during a broker outage, in a real browser (Debian
// chromium): two stations mid-game report to a hub through Mosquitto; the
// broker stops. The page must not show a green "Live" (the hub is cut off from
// the boards: its pill says so) and must not tell either board to set up the
// start position (a link that dropped is not a board to set up), nor /watch
// a green "Live": each board
// keeps its game and its place. The broker back: "Live" again, the games go on.

import { describe, expect, it } from 'vitest';
import { useChromium } from './chromium.ts';
import { GAMES, Mosquitto, hub, removeTempDirs, setUpStart, station, tempDir, until, type TestStation } from '../stations/fixture.ts';
import { join } from 'node:path';

const WAIT = 30_000;
const web = useChromium(removeTempDirs);
const closers = web.closers;

function twoMoves(st: TestStation, game: number): void {
  for (const n of GAMES[game]!.moves.slice(0, 2)) {
    st.hand.playMove(n.move);
    st.sim.advance(800);
  }
}

describe('the arbiter page while the hub cannot reach the broker', () => {
  it('no green Live, no board told to set up the start position; back, Live again', { timeout: 120_000 }, async () => {
    const m = await Mosquitto.start();
    closers.push(() => m.stop());
    const h = await hub(m.url, join(tempDir(), 'hub'));
    closers.push(() => h.close());
    const stations: TestStation[] = [];
    for (const [id, seed] of [
      ['NORTH', 91],
      ['SOUTH', 92],
    ] as const) {
      const st = await station(m.url, id, seed);
      closers.push(() => st.close());
      setUpStart(st);
      stations.push(st);
    }
    stations.forEach((st, k) => twoMoves(st, k));
    await until(
      () => stations.every((st) => h.room(st.service.board.identity.id)?.session.game.plies.length === 2),
      'both games on the hub',
      WAIT,
    );

    const page = await web.browser.newPage();
    closers.push(() => page.close());
    await page.goto(h.service!.url + 'arbiter');
    await page.waitForSelector('[data-connection="open"] >> text=Live', { timeout: WAIT });
    await page.waitForSelector('[data-station="SOUTH"].online', { timeout: WAIT });
    const setUpWords = /set up|start position|setting up/i;
    expect(await page.textContent('body')).not.toMatch(setUpWords);

    const watch = await web.browser.newPage();
    closers.push(() => watch.close());
    await watch.goto(h.service!.url + 'watch');
    await watch.waitForSelector('#club-conn .pill-ok >> text=Live', { timeout: WAIT });

    await m.stop();
    await page.waitForSelector('[data-broker="down"]', { timeout: WAIT });
    // (/watch too: its pill is not a green "Live".)
    await watch.waitForSelector('#club-conn .pill-bad[data-broker="down"]', { timeout: WAIT });
    expect(await watch.textContent('body')).not.toMatch(setUpWords);
    // The pill is not a green "Live": the hub is cut off from the boards.
    await page.waitForSelector('#club-conn .pill-bad[data-broker="down"]', { timeout: WAIT });
    expect(await page.locator('#club-conn .pill-ok').count()).toBe(0);
    const during = (await page.textContent('body'))!;
    console.log(`during the outage the pill says: ${await page.textContent('#club-conn')}`);
    expect(during).not.toMatch(setUpWords);
    // (Each board keeps its game and its moves on the hub's copy.)
    for (const st of stations) expect(h.room(st.service.board.identity.id)!.session.game.plies).toHaveLength(2);

    await m.run();
    await page.waitForSelector('#club-conn .pill-ok >> text=Live', { timeout: WAIT });
    await watch.waitForSelector('#club-conn .pill-ok >> text=Live', { timeout: WAIT });
    await page.waitForSelector('[data-broker="down"]', { state: 'detached', timeout: WAIT });
    expect(await page.textContent('body')).not.toMatch(setUpWords);
    // The games go on: a move made at NORTH reaches the hub.
    const north = stations[0]!;
    north.hand.playMove(GAMES[0]!.moves[2]!.move);
    north.sim.advance(800);
    await until(() => h.room('NORTH')?.session.game.plies.length === 3, 'the next move on the hub', WAIT);
    expect(await page.textContent('body')).not.toMatch(setUpWords);
  });
});
