// Finding the board, and saying why not: real pseudo-terminals that are not
// Crownhead boards (another sketch's text, StandardFirmata's bytes, binary at
// the wrong speed, a device that says nothing), a port another program holds,
// a missing port, and — through the mock binding, since root may open
// anything — permission refused and no device at all.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SerialPort, SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { findForDoctor } from '../../src/doctor/find.ts';
import type { SerialBinding } from '../../src/sensors/line-port.ts';

const SCRIPT = fileURLToPath(new URL('./fake-tty.py', import.meta.url));
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
});

async function fakeTty(kind: 'text' | 'firmata' | 'binary' | 'silent'): Promise<string> {
  const p = spawn('python3', [SCRIPT, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  procs.push(p);
  const line = await new Promise<string>((resolve) => createInterface({ input: p.stdout! }).once('line', resolve));
  return line.trim();
}

// listening 1.5 s: the fake device writes every 0.2 s, so even a loaded machine hears it several times
const quick = { resetDelayMs: 0, timeoutMs: 600, listenMs: 1500, otherBauds: [] };

describe('crownhead doctor: finding the board', () => {
  it('names a device that talks but is not Crownhead, quoting it', async () => {
    const path = await fakeTty('text');
    const r = await findForDoctor(SerialPort.binding, { ...quick, path });
    expect(r.found).toBeNull();
    expect(r.checks[0]).toMatchObject({ path, problem: 'other-device' });
    expect(r.checks[0].message).toContain('Temperature 21.5 C');
    expect(r.checks[0].fix).toContain(`make -C firmware flash PORT=${path}`);
  });

  it('recognises StandardFirmata and offers both ways on', async () => {
    const path = await fakeTty('firmata');
    const r = await findForDoctor(SerialPort.binding, { ...quick, path });
    expect(r.checks[0].problem).toBe('firmata');
    expect(r.checks[0].fix).toContain(`--board firmata:${path}`);
  });

  it('says bytes that are not text mean another speed', async () => {
    const path = await fakeTty('binary');
    const r = await findForDoctor(SerialPort.binding, { ...quick, path });
    expect(r.checks[0].problem).toBe('wrong-baud');
  });

  it('says a silent device has no firmware running', async () => {
    const path = await fakeTty('silent');
    const r = await findForDoctor(SerialPort.binding, { ...quick, path });
    expect(r.checks[0].problem).toBe('silent');
  });

  it('says when another program holds the port, and when there is no such port', async () => {
    const path = await fakeTty('text');
    const holder = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    await new Promise<void>((res, rej) => holder.open((e) => (e ? rej(e) : res())));
    try {
      const r = await findForDoctor(SerialPort.binding, { ...quick, path });
      expect(r.checks[0].problem).toBe('busy');
      expect(r.checks[0].fix).toContain(`fuser ${path}`);
    } finally {
      await new Promise((res) => holder.close(res));
    }
    const gone = await findForDoctor(SerialPort.binding, { ...quick, path: '/dev/ttyCROWNHEAD-none' });
    expect(gone.checks[0].problem).toBe('missing');
  });

  it('explains permission refused (the dialout group) and no device at all', async () => {
    SerialPortMock.binding.reset();
    SerialPortMock.binding.createPort('/dev/ttyACM0', { vendorId: '2341' });
    const refusing = {
      list: () => SerialPortMock.binding.list(),
      open: async () => {
        throw new Error('Error: Permission denied, cannot open /dev/ttyACM0');
      },
    } as unknown as SerialBinding;
    const r = await findForDoctor(refusing, quick);
    expect(r.checks[0]).toMatchObject({ path: '/dev/ttyACM0', problem: 'permission' });
    expect(r.checks[0].fix).toContain('usermod -aG dialout');
    SerialPortMock.binding.reset();
    const none = await findForDoctor(SerialPortMock.binding, quick);
    expect(none.found).toBeNull();
    expect(none.none?.message).toBe('No serial device is connected.');
  });
});
