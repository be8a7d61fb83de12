// The hub's embedded MQTT broker (aedes), the zero-set-up default: listening
// on a TCP port the stations reach, optionally with a username and password
// (as a Mosquitto password file would ask), in-memory persistence (retained
// messages and persistent sessions live as long as the hub process; the
// stations' journals and the hub's own cover a restart).

import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  port: number;
  host: string;
  url: string;
  broker: Aedes;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(
  o: { port?: number; host?: string; username?: string; password?: string } = {},
): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({ drainTimeout: 30_000 });
  if (o.username !== undefined) {
    broker.authenticate = (_client, username, password, done) => {
      const ok = username === o.username && (password?.toString() ?? '') === (o.password ?? '');
      if (ok) return done(null, true);
      const err = Object.assign(new Error('bad username or password'), { returnCode: 4 as const });
      done(err, false);
    };
  }
  // Small messages both ways (a ply, its ack): sent at once, not held back by Nagle's algorithm.
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    broker.handle(socket);
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 1883, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    host,
    url: `mqtt://${shownHost}:${port}`,
    broker,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
