// Choosing a board source from a spec string (CLI flag / config):
//   "auto" (default)          a Crownhead board on any USB serial port, else the simulated board
//   "serial" | "serial:<path>" a Crownhead board (auto-detected, or on that port)
//   "firmata:<path>"          a StandardFirmata board on that port
//   "emulator"                the simavr-emulated firmware (firmware/build/crownhead-emu)
//   "sim" | "sim:<seed>"      the simulated board on the real-time clock
// Each driver is imported only when its spec is chosen, so a simulated board
// never loads serialport and only a Firmata board loads johnny-five.

import type { BoardIdentity } from './protocol.ts';
import { BoardNotFoundError, type BoardSource } from './source.ts';

/** Checks a spec and says what is wrong with it, without loading any driver. */
function parseSpec(spec: string): { kind: 'serial' | 'firmata' | 'emulator' | 'sim'; path?: string; seed?: number } {
  const [scheme, ...rest] = spec.split(':');
  const arg = rest.join(':');
  switch (scheme) {
    case 'auto':
    case 'serial':
      return { kind: 'serial', path: arg || undefined };
    case 'firmata':
      if (!arg) throw new RangeError('firmata needs a port: firmata:/dev/ttyACM0');
      return { kind: 'firmata', path: arg };
    case 'emulator':
      return { kind: 'emulator' };
    case 'sim': {
      const seed = arg ? Number(arg) : 1;
      if (!Number.isInteger(seed)) throw new RangeError(`sim seed "${arg}" is not an integer`);
      return { kind: 'sim', seed };
    }
    default:
      if (spec.startsWith('/') || /^COM\d+$/i.test(spec)) return { kind: 'serial', path: spec };
      throw new RangeError(`unknown board "${spec}" (auto, serial[:path], firmata:path, emulator, sim[:seed])`);
  }
}

export async function createBoardSource(spec = 'auto'): Promise<BoardSource> {
  const s = parseSpec(spec);
  switch (s.kind) {
    case 'serial':
      return new (await import('./serial.ts')).SerialBoardSource({ path: s.path });
    case 'firmata':
      return new (await import('./firmata.ts')).FirmataBoardSource({ path: s.path! });
    case 'emulator':
      return new (await import('./emulator.ts')).EmulatorBoardSource();
    case 'sim':
      return new (await import('./sim/board.ts')).SimBoard({ clock: 'real', seed: s.seed!, startPosition: true });
  }
}

/**
 * Create and open a source. With "auto", when no Crownhead board is found,
 * falls back to the simulated board and says why in `fallback`.
 */
export async function openBoardSource(spec = 'auto'): Promise<{ source: BoardSource; identity: BoardIdentity; fallback?: string }> {
  const source = await createBoardSource(spec);
  try {
    return { source, identity: await source.open() };
  } catch (err) {
    if (spec !== 'auto' || !(err instanceof BoardNotFoundError)) throw err;
    await source.close();
    const sim = await createBoardSource('sim');
    return { source: sim, identity: await sim.open(), fallback: `${err.message} — using the simulated board` };
  }
}
