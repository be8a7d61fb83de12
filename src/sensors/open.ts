// Choosing a board source from a spec string (CLI flag / config):
//   "auto" (default)          a Crownhead board on any USB serial port, else the simulated board
//   "serial" | "serial:<path>" a Crownhead board (auto-detected, or on that port)
//   "firmata:<path>"          a StandardFirmata board on that port
//   "emulator"                the simavr-emulated firmware (firmware/build/crownhead-emu)
//   "sim" | "sim:<seed>"      the simulated board on the real-time clock

import { BoardNotFoundError } from './detect.ts';
import { EmulatorBoardSource } from './emulator.ts';
import { FirmataBoardSource } from './firmata.ts';
import type { BoardIdentity } from './protocol.ts';
import { SerialBoardSource } from './serial.ts';
import { SimBoard } from './sim/board.ts';
import type { BoardSource } from './source.ts';

export function createBoardSource(spec = 'auto'): BoardSource {
  const [scheme, ...rest] = spec.split(':');
  const arg = rest.join(':');
  switch (scheme) {
    case 'auto':
    case 'serial':
      return new SerialBoardSource({ path: arg || undefined });
    case 'firmata':
      if (!arg) throw new RangeError('firmata needs a port: firmata:/dev/ttyACM0');
      return new FirmataBoardSource({ path: arg });
    case 'emulator':
      return new EmulatorBoardSource();
    case 'sim': {
      const seed = arg ? Number(arg) : 1;
      if (!Number.isInteger(seed)) throw new RangeError(`sim seed "${arg}" is not an integer`);
      return new SimBoard({ clock: 'real', seed, startPosition: true });
    }
    default:
      if (spec.startsWith('/') || /^COM\d+$/i.test(spec)) return new SerialBoardSource({ path: spec });
      throw new RangeError(`unknown board "${spec}" (auto, serial[:path], firmata:path, emulator, sim[:seed])`);
  }
}

/**
 * Create and open a source. With "auto", when no Crownhead board is found,
 * falls back to the simulated board and says why in `fallback`.
 */
export async function openBoardSource(
  spec = 'auto',
): Promise<{ source: BoardSource; identity: BoardIdentity; fallback?: string }> {
  const source = createBoardSource(spec);
  try {
    return { source, identity: await source.open() };
  } catch (err) {
    if (spec !== 'auto' || !(err instanceof BoardNotFoundError)) throw err;
    await source.close();
    const sim = createBoardSource('sim');
    return { source: sim, identity: await sim.open(), fallback: `${err.message} — using the simulated board` };
  }
}
