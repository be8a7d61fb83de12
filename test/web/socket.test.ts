// The page's WebSocket client with a stand-in WebSocket: the /ws address (with
// the control token), commands sent with id and token and checked against the
// schema, reconnection with backoff and a hello after reconnecting, and a
// dead connection noticed by silence.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerSocket, backoff } from '../../src/web/socket.ts';

class FakeWS {
  static OPEN = 1;
  static all: FakeWS[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeWS.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

let events: string[];
const handlers = () => ({
  message: (raw: string) => events.push(`message ${raw}`),
  open: () => events.push('open'),
  closed: (ms: number) => events.push(`closed ${ms > 0 ? 'later' : 'now'}`),
});

beforeEach(() => {
  FakeWS.all = [];
  events = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeWS);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ServerSocket', () => {
  it('connects to /ws on the page host, with the token when the page has one', () => {
    expect(ServerSocket.urlFor({ protocol: 'http:', host: '192.168.1.5:8080' })).toBe('ws://192.168.1.5:8080/ws');
    expect(ServerSocket.urlFor({ protocol: 'https:', host: 'board.local' }, 'a b&c')).toBe('wss://board.local/ws?token=a%20b%26c');
    // A club's board page (/boards/ID/) follows that board's socket; any other path is the first board's.
    expect(ServerSocket.urlFor({ protocol: 'http:', host: 'h', pathname: '/boards/SIM-3/' })).toBe('ws://h/boards/SIM-3/ws');
    expect(ServerSocket.urlFor({ protocol: 'http:', host: 'h', pathname: '/boards/x y/' })).toBe('ws://h/ws');
    expect(ServerSocket.urlFor({ protocol: 'http:', host: 'h', pathname: '/watch' })).toBe('ws://h/ws');
  });

  it('sends commands with an id and the token, and refuses invalid ones', () => {
    const s = new ServerSocket('ws://x/ws', handlers(), 'secret');
    s.connect();
    const ws = FakeWS.all[0];
    expect(s.command({ name: 'takeback' })).toBeNull(); // not open yet
    ws.open();
    expect(events).toEqual(['open']);
    expect(ws.sent).toEqual([]); // the server greets first
    const id = s.command({ name: 'hand', action: 'lift', square: 11 });
    expect(id).toMatch(/^c\d+$/);
    expect(JSON.parse(ws.sent[0])).toEqual({
      v: 1,
      type: 'command',
      id,
      token: 'secret',
      command: { name: 'hand', action: 'lift', square: 11 },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(s.command({ name: 'hand', action: 'lift', square: 33 })).toBeNull();
    expect(ws.sent).toHaveLength(1);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
    ws.onmessage?.({ data: '{"v":1,"type":"pong"}' });
    expect(events).toContain('message {"v":1,"type":"pong"}');
  });

  it('reconnects with backoff and asks for a fresh snapshot', () => {
    const s = new ServerSocket('ws://x/ws', handlers(), null, () => 0.5);
    s.connect();
    FakeWS.all[0].open();
    FakeWS.all[0].drop();
    expect(events).toEqual(['open', 'closed later']);
    vi.advanceTimersByTime(450);
    expect(FakeWS.all).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(FakeWS.all).toHaveLength(2);
    // Fails again: the next wait is longer.
    FakeWS.all[1].drop();
    vi.advanceTimersByTime(950);
    expect(FakeWS.all).toHaveLength(2);
    vi.advanceTimersByTime(50);
    expect(FakeWS.all).toHaveLength(3);
    FakeWS.all[2].open();
    expect(FakeWS.all[2].sent.map((m) => JSON.parse(m))).toEqual([{ v: 1, type: 'hello' }]);
  });

  it('drops a connection that went silent and starts over', () => {
    const s = new ServerSocket('ws://x/ws', handlers(), null);
    s.connect();
    FakeWS.all[0].open();
    vi.advanceTimersByTime(15_000);
    expect(FakeWS.all[0].sent.map((m) => JSON.parse(m).type)).toEqual(['ping']);
    vi.advanceTimersByTime(30_000);
    expect(events.filter((e) => e.startsWith('closed'))).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeWS.all).toHaveLength(2);
  });

  it('backoff: 0.5 s doubling to 10 s, with jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map((n) => backoff(n, () => 0.5))).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    expect(backoff(1, () => 0)).toBe(400);
    expect(backoff(1, () => 1)).toBe(600);
  });
});
