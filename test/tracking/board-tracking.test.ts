// BoardTracking runs the explicit calibration routine (moved here from the
// session): while it runs frames go to the routine and no move is tracked; done,
// its calibration is in use (every square measured) and the board is compared
// with the game again; cancelled, the same without a new calibration.
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/index.ts';
import { BoardTracking, type CalibrationStep } from '../../src/tracking/board-tracking.ts';
import { writerOn } from '../harness/table.ts';
import type { TrackerEvent } from '../../src/tracking/tracker.ts';

async function rig() {
  // (Quiet sensors: the routine's steadiness bar — every reading within 6 counts for 600 ms — is
  // rarely met at the sim's default noise.)
  const sim = new SimBoard({ seed: 5, physics: { noise: 0.5 } });
  const tracking: BoardTracking = new BoardTracking(
    Game.standard(),
    writerOn(() => tracking.currentGame),
  );
  const steps: CalibrationStep[] = [];
  const events: TrackerEvent[] = [];
  sim.onFrame((f) => {
    if (tracking.calibrating) {
      const s = tracking.pushCalibration(f.t, f.readings);
      if (s) steps.push(s);
    } else events.push(...tracking.push(f.t, f.readings));
  });
  await sim.open();
  sim.advance(200);
  return { sim, tracking, steps, events };
}

describe('BoardTracking: the calibration routine', () => {
  it('runs the routine on the frames, then uses its calibration and compares the board with the game again', async () => {
    const { sim, tracking, steps, events } = await rig();
    expect(tracking.calibration).toBeNull();
    expect(tracking.startCalibration().step).toBe('clear');
    expect(tracking.calibrating).toBe(true);
    expect(tracking.calibration?.step).toBe('clear');
    sim.advance(2500);
    expect(steps.at(-1)).toMatchObject({ kind: 'progress', progress: { step: 'start' } });
    sim.setupStart();
    sim.advance(2500);
    for (let sq = 1; sq <= 32; sq++) {
      if (sq === 1) sim.clear();
      sim.set(sq, 2, { offMm: 0 });
      sim.advance(2500);
      sim.set(sq, 0);
      sim.advance(2500);
    }
    const done = steps.at(-1)!;
    expect(done.kind).toBe('done');
    expect(tracking.calibrating).toBe(false);
    expect(tracking.view.calibrated).toBe(true);
    expect(tracking.view.measured >>> 0).toBe(0xffffffff);
    // (The board is compared with the game again: set up, then ready.)
    expect(tracking.phase).toBe('setup');
    sim.setupStart();
    sim.advance(2500);
    expect(events.some((e) => e.type === 'ready')).toBe(true);
    expect(tracking.phase).toBe('play');
  });

  it('cancelled, it leaves the calibration as it was and compares the board again', async () => {
    const { sim, tracking } = await rig();
    expect(tracking.cancelCalibration()).toBeNull();
    tracking.startCalibration();
    sim.advance(500);
    const events = tracking.cancelCalibration();
    expect(events).not.toBeNull();
    expect(tracking.calibrating).toBe(false);
    expect(tracking.view.calibrated).toBe(false);
    expect(tracking.phase).toBe('setup');
  });
});
