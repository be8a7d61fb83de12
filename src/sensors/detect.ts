// Finding a Crownhead board: rank the serial ports the OS lists (Arduino and
// USB-serial vendor ids first), and run the identity handshake on each —
// open, wait out the Arduino's auto-reset, send `?`, accept only a port whose
// first good `I` line says CROWNHEAD proto=1. A port that is anything else is
// closed again untouched. Survives SerialPort.list() failing (no udev).

import { LinePort, type PortInfo, type SerialBinding } from './line-port.ts';
import { makeHostCommand, parseBoardLine, type BoardIdentity } from './protocol.ts';
import { BoardNotFoundError } from './source.ts';
import { CrownheadError } from '../common/errors.ts';

export { BoardNotFoundError };

export interface HandshakeOptions {
  baudRate?: number;
  /** wait after opening, for the Arduino's auto-reset bootloader (default 1800 ms; 0 in tests) */
  resetDelayMs?: number;
  /** give up when no identity arrived this long after `?` (default 2500 ms) */
  timeoutMs?: number;
}

export const DEFAULT_RESET_DELAY_MS = 1800;
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 2500;

/** Vendor ids of Arduinos and the usual USB-serial chips, most likely first. */
export const BOARD_VENDOR_IDS: Readonly<Record<string, string>> = {
  '2341': 'Arduino',
  '2a03': 'Arduino (.org)',
  '1a86': 'CH340',
  '0403': 'FTDI',
  '10c4': 'CP210x',
};
const USB_SERIAL_PATH = /ttyACM|ttyUSB|usbmodem|usbserial|wchusbserial|^COM\d+$/i;

export class HandshakeError extends CrownheadError<'handshake'> {
  override readonly name = 'HandshakeError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('handshake', `${path}: ${message}`);
  }
}

/**
 * Open `path` and make sure a Crownhead board speaking proto=1 answers.
 * Resolves with the open port (lines after the identity are kept for the
 * caller) or rejects with a HandshakeError, having closed the port.
 */
export async function handshake(
  binding: SerialBinding,
  path: string,
  opts: HandshakeOptions = {},
): Promise<{ port: LinePort; identity: BoardIdentity }> {
  let port: LinePort;
  try {
    port = await LinePort.open(binding, path, opts.baudRate);
  } catch (err) {
    throw new HandshakeError(path, (err as Error).message);
  }
  const resetDelay = opts.resetDelayMs ?? DEFAULT_RESET_DELAY_MS;
  const timeout = opts.timeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  try {
    const identity = await new Promise<BoardIdentity>((resolve, reject) => {
      const timers: ReturnType<typeof setTimeout>[] = [];
      let lines = 0;
      const done = (err: Error | null, id?: BoardIdentity) => {
        timers.forEach(clearTimeout);
        port.onLine(null);
        if (err) reject(err);
        else resolve(id!);
      };
      port.onClose((reason) => done(new HandshakeError(path, `closed during handshake (${reason})`)));
      port.onLine((line) => {
        lines++;
        const r = parseBoardLine(line);
        if (r.ok && r.value.type === 'identity') done(null, r.value);
        else if (!r.ok && r.error.reason === 'version')
          done(new HandshakeError(path, `not a Crownhead proto=1 board (${r.error.message})`));
      });
      // the board announces itself at boot; ask anyway once the reset is over, and again halfway
      timers.push(setTimeout(() => void port.write(makeHostCommand({ type: 'identify' })), resetDelay));
      timers.push(setTimeout(() => void port.write(makeHostCommand({ type: 'identify' })), resetDelay + timeout / 2));
      timers.push(
        setTimeout(
          () => done(new HandshakeError(path, `no Crownhead identity within ${timeout} ms (${lines} other line(s) seen)`)),
          resetDelay + timeout,
        ),
      );
    });
    return { port, identity };
  } catch (err) {
    await port.close();
    throw err;
  }
}

/** Ports worth trying, best first: known vendor ids, then other USB serial devices. Others are left alone. */
export function rankPorts(ports: readonly PortInfo[]): PortInfo[] {
  const known = Object.keys(BOARD_VENDOR_IDS);
  const score = (p: PortInfo) => {
    const vid = p.vendorId?.toLowerCase();
    const k = vid ? known.indexOf(vid) : -1;
    if (k >= 0) return k;
    if (vid || USB_SERIAL_PATH.test(p.path)) return known.length;
    return -1;
  };
  return ports
    .map((p) => ({ p, s: score(p) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s)
    .map((x) => x.p);
}

/** List ports; a failing list (e.g. `spawn udevadm ENOENT` without udev) yields [] and the reason. */
export async function listPorts(binding: SerialBinding): Promise<{ ports: PortInfo[]; error?: string }> {
  try {
    return { ports: await binding.list() };
  } catch (err) {
    return { ports: [], error: `cannot list serial ports (${(err as Error).message})` };
  }
}

/** Which board to look for: `prefer` a port first, only the board whose id is `id`, never the ports `skip` names (held by this process). */
export interface FindOptions extends HandshakeOptions {
  prefer?: string;
  id?: string;
  skip?: () => Iterable<string>;
}

/** The ranked ports to try, `prefer` first, without the skipped ones; and the reasons already known. */
async function candidates(binding: SerialBinding, opts: FindOptions): Promise<{ ranked: PortInfo[]; tried: string[] }> {
  const { ports, error } = await listPorts(binding);
  const tried: string[] = error ? [error] : [];
  const skip = new Set(opts.skip?.() ?? []);
  const ranked = rankPorts(ports).filter((p) => !skip.has(p.path));
  if (opts.prefer) {
    const i = ranked.findIndex((p) => p.path === opts.prefer);
    if (i > 0) ranked.unshift(...ranked.splice(i, 1));
  }
  if (!ranked.length && !error)
    tried.push(ports.length ? `none of ${ports.length} serial port(s) is a free USB serial device` : 'no serial ports');
  return { ranked, tried };
}

/** The handshake, and when a particular board is wanted, a board with another id closed again and refused. */
async function handshakeFor(binding: SerialBinding, path: string, opts: FindOptions): Promise<{ port: LinePort; identity: BoardIdentity }> {
  const found = await handshake(binding, path, opts);
  if (opts.id === undefined || found.identity.id === opts.id) return found;
  await found.port.close();
  throw new HandshakeError(path, `board ${found.identity.id} is there, not board ${opts.id}`);
}

/**
 * Find a Crownhead board: try each ranked port (`prefer` first) with the
 * handshake; with `id`, only that board. Rejects with BoardNotFoundError
 * saying what was tried and why each failed.
 */
export async function findBoard(binding: SerialBinding, opts: FindOptions = {}): Promise<{ port: LinePort; identity: BoardIdentity }> {
  const { ranked, tried } = await candidates(binding, opts);
  for (const p of ranked) {
    try {
      return await handshakeFor(binding, p.path, opts);
    } catch (err) {
      tried.push((err as Error).message);
    }
  }
  throw new BoardNotFoundError(tried);
}

/**
 * Every Crownhead board on USB (club mode's `--board auto`): the handshake on
 * every ranked port at once (each waits out its own Arduino reset), the
 * boards found in port order, and why each other port was not one.
 */
export async function findBoards(
  binding: SerialBinding,
  opts: FindOptions = {},
): Promise<{ found: { port: LinePort; identity: BoardIdentity }[]; tried: string[] }> {
  const { ranked, tried } = await candidates(binding, opts);
  const results = await Promise.allSettled(ranked.map((p) => handshakeFor(binding, p.path, opts)));
  const found: { port: LinePort; identity: BoardIdentity }[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') found.push(r.value);
    else tried.push((r.reason as Error).message);
  }
  return { found, tried };
}
