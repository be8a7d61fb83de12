// Who may change the game. Reading the state is open to anyone who can reach
// the server; commands (new game, resign, hand moves…) are allowed without a
// token only to clients on this machine, and only when the request really
// comes from a page on this server (the Host names a loopback address and any
// Origin matches it — so a web page elsewhere cannot drive the game through
// the user's browser, by CSRF or DNS rebinding). When the server listens on a
// non-loopback address a random control token is made (or given), printed at
// start-up, and other devices must present it.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export interface AccessOptions {
  /** the address the server listens on */
  host: string;
  /** every client needs the token, loopback ones too (tests; shared machines) */
  requireToken?: boolean;
  /** use this token instead of a random one */
  token?: string;
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
  readonly requireToken: boolean;

  constructor(opts: AccessOptions) {
    this.requireToken = opts.requireToken ?? false;
    const needed = this.requireToken || !isLoopbackBind(opts.host);
    this.token = needed ? (opts.token ?? randomBytes(12).toString('base64url')) : null;
  }

  /** Constant-time token check. */
  tokenMatches(candidate: string | null | undefined): boolean {
    if (!this.token || !candidate) return false;
    return timingSafeEqual(digest(candidate), digest(this.token));
  }

  /** Trusted without a token: on this machine, addressed by a loopback name, from no other origin. */
  private local(r: Requester): boolean {
    if (this.requireToken) return false;
    if (!isLoopbackAddress(r.remoteAddress) || !isLoopbackHostHeader(r.host)) return false;
    if (r.origin === undefined) return true;
    try {
      return new URL(r.origin).host.toLowerCase() === r.host!.trim().toLowerCase();
    } catch {
      return false; // "null" origins (sandboxed frames, files) are not trusted
    }
  }

  canControl(r: Requester): boolean {
    return this.local(r) || this.tokenMatches(r.token);
  }

  /** Why a command was refused, for the 403 / error reply. */
  refusal(r: Requester): string {
    if (r.token) return 'the control token is wrong: use the one printed when the server started';
    if (this.requireToken || !isLoopbackAddress(r.remoteAddress)) {
      return 'this server is read-only without its control token: open the page with ?token=… as printed when the server started, or send "Authorization: Bearer <token>"';
    }
    return 'commands are only taken from pages served by this server (the request came from another origin or host name)';
  }
}

/** "Bearer abc" → "abc" */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}
