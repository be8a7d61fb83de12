// `crownhead doctor`: the first thing a builder runs. Finds the board (or says
// why not and what to do), checks the handshake and firmware, then walks the
// builder through the sensor check (src/doctor/) and ends with a verdict and a
// saved report to attach to a bug report. On the simulated board and the
// emulator a simulated hand does what the builder would.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse, UsageError } from './args.ts';
import type { Io } from './io.ts';
import { DOCTOR_USAGE } from './usage.ts';
import type { BoardSource } from '../sensors/source.ts';
import type { BoardIdentity } from '../sensors/protocol.ts';
import { runDoctor, type DoctorHand, type DoctorRun } from '../doctor/run.ts';
import { formatReport } from '../doctor/report.ts';

const OPTIONS = {
  board: { type: 'string' },
  squares: { type: 'string' },
  'step-timeout': { type: 'string' },
  report: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** "1-4,9,32" → [1, 2, 3, 4, 9, 32]. */
export function parseSquares(text: string): number[] {
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
    const { EmulatorBoardSource } = await import('../sensors/emulator.ts');
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
    io.out(DOCTOR_USAGE);
    return 0;
  }
  const squares = values.squares ? parseSquares(values.squares) : undefined;
  const stepTimeoutMs = values['step-timeout'] ? seconds(values['step-timeout'], '--step-timeout') : undefined;
  const board = await openBoard(values.board ?? 'auto', io);
  if (!board) return 1;
  const { source, hand, identity } = board;
  io.out(
    `Board ${identity.id}: firmware ${identity.fw}, protocol ${identity.proto}${identity.proto === 1 ? '' : ' (this Crownhead speaks protocol 1: update the firmware)'}.`,
  );
  let run: DoctorRun;
  try {
    run = await runDoctor({ source, hand, squares, stepTimeoutMs, say: (l) => io.out(`▶ ${l}`) });
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
