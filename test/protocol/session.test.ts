// The session's side of the protocol (src/protocol/v1.ts): every snapshot and
// event it produces passes the page's schema; move records come from the
// rules game's plies (a changed White move keeps its number); clocks start
// with the first move; takebacks do not reopen a game ended at the table; and
// the PDN carries %clk, a standard TimeControl and the Termination, and reads
// back through our reader.

import { describe, expect, it } from 'vitest';
import { GameEvent, ServerMessage, Snapshot } from '../../src/protocol/v1.ts';
import { GameSession } from '../../src/game/index.ts';
import { readOnePdn } from '../../src/pdn/index.ts';
import { parseTimeControlTag, timeControlTag, parseTimeControl, describeTimeControl } from '../../src/game/clock.ts';
import { gameRecord } from '../../src/server/archive.ts';
import { TableServer } from '../web/fixture.ts';
import { pdnCommand } from '../../src/cli/pdn.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unwrap } from '../../src/common/result.ts';

async function table(timeControl?: string): Promise<TableServer> {
  const t = await TableServer.open({ timeControl });
  t.setUp();
  t.take();
  return t;
}

/** Every event message the table sent, parsed by the page's schema (fails on any that does not pass). */
function events(t: TableServer): GameEvent[] {
  const out: GameEvent[] = [];
  for (const raw of t.take()) {
    const m = JSON.parse(raw) as { type: string; event?: unknown; state?: unknown };
    if (m.type !== 'event') continue;
    const e = GameEvent.safeParse(m.event);
    expect(e.success, JSON.stringify(m.event)).toBe(true);
    // The message as a whole (its state a patch since the last one sent), and the state it makes, pass the page's schema.
    expect(ServerMessage.safeParse(m).success, raw.slice(0, 300)).toBe(true);
    if (e.success) out.push(e.data);
  }
  expect(Snapshot.safeParse(JSON.parse(JSON.stringify(t.lastState))).success).toBe(true);
  return out;
}

describe('move records', () => {
  it('a changed White move keeps its number (Black 11-16, White 24-19, changed to 24-20)', async () => {
    const t = await table();
    t.move(11, 16);
    t.move(24, 19);
    events(t);
    // White changes its mind before Black replies: the man on 19 goes to 20 instead.
    t.lift(19);
    t.place(20);
    t.wait(500);
    const ev = events(t);
    const replaced = ev.find((e) => e.type === 'move-replaced');
    expect(replaced).toBeDefined();
    if (replaced?.type !== 'move-replaced') return;
    expect(replaced.move).toMatchObject({ ply: 1, number: 1, side: 'white', text: '24-20' });
    const snap = t.session.snapshot();
    expect(snap.moves.map((m) => `${m.number}.${m.side}:${m.text}`)).toEqual(['1.black:11-16', '1.white:24-20']);
    expect(t.session.pdn()).toMatch(/1\. 11-16 24-20 \*/);
  });

  it('numbers moves from the ply index when White moves first, and every snapshot passes the schema', async () => {
    const t = await table();
    t.session.newGame({ fen: 'W:W21,22,23,24,25:B1,2,3,4,5' });
    t.setUp();
    t.move(22, 18);
    t.move(5, 9);
    events(t);
    const snap = t.session.snapshot();
    expect(Snapshot.safeParse(snap).success).toBe(true);
    expect(snap.moves.map((m) => [m.ply, m.number, m.side, m.text])).toEqual([
      [0, 1, 'white', '22-18'],
      [1, 2, 'black', '5-9'],
    ]);
    expect(snap.start).toHaveLength(10);
  });

  it('asks for a colour check when a set-up position is ready (sensors cannot see colours)', async () => {
    const t = await TableServer.open();
    t.setUp();
    // Why, said once on the page (the first ready of the service), not at every game.
    const first = events(t).filter((e) => e.type === 'notice' && /colour checks are off/.test(e.say));
    expect(first).toEqual([
      {
        type: 'notice',
        level: 'info',
        squares: [],
        say: "This set's magnets are all glued the same way up, so the board cannot see colours: colour checks are off.",
      },
    ]);
    t.session.newGame({ fen: 'B:W18,24,K10:B12,16' });
    t.setUp();
    const all = events(t);
    const ready = all.find((e) => e.type === 'ready');
    expect(ready?.say).toBe(
      'Board ready. Check the colours: black men on 12 and 16; white men on 18 and 24, a white king on 10. Black to move.',
    );
    expect(all.filter((e) => e.type === 'notice')).toEqual([]);
  });

  it('speaks the set-up as grouped instructions, not square by square', async () => {
    const t = await table();
    t.session.newGame({ fen: 'B:W32:B26' });
    const setup = events(t).filter((e) => e.type === 'setup');
    expect(setup.length).toBeGreaterThan(0);
    expect(setup[setup.length - 1].say).toBe('Take the coin off 1–12, 21–25 and 27–31.');
  });
});

describe('clocks', () => {
  it('start with the first move, not when the board is set up', async () => {
    const t = await table('5m+3s');
    t.wait(20_000);
    let c = t.session.snapshot().clock!;
    expect(c).toMatchObject({ black: 300_000, white: 300_000, running: null, started: false, control: '5 min + 3 s' });
    t.move(11, 15);
    c = t.session.snapshot().clock!;
    expect(c.running).toBe('white');
    expect(c.started).toBe(true);
    expect(c.black).toBe(303_000);
    t.wait(4_000);
    expect(t.session.snapshot().clock!.white).toBeLessThan(300_000);
  });

  it('the Start clock button starts the side to move before the first move; a pause by a player holds through moves', async () => {
    const t = await table('5m');
    t.session.clockStart();
    expect(t.session.snapshot().clock!.running).toBe('black');
    t.session.clockPause();
    t.move(11, 15);
    expect(t.session.snapshot().clock!.running).toBeNull();
    t.session.clockStart();
    expect(t.session.snapshot().clock!.running).toBe('white');
  });

  it('TimeControl tag values: written standard, read back, and the service form still read', () => {
    expect(timeControlTag(unwrap(parseTimeControl('5m+3s')))).toBe('300+3');
    expect(timeControlTag(unwrap(parseTimeControl('15m')))).toBe('900');
    expect(timeControlTag(unwrap(parseTimeControl('40/90m,30m')))).toBe('40/5400:1800');
    expect(unwrap(parseTimeControlTag('300+3'))).toMatchObject({ kind: 'fischer', baseMs: 300_000, incrementMs: 3_000 });
    expect(unwrap(parseTimeControlTag('40/5400:1800'))).toMatchObject({
      kind: 'periods',
      periods: [{ moves: 40, ms: 5_400_000 }, { ms: 1_800_000 }],
    });
    expect(unwrap(parseTimeControlTag('5m+3s'))).toMatchObject({ kind: 'fischer', baseMs: 300_000, incrementMs: 3_000 });
    expect(unwrap(parseTimeControlTag('-'))).toBeNull();
    expect(describeTimeControl(unwrap(parseTimeControl('40/90m,30m')))).toBe('40 moves in 90 min, then 30 min');
    expect(() => unwrap(parseTimeControlTag('0+3'))).toThrow(/more than zero/);
  });

  it('a new game takes its own time control and rules from the request', async () => {
    const t = await table();
    t.session.newGame({ timeControl: '3m+2s', rules: { huffing: true } });
    const snap = t.session.snapshot();
    expect(snap.clock).toMatchObject({ black: 180_000, control: '3 min + 2 s' });
    expect(snap.options.huffing).toBe(true);
    expect(snap.tags.TimeControl).toBe('180+2');
    t.session.newGame({ timeControl: '' });
    expect(t.session.snapshot().clock).toBeNull();
    expect(t.session.snapshot().tags.TimeControl).toBeUndefined();
    expect(() => t.session.newGame({ timeControl: '5 parsecs' })).toThrow(/time control "5 parsecs"/);
  });
});

describe('results', () => {
  it('a takeback after a draw by agreement is refused (the result stays)', async () => {
    const t = await table();
    t.move(11, 15);
    t.session.offerDraw('white');
    t.session.acceptDraw('black');
    expect(() => t.session.takeback()).toThrow(/game is over \(draw by agreement\)/);
    expect(t.session.result).toBe('1/2-1/2');
    expect(t.session.pdn()).toContain('[Result "1/2-1/2"]');
  });
});

describe('PDN with clocks and how the game ended', () => {
  it('writes %clk after each move, TimeControl 300+3 and Termination; our reader reads it back', async () => {
    const t = await table('5m+3s');
    t.move(11, 15);
    t.wait(7_000);
    t.move(23, 19);
    t.session.resign('black');
    const pdn = t.session.pdn();
    expect(pdn).toContain('[TimeControl "300+3"]');
    expect(pdn).toContain('[Termination "Black resigned"]');
    expect(pdn).toContain('[Result "0-1"]');
    expect(pdn).toMatch(/1\. 11-15 \{\[%clk 0:05:03\]\} 1\.\.\. 23-19 \{\[%clk 0:04:5\d\]\} 0-1/);
    const g = readOnePdn(pdn);
    expect(g.moves.map((m) => m.after)).toEqual([['[%clk 0:05:03]'], [expect.stringMatching(/^\[%clk 0:04:5\d\]$/)]]);
    expect(g.tags).toContainEqual(['TimeControl', '300+3']);
    expect(g.tags).toContainEqual(['Termination', 'Black resigned']);
    // `crownhead pdn check` reads and replays it without a warning.
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-clk-'));
    try {
      writeFileSync(join(dir, 'g.pdn'), pdn);
      const out: string[] = [],
        err: string[] = [];
      expect(pdnCommand(['check', '--warnings', join(dir, 'g.pdn')], { out: (l) => out.push(l), err: (l) => err.push(l) })).toBe(0);
      expect(err).toEqual([]);
      expect(out.join('\n')).toMatch(/1 game/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The archive's record of it carries the clock times to the page.
    const rec = gameRecord('x', pdn);
    expect(rec.moves.map((m) => m.clock)).toEqual([303_000, expect.any(Number)]);
    expect(rec.moves[1].clock!).toBeLessThan(300_000);
    expect(rec.result).toBe('0-1');
  });

  it('keeps the clock times, TimeControl and Termination when the game is restored from its journal', async () => {
    const t = await table('5m+3s');
    t.move(11, 15);
    t.wait(7_000);
    t.move(23, 19);
    t.session.resign('black');
    const before = t.session.pdn();
    const again = new GameSession({ timeControl: '10m' });
    again.restore(t.journal.slice(t.journal.findIndex((e) => e.k === 'new')));
    expect(again.pdn()).toBe(before);
    expect(again.snapshot().moves.map((m) => m.clock)).toEqual(t.session.snapshot().moves.map((m) => m.clock));
  });

  it('names every way a game ends', async () => {
    const t = await table();
    t.session.newGame({ fen: 'B:W32:B26' });
    t.setUp();
    t.move(26, 30);
    t.session.resign('white');
    expect(t.session.pdn()).toContain('[Termination "White resigned"]');
    const t2 = await table('1m');
    t2.move(11, 15);
    t2.wait(61_000);
    t2.session.tick();
    expect(t2.session.pdn()).toContain('[Termination "White lost on time"]');
  });
});
