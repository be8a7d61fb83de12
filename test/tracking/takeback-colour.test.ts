// The takeback on a polarity-coded board, on the simulated board: the counts
// of the position before the last move with a coin of the wrong side where it
// changed is no takeback. Seen in bench/tracking-habits.ts (the off-centre-nudge
// stop in tinsley game 0, seed 1: see stale-empty-lift.test.ts): Black's answer
// 12x19 read with the man on 12 still counted, so the board counted as the
// position before White's 19-16, and "19-16 taken back" was accepted although
// the coin on 19 read clearly Black (+0.89 of a step), Black's jumper — then "a
// piece missing from 12". Here the same board is made plainly: after 11-15
// 22-18, Black's jumper put down on 22 and the captured man on 18 taken off
// while the man on 15 still stands (a coin from the box for the jumper).
import { describe, expect, it } from 'vitest';
import { Game, legalMoves, moveText, type Move } from '../../src/rules/index.ts';
import { CHOSEN, GEOMETRY, magnet as magnetOf, pieceField, sensor, type Geometry } from '../../src/sensors/magnet-physics.ts';
import { Table } from '../harness/table.ts';

const coded = { coding: 'polarity' as const };

function move(game: Game, text: string): Move {
  const m = legalMoves(game.position).find((x) => moveText(x, legalMoves(game.position)) === text);
  if (!m) throw new Error(`no move ${text}`);
  return m;
}

/** A coded board set up and calibrated, 11-15 22-18 played plainly. */
async function afterOpening(seed: number, physics: { magnet?: string; geometry?: Geometry } = {}): Promise<Table> {
  const t = new Table({ seed, physics: { ...coded, ...physics } });
  await t.open();
  t.sim.setupStart();
  t.wait(1500);
  const g = new Game(t.game.start);
  for (const text of ['11-15', '22-18']) {
    const m = move(g, text);
    t.play(m);
    g.play(m);
    t.wait(800);
  }
  expect(t.tracker.view.coded).toBe(true);
  expect(t.tracker.currentGame.plies.length).toBe(2);
  return t;
}

const record = (t: Table) => t.tracker.currentGame.plies.map((p) => moveText(p.move, legalMoves(p.before)));

describe('a takeback on a polarity-coded board must show the colours of the position before', () => {
  it("the counts of the position before 22-18 with Black's jumper on 22: no takeback; the capture recorded once 15 is clear", async () => {
    for (const seed of [1, 2, 3]) {
      const t = await afterOpening(seed);
      t.sim.place(22, { color: 'black' });
      t.wait(200);
      t.sim.lift(18);
      t.wait(400);
      // The board counts as the position before 22-18, but 22 reads Black's coin.
      expect(t.tracker.view.signed[21], `seed ${seed}`).toBeGreaterThan(0.75);
      expect(t.of('takeback'), `seed ${seed}`).toEqual([]);
      expect(record(t), `seed ${seed}`).toEqual(['11-15', '22-18']);
      t.sim.lift(15);
      t.wait(1500);
      expect(t.of('takeback'), `seed ${seed}`).toEqual([]);
      expect(record(t), `seed ${seed}`).toEqual(['11-15', '22-18', '15x22']);
      expect(t.alerts(), `seed ${seed}`).toEqual([]);
    }
  });

  it('left standing, that board is said to be wrong (an alert, not a takeback), and put right it is the capture', async () => {
    const t = await afterOpening(4);
    t.sim.place(22, { color: 'black' });
    t.wait(200);
    t.sim.lift(18);
    t.wait(6000);
    expect(t.of('takeback')).toEqual([]);
    expect(t.tracker.currentAlert?.message).toMatch(/The coin on 22 is Black's: to take 22-18 back, put White's man there/);
    expect(record(t)).toEqual(['11-15', '22-18']);
    t.sim.lift(15);
    t.wait(1500);
    expect(t.tracker.currentAlert).toBeNull();
    expect(record(t)).toEqual(['11-15', '22-18', '15x22']);
  });

  it("White's man put back on 22 is still taken back (and an upside-down one too)", async () => {
    for (const upsideDown of [false, true]) {
      const t = await afterOpening(5);
      t.sim.hold('white');
      t.sim.lift(18);
      t.wait(150);
      t.sim.set(22, 1, { color: 'white', upsideDown });
      t.wait(1500);
      expect(
        t.of('takeback').map((e) => e.move.from),
        `upside down: ${upsideDown}`,
      ).toEqual([22]);
      expect(record(t)).toEqual(['11-15']);
    }
  });

  it("a thick magnet: a man put back upside down can read as the other side's; the alert says to turn it over, and then it is taken back", async () => {
    // 10 × 2 mm discs flush in their coins (the tile raised as a builder does: see games-flips.soak.test.ts) read
    // magnet-up up to 0.9 of a step the other way, past the reader's half band: no telling them from the
    // other side's coin, so the words name both.
    const magnet = '10x2-N35';
    const sn = sensor(CHOSEN.sensor);
    let tile = GEOMETRY.tile;
    const king = (tl: number) => sn.sens * pieceField(magnetOf(magnet), { coins: 2 }, { ...GEOMETRY, tile: tl });
    while (sn.q + king(tile) > sn.outMax || sn.q - king(tile) < sn.outMin) tile += 0.5;
    const t = await afterOpening(3, { magnet, geometry: { ...GEOMETRY, tile } });
    t.sim.set(22, 1, { color: 'white', upsideDown: true });
    t.wait(600);
    t.sim.lift(18);
    t.wait(6000);
    expect(t.tracker.view.signed[21]).toBeGreaterThan(0.75);
    expect(t.of('takeback')).toEqual([]);
    expect(t.tracker.currentAlert?.message).toMatch(
      /The coin on 22 is Black's: to take 22-18 back, put White's man there \(one upside down: turn it over\)\./,
    );
    t.sim.flip(22);
    t.wait(1500);
    expect(t.of('takeback').map((e) => e.move.from)).toEqual([22]);
    expect(t.tracker.currentAlert).toBeNull();
    expect(record(t)).toEqual(['11-15']);
  });
});
