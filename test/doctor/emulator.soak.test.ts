// `crownhead doctor` against the real firmware in simavr, through the serial
// driver on the emulator's pseudo-terminal: a good board, and boards built
// with a dead sensor, two select lines swapped, a sensor mounted the wrong way
// round, weak magnets, two output wires crossed, an output wire open, a
// settling ghost, and 8 × 1.5 mm magnets (a knocked king reads below a man);
// and the coin check naming a weak, a reversed and an unmagnetised coin.
// Each must be named; the good one must pass clean.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_BIN, EmulatorBoardSource, FIRMWARE_ELF } from '../../src/sensors/index.ts';
import type { HallFaults } from '../../src/sensors/hall-model.ts';
import { runDoctor } from '../../src/doctor/run.ts';

const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware', import.meta.url));
beforeAll(() => {
  execFileSync('make', ['-C', FIRMWARE_DIR, 'emulator'], { stdio: 'pipe', timeout: 300_000 });
  expect(existsSync(EMULATOR_BIN) && existsSync(FIRMWARE_ELF)).toBe(true);
}, 310_000);

async function doctor(faults?: HallFaults, squares = [1, 2, 5, 9, 17], magnet?: string, coinSet?: number[]) {
  // (magnetSpread 0: the bring-up moves one coin from square to square, see hall-board.ts)
  const src = new EmulatorBoardSource({ model: { seed: 5, faults, magnet, coinSet, magnetSpread: 0 } });
  await src.open();
  try {
    const said: string[] = [];
    const r = await runDoctor({ source: src, hand: src, squares, stepTimeoutMs: 4000, coins: coinSet?.length, say: (l) => said.push(l) });
    return { ...r, said, codes: r.verdict.findings.filter((f) => f.severity !== 'note').map((f) => f.code) };
  } finally {
    await src.close();
  }
}

describe('crownhead doctor on the emulated firmware', () => {
  it('passes a good board', async () => {
    const r = await doctor();
    expect(r.codes).toEqual([]);
    expect(r.verdict.magnet?.fits[0]).toBe('12x1');
    expect(r.verdict.magnet?.kingMargin).toBeGreaterThan(10);
  }, 120_000);

  it('names a dead sensor, swapped select lines, a reversed sensor and weak magnets', async () => {
    const dead = await doctor({ dead: [5] });
    expect(dead.codes).toEqual(['no-output']);
    expect(dead.verdict.findings.find((f) => f.code === 'no-output')?.squares).toEqual([5]);
    const swapped = await doctor({ select: { kind: 'swap', lines: [0, 2] } });
    expect(swapped.codes).toEqual(['select-lines']);
    expect(swapped.verdict.select).toEqual({ kind: 'swap', lines: [0, 2] });
    const reversed = await doctor({ reversed: [9] });
    expect(reversed.codes).toEqual(['reversed']);
    expect(reversed.verdict.findings.find((f) => f.code === 'reversed')?.squares).toEqual([9]);
    const weak = await doctor({ magnetStrength: 0.45 });
    expect(weak.codes).toEqual(['weak-magnets']);
  }, 300_000);

  it('names crossed output wires, an open output and a settling ghost', async () => {
    const crossed = await doctor({ crossed: [[5, 7]] }, [1, 5, 7, 9]);
    expect(crossed.codes).toEqual(['crossed-outputs']);
    expect(crossed.verdict.findings.find((f) => f.code === 'crossed-outputs')?.message).toContain(
      'outputs of 5 and 7 are swapped: mux 0 C4 ↔ C6',
    );
    const open = await doctor({ open: [12] }, [1, 11, 12]);
    expect(open.codes).toEqual(['open-output']);
    expect(open.verdict.findings.find((f) => f.code === 'open-output')?.message).toMatch(
      /^The output of 12 is open: it reads what the channel before it read \(mux 0 C10, square 11\)/,
    );
    const ghost = await doctor({ settle: 0.2 }, [1, 2, 5, 9]);
    expect(ghost.codes).toEqual(['settling-ghost']);
    expect(ghost.verdict.findings.find((f) => f.code === 'settling-ghost')?.message).toMatch(/SCAN_SETTLE_US/);
  }, 300_000);

  it('warns that a king knocked 3 mm off-centre reads below a man with 8 × 1.5 mm magnets', async () => {
    const r = await doctor(undefined, [1, 2, 5], '8x1.5-N42');
    expect(r.codes).toEqual(['king-margin']);
    expect(r.verdict.magnet?.kingMargin).toBeLessThanOrEqual(0);
    expect(r.verdict.findings.find((f) => f.code === 'king-margin')?.message).toMatch(
      /^A king knocked 3 mm off-centre would read \d+ counts below a centred man/,
    );
  }, 120_000);

  it('checks each coin of a set: a weak, a reversed and an unmagnetised coin named by number', async () => {
    const r = await doctor(undefined, [1, 2], undefined, [1, 1, 0.6, 1, -1, 1, 0, 1]);
    expect(r.codes).toEqual(['weak-coin', 'reversed-coin', 'unmagnetised-coin']);
    expect(r.verdict.findings.find((f) => f.code === 'weak-coin')?.message).toMatch(/^Coin 3 of 8 reads (3\d|4\d) % below the others/);
    expect(r.verdict.findings.find((f) => f.code === 'reversed-coin')?.message).toMatch(/^Coin 5 of 8 reads below empty/);
    expect(r.verdict.findings.find((f) => f.code === 'unmagnetised-coin')?.message).toMatch(/^Coin 7 of 8 moved nothing on 1/);
  }, 180_000);
});
