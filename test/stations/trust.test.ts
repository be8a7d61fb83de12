// Trust on the wire, on both brokers (the embedded aedes, and an anonymous
// Mosquitto: the worst case, the broker protects nothing). A second station
// claiming a board another station reports is refused, named on both sides,
// and stops — never a reconnect loop; the first goes on and the hub follows it
// only. A client with no key forges records (plain, and sealed with a key
// nobody paired), copies a station's real record to another board, and
// reports 500 made-up boards: the hub's copy of every board stays its
// station's, and no board appears that was not paired.

import mqtt from 'mqtt';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub } from '../../src/stations/hub.ts';
import { startStation } from '../../src/stations/station.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import { readMessage, sealMessage } from '../../src/stations/messages.ts';
import { ephemeralIdentity } from '../../src/stations/identity.ts';
import { pairProof } from '../../src/stations/pairing.ts';
import {
  GAMES,
  brokers,
  SECRET,
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

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

const BROKERS = brokers(closers);

async function st(url: string, id: string, seed: number): Promise<TestStation> {
  const s = await station(url, id, seed);
  closers.push(() => s.close());
  return s;
}

async function hubAt(url: string, dir = join(tempDir(), 'hub')): Promise<Hub> {
  const h = await hub(url, dir);
  closers.push(() => h.close());
  return h;
}

/** Counts a station's connections to the broker (a reconnect loop shows as many). */
function connections(s: TestStation): () => number {
  let n = s.client.connected ? 1 : 0;
  s.client.on('connect', () => n++);
  return () => n;
}

describe.each(BROKERS)('trust on the wire (%s)', (_name, start) => {
  it('a second station claiming a board is refused, named on both sides, and stops; the hub follows the first only', async () => {
    const url = await start();
    const a = await st(url, 'SAME', 11);
    const aConnects = connections(a);
    const h = await hubAt(url);
    await until(() => h.room('SAME') !== null, 'the first station pairing');
    setUpStart(a);
    play(a, GAMES[2]!, 0, 4);
    await until(() => samePdn(h, a), 'the first moves mirrored');

    const b = await st(url, 'SAME', 12);
    await until(() => b.publisher.refusal !== null, 'the second station refused');
    const said = b.publisher.refusal!.message;
    expect(said).toContain(`board SAME is already reported by another station`);
    expect(said).toContain(`key ${a.publisher.identity.fingerprint}`); // the holder, named
    expect(said).toContain(`this station (key ${b.publisher.identity.fingerprint}`); // and itself
    expect(said).toMatch(/--board sim:NAME/);
    await until(() => b.client.disconnected, 'the refused station leaving the broker');
    await until(() => h.refusals.get('SAME')?.claim !== undefined, 'the hub naming the second station');
    expect(h.refusals.get('SAME')?.claim).toMatch(/a second station \(key [0-9a-f]{8}.*\) claims this board: refused/);

    // The first station goes on, never knocked off the broker; the hub's copy is still its game.
    play(a, GAMES[2]!, 4, 8);
    await until(() => samePdn(h, a), 'later moves mirrored');
    expect(a.publisher.refusal).toBeNull();
    expect(aConnects()).toBe(1);
    expect(b.service.session.game.plies.length).toBe(0);

    // The arbiter sees it (GET /api/stations); once the first station is gone for good, forgetting its key lets a rebuilt one pair.
    const api = h.service!.url + 'api/stations';
    const listed = (await (await fetch(api)).json()) as {
      stations: { board: string; key: string; online: boolean; refused: { claim?: string } }[];
    };
    expect(listed.stations).toEqual([
      expect.objectContaining({
        board: 'SAME',
        key: a.publisher.identity.fingerprint,
        online: true,
        refused: expect.objectContaining({ claim: expect.stringMatching(/a second station/) }),
      }),
    ]);
    const forget = (board: string) =>
      fetch(api + '/forget', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ board }) });
    expect((await forget('NOPE')).status).toBe(404);
    await a.publisher.close();
    expect((await (await forget('SAME')).json()) as object).toMatchObject({ ok: true, board: 'SAME' });
    const rebuilt = await st(url, 'SAME', 13);
    await until(() => rebuilt.publisher.reporting, 'the rebuilt station pairing');
    setUpStart(rebuilt);
    play(rebuilt, GAMES[5]!, 0, 2);
    await until(() => samePdn(h, rebuilt), 'the hub following the rebuilt station');
    expect(((await (await fetch(api)).json()) as { stations: { key: string }[] }).stations[0]!.key).toBe(
      rebuilt.publisher.identity.fingerprint,
    );
  });

  it('on a bare broker (no hub) the second station is refused by the first one’s live claim; once the first is gone, a new one may claim it', async () => {
    const url = await start();
    const a = await st(url, 'BARE', 21);
    await until(() => a.client.connected && a.publisher.unpublished === 0, 'the first station reporting');
    const b = await st(url, 'BARE', 22);
    await until(() => b.publisher.refusal !== null, 'the second station refused');
    expect(b.publisher.refusal!.message).toContain(`key ${a.publisher.identity.fingerprint}`);
    expect(a.publisher.refusal).toBeNull();
    await a.publisher.close(); // a goodbye: the board is free
    const c = await st(url, 'BARE', 23);
    await until(() => c.publisher.reporting || c.publisher.refusal !== null, 'the third station claiming the free board');
    expect(c.publisher.refusal?.message ?? null).toBeNull();
  });

  it('a wrong pairing secret is named on both sides and pairs nothing; a command to a station gone quiet is not answered "ok"', async () => {
    const url = await start();
    const good = await st(url, 'GOOD', 41);
    const h = await Hub.start({
      mqtt: { url, reconnectMs: 100 },
      secret: SECRET,
      retryMs: 300,
      answerMs: 500,
      service: { storage: { gamesDir: join(tempDir(), 'hub') }, http: { port: 0 }, log: { level: 'silent' } },
    });
    closers.push(() => h.close());
    const sim = new SimBoard({ clock: 'manual', seed: 42, id: 'WRONG' });
    const wrong = await startStation({
      mqtt: { url, reconnectMs: 100 },
      secret: 'not-the-pairing-secret',
      service: { board: { source: sim }, storage: { gamesDir: join(tempDir(), 'w') }, http: { port: 0 }, log: { level: 'silent' } },
    });
    closers.push(() => wrong.close());
    await until(() => wrong.publisher.unpaired !== null, 'the station told the hub refused it');
    expect(wrong.publisher.unpaired).toMatch(/does not match the pairing secret.*is --hub-secret the one the hub printed\?/);
    expect(h.refusals.get('')?.claim).toMatch(/a claim on board WRONG .*does not match the pairing secret \(a wrong --hub-secret\?\)/);
    expect(h.room('WRONG')).toBeNull();
    // GOOD's station stops answering: a command to it fails with a sentence, never "ok".
    await until(() => h.room('GOOD') !== null, 'GOOD pairing');
    await good.publisher.close();
    await expect(h.runCommand('GOOD', { name: 'set-tags', tags: { Black: 'Ann' } })).rejects.toMatchObject({
      code: 'station-silent',
      message: expect.stringMatching(/board GOOD's station has not answered/),
    });
  });

  it('a flood: 3,000 copies of a station’s real records and 2,000 claims — nothing applied twice, the hub answers, and the game goes on', async () => {
    const url = await start();
    const a = await st(url, 'FLOOD', 51);
    const h = await hubAt(url);
    await until(() => h.room('FLOOD') !== null, 'the station pairing');
    setUpStart(a);
    play(a, GAMES[6]!, 0, 6);
    await until(() => samePdn(h, a), 'the first moves mirrored');
    const evil = await mqtt.connectAsync(url, { clientId: 'flood', clean: true });
    closers.push(() => evil.endAsync());
    const seen: Buffer[] = [];
    evil.on('message', (_t, p) => seen.push(Buffer.from(p)));
    await evil.subscribeAsync(boardTopic('FLOOD', 'entries'), { qos: 1 });
    play(a, GAMES[6]!, 6, 8);
    await until(() => seen.length > 0 && samePdn(h, a), 'a real record seen');
    const before = { refused: h.refused, applied: h.boards.get('FLOOD')!.mirror!.seq.stats.applied };
    const mallory = ephemeralIdentity();
    for (let i = 0; i < 3000; i++) evil.publish(boardTopic('FLOOD', 'entries'), seen[i % seen.length]!, { qos: 0 });
    for (let i = 0; i < 2000; i++) {
      const claim = { v: 1 as const, board: 'FLOOD', key: mallory.key, since: i, proof: pairProof('guess', 'FLOOD', mallory.key) };
      const m = sealMessage('FLOOD', 'pair', claim, mallory, Date.now() * 1000 + i);
      evil.publish(m.topic, m.payload, { qos: 0 });
    }
    await evil.publishAsync(boardTopic('FLOOD', 'entries'), 'end-of-flood', { qos: 1 });
    await until(() => h.refused >= before.refused + 2001, 'the flood read');
    // The hub's own API answers (no figure: the bench measures how fast), the copies changed nothing, and the game goes on.
    const info = await fetch(h.service!.url + 'api/info');
    expect(info.status).toBe(200);
    expect(h.boards.get('FLOOD')!.mirror!.seq.stats.applied).toBe(before.applied);
    play(a, GAMES[6]!, 8, 12);
    await until(() => samePdn(h, a), 'later moves mirrored after the flood');
    expect(h.room('FLOOD')!.session.game.plies.length).toBe(12);
  });

  it('a client with no key: forged, re-signed and copied records and 500 made-up boards change nothing on the hub', async () => {
    const url = await start();
    const hubDir = join(tempDir(), 'hub');
    const a = await st(url, 'REAL-A', 31);
    const c = await st(url, 'REAL-C', 32);
    const h = await hubAt(url, hubDir);
    await until(() => h.room('REAL-A') !== null && h.room('REAL-C') !== null, 'both stations pairing');
    for (const s of [a, c]) setUpStart(s);
    play(a, GAMES[3]!, 0, 6);
    play(c, GAMES[4]!, 0, 4);
    await until(() => samePdn(h, a) && samePdn(h, c), 'the first moves mirrored');

    const evil = await mqtt.connectAsync(url, { clientId: 'mallory', clean: true });
    closers.push(() => evil.endAsync());
    // What the attacker can read: the hub's ack (the game id and the next number) and the stations' real records.
    const seen: { topic: string; payload: Buffer }[] = [];
    evil.on('message', (topic, payload) => seen.push({ topic, payload: Buffer.from(payload) }));
    await evil.subscribeAsync(['crownhead/v1/boards/+/ack', 'crownhead/v1/boards/+/entries'], { qos: 1 });
    await until(() => seen.some((m) => m.topic === boardTopic('REAL-A', 'ack')), 'the retained ack read');
    const ack = readMessage(boardTopic('REAL-A', 'ack'), seen.find((m) => m.topic === boardTopic('REAL-A', 'ack'))!.payload);
    if (!ack.ok || ack.m.kind !== 'ack') throw new Error('the ack did not read');
    const { gameId, next } = ack.m.msg;
    const result = { k: 'result', at: 99_000, result: '0-1', reason: 'resigned' };
    const forgedBody = { v: 1 as const, gameId, seq: next, entry: result as never };
    const mallory = ephemeralIdentity();
    const before = h.refused;
    // Plain JSON as before; sealed with a key nobody paired; a claim with a guessed secret and a new key.
    await evil.publishAsync(boardTopic('REAL-A', 'entries'), JSON.stringify(forgedBody), { qos: 1 });
    const sealed = sealMessage('REAL-A', 'entries', forgedBody, mallory, Date.now() * 1000);
    await evil.publishAsync(sealed.topic, sealed.payload, { qos: 1 });
    const claim = { v: 1 as const, board: 'REAL-A', key: mallory.key, since: 0, proof: pairProof('guessed-secret', 'REAL-A', mallory.key) };
    const pair = sealMessage('REAL-A', 'pair', claim, mallory, Date.now() * 1000);
    await evil.publishAsync(pair.topic, pair.payload, { qos: 1 });
    // A real record of board REAL-C copied byte for byte to REAL-A's topic.
    const real = seen.find((m) => m.topic === boardTopic('REAL-C', 'entries'));
    if (real) await evil.publishAsync(boardTopic('REAL-A', 'entries'), real.payload, { qos: 1 });
    // 500 made-up boards: plain status, and sealed with Mallory's key.
    for (let i = 0; i < 500; i++) {
      const board = `GHOST-${i}`;
      const status = { v: 1 as const, board, online: true, description: 'a ghost', at: 1 };
      const m =
        i % 2
          ? sealMessage(board, 'status', status, mallory, Date.now() * 1000 + i)
          : { topic: boardTopic(board, 'status'), payload: JSON.stringify(status) };
      evil.publish(m.topic, m.payload, { qos: 0 });
    }
    await until(() => h.refused >= before + 503, 'the hub refusing every forged message');
    expect(h.refusals.get('REAL-A')?.last).toBeTruthy();
    expect(h.refusals.get('')?.count).toBeGreaterThanOrEqual(500);

    // The stations play on; the hub's copies equal theirs, with no false result, and no ghost board or folder.
    play(a, GAMES[3]!, 6, 10);
    play(c, GAMES[4]!, 4, 8);
    await until(() => samePdn(h, a) && samePdn(h, c), 'the later moves mirrored');
    expect(h.room('REAL-A')!.session.pdn()).toContain('[Result "*"]');
    expect([...h.boards.keys()].sort()).toEqual(['REAL-A', 'REAL-C']);
    const folders = existsSync(join(hubDir, 'boards')) ? readdirSync(join(hubDir, 'boards')).sort() : [];
    expect(folders).toEqual(['REAL-A', 'REAL-C']);
  });
});
