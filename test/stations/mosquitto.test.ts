// Stations and a hub through a real Mosquitto started by the test on a free
// loopback port: two stations and a hub play; the broker
// restarted mid-round; a station offline for 30 s of game time (the moves made
// meanwhile arrive after, the hub showing the board disconnected meanwhile);
// the hub killed with SIGKILL (a child process) and restarted; duplicate and
// out-of-order deliveries injected by a raw client into a fresh hub — every
// ply exactly once, every station's PDN equal to the hub's.

import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hub } from '../../src/stations/hub.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import {
  GAMES,
  Link,
  Mosquitto,
  hub,
  play,
  removeTempDirs,
  samePdn,
  setUpStart,
  station,
  tempDir,
  until,
  type TestStation,
} from './fixture.ts';
import { readMessage } from '../../src/stations/messages.ts';
import { renderStations } from '../../src/web/stations-panel.ts';
import { readPdn } from '../../src/pdn/index.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

async function broker(): Promise<Mosquitto> {
  const m = await Mosquitto.start();
  closers.push(() => m.stop());
  return m;
}
async function st(url: string, id: string, seed: number, protocolVersion?: 4 | 5): Promise<TestStation> {
  const s = await station(url, id, seed, undefined, protocolVersion);
  closers.push(() => s.close());
  return s;
}
async function hubAt(url: string, dir?: string, clientId?: string): Promise<Hub> {
  const h = await hub(url, dir, 300, clientId);
  closers.push(() => h.close());
  return h;
}

describe('stations through Mosquitto', () => {
  it('two stations (MQTT 3.1.1 and 5) and a hub: games mirrored; the broker restarted mid-round loses nothing', async () => {
    const m = await broker();
    const a = await st(m.url, 'MQ-A', 21);
    const b = await st(m.url, 'MQ-B', 22, 5); // MQTT 5: clean start off, a session expiry
    const h = await hubAt(m.url);
    await until(() => h.room('MQ-A') !== null && h.room('MQ-B') !== null, 'both stations joining');
    setUpStart(a);
    setUpStart(b);
    play(a, GAMES[3]!, 0, 6);
    play(b, GAMES[4]!, 0, 6);
    await until(() => samePdn(h, a) && samePdn(h, b), 'the first moves mirrored');
    expect(h.stations().broker.connected).toBe(true);
    await m.stop();
    // The arbiter is told the hub cannot reach the broker (not a green "all well").
    await until(() => !h.stations().broker.connected, 'the hub knowing the broker is gone');
    expect(renderStations(h.stations())).toMatch(/The hub cannot reach the broker/);
    // Moves while the broker is down: journalled on the stations, published once it is back.
    play(a, GAMES[3]!, 6, 10);
    play(b, GAMES[4]!, 6, 9);
    await m.run();
    await until(() => a.client.connected && b.client.connected && h.stations().broker.connected, 'the stations and the hub reconnecting');
    expect(renderStations(h.stations())).not.toMatch(/cannot reach the broker/);
    play(a, GAMES[3]!, 10, 14);
    await until(() => samePdn(h, a) && samePdn(h, b), 'every move mirrored after the broker restart');
    expect(h.room('MQ-A')!.session.game.plies.length).toBe(14);
    expect(h.room('MQ-B')!.session.game.plies.length).toBe(9);
    for (const id of ['MQ-A', 'MQ-B']) expect(h.boards.get(id)!.mirror!.failures).toBe(0);
  });

  it('a station offline for 30 s of game time: the hub shows it gone, then gets every move made meanwhile', async () => {
    const m = await broker();
    // The station reaches the broker through a link the test can cut (the hub directly).
    const link = await Link.open(m.port);
    closers.push(() => link.cut());
    const a = await st(link.url, 'MQ-OFF', 23);
    const h = await hubAt(m.url);
    await until(() => h.room('MQ-OFF') !== null, 'the station joining');
    setUpStart(a);
    play(a, GAMES[5]!, 0, 6);
    await until(() => samePdn(h, a), 'the first moves mirrored');
    await link.cut();
    await until(() => h.room('MQ-OFF')!.summary().state === 'disconnected', 'the hub seeing the will');
    // 30 s of the board's time, and moves, while the station is off the broker.
    a.sim.advance(30_000);
    expect(play(a, GAMES[5]!, 6, 12)).toBe(12);
    expect(h.room('MQ-OFF')!.session.game.plies.length).toBe(6);
    await link.mend();
    await until(() => samePdn(h, a), 'the moves made offline arriving');
    await until(() => h.room('MQ-OFF')!.summary().state !== 'disconnected', 'the board back on the hub');
    expect(h.boards.get('MQ-OFF')!.mirror!.failures).toBe(0);
  });

  it('the hub killed with SIGKILL mid-game and restarted: its copy equals the station’s', async () => {
    const m = await broker();
    const a = await st(m.url, 'MQ-K9', 24);
    const dir = join(tempDir(), 'hub');
    const children = new Set<ChildProcess>();
    closers.push(async () => {
      for (const c of children) c.kill('SIGKILL');
    });
    const child = async (): Promise<{ p: ChildProcess; url: string }> => {
      const p = spawn(process.execPath, [join(ROOT, 'bin/run-ts.js'), join(ROOT, 'test/stations/hub-child.ts'), m.url, dir], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(p);
      let err = '';
      p.stderr!.on('data', (d) => (err += d));
      const url = await new Promise<string>((ok, fail) => {
        let buf = '';
        p.stdout!.on('data', (d) => {
          buf += d;
          const line = buf.split('\n').find((l) => l.startsWith('{"url"'));
          if (line) ok((JSON.parse(line) as { url: string }).url);
        });
        p.on('exit', (code) => fail(new Error(`the hub exited (${code}): ${err}`)));
      });
      return { p, url };
    };
    const kill = (p: ChildProcess) =>
      new Promise<void>((done) => {
        p.once('exit', () => done());
        p.kill('SIGKILL');
      });
    const hubPdn = async (url: string): Promise<string> => (await fetch(url + 'broadcast.pdn')).text();
    const stationMoves = () => readPdn(a.service.session.pdn()).games[0]!.moves.length;
    const hubMoves = async (url: string) => readPdn(await hubPdn(url)).games[0]?.moves.length ?? -1;

    let h = await child();
    setUpStart(a);
    play(a, GAMES[6]!, 0, 8);
    for (let i = 0; (await hubMoves(h.url)) !== stationMoves(); i++) {
      if (i > 2000) throw new Error('the hub never mirrored the first moves');
      await new Promise((r) => setTimeout(r, 10));
    }
    await kill(h.p);
    play(a, GAMES[6]!, 8, 14); // while the hub is dead
    h = await child();
    play(a, GAMES[6]!, 14, 16);
    for (let i = 0; (await hubMoves(h.url)) !== stationMoves(); i++) {
      if (i > 2000) throw new Error(`the restarted hub never caught up (${await hubMoves(h.url)} of ${stationMoves()})`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // The broadcast is the station's record with the hub's Board tag (as club mode's boards have theirs).
    const broadcast = await hubPdn(h.url);
    expect(broadcast).toContain('[Board "1"]\n');
    expect(broadcast.replace('[Board "1"]\n', '')).toBe(a.service.session.pdn());
    await kill(h.p);
  });

  it('duplicates and out-of-order deliveries injected: every ply applied exactly once', async () => {
    const m = await broker();
    // A raw client records every record the station publishes.
    const spy = await mqtt.connectAsync(m.url, { clientId: 'spy', clean: true });
    closers.push(() => spy.endAsync());
    const seen: Buffer[] = [];
    spy.on('message', (_t, p) => seen.push(Buffer.from(p)));
    await spy.subscribeAsync(boardTopic('MQ-DUP', 'entries'), { qos: 1 });
    const a = await st(m.url, 'MQ-DUP', 25);
    setUpStart(a);
    play(a, GAMES[7]!, 0, 12);
    await until(() => a.publisher.unpublished === 0 && seen.length >= a.publisher.sent, 'the spy seeing every record');
    expect(seen.length).toBeGreaterThan(12);
    // The station leaves; a fresh hub finds its board (retained status) and gets the records only from the raw client: reversed, each twice.
    await a.publisher.close();
    const h = await hubAt(m.url, undefined, 'hub-fresh');
    await until(() => h.room('MQ-DUP') !== null, 'the fresh hub finding the board');
    const records = seen.map((p) => readMessage(boardTopic('MQ-DUP', 'entries'), p)).filter((r) => r.ok);
    expect(records.length).toBe(seen.length);
    for (const p of [...seen].reverse().flatMap((x) => [x, x])) await spy.publishAsync(boardTopic('MQ-DUP', 'entries'), p, { qos: 1 });
    await until(() => samePdn(h, a), 'the fresh hub rebuilding the game from shuffled copies');
    const seq = h.boards.get('MQ-DUP')!.mirror!.seq.stats;
    expect(seq.applied).toBe(new Set(seen.map((p) => p.toString())).size);
    expect(seq.duplicates).toBeGreaterThan(0);
    expect(seq.early).toBeGreaterThan(0);
    expect(h.boards.get('MQ-DUP')!.mirror!.failures).toBe(0);
  });
});
