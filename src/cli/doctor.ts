// `crownhead doctor`: the first thing a builder runs. Finds the board (or says
// why not and what to do), checks the handshake and firmware, then walks the
// builder through the sensor check (src/doctor/) and ends with a verdict and a
// saved report to attach to a bug report. On the simulated board and the
// emulator a simulated hand does what the builder would. Owns the command's
// help, and says in one line, never a stack trace, why a board cannot be opened
// (an emulator not built yet: the command that builds it).

import { existsSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parse, UsageError, wholeNumber } from './args.ts';
import type { Io } from './io.ts';
import { DOCTOR_USAGE } from './usage.ts';
import type { BoardSource } from '../sensors/source.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import { runDoctor, type DoctorHand, type DoctorRun } from '../doctor/run.ts';
import { formatReport } from '../doctor/report.ts';
import { interrupted, runLive } from './doctor-live.ts';
import { DOCTOR_SENSORS, type DoctorSensor } from '../doctor/sensor.ts';
import { attempt, type Result, unwrap } from '../common/result.ts';

const OPTIONS = {
  board: { type: 'string' },
  squares: { type: 'string' },
  'step-timeout': { type: 'string' },
  report: { type: 'string' },
  live: { type: 'boolean' },
  coins: { type: 'string' },
  sensor: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every flag `crownhead doctor` takes (the help names each: test/doctor/cli.test.ts). */
export const DOCTOR_FLAGS = Object.keys(OPTIONS).map((k) => `--${k}`);

/** The builder is told this before the first step: the sensors' zero levels drift as the closed carrier warms (≈ 1 W). */
export const WARM_UP =
  'Warm up 10 minutes before calibrating: switch the board on with its tiles in place and wait (the sensors’ zero levels drift about 0.3–0.5 count per °C while the carrier warms).';

export const DOCTOR_HELP = `${DOCTOR_USAGE}

The first thing to run on a board you built (hardware/README.md, "Assembly"):
it finds the board, checks every sensor and the magnets with a coin, and names
each fault it finds with what to do.

Warm up 10 minutes before calibrating: switch the board on with its tiles in
place and wait (the sensors' zero levels drift about 0.3–0.5 count per °C
while the carrier warms), then run the check.

Steps (it moves on by itself when the readings settle on what it asked for):
  1. Finds the board on the serial ports (or the one --board names), or says
     why not (no port, permissions, busy, other firmware) and what to do;
     checks the handshake and the firmware's protocol.
  2. The empty board: take every coin off. Each sensor's zero level and noise.
  3. A coin on each square in turn (--squares), magnet side down, then lifted:
     which squares answered and by how much. A square where nothing changes
     is passed after --step-timeout.
  4. On the first good square: a second coin on top (a king) and off again;
     the coin turned over (magnet up) and lifted. The magnet size the readings
     fit, and whether a king 3 mm off-centre still reads above a centred man.
  5. With --coins N: every coin of the set on that square in turn, each
     lifted and set apart before the next (number them with a pencil).
  6. The verdict: dead, reversed, noisy or offset sensors, select lines
     swapped, stuck or shorted, output wires crossed or open, a settling
     ghost, outputs at the end of their range, weak magnets, a thin king
     margin; a weak, reversed or unmagnetised coin (by its number); a table
     of every square; the report saved.

Flags:
  --board SPEC        auto (default: search the serial ports), serial[:PATH], a
                      port (/dev/ttyUSB0, COM3), sim[:SEED] (the simulated
                      board), emulator (the firmware in simavr; build it first
                      with make -C firmware emulator). On sim and emulator a
                      simulated hand does each step.
  --squares LIST      the squares to try a coin on, e.g. 1-4,9,32 (default 1-32)
  --step-timeout T    how long to wait for a step before moving on, e.g. 20s,
                      500ms (default 20s)
  --report FILE       where to save the report (default
                      crownhead-doctor-ID-DATE.txt in this folder)
  --coins N           after the king test, check each of N coins (2–48: the
                      24 of a set, 36 with a coded set's spare crowns) on one
                      square: names a coin well below the others (weak or
                      glued proud), one reading below empty (magnet upside
                      down) and one with no magnet. On a polarity-coded set
                      run it once per colour
  --sensor PART       the Hall sensors fitted: SS49E, DRV5055A3, or auto
                      (default: told from the readings — a DRV5055A3's zero
                      levels sit close together at 2.5 V and a coin moves it
                      about 1.8 × as far); the zero range, the output ceiling
                      (SS49E 4.0 V guaranteed, DRV5055A3 4.6 V) and the magnet
                      fit follow it
  --live              instead of the check: every sensor's reading as a
                      decimal grid laid out as the board (square numbers
                      beside values), updated in place until Ctrl-C; the
                      squares that moved are named under it. Works over SSH;
                      piped, it prints one grid a second (Assembly, step 6)
  -h, --help          this help

Exit status: 0 the board is good (warnings included), 1 faults or no board,
2 a wrong flag.

Examples:
  npx crownhead doctor --squares 1-8 --report first-rows.txt
      the first two rows of a board on any serial port, report saved to
      first-rows.txt
  npx crownhead doctor --live --board /dev/ttyUSB0
      watch every sensor while you hold a coin over each square`;

/** "1-4,9,32" → [1, 2, 3, 4, 9, 32], or the UsageError naming the part that is not a square. */
export const parseSquares = (text: string): Result<number[], UsageError> => attempt(UsageError, () => readSquares(text));

function readSquares(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!m) throw new UsageError(`--squares: "${part}" is not a square or a range (e.g. 1-4,9,32)`);
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (a < 1 || b > 32 || a > b) throw new UsageError(`--squares: ${part} is outside 1–32`);
    for (let s = a; s <= b; s++) if (!out.includes(s)) out.push(s);
  }
  return out;
}

function seconds(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag}: "${text}" is not a duration (e.g. 20s)`);
  return Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
}

interface Opened {
  source: BoardSource;
  hand?: DoctorHand;
  identity: BoardIdentity;
}

/** Opens the board the flags name; null (after saying why) if there is none to open. */
async function openBoard(spec: string, io: Io): Promise<Opened | null> {
  const [scheme, arg = ''] = [spec.split(':')[0], spec.split(':').slice(1).join(':')];
  if (scheme === 'sim') {
    const seed = arg ? Number(arg) : 1;
    if (!Number.isInteger(seed)) throw new UsageError(`--board: sim seed "${arg}" is not an integer`);
    const { SimBoard } = await import('../sensors/sim/board.ts');
    const sim = new SimBoard({ clock: 'real', seed });
    io.out('The simulated board (its simulated hand does what is asked).');
    return { source: sim, hand: sim, identity: await sim.open() };
  }
  if (scheme === 'emulator') {
    const { EmulatorBoardSource, EMULATOR_BIN, FIRMWARE_ELF } = await import('../sensors/emulator.ts');
    const missing = [EMULATOR_BIN, FIRMWARE_ELF].filter((f) => !existsSync(f));
    if (missing.length) {
      const firmware = resolve(EMULATOR_BIN, '../..');
      io.err(
        `crownhead doctor: the emulator is not built (no ${missing.map((f) => relative(process.cwd(), f)).join(' or ')}): run \`make -C ${relative(process.cwd(), firmware) || '.'} emulator\` first (needs gcc-avr, simavr and libsimavr-dev).`,
      );
      return null;
    }
    const emu = new EmulatorBoardSource();
    io.out('The emulated firmware (simavr; its simulated hand does what is asked).');
    return { source: emu, hand: emu, identity: await emu.open() };
  }
  if (scheme !== 'auto' && scheme !== 'serial' && !spec.startsWith('/') && !/^COM\d+$/i.test(spec)) {
    throw new UsageError(`--board: unknown board "${spec}" (auto, serial[:PATH], sim[:SEED], emulator)`);
  }
  const path = scheme === 'auto' ? undefined : scheme === 'serial' ? arg || undefined : spec;
  const { SerialPort } = await import('serialport');
  const { findForDoctor } = await import('../doctor/find.ts');
  io.out(path ? `Looking at ${path}…` : 'Looking for the board on the serial ports…');
  const found = await findForDoctor(SerialPort.binding, { path });
  for (const c of found.checks) io.out(`  ${c.message}${c.fix ? `\n    → ${c.fix}` : ''}`);
  if (!found.found) {
    if (found.none) io.out(`  ${found.none.message}\n    → ${found.none.fix}`);
    io.out('No Crownhead board found.');
    return null;
  }
  await found.found.port.close();
  const { SerialBoardSource } = await import('../sensors/serial.ts');
  const source = new SerialBoardSource({ path: found.found.path });
  return { source, identity: await source.open() };
}

export async function doctorCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, OPTIONS, DOCTOR_USAGE);
  if (values.help) {
    io.out(DOCTOR_HELP);
    return 0;
  }
  const squares = values.squares ? unwrap(parseSquares(values.squares)) : undefined;
  const stepTimeoutMs = values['step-timeout'] ? seconds(values['step-timeout'], '--step-timeout') : undefined;
  const coins = values.coins === undefined ? undefined : wholeNumber(values.coins, '--coins', 2, 48);
  const sensorFlag = values.sensor ?? 'auto';
  const sensor = [...DOCTOR_SENSORS, 'auto'].find((k) => k.toLowerCase() === sensorFlag.toLowerCase()) as DoctorSensor | 'auto' | undefined;
  if (!sensor) throw new UsageError(`--sensor: unknown sensor "${sensorFlag}" (${DOCTOR_SENSORS.join(', ')} or auto)`);
  if (coins !== undefined && values.live)
    throw new UsageError('--coins and --live: the live grid runs instead of the check, so take one of them');
  let board: Opened | null;
  try {
    board = await openBoard(values.board ?? 'auto', io);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    io.err(`crownhead doctor: cannot open the board: ${(e as Error).message}`);
    return 1;
  }
  if (!board) return 1;
  const { source, hand, identity } = board;
  io.out(
    `Board ${identity.id}: firmware ${identity.fw}, protocol ${identity.proto}${identity.proto === 1 ? '' : ' (this Crownhead speaks protocol 1: update the firmware)'}.`,
  );
  if (values.live) {
    const signals = interrupted();
    try {
      await runLive({ source, io, stop: signals.stop, id: identity.id });
    } finally {
      signals.dispose();
      await source.close();
    }
    return 0;
  }
  io.out(WARM_UP);
  let run: DoctorRun;
  try {
    run = await runDoctor({ source, hand, squares, stepTimeoutMs, coins, sensor, say: (l) => io.out(`▶ ${l}`) });
  } finally {
    await source.close();
  }
  const text = formatReport(identity, run, new Date());
  io.out('');
  io.out(text);
  const file = resolve(values.report ?? `crownhead-doctor-${identity.id.replace(/[^\w.-]/g, '_')}-${stamp(new Date())}.txt`);
  try {
    writeFileSync(file, text + '\n');
    io.out(`Report saved to ${file} (attach it to a bug report).`);
  } catch (e) {
    io.err(`crownhead doctor: cannot save the report to ${file}: ${(e as Error).message}`);
  }
  return run.verdict.verdict === 'faults' ? 1 : 0;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
