// Commands from the hub to a station are signed with the secret set at
// pairing: HMAC-SHA256 over `nonce.at.body`, checked in constant time; a
// command older or newer than the window, or a nonce seen within it, is
// refused (a replayed or forged command changes nothing). Pure but for the
// HMAC: time and nonces are inputs.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SignedCommand } from '../protocol/stations-v1.ts';

export interface GuardOptions {
  /** how far a command's time may be from the station's, ms (default 60 s) */
  windowMs?: number;
}

function hmac(secret: string, nonce: string, at: number, body: string): string {
  return createHmac('sha256', secret).update(`${nonce}.${at}.${body}`).digest('hex');
}

/** Signs a command body (the hub's side). */
export function signCommand(secret: string, body: string, now: number, nonce = randomBytes(12).toString('hex')): SignedCommand {
  return { v: 1, nonce, at: Math.round(now), body, sig: hmac(secret, nonce, Math.round(now), body) };
}

/** Checks signed commands (the station's side): the signature, the time window, no nonce twice. */
export class CommandGuard {
  private readonly seen = new Map<string, number>();
  private readonly windowMs: number;

  constructor(
    private readonly secret: string,
    opts: GuardOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? 60_000;
  }

  /** null when the command may run (its nonce is then used up), else why it is refused. */
  check(cmd: SignedCommand, now: number): string | null {
    const want = Buffer.from(hmac(this.secret, cmd.nonce, cmd.at, cmd.body), 'hex');
    const got = Buffer.from(cmd.sig, 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'the signature does not match the secret set at pairing';
    if (Math.abs(now - cmd.at) > this.windowMs)
      return `the command was signed ${Math.round((now - cmd.at) / 1000)} s from now, outside the ${this.windowMs / 1000} s window`;
    for (const [n, at] of this.seen) if (now - at > 2 * this.windowMs) this.seen.delete(n);
    if (this.seen.has(cmd.nonce)) return 'the command was already received once (a replay)';
    this.seen.set(cmd.nonce, now);
    return null;
  }
}
