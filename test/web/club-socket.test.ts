// The club pages' socket (src/web/club-socket.ts) with a scripted WebSocket
// and fake timers: it hands on every text message, reconnects with the
// one-board page's backoff after a drop, pings and gives up on a silent
// connection, and after stop() (the server said forbidden) never tries again.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClubSocket, type SocketLike } from '../../src/web/club-socket.ts';
import { backoff } from '../../src/web/socket.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
  /** the server side */
  accept(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  say(text: string): void {
    this.onmessage?.({ data: text });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

describe('ClubSocket', () => {
  let made: FakeSocket[];
  let events: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    made = [];
    events = [];
  });
  afterEach(() => vi.useRealTimers());

  const open = (url = 'ws://club.test/watch/ws') => {
    const s = new ClubSocket(
      url,
      {
        message: (raw) => events.push(`message ${raw}`),
        open: () => events.push('open'),
        closed: (ms) => events.push(`closed ${ms}`),
      },
      {
        open: (u) => {
          const f = new FakeSocket(u);
          made.push(f);
          return f;
        },
        random: () => 0.5,
        now: () => Date.now(),
        pingEvery: 1_000,
        silenceLimit: 3_500,
      },
    );
    s.connect();
    return s;
  };

  it('addresses /watch/ws on the page host, with the arbiter token only when there is one', () => {
    expect(ClubSocket.urlFor({ protocol: 'http:', host: 'club.local:8080' })).toBe('ws://club.local:8080/watch/ws');
    expect(ClubSocket.urlFor({ protocol: 'https:', host: 'club.example' }, 'a b&c')).toBe('wss://club.example/watch/ws?token=a%20b%26c');
  });

  it('hands on messages and reconnects after a drop with the backoff, back to the first delay once open', () => {
    open();
    made[0].accept();
    made[0].say('{"v":1,"type":"boards","boards":[]}');
    made[0].drop();
    expect(events).toEqual(['open', 'message {"v":1,"type":"boards","boards":[]}', `closed ${backoff(1, () => 0.5)}`]);
    // The first try fails too: the delay doubles.
    vi.advanceTimersByTime(backoff(1, () => 0.5));
    expect(made).toHaveLength(2);
    made[1].drop();
    expect(events.at(-1)).toBe(`closed ${backoff(2, () => 0.5)}`);
    vi.advanceTimersByTime(backoff(2, () => 0.5) - 1);
    expect(made).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(made).toHaveLength(3);
    made[2].accept();
    made[2].drop();
    expect(events.at(-1)).toBe(`closed ${backoff(1, () => 0.5)}`);
  });

  it('pings while open, and starts over when the server stays silent', () => {
    open();
    made[0].accept();
    vi.advanceTimersByTime(1_000);
    expect(made[0].sent).toEqual(['{"v":1,"type":"ping"}']);
    made[0].say('{"v":1,"type":"pong"}');
    vi.advanceTimersByTime(3_000);
    expect(made[0].closed).toBe(false);
    vi.advanceTimersByTime(1_000); // 4 s of silence since the pong
    expect(made[0].closed).toBe(true);
    expect(events.at(-1)).toBe(`closed ${backoff(1, () => 0.5)}`);
    vi.advanceTimersByTime(backoff(1, () => 0.5));
    expect(made).toHaveLength(2);
  });

  it('never tries again after stop (the server said forbidden)', () => {
    const s = open();
    made[0].accept();
    s.stop();
    expect(made[0].closed).toBe(true);
    made[0].drop();
    vi.advanceTimersByTime(60_000);
    expect(made).toHaveLength(1);
    s.connect();
    s.nudge();
    expect(made).toHaveLength(1);
    expect(events).toEqual(['open']);
  });
});
