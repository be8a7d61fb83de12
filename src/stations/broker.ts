// The hub's embedded MQTT broker (aedes), the zero-set-up default: listening
// on a TCP port the stations reach (TLS when given a certificate and key),
// in-memory persistence (retained messages and persistent sessions live as
// long as the hub process; the stations' journals and the hub's own cover a
// restart). With the pairing secret it is locked down (access.ts): a login
// derived from the secret for the hub and each station, each confined to its
// own topics, messages over the size limit refused; without the secret it
// listens on loopback only (tests, one machine), never beyond.

import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { isLoopbackBind } from '../server/access.ts';
import { mayPublish, maySubscribe, whoIs, type Who } from './access.ts';
import { MAX_MESSAGE_BYTES } from './envelope.ts';

/** What each option is when it is not given. */
const DEFAULTS = { port: 1883 } as const;

export interface EmbeddedBroker {
  port: number;
  host: string;
  url: string;
  broker: Aedes;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  port?: number;
  /** the address to listen on (default 127.0.0.1) */
  host?: string;
  /** the pairing secret: logins and topics checked (required beyond loopback) */
  secret?: string;
  /** TLS: the certificate and key to serve mqtts:// with (PEM) */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

/** The largest message the broker takes (a sealed record, with room to spare). */
const MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 1024;

function lockDown(broker: Aedes, secret: string): void {
  /** each connected client's login, for the checks of what it publishes and reads */
  const logins = new WeakMap<object, Who>();
  broker.authenticate = (client, username, password, done) => {
    const who = whoIs(secret, username, password);
    if (who) {
      logins.set(client, who);
      return done(null, true);
    }
    done(Object.assign(new Error('bad username or password'), { returnCode: 4 as const }), false);
  };
  broker.authorizePublish = (client, packet, done) => {
    if (!client) return done(null);
    const who = logins.get(client); // a will the broker keeps for a client gone: checked when it was set
    if (!who || !mayPublish(who, packet.topic)) return done(new Error(`not allowed to publish on ${packet.topic.slice(0, 120)}`));
    if (packet.payload.length > MAX_PACKET_BYTES) return done(new Error(`message too big (${packet.payload.length} bytes)`));
    done(null);
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const who = logins.get(client);
    done(null, who && maySubscribe(who, sub.topic) ? sub : null);
  };
}

export async function startEmbeddedBroker(o: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = o.host ?? '127.0.0.1';
  if (!o.secret && !isLoopbackBind(host))
    throw new Error(`the embedded broker listens on ${host} only with logins (the pairing secret): without, loopback only`);
  const broker = await Aedes.createBroker({ drainTimeout: 30_000 });
  if (o.secret) lockDown(broker, o.secret);
  // Small messages both ways (a ply, its ack): sent at once, not held back by Nagle's algorithm.
  const handle = (socket: import('node:net').Socket) => {
    socket.setNoDelay(true);
    broker.handle(socket);
  };
  const server: Server = o.tls ? createTlsServer({ cert: o.tls.cert, key: o.tls.key }, handle) : createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? DEFAULTS.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    host,
    url: `${o.tls ? 'mqtts' : 'mqtt'}://${shownHost}:${port}`,
    broker,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
