// The WebSocket hub: hello on connect, events after hand moves on the sim,
// commands and replies, and bad peers (malformed, oversized, binary, unknown
// messages; many clients; a client that stops reading; a dead client).

import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_CLIENT_MESSAGE, ServerMessage } from '../../src/server/messages.ts';
import { HARD_MAX_PAYLOAD } from '../../src/server/ws.ts';
import { corpusMoves, playOnSim, setUp, type SimService, useServices } from './helpers.ts';

const { start, clients } = useServices();
async function connect(s: SimService, path?: string, options?: WebSocket.ClientOptions) {
  const c = await s.ws(path, options);
  clients.push(c);
  return c;
}

describe('websocket: state and events', () => {
  it('sends hello with the server info and a valid snapshot on connect', async () => {
    const s = await start({ game: { tags: { Event: 'Club night' } } });
    const c = await connect(s);
    const hello = await c.next();
    expect(ServerMessage.safeParse(hello).success).toBe(true);
    expect(hello.type).toBe('hello');
    expect(hello.server).toMatchObject({ name: 'crownhead', readOnly: false, sim: true, source: 'sim', storage: { ok: true } });
    expect(hello.server.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(hello.state.gameId).toBe(s.service.session.gameId);
    expect(hello.state.tags.Event).toBe('Club night');
    expect(hello.state.pieces).toHaveLength(24);
    expect(hello.state.status.kind).toBe('setup');
  });

  it('broadcasts ready, moves (with the state after them) and occupancy as pieces move on the sim', async () => {
    const s = await start();
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    setUp(s.sim);
    const ready = await c.event('ready');
    expect(ready.state.status.kind).toBe('in-sync');
    const counts = c.received.filter((m) => m.type === 'counts');
    expect(counts.length).toBeGreaterThan(0);
    // the last occupancy message tells the latest board (24 coins on the start squares)
    await c.next((m) => m.type === 'counts' && m.counts.reduce((a: number, b: number) => a + b, 0) === 24, 'counts with 24 coins');
    const moves = corpusMoves(7);
    for (const [k, mv] of moves.entries()) {
      playOnSim(s.sim, mv);
      const e = await c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === k + 1, `move ${k + 1}`);
      expect(ServerMessage.safeParse(e).success).toBe(true);
      expect(e.event.move).toMatchObject({ from: mv.from, to: mv.to, captures: mv.captures });
      expect(e.state.turn).toBe(k % 2 === 0 ? 'white' : 'black');
      expect(e.event).not.toHaveProperty('counts');
    }
    // the buzzer confirmed each move on the board
    expect(s.sim.commands.filter((x) => x.command.type === 'buzz' && x.command.pattern === 'OK')).toHaveLength(7);
    // a wrong move sounds the alarm and is broadcast as an alert
    const occupied = [...Array(32).keys()].map((i) => i + 1).filter((sq) => s.sim.coinsAt(sq) === 1);
    s.sim.lift(occupied[0]);
    s.sim.lift(occupied[occupied.length - 1]);
    s.sim.advance(4000);
    const alert = await c.event('alert');
    expect(alert.event.say).toBeTruthy();
    expect(s.sim.buzzer).toBe('ILLEGAL');
  });

  it('throttles occupancy messages and always ends on the latest board', async () => {
    const s = await start({ http: { ws: { countsIntervalMs: 100 } } });
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    // Many occupancy changes in one burst (set-up square by square, all frames within one tick of the event loop).
    for (let sq = 1; sq <= 32; sq++) {
      if (sq <= 12 || sq >= 21) s.sim.set(sq, 1);
      s.sim.advance(120);
    }
    s.sim.advance(600);
    const changes = s.service.session.tracker.reader.counts.reduce((a, b) => a + b, 0);
    expect(changes).toBe(24);
    // one message at once, then one carrying the latest counts when the interval is over
    const last = await c.next(
      (m) => m.type === 'counts' && m.counts.reduce((a: number, b: number) => a + b, 0) === 24,
      'the latest counts',
    );
    expect(ServerMessage.safeParse(last).success).toBe(true);
    expect(last.status.kind).toBe('in-sync');
    expect(c.received.filter((m) => m.type === 'counts')).toHaveLength(2);
  });

  it('answers ping with pong and hello with the full state; a reconnecting page gets hello again', async () => {
    const s = await start();
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    c.send({ v: 1, type: 'ping' });
    expect((await c.next((m) => m.type !== 'counts')).type).toBe('pong');
    c.send({ v: 1, type: 'hello' });
    const st = await c.next((m) => m.type === 'state');
    expect(st.state.gameId).toBe(s.service.session.gameId);
    c.close();
    const again = await connect(s);
    expect((await again.next()).type).toBe('hello');
  });

  it('runs commands and replies ok or error with the echoed id', async () => {
    const s = await start();
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    const ok = await c.command({ name: 'set-tags', tags: { Black: 'Ann', White: 'Bo' } });
    expect(ok).toEqual({ v: 1, type: 'ok', id: 'c1' });
    const tagsEvent = await c.event('tags');
    expect(tagsEvent.state.tags).toMatchObject({ Black: 'Ann', White: 'Bo' });
    const err = await c.command({ name: 'takeback' });
    expect(err).toMatchObject({ type: 'error', id: 'c2', code: 'nothing-to-undo' });
    const fen = await c.command({ name: 'new-game', fen: 'B:W18:B14' });
    expect(fen.type).toBe('ok');
    const ng = await c.event('new-game');
    expect(ng.state.fen).toBe('B:W18:B14');
    expect((await c.command({ name: 'new-game', fen: 'nonsense' })).code).toBe('bad-fen');
    expect((await c.command({ name: 'resign', side: 'white' })).type).toBe('ok');
    const over = await c.event('game-over');
    expect(over.state.result).toBe('1-0');
    expect((await c.command({ name: 'resign', side: 'black' })).code).toBe('game-over');
    expect((await c.command({ name: 'clock-start' })).code).toBe('not-allowed');
    expect((await c.command({ name: 'calibrate' })).type).toBe('ok');
  });

  it('drives the simulated board with hand and hand-setup commands', async () => {
    const s = await start();
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    expect((await c.command({ name: 'hand-setup' })).type).toBe('ok');
    s.sim.advance(600);
    await c.event('ready');
    const [first] = corpusMoves(1);
    expect((await c.command({ name: 'hand', action: 'lift', square: first.from })).type).toBe('ok');
    expect((await c.command({ name: 'hand', action: 'place', square: first.to })).type).toBe('ok');
    s.sim.advance(800);
    const mv = await c.event('move');
    expect(mv.event.move).toMatchObject({ from: first.from, to: first.to });
    const bad = await c.command({ name: 'hand', action: 'lift', square: 17 });
    expect(bad).toMatchObject({ type: 'error', code: 'bad-request' });
    expect(bad.message).toMatch(/square 17/);
    expect((await c.command({ name: 'hand', action: 'set', square: 17 })).message).toMatch(/coins/);
  });
});

describe('websocket: bad peers', () => {
  it('answers malformed, oversized, binary and unknown messages with an error and keeps serving', async () => {
    const s = await start();
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    const cases: [unknown, string, RegExp][] = [
      ['{not json', 'bad-json', /not JSON/],
      ['[1,2]', 'bad-message', /JSON object/],
      [{ v: 1, type: 'nope' }, 'unknown-type', /unknown message type "nope" \(expected hello, ping or command\)/],
      [{ v: 2, type: 'ping' }, 'bad-version', /version 2/],
      [{ type: 'ping' }, 'bad-version', /no protocol version/],
      [{ v: 1, type: 'command', id: 'x1', command: { name: 'fly' } }, 'unknown-command', /unknown command "fly"/],
      [
        { v: 1, type: 'command', id: 'x2', command: { name: 'resign', side: 'red' } },
        'bad-message',
        /"side" must be "black" or "white", not "red"/,
      ],
      [{ v: 1, type: 'command', command: { name: 'resign', side: 'black', extra: 1 } }, 'bad-message', /unknown field "extra"/],
      [{ v: 1, type: 'ping', junk: true }, 'bad-message', /unknown field "junk"/],
      [{ v: 1, type: 'command', command: { name: 'hand', action: 'place', square: 33 } }, 'bad-message', /"square" must be at most 32/],
      [{ v: 1, type: 'command', command: { name: 'set-tags', tags: { '1x': 'a' } } }, 'bad-message', /"1x" is not a tag name/],
      [JSON.stringify({ v: 1, type: 'ping', pad: 'x'.repeat(MAX_CLIENT_MESSAGE) }), 'too-large', /over the 16384-byte limit/],
      [Buffer.from([1, 2, 3]), 'binary', /binary/],
    ];
    for (const [msg, code, text] of cases) {
      if (Buffer.isBuffer(msg)) c.ws.send(msg, { binary: true });
      else c.send(msg);
      const reply = await c.next((m) => m.type === 'error' || m.type === 'pong', `reply to ${String(JSON.stringify(msg)).slice(0, 40)}`);
      expect(ServerMessage.safeParse(reply).success).toBe(true);
      expect(reply, JSON.stringify(msg).slice(0, 60)).toMatchObject({ type: 'error', code });
      expect(reply.message).toMatch(text);
    }
    // the echoed ids of invalid commands
    expect(c.received.find((m) => m.code === 'unknown-command')?.id).toBe('x1');
    expect(c.received.find((m) => m.code === 'bad-message' && /side/.test(m.message))?.id).toBe('x2');
    c.send({ v: 1, type: 'ping' });
    expect((await c.next((m) => m.type === 'pong')).type).toBe('pong');
    expect(c.closed).toBeNull();
  });

  it('closes a connection that sends a huge frame (1009) while the others keep being served', async () => {
    const s = await start();
    const other = await connect(s);
    await other.next((m) => m.type === 'hello');
    const c = await connect(s);
    await c.next((m) => m.type === 'hello');
    c.send('x'.repeat(HARD_MAX_PAYLOAD + 1));
    expect((await c.waitClosed()).code).toBe(1009);
    other.send({ v: 1, type: 'ping' });
    expect((await other.next((m) => m.type === 'pong')).type).toBe('pong');
    expect(s.service.clients()).toBe(1);
  });

  it('refuses upgrades on other paths', async () => {
    const s = await start();
    await expect(s.ws('nope')).rejects.toThrow(/404/);
  });

  it('sends a move event to 100 pages connected at once', async () => {
    const s = await start();
    const many = await Promise.all(Array.from({ length: 100 }, () => connect(s)));
    await Promise.all(many.map((c) => c.next((m) => m.type === 'hello')));
    expect(s.service.clients()).toBe(100);
    setUp(s.sim);
    const [first] = corpusMoves(1);
    playOnSim(s.sim, first);
    const got = await Promise.all(many.map((c) => c.event('move')));
    for (const e of got) expect(e.event.move).toMatchObject({ from: first.from, to: first.to });
    expect(new Set(got.map((e) => JSON.stringify(e))).size).toBe(1);
  });

  it('drops a page that stops reading once its buffer passes the limit; the others keep getting events', async () => {
    // The driver floods commands on purpose: no rate limit here (that is rate.test.ts's).
    const s = await start({ http: { ws: { maxBufferedBytes: 64 * 1024, commandRates: null } } });
    const stalled = await connect(s);
    await stalled.next((m) => m.type === 'hello');
    const driver = await connect(s);
    await driver.next((m) => m.type === 'hello');
    const watcher = await connect(s);
    await watcher.next((m) => m.type === 'hello');
    stalled.ws.pause();
    // Large events: names changed back and forth between two sets of 18 tags of 200 characters (near the 4 KB limit on
    // tags), so each event's patch carries them all (since events carry what changed, a small change is a small message).
    const big = (c: string) => Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`Note${i}`, c.repeat(200)]));
    let sent = 0;
    while (s.service.clients() === 3) {
      for (let i = 0; i < 50; i++)
        driver.send({ v: 1, type: 'command', id: `t${sent++}`, command: { name: 'set-tags', tags: big(i % 2 ? 'a' : 'b') } });
      await driver.next((m) => m.type === 'ok' && m.id === `t${sent - 1}`, `ok t${sent - 1}`);
      if (sent > 40_000) throw new Error('the stalled client was never dropped');
    }
    expect(s.service.clients()).toBe(2);
    expect((await driver.command({ name: 'set-tags', tags: { Round: '7' } })).type).toBe('ok');
    const e = await watcher.next((m) => m.type === 'event' && m.state.tags.Round === '7', 'tags event after the drop');
    expect(e.event.type).toBe('tags');
  });

  it('heartbeats drop a page that does not answer pings', async () => {
    // (Heartbeats stepped by the test, not a timer: a page that answers is never dropped however busy the machine.)
    const s = await start({ http: { ws: { heartbeatMs: 3_600_000 } } });
    const alive = await connect(s);
    const dead = await connect(s, undefined, { autoPong: false });
    await alive.next((m) => m.type === 'hello');
    await dead.next((m) => m.type === 'hello');
    // Two round trips: the first reply comes after the ping (same socket, in order), so the page has answered it;
    // the second after its answer reached the server.
    const answered = async () => {
      for (let k = 0; k < 2; k++) {
        alive.send({ v: 1, type: 'ping' });
        await alive.next((m) => m.type === 'pong');
      }
    };
    s.service.heartbeat(); // pings both
    await answered();
    s.service.heartbeat(); // drops the page that did not answer, pings the other again
    expect((await dead.waitClosed()).code).toBe(1006);
    expect(s.service.clients()).toBe(1);
    await answered();
    s.service.heartbeat(); // the page that answers stays, beat after beat
    await answered();
    expect(s.service.clients()).toBe(1);
  });
});
