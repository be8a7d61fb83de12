import { describe, expect, it } from 'vitest';
import {
  FirmataBoardSource,
  SerialBoardSource,
  SimBoard,
  createBoardSource,
  openBoardSource,
  EmulatorBoardSource,
} from '../../src/sensors/index.ts';

describe('board specs', () => {
  it('maps spec strings to sources', async () => {
    expect(await createBoardSource('auto')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('serial:/dev/ttyACM0')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('/dev/ttyUSB0')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('firmata:/dev/ttyACM0')).toBeInstanceOf(FirmataBoardSource);
    expect(await createBoardSource('emulator')).toBeInstanceOf(EmulatorBoardSource);
    expect(await createBoardSource('sim:7')).toBeInstanceOf(SimBoard);
    await expect(createBoardSource('bluetooth')).rejects.toThrow(/unknown board "bluetooth"/);
    await expect(createBoardSource('firmata')).rejects.toThrow(/needs a port/);
  });

  it('"auto" falls back to the simulated board when no board is found (no udev here)', async () => {
    const { source, identity, fallback } = await openBoardSource('auto');
    try {
      if (fallback) {
        expect(source.kind).toBe('sim');
        expect(identity.id).toBe('SIM');
        expect(fallback).toMatch(/no board found.*using the simulated board/);
      } else {
        expect(source.kind).toBe('serial'); // a real board is plugged in
      }
    } finally {
      await source.close();
    }
  }, 30_000);
});
