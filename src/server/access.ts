// Who may watch and who may change the game. Without a token, reads (the
// WebSocket, the API, the archive) and commands are allowed only to clients
// on this machine, and only when the request really comes from a page on
// this server: the Host names a loopback address and any Origin matches it,
// so a web page elsewhere can neither watch nor drive the game through the
// user's browser (cross-origin reads, CSRF, DNS rebinding). A request from a
// foreign Origin is refused even with a token. When the server listens on a
// non-loopback address two random tokens are made (or given) and printed at
// start-up: the control token (play) and the watch token (read only); other
// devices must present one. Who a request is (`requesterOf`) is read here too,
// for the API's routes (http.ts, archive.ts).

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

export interface AccessOptions {
  /** the address the server listens on */
  host: string;
  /** every client needs the token, loopback ones too (tests; shared machines) */
  requireToken?: boolean;
  /** use this token instead of a random one */
  token?: string;
  /** use this read-only (watch) token instead of a random one */
  readToken?: string;
  /** the spectators' page and the broadcast (/watch, /broadcast.pdn) are open to anyone who can reach the server (club mode) */
  publicWatch?: boolean;
}

/** What a request or WebSocket upgrade says about its sender. */
export interface Requester {
  remoteAddress?: string;
  host?: string;
  origin?: string;
  token?: string | null;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '').replace(/^\[|\]$/g, '');
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** "localhost:8080" → "localhost", "[::1]:80" → "[::1]" */
function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon > 0 && isIP(h) !== 6 ? h.slice(0, colon) : h;
}

export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || isLoopbackAddress(name);
}

export function isLoopbackBind(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export class Access {
  /** the control token, or null when only this machine can connect and none is required */
  readonly token: string | null;
  /** the watch token: reads only (null when only this machine can connect) */
  readonly readToken: string | null;
  readonly requireToken: boolean;
  readonly publicWatch: boolean;

  constructor(opts: AccessOptions) {
    this.requireToken = opts.requireToken ?? false;
    this.publicWatch = opts.publicWatch ?? false;
    const needed = this.requireToken || !isLoopbackBind(opts.host);
    this.token = needed ? (opts.token ?? randomBytes(12).toString('base64url')) : null;
    this.readToken = needed ? (opts.readToken ?? randomBytes(12).toString('base64url')) : null;
    if (this.readToken !== null && this.readToken === this.token) throw new Error('the watch token must differ from the control token');
  }

  /** Constant-time check of the control token. */
  tokenMatches(candidate: string | null | undefined): boolean {
    if (!this.token || !candidate) return false;
    return timingSafeEqual(digest(candidate), digest(this.token));
  }

  /** Constant-time check of the watch token. */
  readTokenMatches(candidate: string | null | undefined): boolean {
    if (!this.readToken || !candidate) return false;
    return timingSafeEqual(digest(candidate), digest(this.readToken));
  }

  /** No Origin (not a browser page), or the Origin of a page served by this very address. */
  sameOrigin(r: Requester): boolean {
    if (r.origin === undefined) return true;
    if (!r.host) return false;
    try {
      return new URL(r.origin).host.toLowerCase() === r.host.trim().toLowerCase();
    } catch {
      return false; // "null" origins (sandboxed frames, files) are not trusted
    }
  }

  /** On this machine, addressed by a loopback name, from no other origin (a DNS-rebinding page fails the Host check). */
  private onThisMachine(r: Requester): boolean {
    return isLoopbackAddress(r.remoteAddress) && isLoopbackHostHeader(r.host) && this.sameOrigin(r);
  }

  /** May change the game: this machine's own pages (unless --require-token), or the control token. */
  canControl(r: Requester): boolean {
    return (!this.requireToken && this.onThisMachine(r)) || (this.sameOrigin(r) && this.tokenMatches(r.token));
  }

  /**
   * May watch: this machine's own pages (even with --require-token, which is
   * about control), or a token (either one) — never a foreign origin.
   */
  canRead(r: Requester): boolean {
    return this.onThisMachine(r) || (this.sameOrigin(r) && (this.tokenMatches(r.token) || this.readTokenMatches(r.token)));
  }

  /**
   * May follow the broadcast (/watch, /broadcast.pdn): anyone when the
   * broadcast is public, else whoever may read. What it shows holds no
   * token and nothing but the games.
   */
  canWatch(r: Requester): boolean {
    return this.publicWatch || this.canRead(r);
  }

  /** Why a read was refused, for the 403 / WebSocket error. */
  readRefusal(r: Requester): string {
    if (!this.sameOrigin(r))
      return (
        'this server answers only its own pages: the request came from a page of another site (Origin ' +
        JSON.stringify(r.origin ?? '').slice(0, 80) +
        ')'
      );
    if (r.token) return 'the token is wrong: use the watch token or the control token printed when the server started';
    if (this.token !== null && !isLoopbackAddress(r.remoteAddress)) {
      return 'this server needs a token to watch the game: open the page with ?token=… (the watch or the control token printed when the server started), or send "Authorization: Bearer <token>"';
    }
    return `requests without a token must address this server by a loopback name such as localhost or 127.0.0.1, not ${JSON.stringify(r.host ?? '').slice(0, 80)}`;
  }

  /** Why a command was refused, for the 403 / error reply. */
  refusal(r: Requester): string {
    if (!this.sameOrigin(r))
      return 'commands are only taken from pages served by this server (the request came from another origin or host name)';
    if (this.readTokenMatches(r.token)) return 'the watch token only lets this device follow the game: use the control token to play';
    if (r.token) return 'the control token is wrong: use the one printed when the server started';
    if (this.requireToken || !isLoopbackAddress(r.remoteAddress)) {
      return 'this server is read-only without its control token: open the page with ?token=… as printed when the server started, or send "Authorization: Bearer <token>"';
    }
    return 'commands are only taken from pages served by this server (the request came from another origin or host name)';
  }
}

/** The cookie a page's token travels in to the API (set on the WebSocket handshake). */
export const TOKEN_COOKIE = 'crownhead_token';

/** The token in a Cookie header, if any. */
export function cookieToken(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** "Bearer abc" → "abc" */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}

/** What `requesterOf` reads of an HTTP request (an express Request has it). */
export interface RequestLike {
  socket: { remoteAddress?: string };
  headers: IncomingHttpHeaders;
  query?: Record<string, unknown>;
}

/** Who sent an API request: its address, Host, Origin, and a token (Bearer header, ?token=, or the page's cookie). */
export function requesterOf(req: RequestLike): Requester {
  const q = req.query?.token;
  return {
    remoteAddress: req.socket.remoteAddress,
    host: req.headers.host,
    origin: req.headers.origin,
    token: bearerToken(req.headers.authorization) ?? (typeof q === 'string' ? q : null) ?? cookieToken(req.headers.cookie),
  };
}
