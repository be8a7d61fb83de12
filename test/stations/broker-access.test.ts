// A broker locked down by default (src/stations/access.ts, broker.ts): the
// embedded broker on 0.0.0.0 refuses an anonymous client and a wrong
// password, lets in the hub and a station with the logins the pairing secret
// gives, and keeps each station to its own board's topics; it never listens
// beyond loopback without them. TLS on loopback with a CA the test makes
// (openssl). The README's Mosquitto recipe, run: `crownhead hub
// mosquitto-config` writes the password and ACL files, Debian's Mosquitto
// uses them with TLS, and a station can publish nothing under another
// board's topics.

import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import { HUB_USER, brokerPassword, mayPublish, maySubscribe, whoIs } from '../../src/stations/access.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import {
  MOSQUITTO,
  SECRET,
  freePort,
  hub,
  play,
  removeTempDirs,
  samePdn,
  setUpStart,
  station,
  GAMES,
  tempDir,
  until,
  type TestStation,
} from './fixture.ts';
import type { Hub } from '../../src/stations/hub.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  removeTempDirs();
});

/** A station on `url` (its login the one the secret gives; `ca` for mqtts). */
async function stationAt(url: string, id: string, seed: number, extra: { ca?: Buffer } = {}): Promise<TestStation> {
  const s = await station(url, id, seed, undefined, undefined, extra);
  closers.push(() => s.close());
  return s;
}

async function hubAt(url: string): Promise<Hub> {
  const h = await hub(url);
  closers.push(() => h.close());
  return h;
}

/** Connects a raw client; resolves with it, or rejects with the broker's refusal. */
async function raw(url: string, opts: mqtt.IClientOptions = {}): Promise<mqtt.MqttClient> {
  const c = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, clean: true, ...opts });
  closers.push(() => c.endAsync(true));
  return c;
}

describe('broker access rules', () => {
  it('logins come from the pairing secret; a station reaches its own topics and the far board’s records only', () => {
    expect(whoIs(SECRET, HUB_USER, brokerPassword(SECRET, HUB_USER))).toEqual({ kind: 'hub' });
    expect(whoIs(SECRET, 'NORTH', Buffer.from(brokerPassword(SECRET, 'NORTH')))).toEqual({ kind: 'station', board: 'NORTH' });
    expect(whoIs(SECRET, 'NORTH', brokerPassword(SECRET, 'SOUTH'))).toBeNull();
    expect(whoIs(SECRET, 'NORTH', brokerPassword('other-secret', 'NORTH'))).toBeNull();
    expect(whoIs(SECRET, undefined, undefined)).toBeNull();
    expect(whoIs(SECRET, 'a/b', brokerPassword(SECRET, 'a/b'))).toBeNull();
    const north = { kind: 'station', board: 'NORTH' } as const;
    for (const k of ['pair', 'status', 'game', 'entries', 'alerts', 'clock', 'answer'] as const)
      expect(mayPublish(north, boardTopic('NORTH', k))).toBe(true);
    for (const k of ['ack', 'cmd', 'paired'] as const) expect(mayPublish(north, boardTopic('NORTH', k))).toBe(false);
    for (const k of ['pair', 'status', 'game', 'entries', 'answer', 'paired', 'ack'] as const)
      expect(mayPublish(north, boardTopic('SOUTH', k))).toBe(false);
    expect(mayPublish(north, boardTopic('SOUTH', 'cmd'))).toBe(true); // (asking the far board for records again: sealed, checked there)
    expect(mayPublish(north, 'elsewhere/x')).toBe(false);
    expect(maySubscribe(north, boardTopic('NORTH', 'cmd'))).toBe(true);
    expect(maySubscribe(north, boardTopic('SOUTH', 'cmd'))).toBe(false);
    expect(maySubscribe(north, boardTopic('SOUTH', 'ack'))).toBe(false);
    expect(maySubscribe(north, boardTopic('SOUTH', 'entries'))).toBe(true);
    expect(maySubscribe(north, boardTopic('SOUTH', 'status'))).toBe(true); // (the way to the far board, shown on the page)
    expect(maySubscribe(north, 'crownhead/v1/boards/#')).toBe(false);
    expect(maySubscribe(north, '#')).toBe(false);
    expect(maySubscribe({ kind: 'hub' }, 'crownhead/v1/boards/+/status')).toBe(true);
    expect(maySubscribe({ kind: 'hub' }, '#')).toBe(false);
  });
});

describe('the embedded broker, locked down', () => {
  it('never listens beyond loopback without logins', async () => {
    await expect(startEmbeddedBroker({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/only with logins/);
  });

  it('on 0.0.0.0 refuses an anonymous client and a wrong password; a station with its login plays; it cannot touch another board', async () => {
    const b = await startEmbeddedBroker({ port: 0, host: '0.0.0.0', secret: SECRET });
    closers.push(() => b.close());
    await expect(raw(b.url)).rejects.toThrow(/Bad username or password|Not authorized|refused/i);
    await expect(raw(b.url, { username: 'NORTH', password: 'guess' })).rejects.toThrow(/Bad username or password|Not authorized|refused/i);

    const north = await stationAt(b.url, 'NORTH', 5);
    const h = await hubAt(b.url);
    await until(() => h.room('NORTH') !== null, 'the station pairing through the locked broker');
    setUpStart(north);
    play(north, GAMES[1]!, 0, 4);
    await until(() => samePdn(h, north), 'the moves mirrored');

    // A client with SOUTH's login: it cannot read NORTH's commands, nor publish as NORTH (the broker closes it).
    const spy = await raw(b.url, { username: HUB_USER, password: brokerPassword(SECRET, HUB_USER), clientId: 'spy' });
    const seen: string[] = [];
    spy.on('message', (t) => seen.push(t));
    await spy.subscribeAsync('crownhead/v1/boards/+/entries', { qos: 1 });
    const south = await raw(b.url, { username: 'SOUTH', password: brokerPassword(SECRET, 'SOUTH'), clientId: 'south' });
    await expect(south.subscribeAsync(boardTopic('NORTH', 'cmd'), { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect((await south.subscribeAsync(boardTopic('SOUTH', 'cmd'), { qos: 1 })).map((g) => g.qos)).toEqual([1]);
    const closed = new Promise<void>((r) => south.once('close', () => r()));
    south.publish(boardTopic('NORTH', 'entries'), '{"forged":true}', { qos: 1 });
    await closed;
    await spy.publishAsync(boardTopic('SPY-MARK', 'entries'), 'mark', { qos: 1 }); // (the hub's login may)
    await until(() => seen.includes(boardTopic('SPY-MARK', 'entries')), 'the marker after the forged message');
    expect(seen.filter((t) => t === boardTopic('NORTH', 'entries')).length).toBe(0); // nothing reached NORTH's records after the spy subscribed
    expect(samePdn(h, north)).toBe(true);
  });
});

/** A CA and a server certificate for 127.0.0.1, made with openssl. */
function makeCerts(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => join(dir, n);
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Crownhead test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
  ]);
  run([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    f('server.key'),
    '-out',
    f('server.csr'),
  ]);
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run([
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
    '-out',
    f('server.pem'),
  ]);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

describe('TLS', () => {
  it('a station and the hub over mqtts:// on loopback with a CA the test made; without the CA the station cannot connect', async () => {
    const certs = makeCerts(tempDir('crownhead-tls-'));
    const b = await startEmbeddedBroker({
      port: 0,
      host: '127.0.0.1',
      secret: SECRET,
      tls: { cert: readFileSync(certs.cert), key: readFileSync(certs.key) },
    });
    closers.push(() => b.close());
    expect(b.url).toMatch(/^mqtts:\/\/127\.0\.0\.1:/);
    await expect(raw(b.url, { username: 'X', password: brokerPassword(SECRET, 'X') })).rejects.toThrow(
      /self-signed|unable to verify|certificate/i,
    );
    const ca = readFileSync(certs.ca);
    const s = await stationAt(b.url, 'TLS-1', 7, { ca });
    const h = await Hub_start(b.url, ca);
    await until(() => h.room('TLS-1') !== null, 'the station pairing over TLS');
    setUpStart(s);
    play(s, GAMES[2]!, 0, 4);
    await until(() => samePdn(h, s), 'the moves mirrored over TLS');
  });
});

async function Hub_start(url: string, ca: Buffer): Promise<Hub> {
  const { Hub } = await import('../../src/stations/hub.ts');
  const h = await Hub.start({
    mqtt: { url, reconnectMs: 100, ca },
    secret: SECRET,
    retryMs: 300,
    service: { storage: { gamesDir: join(tempDir(), 'hub') }, http: { port: 0 }, log: { level: 'silent' } },
  });
  closers.push(() => h.close());
  return h;
}

describe('the Mosquitto recipe (README)', () => {
  it('mosquitto-config writes the files; Mosquitto with TLS and them: anonymous refused, a station plays, and publishes nothing under another board', async () => {
    const dir = tempDir('crownhead-mosq-');
    const certs = makeCerts(dir);
    const games = join(dir, 'hub-games');
    const cli = spawn(
      process.execPath,
      [join(ROOT, 'bin/crownhead.js'), 'hub', 'mosquitto-config', dir, '--boards', 'NORTH,SOUTH', '--secret', SECRET, '--games', games],
      {
        cwd: ROOT,
        env: { ...process.env, CROWNHEAD_FROM_SOURCE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    cli.stdout!.on('data', (d) => (out += d));
    cli.stderr!.on('data', (d) => (out += d));
    expect(await new Promise((r) => cli.on('exit', r))).toBe(0);
    expect(out).toContain(`password_file ${join(dir, 'crownhead.passwd')}`);
    expect(out).toContain(`acl_file ${join(dir, 'crownhead.acl')}`);
    const port = await freePort();
    // The README's lines, and a TLS listener.
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(
      conf,
      [
        `listener ${port} 127.0.0.1`,
        `cafile ${certs.ca}`,
        `certfile ${certs.cert}`,
        `keyfile ${certs.key}`,
        `password_file ${join(dir, 'crownhead.passwd')}`,
        `acl_file ${join(dir, 'crownhead.acl')}`,
        'allow_anonymous false',
        'max_packet_size 131072',
        // (Run as root, Mosquitto would drop to its own user, who cannot read the test's private folder.)
        ...(process.getuid?.() === 0 ? ['user root'] : []),
        'persistence false',
        'log_dest stderr',
        'log_type error',
        '',
      ].join('\n'),
    );
    const m = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let mlog = '';
    m.stderr!.on('data', (d) => (mlog += d));
    closers.push(async () => {
      if (m.exitCode === null) {
        const gone = new Promise((r) => m.once('exit', r));
        m.kill('SIGTERM');
        await gone;
      }
    });
    const url = `mqtts://127.0.0.1:${port}`;
    const ca = readFileSync(certs.ca);
    let spy: mqtt.MqttClient | null = null;
    for (let i = 0; !spy; i++) {
      try {
        spy = await raw(url, { ca, username: HUB_USER, password: brokerPassword(SECRET, HUB_USER), clientId: 'spy' });
      } catch (e) {
        if (m.exitCode !== null || i > 200) throw new Error(`mosquitto did not take the hub's login: ${(e as Error).message} ${mlog}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await expect(raw(url, { ca })).rejects.toThrow(/Not authorized|Bad username|refused/i);
    const seen: string[] = [];
    spy.on('message', (t, p) => seen.push(`${t} ${p.toString().slice(0, 20)}`));
    await spy.subscribeAsync('crownhead/v1/boards/+/entries', { qos: 1 });

    const north = await stationAt(url, 'NORTH', 9, { ca });
    const h = await Hub_start(url, ca);
    await until(() => h.room('NORTH') !== null, 'the station pairing through Mosquitto');
    setUpStart(north);
    play(north, GAMES[3]!, 0, 4);
    await until(() => samePdn(h, north), 'the moves mirrored through Mosquitto');

    // SOUTH's login publishes under NORTH's topics: Mosquitto drops it (the ACL); its own topic goes through.
    const south = await raw(url, { ca, username: 'SOUTH', password: brokerPassword(SECRET, 'SOUTH'), clientId: 'south' });
    await south.publishAsync(boardTopic('NORTH', 'entries'), 'forged-by-south', { qos: 1 });
    await south.publishAsync(boardTopic('SOUTH', 'entries'), 'south-own-mark', { qos: 1 });
    await until(() => seen.some((s) => s.includes('south-own-mark')), 'SOUTH’s own message');
    expect(seen.some((s) => s.includes('forged-by-south'))).toBe(false);
    expect(samePdn(h, north)).toBe(true);
  });
});
