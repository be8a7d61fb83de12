// The magnet as a parameter of both sensor models: the emulator's (HallModel,
// field tables) and the simulated board's (BoardPhysics), for the parts the
// hardware README allows and the ones builders substitute.
import { describe, expect, it } from 'vitest';
import { HALL } from '../../src/sensors/hall-table.ts';
import { HallModel } from '../../src/sensors/hall-model.ts';
import { fieldTable, magnet, z1, discBz, GEOMETRY } from '../../src/sensors/magnet-physics.ts';
import { BoardPhysics, physicsForMagnet } from '../../src/sensors/sim/physics.ts';

/** The magnets issue #26 names: 8 × 1.5, 10 × 1, 10 × 2, 12 × 1 mm; N35–N52. */
const BUILDERS = [
  '8x1.5-N35',
  '8x1.5-N42',
  '8x1.5-N52',
  '10x1-N35',
  '10x1-N52',
  '10x2-N35',
  '10x2-N52',
  '12x1-N35',
  '12x1-N42',
  '12x1-N52',
];

describe('magnets as a parameter of the sensor models', () => {
  it('computes the generated table of the specified part exactly', () => {
    const t = fieldTable(magnet('12x1-N35'), HALL.offsets);
    for (const k of ['lower', 'upper', 'flipped'] as const) t[k].forEach((v, i) => expect(v).toBeCloseTo(HALL[k][i], 2));
  });

  it('reads any disc a builder names, and refuses what is not one', () => {
    expect(magnet('10x2-N52')).toMatchObject({ diameter: 10, thickness: 2, grade: 'N52', br: 1.44 });
    expect(() => magnet('10x2')).toThrow(/write DIAMETERxTHICKNESS-GRADE/);
    expect(() => magnet('10x2-N99')).toThrow(/grades N35/);
    expect(() => magnet('40x2-N35')).toThrow(/3–20 mm across/);
  });

  it("the emulator model: a coin upside down reads below empty by the geometry's fraction, for every builder magnet", () => {
    for (const key of BUILDERS) {
      const m = magnet(key),
        z = z1();
      const want = discBz(m, 0, z + GEOMETRY.coin - m.thickness) / discBz(m, 0, z);
      const model = new HallModel({ magnet: key, offCentreMm: 0, maxOffMm: 0 });
      const empty = model.millivolts(1);
      model.place(1, 0);
      const one = model.millivolts(1) - empty;
      model.flip(1);
      const flipped = model.millivolts(1) - empty;
      expect(-flipped / one, key).toBeCloseTo(want, 1);
      expect(one, key).toBeGreaterThan(0);
    }
  });

  it('the simulated board: step, stack and upside-down level follow the magnet', () => {
    const ref = physicsForMagnet('12x1-N35');
    expect(ref.upsideDownFactor).toBeCloseTo(0.61, 2);
    expect(ref.coinDelta).toBeCloseTo(200, 5);
    let last = 0;
    for (const key of ['8x1.5-N35', '8x1.5-N42', '8x1.5-N52']) {
      const p = physicsForMagnet(key);
      expect(p.coinDelta!).toBeGreaterThan(last); // stronger grades, bigger step
      last = p.coinDelta!;
    }
    for (const key of BUILDERS) {
      const p = physicsForMagnet(key);
      const board = new BoardPhysics({ ...p, seed: 3, offCentreMm: 0, magnetSpread: 0, gainSpread: 0, crosstalk: 0, noise: 0, drift: 0 });
      const empty = board.expected(10, 0);
      board.setCoins(10, 1, 0, { offMm: 0 });
      const one = board.expected(10, 1000) - empty;
      board.flip(10, 1000);
      const flipped = board.expected(10, 2000) - empty;
      expect(-flipped / one, key).toBeCloseTo(p.upsideDownFactor!, 1);
      expect(p.stackRatio![0], key).toBeGreaterThan(1.25);
    }
  });
});
