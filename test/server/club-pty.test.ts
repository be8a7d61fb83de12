// Club mode on real serial I/O: two Crownhead boards on
// pseudo-terminals (pty-board.py: the handshake and 100 frames a second),
// opened by serialport's native binding. One board is unplugged (its process
// killed: the pty goes away) while the other plays on; plugged back on a new
// pty it is found by its id and its room keeps its game. (The kernel lists no
// ptys as serial ports, so the test hands the binding the list of the ptys
// that exist, as udev would list USB ports; the I/O is the real one.)

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import { startService, type Service } from '../../src/server/service.ts';
import type { SerialBinding } from '../../src/sensors/line-port.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { until } from '../harness/mock-board.ts';

const boards: ChildProcess[] = [];
let service: Service | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
  for (const b of boards.splice(0)) b.kill('SIGKILL');
  removeTempDirs();
});

/** A board on a new pty: resolves with its path once it is listening. */
function plugIn(id: string): Promise<{ path: string; child: ChildProcess }> {
  const child = spawn('python3', [join(import.meta.dirname, 'pty-board.py'), id], { stdio: ['ignore', 'pipe', 'inherit'] });
  boards.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (path) => resolve({ path: path.trim(), child }));
    child.once('exit', (code) => reject(new Error(`pty board ${id} exited (${code})`)));
  });
}

describe('club mode on pseudo-terminals', () => {
  it('a board unplugged and plugged back on another pty keeps its game; the other board plays on', async () => {
    const a = await plugIn('PTY-A');
    let b = await plugIn('PTY-B');
    const live = new Set([a.path, b.path]);
    const native = SerialPort.binding;
    const binding = {
      list: async () => [...live].map((path) => ({ path, manufacturer: 'test pty', vendorId: '2341', productId: '0043' })),
      open: native.open.bind(native),
    } as unknown as SerialBinding; // a binding is list + open; the I/O is the native one's
    service = await startService({
      club: {
        specs: [`serial:${a.path}`, `serial:${b.path}`],
        binding,
        serial: { resetDelayMs: 0, timeoutMs: 1500, silenceMs: 1000, reconnect: { minMs: 50, maxMs: 300 } },
      },
      storage: { gamesDir: join(tempDir(), 'games') },
      http: { port: 0 },
      log: { level: 'silent' },
    });
    const [roomA, roomB] = service.rooms;
    expect(roomA!.board!.identity.id).toBe('PTY-A');
    expect(roomB!.board!.identity.id).toBe('PTY-B');
    const gameB = roomB!.session.gameId;
    let framesA = 0;
    roomA!.board!.source.onFrame(() => framesA++);
    await until(() => framesA > 20, 'frames from board A');

    // Unplug B: its process and pty are gone.
    live.delete(b.path);
    b.child.kill('SIGKILL');
    await until(() => roomB!.summary().state === 'disconnected', 'board B lost', 8000);
    const during = framesA;
    await until(() => framesA > during + 20, 'board A still streaming', 8000);
    expect(roomA!.summary().state).not.toBe('disconnected');

    // Plug B back: a new pty, found by its id.
    b = await plugIn('PTY-B');
    live.add(b.path);
    await until(() => roomB!.summary().state !== 'disconnected', 'board B back', 10_000);
    expect(roomB!.board!.source.path).toBe(b.path);
    expect(roomB!.session.gameId).toBe(gameB);
    expect(roomA!.board!.source.path).toBe(a.path);
  }, 60_000);
});
