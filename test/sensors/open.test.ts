import { describe, expect, it } from 'vitest';
import {
  FirmataBoardSource,
  SerialBoardSource,
  SimBoard,
  createBoardSource,
  openBoardSource,
  EmulatorBoardSource,
} from '../../src/sensors/index.ts';
import { openBoardSources, parseBoardSpec } from '../../src/sensors/open.ts';
import { unwrap } from '../../src/common/result.ts';

describe('board specs', () => {
  it('maps spec strings to sources', async () => {
    expect(await createBoardSource('auto')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('serial:/dev/ttyACM0')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('/dev/ttyUSB0')).toBeInstanceOf(SerialBoardSource);
    expect(await createBoardSource('firmata:/dev/ttyACM0')).toBeInstanceOf(FirmataBoardSource);
    expect(await createBoardSource('emulator')).toBeInstanceOf(EmulatorBoardSource);
    expect(await createBoardSource('sim:7')).toBeInstanceOf(SimBoard);
    await expect(createBoardSource('bluetooth')).rejects.toThrow(/"bluetooth" is not a board/);
    await expect(createBoardSource('firmata')).rejects.toThrow(/needs a port/);
  });

  it('names a simulated board: sim:NAME and sim:NAME:SEED give it that id; a number is a seed', async () => {
    expect(unwrap(parseBoardSpec('sim'))).toEqual({ kind: 'sim' });
    expect(unwrap(parseBoardSpec('sim:7'))).toEqual({ kind: 'sim', seed: 7 });
    expect(unwrap(parseBoardSpec('sim:-3'))).toEqual({ kind: 'sim', seed: -3 });
    expect(unwrap(parseBoardSpec('sim:NORTH:5'))).toEqual({ kind: 'sim', name: 'NORTH', seed: 5 });
    // Two named boards have seeds of their own (their noise and hands differ), each the same at every start.
    const north = unwrap(parseBoardSpec('sim:NORTH'));
    const south = unwrap(parseBoardSpec('sim:SOUTH'));
    expect(north).toMatchObject({ kind: 'sim', name: 'NORTH' });
    expect(north).toEqual(unwrap(parseBoardSpec('sim:NORTH')));
    expect(north.kind === 'sim' && south.kind === 'sim' && north.seed !== south.seed).toBe(true);
    for (const [spec, problem] of [
      ['sim:', /needs a name or a seed/],
      ['sim:1.5', /sim seed "1.5" is not an integer/],
      ['sim:NORTH:x', /sim seed "x" is not an integer/],
      ['sim:NORTH:1:2', /too many parts/],
      ['sim:north pole', /sim board name "north pole" is not 1–16 of/],
      ['sim:ABCDEFGHIJKLMNOPQ', /is not 1–16 of/],
    ] as const)
      expect(() => unwrap(parseBoardSpec(spec)), spec).toThrow(problem);
    const named = await createBoardSource('sim:NORTH');
    expect((await named.open()).id).toBe('NORTH');
    await named.close();
    const plain = await createBoardSource('sim:7');
    expect((await plain.open()).id).toBe('SIM');
    await plain.close();
  });

  it('club mode: named simulated boards keep their names beside numbered ones; one name twice is refused', async () => {
    const opened = await openBoardSources(['sim:EAST', 'sim', 'sim:WEST:9']);
    try {
      expect(opened.map((o) => o.identity.id)).toEqual(['EAST', 'SIM-2', 'WEST']);
    } finally {
      await Promise.all(opened.map((o) => o.source.close()));
    }
    await expect(openBoardSources(['sim:EAST', 'sim:EAST:2'])).rejects.toThrow(/boards 1 and 2 both say they are board EAST/);
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
