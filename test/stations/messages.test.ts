// The station–hub messages (src/stations/messages.ts, topics.ts, envelope.ts,
// signing.ts, pairing.ts): a payload of each kind reads back as written; a bad
// one is refused with the topic, the field and the problem named; topics parse
// back to board and kind and a board id that could not name a topic is
// refused; a sealed message checks only on its own topic, unaltered, against
// the key that sealed it; a command runs only when sealed by the pinned hub,
// newer than the last one run and within the window; a claim proves the secret.

import { describe, expect, it } from 'vitest';
import { makeStationMessage, parseStationMessage, readMessage, sealMessage } from '../../src/stations/messages.ts';
import { boardTopic, parseTopic, StationTopicError } from '../../src/stations/topics.ts';
import { commandRefusal } from '../../src/stations/signing.ts';
import { Counter, seal, unseal } from '../../src/stations/envelope.ts';
import { ephemeralIdentity, fingerprint, loadIdentity, verifySignature } from '../../src/stations/identity.ts';
import { keeps, pairChecks, pairProof, PairingRegistry, StationPins } from '../../src/stations/pairing.ts';
import { mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const START = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';

describe('station messages', () => {
  it('an entry reads back as written, with its journal record checked', () => {
    const msg = { v: 1 as const, gameId: 'G1', seq: 1, entry: { k: 'move' as const, at: 5, path: [11, 15] } };
    const r = parseStationMessage('entries', makeStationMessage('entries', msg));
    expect(r).toEqual({ ok: true, value: msg });
    const zero = {
      v: 1,
      gameId: 'G1',
      seq: 0,
      entry: { k: 'new', id: 'G1', at: 1, fen: START, options: {}, tags: {}, ballot: null, moves: [] },
    };
    expect(parseStationMessage('entries', JSON.stringify(zero)).ok).toBe(true);
  });

  it('names what is wrong with a bad payload', () => {
    const nope = parseStationMessage('entries', 'nope');
    expect(nope.ok ? 'accepted' : [nope.error.code, nope.error.message]).toEqual([
      'bad-station-message',
      'entries: not JSON (4 bytes: "nope")',
    ]);
    const bad = (m: unknown) => {
      const r = parseStationMessage('entries', JSON.stringify(m));
      return r.ok ? 'accepted' : r.error.message;
    };
    expect(bad({ v: 1, gameId: 'G1', seq: -1, entry: { k: 'move', at: 1, path: [11, 15] } })).toMatch(/^entries: seq: /);
    expect(bad({ v: 1, gameId: 'G1', seq: 2, entry: { k: 'move', at: 1, path: [11, 40] } })).toBe(
      'entries: record 2 of game G1: a move needs a path of squares 1-32',
    );
    expect(bad({ v: 1, gameId: 'G1', seq: 0, entry: { k: 'move', at: 1, path: [11, 15] } })).toMatch(
      /record 0, and only it, is the new-game record/,
    );
    expect(
      bad({ v: 1, gameId: 'G1', seq: 0, entry: { k: 'new', id: 'G2', at: 1, fen: START, options: {}, tags: {}, ballot: null, moves: [] } }),
    ).toBe('entries: the new-game record names game G2, the message game G1');
    const ack = parseStationMessage('ack', JSON.stringify({ v: 1, gameId: 'G1' }));
    expect(ack.ok ? 'accepted' : ack.error.message).toMatch(/^ack: next: /);
    expect(parseStationMessage('cmd', '{"kind":"reboot"}').ok).toBe(false);
  });

  it('topics name a board and a kind, and parse back', () => {
    expect(boardTopic('SIM-1', 'entries')).toBe('crownhead/v1/boards/SIM-1/entries');
    expect(parseTopic('crownhead/v1/boards/SIM-1/entries')).toEqual({ ok: true, value: { board: 'SIM-1', kind: 'entries' } });
    const other = parseTopic('crownhead/v1/boards/SIM-1/other');
    expect(other.ok || other.error.message).toBe(
      '"crownhead/v1/boards/SIM-1/other" is not a board topic: "other" is not a kind of message',
    );
    const elsewhere = parseTopic('elsewhere/v1/boards/SIM-1/ack');
    expect(elsewhere.ok || elsewhere.error.message).toMatch(/is not a board topic: it is not crownhead\/v1\/boards\/BOARD\/KIND/);
    expect(() => boardTopic('a/#', 'cmd')).toThrow(StationTopicError);
  });
});

describe('sealed messages', () => {
  const hub = ephemeralIdentity();
  const station = ephemeralIdentity();
  const topic = boardTopic('NORTH', 'entries');
  const body = JSON.stringify({ v: 1, gameId: 'G1', seq: 1, entry: { k: 'move', at: 5, path: [11, 15] } });

  it('opens on its own topic, naming the key that sealed it and its counter', () => {
    expect(unseal(topic, seal(topic, body, station, 42))).toEqual({ ok: true, key: station.key, n: 42, body });
    const r = readMessage(topic, sealMessage('NORTH', 'entries', JSON.parse(body), station, 43).payload);
    expect(r.ok && r.m).toMatchObject({ board: 'NORTH', kind: 'entries', key: station.key, n: 43 });
  });

  it('refuses an altered body, a changed counter, a copy moved to another board or kind, a swapped key, and plain JSON', () => {
    const sealed = JSON.parse(seal(topic, body, station, 42));
    const check = (t: string, m: unknown) => {
      const r = unseal(t, JSON.stringify(m));
      return r.ok ? 'accepted' : r.problem;
    };
    expect(check(topic, { ...sealed, body: body.replace('15]', '16]') })).toMatch(/signature does not check/);
    expect(check(topic, { ...sealed, n: 43 })).toMatch(/signature does not check/);
    expect(check(boardTopic('SOUTH', 'entries'), sealed)).toMatch(/signature does not check/);
    expect(check(boardTopic('NORTH', 'status'), sealed)).toMatch(/signature does not check/);
    expect(check(topic, { ...sealed, key: hub.key })).toMatch(/signature does not check/);
    expect(check(topic, JSON.parse(body))).toMatch(/not signed/);
    expect(unseal(topic, 'x'.repeat(80_000))).toEqual({ ok: false, problem: 'too big (80000 bytes)' });
    const r = readMessage(boardTopic('SOUTH', 'entries'), JSON.stringify(sealed));
    expect(r).toMatchObject({ ok: false, board: 'SOUTH' });
  });

  it('a counter only grows, even when the clock stands still or goes back', () => {
    let now = 1_000;
    const c = new Counter(() => now);
    const a = c.next();
    const b = c.next();
    now = 500;
    const d = c.next();
    expect([a, b, d]).toEqual([1_000_000, 1_000_001, 1_000_002]);
  });

  it('a kept counter goes on above everything it gave before a restart, even with the clock set back (one write a minute at most)', () => {
    let kept = 0;
    let writes = 0;
    const store = { read: () => kept, write: (n: number) => void ((kept = n), writes++) };
    let now = 1_000_000;
    const first = new Counter(() => now, store);
    const given = [first.next(), first.next()];
    now += 30_000;
    given.push(first.next());
    expect(writes).toBe(1);
    now = 5; // (a hub restarted with its clock set back)
    const again = new Counter(() => now, store);
    expect(again.next()).toBeGreaterThan(Math.max(...given));
  });

  it('keys: kept 0600 in the folder and the same after a restart; one readable by others is refused; a bad signature is false', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-key-'));
    try {
      const a = loadIdentity(dir);
      expect(statSync(join(dir, 'station-key.pem')).mode & 0o777).toBe(0o600);
      expect(loadIdentity(dir).key).toBe(a.key);
      expect(a.fingerprint).toBe(fingerprint(a.key));
      expect(verifySignature(a.key, 'x', a.sign('x'))).toBe(true);
      expect(verifySignature(a.key, 'y', a.sign('x'))).toBe(false);
      expect(verifySignature('not a key', 'x', a.sign('x'))).toBe(false);
      chmodSync(join(dir, 'station-key.pem'), 0o644);
      expect(() => loadIdentity(dir)).toThrow(/may be read by others \(mode 644\): chmod 600 it/);
      writeFileSync(join(dir, 'bad.pem'), 'garbage', { mode: 0o600 });
      expect(() => loadIdentity(dir, 'bad.pem')).toThrow(/is not a private key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('commands a station runs', () => {
  const hub = ephemeralIdentity().key;
  const peer = ephemeralIdentity().key;
  const stranger = ephemeralIdentity().key;
  const now = 1_000_000;
  const keys = { hub, peers: [peer], lastRun: 0 };
  const n = now * 1000;

  it('runs a command sealed by the pinned hub, newer than the last run and within the window', () => {
    expect(commandRefusal({ key: hub, n }, 'command', keys, now)).toBeNull();
    expect(commandRefusal({ key: hub, n }, 'command', { ...keys, lastRun: n }, now)).toMatch(
      /not newer than the last command run \(a replay\)/,
    );
    expect(commandRefusal({ key: hub, n: n - 120_000_000 }, 'command', keys, now)).toMatch(
      /signed -?120 s from now, outside the 60 s window/,
    );
  });

  it('refuses any other key, the far board asking only for records again, and everything before pairing', () => {
    expect(commandRefusal({ key: stranger, n }, 'command', keys, now)).toMatch(/not signed by the hub this station paired with/);
    expect(commandRefusal({ key: peer, n }, 'command', keys, now)).toMatch(/not signed by the hub/);
    expect(commandRefusal({ key: peer, n }, 'resend', keys, now)).toBeNull();
    expect(commandRefusal({ key: hub, n }, 'command', { hub: null, peers: [], lastRun: 0 }, now)).toMatch(/not paired with a hub yet/);
  });
});

describe('pairing', () => {
  const me = ephemeralIdentity();
  const claim = { v: 1 as const, board: 'NORTH', key: me.key, since: 5, proof: pairProof('s3cret', 'NORTH', me.key) };

  it('a claim proves the secret for its board and the key that signed it', () => {
    expect(pairChecks(claim, 's3cret', 'NORTH', me.key)).toBeNull();
    expect(pairChecks(claim, 'guess', 'NORTH', me.key)).toMatch(/does not match the pairing secret/);
    expect(pairChecks(claim, 's3cret', 'SOUTH', me.key)).toMatch(/names board NORTH on board SOUTH's topic/);
    expect(pairChecks(claim, 's3cret', 'NORTH', ephemeralIdentity().key)).toMatch(/a key other than the one that signed it/);
  });

  it('of two claims the older keeps the board (ties: the smaller key)', () => {
    expect(keeps({ since: 1, key: 'b' }, { since: 2, key: 'a' })).toBe(true);
    expect(keeps({ since: 2, key: 'a' }, { since: 1, key: 'b' })).toBe(false);
    expect(keeps({ since: 1, key: 'a' }, { since: 1, key: 'b' })).toBe(true);
  });

  it('the hub’s pins and a station’s survive a restart; a damaged file is named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-pins-'));
    try {
      const reg = new PairingRegistry(dir);
      reg.pin('NORTH', me.key, 7);
      expect(new PairingRegistry(dir).key('NORTH')).toBe(me.key);
      expect(new PairingRegistry(dir).boards()).toEqual(['NORTH']);
      expect(reg.forget('NORTH')).toBe(true);
      expect(new PairingRegistry(dir).key('NORTH')).toBeNull();
      const pins = new StationPins(dir);
      pins.pinHub(me.key);
      pins.ranCommand(99);
      expect(new StationPins(dir)).toMatchObject({ hub: me.key, lastCommand: 99 });
      writeFileSync(join(dir, 'stations.json'), '{"v":1,"boards":{"X":{"key":"short"}}}');
      expect(() => new PairingRegistry(dir)).toThrow(/stations.json is not a pairing file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
