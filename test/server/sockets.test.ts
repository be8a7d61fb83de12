// Sockets that misbehave below HTTP: a client that opens a connection and
// never finishes its request (or never sends one) is answered 408 when the
// header time limit passes and its socket is destroyed, not just half-closed:
// a client that never closes its side must not keep a server descriptor.

import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { until, useServices } from './helpers.ts';

const { start } = useServices();

/** A raw client that never closes its side (allowHalfOpen): what it received, and whether the server ended. */
function lingering(port: number, send: string | null): Promise<{ socket: Socket; data: () => string; ended: () => boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let data = '';
    let ended = false;
    socket.on('data', (d) => (data += d));
    socket.on('end', () => (ended = true));
    socket.on('error', () => {});
    socket.once('connect', () => {
      if (send !== null) socket.write(send);
      resolve({ socket, data: () => data, ended: () => ended });
    });
    socket.once('error', reject);
  });
}

async function connectionsDropTo(count: () => Promise<number>, n: number, what: string): Promise<void> {
  for (let tries = 0; tries < 2000; tries++) {
    if ((await count()) === n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what} (still ${await count()})`);
}

describe('half-open sockets', () => {
  it('a client that never finishes its headers gets 408 and its socket is destroyed', async () => {
    const s = await start({ http: { timeouts: { headersMs: 150, requestMs: 300, checkEveryMs: 25 } } });
    const clients = await Promise.all([
      lingering(s.service.port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
      lingering(s.service.port, 'GET /api/state HTTP/1.1\r\n'),
      lingering(s.service.port, null),
    ]);
    await until(() => clients.every((c) => c.ended()), 'the server to end every lingering connection');
    // The clients never close their side: the server must still let go of the sockets.
    await connectionsDropTo(() => s.service.connections(), 0, 'the server to drop the connections');
    expect(clients[0]!.data()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    for (const c of clients) c.socket.destroy();
  });

  it('a refused WebSocket upgrade (wrong path, foreign origin) closes the socket too', async () => {
    const s = await start();
    const upgrade = (path: string, extra = '') =>
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${s.service.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`;
    const clients = await Promise.all([
      lingering(s.service.port, upgrade('/nope')),
      lingering(s.service.port, upgrade('/ws', 'Origin: http://evil.example\r\n')),
    ]);
    await until(() => clients.every((c) => c.ended()), 'the refusals');
    expect(clients[0]!.data()).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(clients[1]!.data()).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    await connectionsDropTo(() => s.service.connections(), 0, 'the server to drop the refused connections');
    for (const c of clients) c.socket.destroy();
  });

  it('a normal request on a keep-alive connection is unaffected', async () => {
    const s = await start({ http: { timeouts: { headersMs: 150, requestMs: 300, checkEveryMs: 25 } } });
    const c = await lingering(s.service.port, 'GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => c.data().includes('"gameId"') || c.data().includes('\r\n\r\n{'), 'the state');
    expect(c.data()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    c.socket.destroy();
  });
});
