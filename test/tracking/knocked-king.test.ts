// A knocked king stays a king: on small magnets (8 × 1.5 mm, glued proud
// under the coin: a king 2–3 mm off-centre reads at or below a centred man) a
// stack slid off-centre by a sleeve — no lift seen — is a quiet reminder ("The
// king on 4 is off-centre: straighten it"), never "Crown the king on 4 first",
// and the game goes on. A top coin really taken off reads the same, so the
// king stays a king in the game; the board catches it when it disagrees (the
// coin put down elsewhere), and the reminder stands until the square reads two
// coins again.
import { describe, expect, it } from 'vitest';
import { Game, parseFen, type Move } from '../../src/rules/index.ts';
import { GEOMETRY } from '../../src/sensors/magnet-physics.ts';
import { Table } from '../harness/table.ts';
import { unwrap } from '../../src/common/result.ts';

const glued = { magnet: '8x1.5-N42', geometry: { ...GEOMETRY, mount: 'glued' as const } };

async function table(fen: string, seed: number): Promise<Table> {
  const t = new Table({ seed, game: new Game(unwrap(parseFen(fen))), physics: glued });
  await t.open();
  t.setUp();
  expect(t.tracker.phase).toBe('play');
  return t;
}

const move = (t: Table, a: number, b: number): Move => {
  const m = t.game.legalMoves().find((x) => x.from === a && x.to === b);
  if (!m) throw new Error(`${a}-${b} is not legal here`);
  return m;
};

const reminder = (t: Table) => t.tracker.currentReminder;

describe('a knocked king stays a king', () => {
  it('a freshly crowned king knocked 2 mm by the sleeve leaving it: a reminder, not "crown the king on 4 first"; later moves accepted', async () => {
    // (Seed 5: the failing case found by hand — this square's crown never read as two before the knock.)
    for (const delay of [60, 120, 250]) {
      const t = await table('W:W8,19:B14,1', 5);
      t.play(move(t, 8, 4));
      t.wait(400);
      t.sim.place(4); // the crown, on top
      t.wait(delay); // landed; the hand leaves…
      t.sim.slide(4, 2); // …and its sleeve knocks the stack 2 mm
      t.wait(600);
      t.play(move(t, 14, 18)); // Black goes on
      t.wait(2500);
      expect(t.alerts()).toEqual([]);
      expect(t.of('crowned').map((e) => e.square)).toEqual([4]);
      expect(reminder(t)).toMatchObject({ category: 'off-centre', message: 'The king on 4 is off-centre: straighten it.', squares: [4] });
      t.play(move(t, 4, 8)); // the king moves backwards, as a king
      t.wait(1500);
      t.play(move(t, 18, 23));
      t.wait(1500);
      expect(t.alerts()).toEqual([]);
      expect(t.game.plies.map((p) => `${p.move.from}-${p.move.to}`)).toEqual(['8-4', '14-18', '4-8', '18-23']);
    }
  });

  it('a king knocked 1–3 mm in play stays a king; straightened, the reminder goes', async () => {
    for (const [seed, mm] of [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 3],
    ]) {
      const t = await table('B:WK10,19:B14,1', seed);
      t.sim.slide(10, mm);
      t.wait(2500);
      const knocked = reminder(t);
      t.play(move(t, 14, 17));
      t.wait(1500);
      t.play(move(t, 10, 14)); // the knocked king moves on, as a king
      t.wait(1500);
      expect(t.alerts()).toEqual([]);
      expect(t.game.plies.length).toBe(2);
      // (1 mm does not bring a king down to one coin: nothing to say.)
      if (mm === 1) expect(knocked).toBeNull();
      if (knocked) expect(knocked).toMatchObject({ category: 'off-centre', squares: [10] });
    }
    const t = await table('B:WK10,19:B14,1', 3);
    t.sim.slide(10, 3);
    t.wait(2500);
    expect(reminder(t)).toMatchObject({ category: 'off-centre', squares: [10] });
    t.sim.slide(10, 0.2);
    t.wait(1500);
    expect(reminder(t)).toBeNull();
    expect(t.alerts()).toEqual([]);
  });

  it('a king whose top coin is really lifted off stays a king to the game (the prior) and is caught when the board disagrees', async () => {
    const t = await table('B:WK10,19:B14,1', 3);
    t.sim.lift(10, 1); // the top coin taken off: one square's reading cannot tell it from the king knocked
    t.wait(1500);
    expect(t.alerts()).toEqual([]);
    expect(t.game.position.kings & (1 << 9)).not.toBe(0); // (the game's prior: a king stands on 10)
    t.sim.set(26, 1); // …and put down elsewhere: no move explains it
    t.wait(1500);
    const a = t.alerts().at(-1);
    expect(a?.squares).toContain(26);
    expect(a?.message).toMatch(/26/);
    t.sim.set(26, 0);
    t.sim.place(10, { offMm: 0 }); // put back where it belongs
    t.wait(1500);
    expect(t.tracker.boardStatus).toEqual({ kind: 'in-sync' });
    expect(t.tracker.currentAlert).toBeNull();
  });

  it('a man never crowned is still "crown the king on 4 first" when the opponent goes on', async () => {
    const t = await table('W:W8,19:B14,1', 5);
    t.play(move(t, 8, 4));
    t.wait(600);
    t.play(move(t, 14, 18));
    t.wait(1500);
    expect(t.alerts().map((a) => a.category)).toEqual(['not-crowned']);
  });
});
