// The station–hub messages (src/stations/messages.ts, topics.ts, signing.ts):
// a payload of each kind reads back as written; a bad one is refused with the
// topic, the field and the problem named; topics parse back to board and kind
// and a board id that could not name a topic is refused; a signed command is
// accepted once, and a forged, replayed or stale one is refused with the reason.

import { describe, expect, it } from 'vitest';
import { makeStationMessage, parseCommandBody, parseStationMessage } from '../../src/stations/messages.ts';
import { boardTopic, parseTopic, StationTopicError } from '../../src/stations/topics.ts';
import { CommandGuard, signCommand } from '../../src/stations/signing.ts';

const START = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';

describe('station messages', () => {
  it('an entry reads back as written, with its journal record checked', () => {
    const msg = { v: 1 as const, gameId: 'G1', seq: 1, entry: { k: 'move' as const, at: 5, path: [11, 15] } };
    const r = parseStationMessage('entries', makeStationMessage('entries', msg));
    expect(r).toEqual({ ok: true, msg });
    const zero = {
      v: 1,
      gameId: 'G1',
      seq: 0,
      entry: { k: 'new', id: 'G1', at: 1, fen: START, options: {}, tags: {}, ballot: null, moves: [] },
    };
    expect(parseStationMessage('entries', JSON.stringify(zero)).ok).toBe(true);
  });

  it('names what is wrong with a bad payload', () => {
    expect(parseStationMessage('entries', 'nope')).toEqual({ ok: false, problem: 'entries: not JSON (4 bytes: "nope")' });
    const bad = (m: unknown) => {
      const r = parseStationMessage('entries', JSON.stringify(m));
      return r.ok ? 'accepted' : r.problem;
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
    expect(ack.ok ? 'accepted' : ack.problem).toMatch(/^ack: next: /);
    expect(parseCommandBody('{"kind":"reboot"}').ok).toBe(false);
  });

  it('topics name a board and a kind, and parse back', () => {
    expect(boardTopic('SIM-1', 'entries')).toBe('crownhead/v1/boards/SIM-1/entries');
    expect(parseTopic('crownhead/v1/boards/SIM-1/entries')).toEqual({ board: 'SIM-1', kind: 'entries' });
    expect(parseTopic('crownhead/v1/boards/SIM-1/other')).toBeNull();
    expect(parseTopic('elsewhere/v1/boards/SIM-1/ack')).toBeNull();
    expect(() => boardTopic('a/#', 'cmd')).toThrow(StationTopicError);
  });
});

describe('signed commands', () => {
  const body = JSON.stringify({ kind: 'resend', gameId: 'G1', from: 0, to: 3 });
  it('accepts a command signed with the secret once, refuses its replay', () => {
    const guard = new CommandGuard('s3cret', { windowMs: 60_000 });
    const cmd = signCommand('s3cret', body, 1_000_000);
    expect(guard.check(cmd, 1_000_500)).toBeNull();
    expect(guard.check(cmd, 1_000_600)).toMatch(/replay/);
  });
  it('refuses a forged or altered command and a stale one', () => {
    const guard = new CommandGuard('s3cret', { windowMs: 60_000 });
    expect(guard.check(signCommand('guess', body, 1_000_000), 1_000_000)).toMatch(/signature does not match/);
    const altered = { ...signCommand('s3cret', body, 1_000_000), body: body.replace('"to":3', '"to":9') };
    expect(guard.check(altered, 1_000_000)).toMatch(/signature does not match/);
    expect(guard.check(signCommand('s3cret', body, 1_000_000), 1_200_000)).toMatch(/outside the 60 s window/);
  });
});
