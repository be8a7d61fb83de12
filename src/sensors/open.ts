// Choosing a board source from a spec string (CLI flag / config):
//   "auto" (default)          a Crownhead board on any USB serial port, else the simulated board
//   "serial" | "serial:<path>" a Crownhead board (auto-detected, or on that port)
//   "firmata:<path>"          a StandardFirmata board on that port
//   "emulator"                the simavr-emulated firmware (firmware/build/crownhead-emu)
//   "sim" | "sim:<seed>"      the simulated board on the real-time clock (board SIM)
//   "sim:<name>[:<seed>]"     a simulated board with its own id (two stations on one machine)
// Each driver is imported only when its spec is chosen, so a simulated board
// never loads serialport and only a Firmata board loads johnny-five.

import type { HandshakeOptions } from './detect.ts';
import type { SerialBinding } from './line-port.ts';
import type { BoardIdentity } from './protocol.ts';
import { BoardNotFoundError, type BoardSource } from './source.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, unwrap, type Result } from '../common/result.ts';

/** What each option is when it is not given. */
const DEFAULTS = { simBoards: 0 } as const;

/** A board spec, checked: which driver, and its argument. */
export type BoardSpec =
  | { kind: 'serial'; path?: string }
  | { kind: 'firmata'; path: string }
  | { kind: 'emulator' }
  /** `name` when the spec gave one (the board's id); `seed` when it gave one */
  | { kind: 'sim'; name?: string; seed?: number };

export const BOARD_SPECS = 'auto, serial[:PATH], firmata:PATH, emulator, sim[:SEED], sim:NAME[:SEED]';
const BOARD_ID = /^[A-Za-z0-9_-]{1,16}$/;
const INTEGER = /^-?\d+$/;

/** A --board spec that names no board: what is wrong with it. */
export class BoardSpecError extends CrownheadError<'bad-board'> {
  override readonly name = 'BoardSpecError';
  constructor(message: string) {
    super('bad-board', message);
  }
}

/** Checks a spec without loading any driver: the board it names, or the BoardSpecError naming the problem. */
export const parseBoardSpec = (spec: string): Result<BoardSpec, BoardSpecError> => attempt(BoardSpecError, () => readBoardSpec(spec));

function readBoardSpec(spec: string): BoardSpec {
  const [scheme, ...rest] = spec.split(':');
  const arg = rest.join(':');
  switch (scheme) {
    case 'auto':
    case 'serial':
      return { kind: 'serial', path: arg || undefined };
    case 'firmata':
      if (!arg) throw new BoardSpecError('firmata needs a port: firmata:/dev/ttyACM0');
      return { kind: 'firmata', path: arg };
    case 'emulator':
      return { kind: 'emulator' };
    case 'sim':
      return parseSim(rest);
    default:
      if (spec.startsWith('/') || /^COM\d+$/i.test(spec)) return { kind: 'serial', path: spec };
      throw new BoardSpecError(`"${spec}" is not a board (${BOARD_SPECS})`);
  }
}

/** sim, sim:SEED, sim:NAME, sim:NAME:SEED — a name is a board id that is not a number. */
function parseSim(parts: string[]): BoardSpec {
  if (parts.length === 0) return { kind: 'sim' };
  const seedOf = (t: string) => {
    if (!INTEGER.test(t) || !Number.isSafeInteger(Number(t))) throw new BoardSpecError(`sim seed "${t}" is not an integer`);
    return Number(t);
  };
  const [first, second, ...more] = parts as [string, ...string[]];
  if (more.length) throw new BoardSpecError(`sim:${parts.join(':')}: too many parts (sim:NAME:SEED at most)`);
  if (second === undefined && (INTEGER.test(first) || /^-?\d*\.?\d+(e\d+)?$/i.test(first))) return { kind: 'sim', seed: seedOf(first) };
  if (!BOARD_ID.test(first))
    throw new BoardSpecError(
      first === ''
        ? 'sim: needs a name or a seed after the colon (sim:NORTH, sim:7)'
        : `sim board name "${first}" is not 1–16 of A–Z a–z 0–9 _ -`,
    );
  return second === undefined ? { kind: 'sim', name: first, seed: nameSeed(first) } : { kind: 'sim', name: first, seed: seedOf(second) };
}

/** A named board's own noise and hands (two named boards never share a seed by default): FNV-1a of the name. */
function nameSeed(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 1_000_000;
}

export async function createBoardSource(spec = 'auto'): Promise<BoardSource> {
  const s = unwrap(parseBoardSpec(spec));
  switch (s.kind) {
    case 'serial':
      return new (await import('./serial.ts')).SerialBoardSource({ path: s.path });
    case 'firmata':
      return new (await import('./firmata.ts')).FirmataBoardSource({ path: s.path! });
    case 'emulator':
      return new (await import('./emulator.ts')).EmulatorBoardSource();
    case 'sim':
      return new (await import('./sim/board.ts')).SimBoard({ clock: 'real', seed: s.seed ?? 1, startPosition: true, id: s.name });
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

/** A board opened for a room: its source, its identity, and why the simulated board stands in for a real one. */
export interface OpenedSource {
  source: BoardSource;
  identity: BoardIdentity;
  fallback?: string;
}

export interface OpenManyOptions {
  /** simulated boards to add after the specs (`--sim-boards N`) */
  simBoards?: number;
  /** already made sources, opened after those (tests: simulated boards on the manual clock) */
  sources?: readonly BoardSource[];
  /** serialport binding (tests: the mock bus) */
  binding?: SerialBinding;
  /** handshake, silence and reconnect timings of every serial board (tests shorten them) */
  serial?: SerialTuning;
}

/** The timings of a serial board's link. */
export type SerialTuning = HandshakeOptions & {
  silenceMs?: number;
  reconnect?: { minMs?: number; maxMs?: number; factor?: number } | false;
};

/**
 * Club mode: every board of the room, opened, in order. "auto" finds every
 * Crownhead board on USB (and, alone with nothing found, falls back to one
 * simulated board as a single board does); "serial:PATH" opens that port;
 * "sim[:SEED]" and `simBoards` add simulated boards, numbered SIM-1, SIM-2 …
 * (stable ids, so their games folders are found again after a restart);
 * "sim:NAME[:SEED]" adds one with that id.
 * Every serial source follows its board by id (a board plugged back into
 * another port keeps its game). Two boards with one id are refused: their
 * games would share a folder. On any failure the boards already opened are
 * closed again.
 */
export async function openBoardSources(specs: readonly string[], opts: OpenManyOptions = {}): Promise<OpenedSource[]> {
  const opened: OpenedSource[] = [];
  let sims = 0;
  const addSim = async (seed?: number, name?: string) => {
    sims++;
    const { SimBoard } = await import('./sim/board.ts');
    const source = new SimBoard({ clock: 'real', seed: seed ?? sims, startPosition: true, id: name ?? `SIM-${sims}` });
    opened.push({ source, identity: await source.open() });
  };
  try {
    for (const spec of specs) {
      const s = unwrap(parseBoardSpec(spec));
      if (s.kind === 'sim') await addSim(s.seed, s.name);
      else if (s.kind === 'serial') await openSerial(s.path, spec === 'auto' ? 'all' : 'one', opened, opts);
      else opened.push(await openBoardSource(spec));
    }
    for (let i = 0; i < (opts.simBoards ?? DEFAULTS.simBoards); i++) await addSim();
    for (const source of opts.sources ?? []) opened.push({ source, identity: await source.open() });
    if (opened.length === 0) {
      if (specs.length === 1 && specs[0] === 'auto') return [await openBoardSource('auto')];
      throw new BoardNotFoundError(['no board was asked for']);
    }
    const seen = new Map<string, number>();
    opened.forEach((o, i) => {
      const j = seen.get(o.identity.id);
      if (j !== undefined)
        throw new BoardSpecError(
          `boards ${j + 1} and ${i + 1} both say they are board ${o.identity.id}: give one a new id (crownhead doctor)`,
        );
      seen.set(o.identity.id, i);
    });
    return opened;
  } catch (e) {
    await Promise.all(opened.map((o) => o.source.close().catch(() => undefined)));
    throw e;
  }
}

/** One serial board at `path`, or with "auto" every board found (none found is not an error when other boards are asked for). */
async function openSerial(path: string | undefined, which: 'one' | 'all', opened: OpenedSource[], opts: OpenManyOptions): Promise<void> {
  const { SerialBoardSource } = await import('./serial.ts');
  const base = { ...opts.serial, binding: opts.binding, sameBoard: true };
  if (which === 'one') {
    const source = new SerialBoardSource({ ...base, path });
    opened.push({ source, identity: await source.open() });
    return;
  }
  const { findBoards } = await import('./detect.ts');
  const held = () => opened.flatMap((o) => (o.source.path ? [o.source.path] : []));
  const { SerialPort } = await import('serialport');
  const { found } = await findBoards(opts.binding ?? SerialPort.binding, { ...opts.serial, skip: held });
  for (const f of found) {
    const source = new SerialBoardSource({ ...base, path: undefined, opened: f });
    opened.push({ source, identity: await source.open() });
  }
}
