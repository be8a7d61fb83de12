// `crownhead doctor`'s check on boards built right and built wrong: the
// simulated board, and the emulator's sensor model with each build fault a
// builder really makes. Each fault must be named, on the right squares, and a
// good board must get a clean verdict (no false alarm).
import { describe, expect, it } from 'vitest';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { runDoctor } from '../../src/doctor/run.ts';
import type { HallFaults } from '../../src/sensors/hall-model.ts';
import { HallBoard } from './hall-board.ts';

const SQUARES = [1, 2, 3, 5, 9, 12, 17, 24, 32];

async function onHall(faults?: HallFaults, seed = 1, parts: 'typical' | 'datasheet' = 'typical') {
  const board = new HallBoard({ seed, parts, faults });
  const said: string[] = [];
  const run = await runDoctor({
    source: board,
    hand: board,
    squares: SQUARES,
    stepTimeoutMs: 5000,
    say: (l) => said.push(l),
    advance: (ms) => board.advance(ms),
  });
  return { ...run, said };
}

const codes = (r: { verdict: { findings: { code: string; severity: string }[] } }) =>
  r.verdict.findings.filter((f) => f.severity !== 'note').map((f) => f.code);

describe('crownhead doctor: the bring-up check', () => {
  it('gives a simulated board a clean verdict, and finds the specified magnet', async () => {
    for (const seed of [1, 2, 3]) {
      const sim = new SimBoard({ clock: 'manual', seed });
      await sim.open();
      const said: string[] = [];
      const r = await runDoctor({ source: sim, hand: sim, squares: SQUARES, say: (l) => said.push(l), advance: (ms) => sim.advance(ms) });
      await sim.close();
      expect(codes(r), `seed ${seed}`).toEqual([]);
      expect(r.verdict.verdict).toBe('ok');
      expect(said[0]).toMatch(/Take every coin off/);
      expect(said).toContain('Put a coin on 17, magnet side down, in the middle of the square.');
      // the simulated board's physics is parametric (a stack 1.34–1.46 of a coin, upside down −0.61), not a disc's geometry
      expect(r.verdict.magnet?.stack).toBeGreaterThan(0.25);
      expect(r.verdict.magnet?.stack).toBeLessThan(0.65);
      expect(r.verdict.magnet?.flip).toBeLessThan(-0.45);
      expect(r.verdict.squares.filter((s) => SQUARES.includes(s.square)).every((s) => s.gain! > 100)).toBe(true);
    }
  });

  it('gives good emulated parts a clean verdict (typical lots and the datasheet extremes)', async () => {
    for (const [seed, parts] of [
      [1, 'typical'],
      [2, 'typical'],
      [3, 'datasheet'],
      [4, 'datasheet'],
    ] as const) {
      const r = await onHall(undefined, seed, parts);
      expect(codes(r), `seed ${seed} ${parts}`).toEqual([]);
      expect(r.verdict.magnet?.fits).toContain('12x1');
      expect(r.verdict.magnet?.flipFit).toBeCloseTo(-0.61, 2);
    }
  });

  it('names a dead sensor', async () => {
    const r = await onHall({ dead: [9] });
    expect(codes(r)).toEqual(['no-output']);
    const f = r.verdict.findings.find((x) => x.code === 'no-output')!;
    expect(f.squares).toEqual([9]);
    expect(f.message).toMatch(/under 9 gives no output \(it reads \d+ counts with no coin/);
    expect(r.said).toContain('No change seen under 9: lift the coin if you put one there, and go on.');
  });

  it('names a sensor mounted the wrong way round', async () => {
    const r = await onHall({ reversed: [12] });
    expect(codes(r)).toEqual(['reversed']);
    const f = r.verdict.findings.find((x) => x.code === 'reversed')!;
    expect(f.squares).toEqual([12]);
    expect(f.message).toMatch(/wrong way round/);
  });

  it('names each select-line fault of the multiplexers', async () => {
    const cases: [HallFaults['select'], RegExp][] = [
      [{ kind: 'swap', lines: [1, 2] }, /S1 \(pin D3\) and S2 \(pin D4\) are swapped/],
      [{ kind: 'swap', lines: [0, 3] }, /S0 \(pin D2\) and S3 \(pin D5\) are swapped/],
      [{ kind: 'stuck', line: 3, level: 0 }, /S3 \(pin D5\) is stuck low/],
      [{ kind: 'stuck', line: 0, level: 1 }, /S0 \(pin D2\) is stuck high/],
      [{ kind: 'short', lines: [0, 1] }, /S0 \(pin D2\) and S1 \(pin D3\) are shorted together/],
    ];
    for (const [select, words] of cases) {
      const r = await onHall({ select });
      expect(codes(r), JSON.stringify(select)).toEqual(['select-lines']);
      expect(r.verdict.select).toEqual(select);
      expect(r.verdict.findings.find((f) => f.code === 'select-lines')!.message).toMatch(words);
    }
  });

  it('names weak magnets, and too weak ones as a fault', async () => {
    const weak = await onHall({ magnetStrength: 0.5 });
    expect(codes(weak)).toEqual(['weak-magnets']);
    expect(weak.verdict.findings.find((f) => f.code === 'weak-magnets')?.severity).toBe('warning');
    expect(weak.verdict.magnet?.strength).toBeLessThan(0.65);
    const tooWeak = await onHall({ magnetStrength: 0.2 });
    expect(tooWeak.verdict.findings.find((f) => f.code === 'weak-magnets')?.severity).toBe('fault');
    expect(tooWeak.verdict.verdict).toBe('faults');
  });
});
