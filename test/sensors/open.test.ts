import { describe, expect, it } from 'vitest';
import { FirmataBoardSource, SerialBoardSource, SimBoard, createBoardSource, openBoardSource, EmulatorBoardSource } from '../../src/sensors/index.ts';

describe('board specs', () => {
  it('maps spec strings to sources', () => {
    expect(createBoardSource('auto')).toBeInstanceOf(SerialBoardSource);
    expect(createBoardSource('serial:/dev/ttyACM0')).toBeInstanceOf(SerialBoardSource);
    expect(createBoardSource('/dev/ttyUSB0')).toBeInstanceOf(SerialBoardSource);
    expect(createBoardSource('firmata:/dev/ttyACM0')).toBeInstanceOf(FirmataBoardSource);
    expect(createBoardSource('emulator')).toBeInstanceOf(EmulatorBoardSource);
    expect(createBoardSource('sim:7')).toBeInstanceOf(SimBoard);
    expect(() => createBoardSource('bluetooth')).toThrow(/unknown board "bluetooth"/);
    expect(() => createBoardSource('firmata')).toThrow(/needs a port/);
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
