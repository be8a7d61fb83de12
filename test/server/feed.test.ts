// The spectators' feed alone (src/server/feed.ts), with a stand-in room and
// socket: each change of a board is one summary (a burst of events coalesced),
// the clock's once-a-second ticks cost nothing (a spectator's page counts
// down itself), a clock that starts or stops is sent, and the broadcast's
// ETag moves on only when a game's record changes.

import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { SpectatorFeed } from '../../src/server/feed.ts';
import type { Room } from '../../src/server/room.ts';
import type { SessionEvent } from '../../src/game/index.ts';
import type { ClockState } from '../../src/protocol/v1.ts';
import type { WebSocket } from 'ws';

class FakeRoom {
  readonly listeners: ((e: SessionEvent) => void)[] = [];
  summaries = 0;
  readonly number = 1;
  readonly session = {
    on: (l: (e: SessionEvent) => void) => {
      this.listeners.push(l);
      return () => undefined;
    },
    pdn: () => '[Event "x"]\n*\n',
  };
  summary() {
    this.summaries++;
    return { id: 'B1', number: 1 };
  }
  emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e);
  }
}

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  send(text: string): void {
    this.sent.push(text);
  }
  ping(): void {}
  terminate(): void {}
  close(): void {}
}

const clock = (running: 'black' | 'white' | null, black = 300_000): ClockState => ({
  control: '5m',
  black,
  white: 300_000,
  running,
  flagged: null,
  started: true,
});
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let feed: SpectatorFeed | null = null;
afterEach(() => feed?.close());

describe("the spectators' feed", () => {
  it('sends one summary per burst of changes, skips clock ticks, sends a clock that starts or stops', async () => {
    const room = new FakeRoom();
    feed = new SpectatorFeed([room as unknown as Room], pino({ level: 'silent' }), { summaryMs: 5 }); // a stand-in room: only what the feed uses
    const ws = new FakeSocket();
    feed.watch(ws as unknown as WebSocket); // a stand-in socket: send, readyState, events
    expect(JSON.parse(ws.sent[0]!).type).toBe('boards');
    const boardMessages = () => ws.sent.filter((t) => JSON.parse(t).type === 'board').length;
    // a move: several events in one burst → one summary
    room.emit({ type: 'move', say: 'm' } as SessionEvent);
    room.emit({ type: 'counts' });
    room.emit({ type: 'clock', clock: clock('white') });
    await wait(30);
    expect(boardMessages()).toBe(1);
    // the clock ticking on the same side: nothing
    for (let k = 0; k < 5; k++) room.emit({ type: 'clock', clock: clock('white', 300_000 - k * 1000) });
    await wait(30);
    expect(boardMessages()).toBe(1);
    // the clock paused: sent
    room.emit({ type: 'clock', clock: clock(null) });
    await wait(30);
    expect(boardMessages()).toBe(2);
  });

  it("answers a spectator's ping, refuses a command, and names what is wrong with a malformed message", () => {
    const room = new FakeRoom();
    feed = new SpectatorFeed([room as unknown as Room], pino({ level: 'silent' })); // a stand-in room: only what the feed uses
    const ws = new FakeSocket();
    feed.watch(ws as unknown as WebSocket); // a stand-in socket: send, readyState, events
    const reply = (text: string) => {
      ws.emit('message', Buffer.from(text));
      return JSON.parse(ws.sent.at(-1)!);
    };
    expect(reply('{"v":1,"type":"ping"}')).toEqual({ v: 1, type: 'pong' });
    expect(reply('{"v":1,"type":"command","command":{"name":"resign","side":"black"}}')).toMatchObject({
      type: 'error',
      code: 'read-only',
    });
    const bad = reply('{"v":1,"type":');
    expect(bad.type).toBe('error');
    expect(bad.code).not.toBe('read-only');
    expect(bad.message).toMatch(/JSON/);
  });

  it('moves the ETag on for a change of the record only, and wakes a long poll', async () => {
    const room = new FakeRoom();
    feed = new SpectatorFeed([room as unknown as Room], pino({ level: 'silent' })); // a stand-in room: only what the feed uses
    const etag = feed.etag;
    room.emit({ type: 'counts' });
    room.emit({ type: 'clock', clock: clock('white') });
    expect(feed.etag).toBe(etag);
    const woke = feed.waitPast(etag, 10_000);
    room.emit({ type: 'move', say: 'm' } as SessionEvent);
    expect(await woke).toBe(true);
    expect(feed.etag).not.toBe(etag);
  });
});
