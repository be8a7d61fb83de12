// The emulated board's sensor model is the hardware README's physics: parts
// spread over the SS49E datasheet, coins off-centre, the king's ratio, a coin
// upside down below empty, crosstalk, the sensor's output span.
import { describe, expect, it } from 'vitest';
import { HallModel } from '../../src/sensors/hall-model.ts';
import { HALL } from '../../src/sensors/hall-table.ts';
import * as P from '../../hardware/tools/physics.ts';

const counts = (mv: number) => (mv * 1024) / 5000;

describe('HallModel', () => {
  it('is seeded: the same seed gives the same parts and the same hand', () => {
    const a = new HallModel({ seed: 7 }),
      b = new HallModel({ seed: 7 }),
      c = new HallModel({ seed: 8 });
    a.set(5, 2);
    b.set(5, 2);
    expect(a.levels()).toEqual(b.levels());
    expect(c.sensitivity).not.toEqual(a.sensitivity);
  });

  it("'datasheet' parts spread over the whole datasheet range (1.0–1.75 mV/G, 2.25–2.75 V)", () => {
    const m = new HallModel({ seed: 3, parts: 'datasheet' });
    expect(Math.min(...m.sensitivity)).toBeGreaterThanOrEqual(1.0);
    expect(Math.max(...m.sensitivity)).toBeLessThanOrEqual(1.75);
    expect(Math.max(...m.sensitivity) - Math.min(...m.sensitivity)).toBeGreaterThan(0.5);
    expect(Math.max(...m.quiescent) - Math.min(...m.quiescent)).toBeGreaterThan(350);
    const empty = m.levels();
    expect(empty.every((v, i) => v === Math.round(m.quiescent[i]))).toBe(true);
  });

  it("'typical' parts (the default) centre on the typical values with the limits at ±3σ", () => {
    const sens: number[] = [],
      q: number[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const m = new HallModel({ seed });
      sens.push(...m.sensitivity);
      q.push(...m.quiescent);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
    expect(mean(sens)).toBeCloseTo(1.4, 1);
    expect(sd(sens)).toBeGreaterThan(0.09);
    expect(sd(sens)).toBeLessThan(0.14);
    expect(mean(q)).toBeGreaterThan(2480);
    expect(mean(q)).toBeLessThan(2520);
    expect(sd(q)).toBeGreaterThan(70);
    expect(sd(q)).toBeLessThan(95);
    expect(Math.min(...sens)).toBeGreaterThanOrEqual(1.0);
    expect(Math.max(...q)).toBeLessThanOrEqual(2750);
  });

  it('a centred man and king read what the physics script says; the king ≈ 1.48 × the man', () => {
    const m = new HallModel({ seed: 1, magnetSpread: 0 });
    const f = P.figures(P.magnet(P.CHOSEN.magnet));
    m.place(10, 0);
    expect(m.field(10)).toBeCloseTo(f.man, 0);
    m.place(10, 0);
    expect(m.field(10)).toBeCloseTo(f.king, 0);
    expect(m.field(10) / f.man).toBeCloseTo(1.48, 2);
  });

  it('hands put coins off-centre: readings scatter below the centred value, an off-centre king still above a centred man', () => {
    const m = new HallModel({ seed: 2, magnetSpread: 0 });
    const centred = P.figures(P.magnet(P.CHOSEN.magnet)).man;
    const fields: number[] = [];
    for (let i = 0; i < 200; i++) {
      m.set(10, 0);
      m.place(10);
      fields.push(m.field(10));
    }
    expect(Math.max(...fields)).toBeLessThanOrEqual(centred + 1e-9);
    expect(Math.min(...fields)).toBeLessThan(centred * 0.97);
    const worstKing = new HallModel({ seed: 2, magnetSpread: 0 });
    worstKing.place(10, 4);
    worstKing.place(10, 4);
    expect(worstKing.field(10)).toBeGreaterThan(centred);
  });

  it('each coin is its own magnet: ±8 % around a good coin, a king two different coins, the same coins for the same seed', () => {
    const strengths = (seed: number) => {
      const m = new HallModel({ seed, offCentreMm: 0, maxOffMm: 0 });
      const man = P.figures(P.magnet(P.CHOSEN.magnet)).man;
      const out: number[] = [];
      for (let i = 0; i < 200; i++) {
        m.set(10, 0);
        m.place(10);
        out.push(m.field(10) / man);
      }
      return out;
    };
    const s = strengths(3);
    expect(Math.min(...s)).toBeGreaterThanOrEqual(0.92 - 1e-9);
    expect(Math.max(...s)).toBeLessThanOrEqual(1.08 + 1e-9);
    expect(Math.max(...s) - Math.min(...s)).toBeGreaterThan(0.12); // spread over the whole ±8 %, not one strength
    expect(strengths(3)).toEqual(s);
    expect(strengths(4)).not.toEqual(s);
    // a king: the upper coin's share is not the lower one's strength again
    const k = new HallModel({ seed: 5, offCentreMm: 0, maxOffMm: 0 });
    const f = P.figures(P.magnet(P.CHOSEN.magnet));
    const uppers = new Set<string>();
    for (let i = 0; i < 20; i++) {
      k.set(10, 0);
      k.place(10);
      const lower = k.field(10) / f.man;
      k.place(10);
      uppers.add(((k.field(10) - lower * f.man) / (f.king - f.man) / lower).toFixed(3));
    }
    expect(uppers.size).toBeGreaterThan(10);
  });

  it('a coin upside down reads more than half a one-coin step below empty', () => {
    const m = new HallModel({ seed: 4 });
    m.place(14, 0);
    const man = m.millivolts(14) - m.quiescent[13];
    m.flip(14);
    const flipped = m.millivolts(14) - m.quiescent[13];
    expect(flipped).toBeLessThan(-0.5 * man);
    expect(() => m.flip(15)).toThrow(RangeError);
  });

  it('crosstalk: the start position pulls an empty square down by a few counts', () => {
    const m = new HallModel({ seed: 5 });
    const before = m.millivolts(14);
    for (let s = 1; s <= 32; s++) if (s <= 12 || s >= 21) m.place(s);
    const drop = counts(before - m.millivolts(14));
    expect(drop).toBeGreaterThan(0.3);
    expect(drop).toBeLessThan(5);
  });

  it('clips at the SS49E output span', () => {
    const m = new HallModel({ seed: 6 });
    m.sensitivity[0] = 5; // a part far off the datasheet: the king saturates
    m.place(1, 0);
    m.place(1, 0);
    expect(m.millivolts(1)).toBe(HALL.span[1]);
  });

  it('refuses what a board cannot hold', () => {
    const m = new HallModel();
    expect(() => m.set(3, 3)).toThrow(/a square holds 0, 1 or 2/);
    expect(() => m.place(33)).toThrow(/no square 33/);
    m.set(3, 2);
    expect(() => m.place(3)).toThrow(/already holds 2/);
    expect(() => m.lift(4, 1)).toThrow(/holds 0/);
  });
});
