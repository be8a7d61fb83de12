// The doctor's first question: where is the board, and if it cannot be
// opened, why not — in words a builder can act on. Each candidate serial port
// gets the ordinary identity handshake; one that fails is opened raw and
// listened to, and what it says tells the story: nothing at all, the bytes
// of a Firmata sketch, bytes that are not text (a sketch at another baud
// rate), text that is not ours (another sketch or device), the open refused
// for permission (the dialout group) or because another program holds it.

import { SerialPort } from 'serialport';
import { BAUD_RATE, type LinePort, type SerialBinding } from '../sensors/line-port.ts';
import { handshake, listPorts, rankPorts, type HandshakeOptions } from '../sensors/detect.ts';
import { makeHostCommand, type BoardIdentity } from '../sensors/protocol.ts';

/** What each option is when it is not given. */
const DEFAULTS = { listenMs: 2500 } as const;

export type PortProblem = 'permission' | 'busy' | 'missing' | 'firmata' | 'wrong-baud' | 'other-device' | 'silent' | 'open-failed';

export interface PortCheck {
  path: string;
  problem: PortProblem | null;
  /** what was found, one sentence */
  message: string;
  /** what to do about it (empty when nothing is wrong) */
  fix: string;
}

export interface FindResult {
  found: { port: LinePort; identity: BoardIdentity; path: string } | null;
  checks: PortCheck[];
  /** when no port could even be tried: why, and what to do */
  none?: { message: string; fix: string };
}

export interface FindOptions extends HandshakeOptions {
  /** try only this port */
  path?: string;
  /** how long to listen to a port that did not answer the handshake, ms (default 2500) */
  listenMs?: number;
  /** other baud rates to listen at when the bytes are not text */
  otherBauds?: readonly number[];
}

const FIRMATA_VERSION = 0xf9;
const SYSEX = 0xf0;
const FIRMATA_FIRMWARE = 0x79;

export async function findForDoctor(binding: SerialBinding, o: FindOptions = {}): Promise<FindResult> {
  let paths: string[];
  if (o.path) paths = [o.path];
  else {
    const { ports, error } = await listPorts(binding);
    paths = rankPorts(ports).map((p) => p.path);
    if (!paths.length) {
      return {
        found: null,
        checks: [],
        none: {
          message: error
            ? `The serial ports cannot be listed (${error}).`
            : ports.length
              ? `None of the ${ports.length} serial port(s) is a USB serial device.`
              : 'No serial device is connected.',
          fix: 'Plug the board in with a USB cable that carries data (some carry only power), then run `crownhead doctor` again; `ls /dev/ttyACM* /dev/ttyUSB*` should then list it. Or name the port: `crownhead doctor --board serial:/dev/ttyACM0`.',
        },
      };
    }
  }
  const checks: PortCheck[] = [];
  for (const path of paths) {
    try {
      const { port, identity } = await handshake(binding, path, o);
      checks.push({
        path,
        problem: null,
        message: `${path}: a Crownhead board, id ${identity.id}, firmware ${identity.fw}, protocol ${identity.proto}.`,
        fix: '',
      });
      return { found: { port, identity, path }, checks };
    } catch (err) {
      checks.push(await diagnose(binding, path, (err as Error).message, o));
    }
  }
  return { found: null, checks };
}

/** Why the handshake failed on `path`. */
async function diagnose(binding: SerialBinding, path: string, why: string, o: FindOptions): Promise<PortCheck> {
  const refused = openProblem(path, why);
  if (refused) return refused;
  const heard = await listen(binding, path, BAUD_RATE, o.listenMs ?? DEFAULTS.listenMs);
  if (typeof heard === 'string')
    return (
      openProblem(path, heard) ?? {
        path,
        problem: 'open-failed',
        message: `${path}: cannot be opened (${heard}).`,
        fix: 'Check the cable and the port name.',
      }
    );
  if (isFirmata(heard)) {
    return {
      path,
      problem: 'firmata',
      message: `${path}: an Arduino running a Firmata sketch (StandardFirmata), not Crownhead's firmware.`,
      fix: `Either use it as it is with \`crownhead serve --board firmata:${path}\`, or upload Crownhead's firmware: \`make -C firmware flash PORT=${path}\`.`,
    };
  }
  if (heard.length === 0) {
    return {
      path,
      problem: 'silent',
      message: `${path}: opened, but the device sent nothing, even when asked who it is.`,
      fix: `If it is the board, its firmware is missing or did not start: upload it with \`make -C firmware flash PORT=${path}\` and press reset. A board without an auto-reset may need \`--reset-delay 0\`.`,
    };
  }
  if (printable(heard) < 0.8) {
    for (const baud of o.otherBauds ?? [9600, 57600]) {
      const at = await listen(binding, path, baud, o.listenMs ?? DEFAULTS.listenMs);
      if (typeof at !== 'string' && at.length && printable(at) >= 0.8) {
        return {
          path,
          problem: 'wrong-baud',
          message: `${path}: sends text at ${baud} baud, not at Crownhead's ${BAUD_RATE}: another sketch, or our firmware built with another speed (it says "${firstLine(at)}").`,
          fix: `Upload Crownhead's firmware: \`make -C firmware flash PORT=${path}\` (it talks at ${BAUD_RATE} baud).`,
        };
      }
    }
    return {
      path,
      problem: 'wrong-baud',
      message: `${path}: sends bytes that are not text at ${BAUD_RATE} baud (${heard.length} bytes heard): a device or sketch at another speed.`,
      fix: `If this is the board, upload Crownhead's firmware: \`make -C firmware flash PORT=${path}\`.`,
    };
  }
  return {
    path,
    problem: 'other-device',
    message: `${path}: another device or sketch; it says "${firstLine(heard)}", not Crownhead's identity.`,
    fix: `If this is the board, upload Crownhead's firmware: \`make -C firmware flash PORT=${path}\`. Otherwise plug the board in and name its port with --board.`,
  };
}

function openProblem(path: string, why: string): PortCheck | null {
  if (/permission denied|EACCES|access denied/i.test(why)) {
    return {
      path,
      problem: 'permission',
      message: `${path}: you are not allowed to open it (permission denied).`,
      fix: 'On Linux, serial ports belong to the dialout group: `sudo usermod -aG dialout $USER`, then log out and back in (or run `newgrp dialout` in this terminal).',
    };
  }
  if (/cannot lock|resource temporarily unavailable|EBUSY|busy/i.test(why)) {
    return {
      path,
      problem: 'busy',
      message: `${path}: another program has it open.`,
      fix: `Close the other program (the Arduino IDE's serial monitor, another \`crownhead serve\`, a terminal program); \`fuser ${path}\` shows which process holds it.`,
    };
  }
  if (/no such file|ENOENT|not found/i.test(why)) {
    return {
      path,
      problem: 'missing',
      message: `${path}: there is no such port.`,
      fix: 'Check the name (`ls /dev/ttyACM* /dev/ttyUSB*`), or leave --board out to search every port.',
    };
  }
  return null;
}

/** Open raw at `baud`, ask who it is, and collect what comes back; a string is the open's error. */
function listen(binding: SerialBinding, path: string, baud: number, ms: number): Promise<Buffer | string> {
  return new Promise((resolve) => {
    // library edge: serialport's options type names only its native binding; the mock binding is the same shape
    const opts = { path, baudRate: baud, autoOpen: false, binding } as unknown as ConstructorParameters<typeof SerialPort>[0];
    const port = new SerialPort(opts);
    const chunks: Buffer[] = [];
    port.on('data', (d: Buffer) => chunks.push(d));
    port.on('error', () => {});
    port.open((err) => {
      if (err) return resolve(err.message);
      port.write(makeHostCommand({ type: 'identify' }) + '\n');
      setTimeout(() => port.close(() => resolve(Buffer.concat(chunks))), ms);
    });
  });
}

function isFirmata(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    if (b[i] === FIRMATA_VERSION && i + 2 < b.length && b[i + 1] < 10) return true;
    if (b[i] === SYSEX && b[i + 1] === FIRMATA_FIRMWARE) return true;
  }
  return false;
}

const printable = (b: Buffer): number =>
  b.length ? [...b].filter((c) => (c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09).length / b.length : 1;
const firstLine = (b: Buffer): string =>
  b
    .toString('latin1')
    .split(/\r?\n/)
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 60) ?? '';
