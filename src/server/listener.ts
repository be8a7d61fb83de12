// The HTTP listener: the node server with its time limits, listening (errors
// said in words: port in use, not allowed, no such address), refusing bad or
// too-slow requests (the socket destroyed, never left half-open), counting
// its connections, and closing.

import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** What each option is when it is not given. */
const DEFAULTS = { headersMs: 20_000, requestMs: 30_000, checkEveryMs: 5_000 } as const;

export interface HttpTimeouts {
  /** a client must have sent a request's headers within this (default 20 s) */
  headersMs?: number;
  /** …and the whole request within this (default 30 s) */
  requestMs?: number;
  /** how often connections are checked against those limits (default 5 s) */
  checkEveryMs?: number;
}

export function createHttpServer(app: RequestListener, timeouts: HttpTimeouts): Server {
  const srv = createServer(
    {
      headersTimeout: timeouts.headersMs ?? DEFAULTS.headersMs,
      requestTimeout: timeouts.requestMs ?? DEFAULTS.requestMs,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: timeouts.checkEveryMs ?? DEFAULTS.checkEveryMs,
    },
    app,
  );
  srv.on('clientError', refuseBadClient);
  return srv;
}

/**
 * A request that is malformed or too slow (headers or body past their time
 * limit): say so, then destroy the socket. Ending it only half-closes it, and a
 * client that never closes its side would keep the descriptor for good.
 */
function refuseBadClient(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? '408 Request Timeout'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`, () => socket.destroy());
  // A client that does not read even that reply must not hold the socket either.
  setTimeout(() => socket.destroy(), 1000).unref();
}

function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE')
    return new Error(
      `port ${port} on ${host} is already in use (another Crownhead or another program): choose another with --port (a second Crownhead also needs its own --games folder)`,
    );
  if (e.code === 'EACCES') return new Error(`not allowed to listen on port ${port} of ${host}: use a port above 1023`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return new Error(`cannot listen on ${host}: this machine has no such address`);
  return new Error(`cannot listen on ${host}:${port}: ${e.message}`);
}

/** Listens; errors after that are logged. */
export function listen(srv: Server, host: string, port: number, logger: Logger): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () => {
      srv.off('error', reject);
      srv.on('error', (e) => logger.error({ err: e }, 'HTTP server error'));
      resolve();
    });
  }).catch((e) => {
    throw listenError(e as NodeJS.ErrnoException, host, port);
  });
}

/** Open connections (WebSockets included). */
export function connectionCount(srv: Server): Promise<number> {
  return new Promise<number>((resolve, reject) => srv.getConnections((e, n) => (e ? reject(e) : resolve(n))));
}

export function closeServer(srv: Server | null): Promise<void> {
  if (!srv?.listening) return Promise.resolve();
  return new Promise<void>((resolve) => {
    srv.close(() => resolve());
    srv.closeAllConnections();
  });
}
