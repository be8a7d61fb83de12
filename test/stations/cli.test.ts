// `crownhead hub` and `crownhead station` as the README runs them, each its own
// process on one machine: the hub's embedded broker on a free port, a station
// with the simulated board; a move made on the station's page (the simulated
// board's hand) shows on the hub's spectators' page (/watch) and in its
// broadcast; bad flags are refused with the flag named.

import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { Client } from '../harness/ws-client.ts';
import { freePort, removeTempDirs, tempDir, until } from './fixture.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
// The sources (a developer's checkout may hold an older bundle), and none of the caller's CROWNHEAD_* settings.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_'))),
  CROWNHEAD_FROM_SOURCE: '1',
};
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const c of [...children]) {
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    // A stop that hangs is killed (and the test that left it fails on its own).
    const kill = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(kill);
  }
  removeTempDirs();
}, 30_000);

/** Runs `crownhead ARGS` from the sources; resolves with the process once standard error has a line matching `ready`. */
function run(args: string[], ready: RegExp): Promise<{ p: ChildProcess; err: () => string }> {
  const p = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(p);
  p.on('exit', () => children.delete(p));
  let err = '';
  return new Promise((ok, fail) => {
    p.stderr!.on('data', (d) => {
      err += d;
      if (ready.test(err)) ok({ p, err: () => err });
    });
    p.on('exit', (code) => fail(new Error(`crownhead ${args[0]} exited (${code}): ${err}`)));
  });
}

describe('crownhead hub and crownhead station', () => {
  it('a move on the station shows on the hub’s /watch', { timeout: 90_000 }, async () => {
    const [mqttPort, hubPort, stationPort] = [await freePort(), await freePort(), await freePort()];
    const hubGames = join(tempDir(), 'hub');
    const hubRun = await run(
      ['hub', '--mqtt-port', String(mqttPort), '--mqtt-host', '127.0.0.1', '--port', String(hubPort), '--games', hubGames],
      /Stations: crownhead station/,
    );
    // The hub serves before any station reports: /watch has no board yet.
    await until(() => /hub is ready/.test(hubRun.err()), 'the hub serving (no station yet)', 60_000);
    const watch = await Client.connect(`ws://127.0.0.1:${hubPort}/watch/ws`);
    expect(await watch.next((m) => m.type === 'boards', 'the boards on /watch')).toMatchObject({ boards: [] });
    const secret = readFileSync(join(hubGames, 'hub.secret'), 'utf8').trim();
    const station = await run(
      [
        'station',
        '--board',
        'sim',
        '--port',
        String(stationPort),
        '--games',
        join(tempDir(), 'st'),
        '--hub',
        `mqtt://127.0.0.1:${mqttPort}`,
        '--hub-secret',
        secret,
      ],
      /Crownhead station: board/,
    );
    expect(station.err()).toContain(`hub mqtt://127.0.0.1:${mqttPort}`);
    const page = await Client.connect(`ws://127.0.0.1:${stationPort}/ws`);
    try {
      // The station's board joins once it pairs, with its game.
      // (Once the station's simulated board has settled on the start position: a move made before is a set-up fault.)
      const first = await watch.next(
        (m) => m.type === 'board' && !!m.board.gameId && m.board.state === 'in-sync',
        'the station’s game on /watch, its board set up',
        30_000,
      );
      expect(JSON.stringify(first)).toContain('"source":"station"');
      await page.next((m) => m.type === 'hello');
      // 11-15 by hand on the station's simulated board.
      for (const c of [
        { name: 'hand', action: 'lift', square: 11 },
        { name: 'hand', action: 'set', square: 15, coins: 1 },
      ])
        expect((await page.command(c)).type).toBe('ok');
      const moved = await watch.next((m) => m.type === 'board' && m.board.plies === 1, 'the move on /watch', 30_000);
      expect(moved.board.last.text).toBe('11-15');
      const pdn = await (await fetch(`http://127.0.0.1:${hubPort}/broadcast.pdn`)).text();
      expect(pdn).toMatch(/1\. 11-15/);
    } finally {
      watch.close();
      page.close();
    }
  });

  it(
    'two named simulated stations through the hub’s broker on 0.0.0.0 (no anonymous client); a third claiming NORTH is refused, names both and exits',
    { timeout: 90_000 },
    async () => {
      const [mqttPort, hubPort] = [await freePort(), await freePort()];
      const hubGames = join(tempDir(), 'hub');
      const hubRun = await run(
        ['hub', '--mqtt-port', String(mqttPort), '--port', String(hubPort), '--games', hubGames],
        /Stations: crownhead station/,
      );
      await expect(mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { reconnectPeriod: 0 })).rejects.toThrow(
        /Bad username or password|Not authorized/,
      );
      const secret = readFileSync(join(hubGames, 'hub.secret'), 'utf8').trim();
      const stationArgs = (board: string, port: number) => [
        'station',
        '--board',
        board,
        '--port',
        String(port),
        '--games',
        join(tempDir(), 'st'),
        '--hub',
        `mqtt://127.0.0.1:${mqttPort}`,
        '--hub-secret',
        secret,
      ];
      const [northPort, southPort] = [await freePort(), await freePort()];
      const north = await run(stationArgs('sim:NORTH', northPort), /Crownhead station: board NORTH/);
      await run(stationArgs('sim:SOUTH', southPort), /Crownhead station: board SOUTH/);
      await until(() => /hub is ready/.test(hubRun.err()), 'the hub serving', 60_000);
      const boards = async () => {
        const r = await fetch(`http://127.0.0.1:${hubPort}/api/boards`);
        return JSON.stringify(await r.json());
      };
      const both = async () => /"NORTH"/.test(await boards()) && /"SOUTH"/.test(await boards());
      for (let i = 0; !(await both()); i++) {
        if (i > 600) throw new Error(`the hub's boards never named both stations: ${await boards()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // A third station for board NORTH: refused with both named, and it exits (no reconnect loop).
      const key = /board NORTH \(key ([0-9a-f]{8})\)/.exec(north.err())![1]!;
      const p = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...stationArgs('sim:NORTH', await freePort())], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.add(p);
      let err = '';
      p.stderr!.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => p.on('exit', r));
      children.delete(p);
      expect(code).toBe(1);
      expect(err).toMatch(
        new RegExp(`board NORTH is already reported by another station \\(key ${key}, page http://127\\.0\\.0\\.1:${northPort}/`),
      );
      expect(err).toMatch(/this station \(key [0-9a-f]{8}.*\) stops reporting it/);
      expect(north.p.exitCode).toBeNull(); // the first goes on
    },
  );

  it(
    '--mqtt-tls self-signed: the hub makes its certificate once, says its fingerprint; a station given it as --hub-ca pairs over mqtts',
    { timeout: 90_000 },
    async () => {
      const [mqttPort, hubPort] = [await freePort(), await freePort()];
      const hubGames = join(tempDir(), 'hub');
      const hubRun = await run(
        [
          'hub',
          '--mqtt-tls',
          'self-signed',
          '--mqtt-port',
          String(mqttPort),
          '--mqtt-host',
          '127.0.0.1',
          '--port',
          String(hubPort),
          '--games',
          hubGames,
        ],
        /hub is ready/,
      );
      const cert = join(hubGames, 'mqtt-tls', 'cert.pem');
      expect(hubRun.err()).toContain(`--hub-ca ${cert}`);
      expect(hubRun.err()).toMatch(/the broker's certificate, SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}/);
      const secret = readFileSync(join(hubGames, 'hub.secret'), 'utf8').trim();
      await run(
        [
          'station',
          '--board',
          'sim:TLS',
          '--port',
          String(await freePort()),
          '--games',
          join(tempDir(), 'st'),
          '--hub',
          `mqtts://127.0.0.1:${mqttPort}`,
          '--hub-secret',
          secret,
          '--hub-ca',
          cert,
        ],
        /Crownhead station: board TLS/,
      );
      for (let i = 0; ; i++) {
        const boards = JSON.stringify(await (await fetch(`http://127.0.0.1:${hubPort}/api/boards`)).json());
        if (boards.includes('"TLS"')) break;
        if (i > 600) throw new Error(`the station never paired over TLS: ${boards}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  );

  it('refuses what it cannot use, naming it', async () => {
    const bad = async (args: string[]) => {
      const p = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr!.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => p.on('exit', r));
      return { code, err };
    };
    const noHub = await bad(['station', '--board', 'sim']);
    expect(noHub.code).toBe(2);
    expect(noHub.err).toMatch(/--hub is needed/);
    const badUrl = await bad(['station', '--board', 'sim', '--hub', 'http://x:1', '--hub-secret', 'abcdefgh']);
    expect(badUrl.err).toMatch(/--hub: "http:\/\/x:1" is not an MQTT address/);
    const boardOnHub = await bad(['hub', '--board', 'sim']);
    expect(boardOnHub.err).toMatch(/a hub's boards are its stations/);
    expect((await bad(['hub', '--mqtt-user', 'me', '--mqtt-password', 'pw'])).err).toMatch(
      /the embedded one derives every login from the pairing secret/,
    );
    expect((await bad(['hub', '--mqtt-tls-cert', 'x.pem'])).err).toMatch(/--mqtt-tls-cert and --mqtt-tls-key go together/);
    expect((await bad(['hub', '--mqtt-tls-cert', '/nonexistent.pem', '--mqtt-tls-key', '/nonexistent.key'])).err).toMatch(
      /--mqtt-tls-cert: cannot read \/nonexistent.pem: ENOENT/,
    );
    expect((await bad(['hub', '--mqtt-ca', 'ca.pem'])).err).toMatch(/--mqtt-ca is for an external broker/);
    expect((await bad(['hub', '--mqtt-tls', 'homemade'])).err).toMatch(/--mqtt-tls: "homemade" is not a choice/);
    expect((await bad(['station', '--board', 'sim', '--hub', 'mqtt://x:1', '--hub-secret', 'abcdefgh', '--hub-ca', 'ca.pem'])).err).toMatch(
      /--hub-ca is for mqtts:\/\//,
    );
    expect((await bad(['hub', 'mosquitto-config', tempDir()])).err).toMatch(/--boards: the board ids of the stations/);
    expect((await bad(['hub', 'mosquitto-config', tempDir(), '--boards', 'a b'])).err).toMatch(/--boards: "a b" is not a board id/);
  });
});
