// vitest globalSetup (both tiers): before any test file loads, check the
// system tools the firmware, emulator and browser tests need, and fail once
// with a message naming what is missing and the exact line that installs it
// (instead of a scatter of assertion errors). Also rebuilds dist/ when a source
// is newer, so tests that spawn `crownhead` run what users run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

interface Need {
  what: string;
  ok: () => boolean;
  pkg: string;
}

const onPath = (cmd: string) => () => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

export const NEEDS: Need[] = [
  { what: 'make', ok: onPath('make'), pkg: 'make' },
  { what: 'a host C++ compiler (g++)', ok: onPath('g++'), pkg: 'g++' },
  { what: 'avr-g++ (AVR compiler)', ok: onPath('avr-g++'), pkg: 'gcc-avr' },
  { what: 'avr-libc headers', ok: () => existsSync('/usr/lib/avr/include/avr/io.h'), pkg: 'avr-libc' },
  {
    what: 'the Arduino AVR core',
    ok: () => existsSync('/usr/share/arduino/hardware/arduino/avr/cores/arduino/Arduino.h'),
    pkg: 'arduino-core-avr',
  },
  { what: 'simavr headers and library', ok: () => existsSync('/usr/include/simavr/sim_avr.h'), pkg: 'libsimavr-dev' },
  { what: 'simavr', ok: onPath('simavr'), pkg: 'simavr' },
  { what: 'Chromium (/usr/bin/chromium)', ok: () => existsSync('/usr/bin/chromium'), pkg: 'chromium' },
  // (the pseudo-terminal devices of the doctor's and club mode's serial tests: test/doctor/fake-tty.py, test/server/pty-board.py)
  { what: 'Python 3 (pseudo-terminal test devices)', ok: onPath('python3'), pkg: 'python3' },
  // (the stations' tests run a real Mosquitto broker on a free loopback port, beside the embedded aedes)
  { what: 'Mosquitto (/usr/sbin/mosquitto, MQTT broker)', ok: () => existsSync('/usr/sbin/mosquitto'), pkg: 'mosquitto' },
  // (test/hardware/print.test.ts renders the printable PDFs to measure their scale bar in pixels)
  { what: 'pdftoppm (renders PDFs)', ok: onPath('pdftoppm'), pkg: 'poppler-utils' },
  { what: 'openssl (the TLS tests make their CA and certificates)', ok: onPath('openssl'), pkg: 'openssl' },
];

/** What is missing, as one message with the line that installs it; null when nothing is. */
export function preflightProblem(needs: Need[] = NEEDS): string | null {
  const missing = needs.filter((n) => !n.ok());
  if (!missing.length) return null;
  const pkgs = [...new Set(missing.map((n) => n.pkg))].join(' ');
  return (
    `The tests need system tools this machine lacks: ${missing.map((n) => n.what).join(', ')}.\n` +
    `Install them with:\n  sudo apt-get install -y --no-install-recommends ${pkgs}\n` +
    `(or run "bash .ci/run", which installs them and the npm packages, then runs the tests).`
  );
}

export default function setup(): void {
  const problem = preflightProblem();
  if (problem) throw new Error(problem);
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/build.js'), '--if-stale'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
}
