// The page's view state: the reducer fed with the messages a real session
// sends (through the fixture), local actions, reconnection, invalid messages,
// the hand's commands and the derived views (clock, headline, counts).

import { describe, expect, it } from 'vitest';
import {
  ARM_MS,
  PENDING_MS,
  canControl,
  clockNow,
  effectiveCounts,
  handCommand,
  initialState,
  isArmed,
  reduce,
  statusHeadline,
  type Action,
  type ViewState,
} from '../../src/web/state.ts';
import { TableServer } from './fixture.ts';

let now = 1_000;
const msg = (raw: string): Action => ({ type: 'message', raw, now: (now += 10) });
const feed = (s: ViewState, raws: string[]): ViewState => raws.reduce((st, r) => reduce(st, msg(r)), s);

async function connected(): Promise<{ t: TableServer; s: ViewState }> {
  const t = await TableServer.open();
  const s = reduce(initialState(), msg(t.hello()));
  return { t, s };
}

describe('hello', () => {
  it('starts connecting with nothing to show', () => {
    const s = initialState();
    expect(s.connection).toBe('connecting');
    expect(s.snap).toBeNull();
    expect(statusHeadline(s).title).toBe('Connecting…');
    expect(canControl(s)).toBe(false);
  });

  it('takes the server info and the full snapshot', async () => {
    const { s } = await connected();
    expect(s.connection).toBe('open');
    expect(s.server).toMatchObject({ name: 'crownhead', sim: true, readOnly: false });
    expect(s.snap!.pieces).toHaveLength(24);
    expect(s.snap!.turn).toBe('black');
    expect(s.snap!.moves).toEqual([]);
    // An empty board: the setup view lists what to place where.
    expect(s.status.kind).toBe('setup');
    expect(s.status.kind === 'setup' && s.status.fixes.map((f) => f.square)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
    ]);
    expect(s.counts.every((c) => c === 0)).toBe(true);
    expect(statusHeadline(s)).toEqual({ tone: 'idle', title: 'Set up the board' });
    expect(canControl(s)).toBe(true);
  });
});

describe('events', () => {
  it('follows the board from setup to a move, with sounds and words', async () => {
    const { t, s: s0 } = await connected();
    t.setUp();
    let s = feed(s0, t.take());
    expect(s.status.kind).toBe('in-sync');
    // The headline is whose move it is; the board being in sync is the tone and the small line.
    expect(statusHeadline(s)).toEqual({ tone: 'ok', title: 'Black to move' });
    expect(s.announcement).toMatchObject({ text: 'Board ready. Black to move.', urgent: false, tone: 'ready' });
    expect(s.counts.filter((c) => c === 1)).toHaveLength(24);

    t.lift(11);
    s = feed(s, t.take());
    expect(s.status.kind).toBe('moving');
    expect(statusHeadline(s).title).toBe('Move in progress');
    expect(s.counts[10]).toBe(0);
    expect(s.differences).toEqual([11]);

    const before = s.announcement!.seq;
    t.place(15);
    t.wait(400);
    s = feed(s, t.take());
    expect(s.snap!.moves).toEqual([
      {
        ply: 0,
        number: 1,
        side: 'black',
        text: '11-15',
        from: 11,
        to: 15,
        path: [15],
        captures: [],
        crowned: false,
        huff: null,
        clock: null,
      },
    ]);
    expect(s.snap!.turn).toBe('white');
    expect(s.status.kind).toBe('in-sync');
    expect(s.announcement).toMatchObject({ seq: before + 1, text: 'Black, 11 to 15.', urgent: false, tone: 'click' });
    expect(s.log.map((a) => a.text).slice(-2)).toEqual(['Board ready. Black to move.', 'Black, 11 to 15.']);
  });

  it('shows an illegal move with its fixes, then clears it when the board is put back', async () => {
    const { t, s: s0 } = await connected();
    t.setUp();
    t.move(11, 15);
    t.move(22, 18);
    let s = feed(s0, t.take());
    expect(s.snap!.moves.map((m) => m.text)).toEqual(['11-15', '22-18']);

    // A black man moved backwards.
    t.move(15, 11);
    t.wait(3000);
    s = feed(s, t.take());
    expect(s.status.kind).toBe('illegal');
    if (s.status.kind !== 'illegal') throw new Error('unreachable');
    expect(s.status.alert.category).toBe('backwards');
    expect(s.status.alert.message).toMatch(/cannot move backwards \(15 to 11\)/);
    expect([...s.status.alert.squares].sort((a, b) => a - b)).toEqual([11, 15]);
    expect(s.status.alert.fixes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ square: 11, action: 'remove' }),
        expect.objectContaining({ square: 15, action: 'place', piece: 'a black man' }),
      ]),
    );
    expect(statusHeadline(s)).toEqual({ tone: 'bad', title: 'Illegal move' });
    expect(s.announcement).toMatchObject({ urgent: true, tone: 'alert' });
    expect(s.announcement!.text).toMatch(/backwards/);

    t.move(11, 15);
    t.wait(1000);
    s = feed(s, t.take());
    expect(s.status.kind).toBe('in-sync');
    expect(s.log.some((a) => a.text === 'Board in order.')).toBe(true);
    expect(s.snap!.moves).toHaveLength(2);
  });

  it('counts messages update the live board without touching the game', async () => {
    const { s: s0 } = await connected();
    const counts = Array.from({ length: 32 }, (_, i) => (i === 4 ? 2 : i < 3 ? 1 : 0));
    const s = reduce(s0, msg(JSON.stringify({ v: 1, type: 'counts', counts, differences: [1, 2, 3, 5], status: { kind: 'moving' } })));
    expect(s.counts).toEqual(counts);
    expect(s.differences).toEqual([1, 2, 3, 5]);
    expect(s.status).toEqual({ kind: 'moving' });
    expect(s.snap).toBe(s0.snap);
    expect(s.announcement).toBe(s0.announcement);
  });

  it('awaiting the crown and the board lost', async () => {
    const { s: s0 } = await connected();
    let s = reduce(
      s0,
      msg(
        JSON.stringify({
          v: 1,
          type: 'counts',
          counts: new Array(32).fill(0),
          differences: [],
          status: { kind: 'awaiting-crown', square: 30 },
        }),
      ),
    );
    expect(statusHeadline(s)).toEqual({ tone: 'warn', title: 'Crown the king on 30' });
    const lost = JSON.parse(
      JSON.stringify({
        v: 1,
        type: 'event',
        event: { type: 'board', connected: false, say: 'Board lost: unplugged.' },
        state: { ...s0.snap, version: 1, board: { ...s0.snap!.board, connected: false } },
      }),
    );
    lost.state.status = { kind: 'in-sync' };
    s = reduce(s, msg(JSON.stringify(lost)));
    expect(statusHeadline(s)).toEqual({ tone: 'bad', title: 'Board not connected' });
    expect(s.announcement).toMatchObject({ text: 'Board lost: unplugged.', urgent: true, tone: 'alert' });
  });
});

describe('invalid messages', () => {
  it('are counted and ignored', async () => {
    const { t, s: s0 } = await connected();
    const good = JSON.parse(t.state());
    const bad = [
      'not json{',
      JSON.stringify({ v: 2, type: 'state', state: good.state }),
      JSON.stringify({ v: 1, type: 'surprise' }),
      JSON.stringify({ v: 1, type: 'state', state: { ...good.state, turn: 'red' } }),
      JSON.stringify({ v: 1, type: 'state', state: { ...good.state, pieces: [{ square: 40, color: 'black', king: false }] } }),
      JSON.stringify({ v: 1, type: 'counts', counts: 'lots' }),
      JSON.stringify({ v: 1, type: 'error', code: 'x' }),
      JSON.stringify([1, 2, 3]),
    ];
    let s = s0;
    for (const raw of bad) {
      const next = reduce(s, msg(raw));
      expect(next.invalid).toBe(s.invalid + 1);
      expect(next.snap).toBe(s0.snap);
      expect(next.counts).toBe(s0.counts);
      expect(next.status).toBe(s0.status);
      s = next;
    }
    expect(s.invalid).toBe(bad.length);
    expect(s.lastInvalid).not.toBe('');
  });
});

describe('connection', () => {
  it('reconnects: banner state, one spoken notice, then a fresh snapshot', async () => {
    const { t, s: s0 } = await connected();
    let s = reduce(s0, { type: 'socket', state: 'closed', now: 5_000, retryInMs: 500 });
    expect(s.connection).toBe('reconnecting');
    expect(s.attempts).toBe(1);
    expect(s.retryAt).toBe(5_500);
    expect(canControl(s)).toBe(false);
    expect(s.announcement).toMatchObject({ urgent: true, tone: 'alert' });
    const seq = s.announcement!.seq;
    s = reduce(s, { type: 'socket', state: 'closed', now: 6_000, retryInMs: 1000 });
    expect(s.attempts).toBe(2);
    expect(s.announcement!.seq).toBe(seq);
    // The game went on meanwhile.
    t.setUp();
    t.move(11, 15);
    t.take();
    s = reduce(s, { type: 'socket', state: 'open', now: 7_000 });
    s = reduce(s, msg(t.hello()));
    expect(s.connection).toBe('open');
    expect(s.attempts).toBe(0);
    expect(s.snap!.moves.map((m) => m.text)).toEqual(['11-15']);
    expect(s.announcement!.text).toMatch(/^Reconnected\. White to move\.$/);
    // A plain 'state' reply to the page's hello replaces the snapshot too.
    t.move(22, 18);
    t.take();
    s = reduce(s, msg(t.state()));
    expect(s.snap!.moves.map((m) => m.text)).toEqual(['11-15', '22-18']);
  });

  it('command replies: errors shown and announced, ok clears the command', async () => {
    const { s: s0 } = await connected();
    let s = reduce(s0, { type: 'command-sent', id: 'c1', command: { name: 'takeback' }, now: 10 });
    s = reduce(s, { type: 'command-sent', id: 'c2', command: { name: 'claim-draw' }, now: 11 });
    expect(s.inFlight).toEqual(['c1', 'c2']);
    s = reduce(s, msg(JSON.stringify({ v: 1, type: 'error', id: 'c1', code: 'nothing-to-undo', message: 'no move to take back' })));
    expect(s.error?.message).toBe('no move to take back');
    expect(s.announcement).toMatchObject({ text: 'no move to take back', urgent: true });
    expect(s.inFlight).toEqual(['c2']);
    s = reduce(s, msg(JSON.stringify({ v: 1, type: 'ok', id: 'c2' })));
    expect(s.inFlight).toEqual([]);
    s = reduce(s, { type: 'dismiss-error' });
    expect(s.error).toBeNull();
  });
});

describe('clock', () => {
  it('takes the snapshot clock and ticks, and counts down locally between ticks', async () => {
    const t = await TableServer.open({ timeControl: '5m+3s' });
    t.setUp();
    let s = feed(reduce(initialState(), { type: 'message', raw: t.hello(), now: 0 }), []);
    expect(s.snap!.clock).toMatchObject({ control: '5 min + 3 s', running: null, started: false });
    // Clocks start with the first move (not with the set-up): White's runs after Black's first move.
    t.move(11, 15);
    t.take();
    s = reduce(s, { type: 'message', raw: t.state(), now: 10_000 });
    expect(s.snap!.clock).toMatchObject({ control: '5 min + 3 s', running: 'white', started: true });
    const white = s.clock!.white;
    expect(clockNow(s, 12_500)!.white).toBe(white - 2_500);
    expect(clockNow(s, 12_500)!.black).toBe(s.clock!.black);
    s = reduce(s, {
      type: 'message',
      raw: JSON.stringify({
        v: 1,
        type: 'clock',
        clock: { control: '5m+3s', black: 300_000, white: 300_000, running: 'black', flagged: null, started: true },
      }),
      now: 10_000,
    });
    const black = s.clock!.black;
    expect(clockNow(s, 12_500)!.black).toBe(black - 2_500);
    expect(clockNow(s, 12_500)!.white).toBe(s.clock!.white);
    s = reduce(s, {
      type: 'message',
      raw: JSON.stringify({
        v: 1,
        type: 'clock',
        clock: { control: '5m+3s', black: 100_000, white: 200_000, running: 'white', flagged: null, started: true },
      }),
      now: 20_000,
    });
    expect(clockNow(s, 21_000)).toMatchObject({ black: 100_000, white: 199_000, running: 'white' });
    expect(clockNow(s, 10_000_000)!.white).toBe(0);
    // A clock message is the whole clock (the protocol has no partial ones): an incomplete one is refused.
    const bad = reduce(s, {
      type: 'message',
      raw: JSON.stringify({ v: 1, type: 'clock', clock: { black: 0, white: 5, running: null, flagged: 'black' } }),
      now: 30_000,
    });
    expect(bad.invalid).toBe(s.invalid + 1);
    expect(bad.clock).toBe(s.clock);
    s = reduce(s, {
      type: 'message',
      raw: JSON.stringify({
        v: 1,
        type: 'clock',
        clock: { control: '5m+3s', black: 0, white: 5, running: null, flagged: 'black', started: true },
      }),
      now: 30_000,
    });
    expect(clockNow(s, 40_000)).toMatchObject({ black: 0, white: 5, running: null, flagged: 'black', control: '5m+3s' });
  });
});

describe('the simulated hand', () => {
  it('lifts coins, puts down what it holds, stacks crowns', async () => {
    const { t, s: s0 } = await connected();
    t.setUp();
    let s = feed(s0, t.take());
    expect(handCommand(s, 11, { now })).toEqual({ name: 'hand', action: 'lift', square: 11 });
    expect(handCommand(s, 15, { now })).toEqual({ name: 'hand', action: 'place', square: 15 });
    // Crown: a modifier or the mode stacks a second coin on a man.
    expect(handCommand(s, 11, { now, crown: true })).toEqual({ name: 'hand', action: 'place', square: 11 });
    expect(handCommand(reduce(s, { type: 'hand-mode', mode: 'crown' }), 11, { now })).toEqual({
      name: 'hand',
      action: 'place',
      square: 11,
    });
    // The lift shows at once, before the board reports it.
    s = reduce(s, { type: 'command-sent', id: 'c1', command: { name: 'hand', action: 'lift', square: 11 }, now: 100 });
    expect(effectiveCounts(s, 150)[10]).toBe(0);
    expect(s.held).toBe(1);
    expect(handCommand(s, 11, { now: 150 })).toEqual({ name: 'hand', action: 'place', square: 11 });
    // …and is dropped if the board never confirms it.
    expect(effectiveCounts(s, 100 + PENDING_MS)[10]).toBe(1);
    expect(reduce(s, { type: 'tick', now: 100 + PENDING_MS }).pending).toEqual([]);
    // The board's report settles it.
    const counts = s.counts.slice();
    counts[10] = 0;
    s = reduce(s, {
      type: 'message',
      raw: JSON.stringify({ v: 1, type: 'counts', counts, differences: [11], status: { kind: 'moving' } }),
      now: 200,
    });
    expect(s.pending).toEqual([]);
    expect(effectiveCounts(s, 200)[10]).toBe(0);
  });

  it('carries a lifted king to its landing square as two coins; crown mode takes a crown off', async () => {
    const { s: s0 } = await connected();
    const counts = new Array(32).fill(0);
    counts[17] = 2;
    let s = reduce(s0, {
      type: 'message',
      raw: JSON.stringify({ v: 1, type: 'counts', counts, differences: [], status: { kind: 'in-sync' } }),
      now: 0,
    });
    expect(handCommand(reduce(s, { type: 'hand-mode', mode: 'crown' }), 18, { now: 0 })).toEqual({
      name: 'hand',
      action: 'lift',
      square: 18,
      coins: 1,
    });
    s = reduce(s, { type: 'command-sent', id: 'c1', command: { name: 'hand', action: 'lift', square: 18 }, now: 0 });
    expect(s.held).toBe(2);
    const put = handCommand(s, 22, { now: 10 });
    expect(put).toEqual({ name: 'hand', action: 'set', square: 22, coins: 2 });
    s = reduce(s, { type: 'command-sent', id: 'c2', command: put!, now: 10 });
    expect(s.held).toBe(0);
    expect(effectiveCounts(s, 20)[21]).toBe(2);
  });

  it('is off for a real board, a read-only page or while disconnected', async () => {
    const t = await TableServer.open();
    const real = reduce(initialState(), msg(t.hello({ sim: false })));
    expect(handCommand(real, 11, { now })).toBeNull();
    const ro = reduce(initialState(), msg(t.hello({ readOnly: true })));
    expect(handCommand(ro, 11, { now })).toBeNull();
    expect(canControl(ro)).toBe(false);
    const off = reduce(reduce(initialState(), msg(t.hello())), { type: 'socket', state: 'closed', now, retryInMs: 100 });
    expect(handCommand(off, 11, { now })).toBeNull();
  });

  it('a new game or a board setup empties the hand', async () => {
    const { s: s0 } = await connected();
    let s = reduce(s0, { type: 'command-sent', id: 'a', command: { name: 'hand', action: 'place', square: 15 }, now: 0 });
    expect(s.pending).toHaveLength(1);
    s = reduce(s, { type: 'command-sent', id: 'b', command: { name: 'hand-setup' }, now: 1 });
    expect(s.pending).toEqual([]);
    expect(s.held).toBe(0);
  });
});

describe('local actions', () => {
  it('flip, sound, speech and preferences', () => {
    let s = initialState();
    expect([s.flipped, s.sound, s.speech]).toEqual([false, true, false]);
    s = reduce(reduce(reduce(s, { type: 'flip' }), { type: 'toggle-sound' }), { type: 'toggle-speech' });
    expect([s.flipped, s.sound, s.speech]).toEqual([true, false, true]);
    s = reduce(s, { type: 'prefs', flipped: false });
    expect([s.flipped, s.sound, s.speech]).toEqual([false, false, true]);
  });

  it('dangerous buttons wait for a second click, for a while', () => {
    let s = reduce(initialState(), { type: 'arm', key: 'resign-black', now: 0 });
    expect(isArmed(s, 'resign-black', 10)).toBe(true);
    expect(isArmed(s, 'resign-white', 10)).toBe(false);
    expect(isArmed(s, 'resign-black', ARM_MS)).toBe(false);
    expect(reduce(s, { type: 'tick', now: ARM_MS }).armed).toBeNull();
    s = reduce(s, { type: 'disarm' });
    expect(s.armed).toBeNull();
  });
});
