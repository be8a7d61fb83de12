// Every message a station or the hub publishes travels sealed: the message's
// JSON text as `body`, the sender's public key, a counter that only grows and
// an Ed25519 signature over the topic (so over the board and the kind), the
// counter and the body. Whoever reads checks it against the key it pinned for
// that board (identity.ts); a copy moved to another board's topic, an altered
// body or a key nobody paired no longer checks. Pure but for the signature.

import * as z from 'zod/mini';
import { verifySignature, type Identity } from './identity.ts';

/** The largest message accepted (bytes): a journal record of a long game's tags is far below. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

export const Sealed = z.object({
  v: z.literal(1),
  /** the sender's public key (base64url, 32 bytes) */
  key: z.string().check(z.length(43)),
  /** grows with every message the sender seals (microseconds of its clock, or one more than the last) */
  n: z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)),
  body: z.string().check(z.maxLength(MAX_MESSAGE_BYTES)),
  sig: z.string().check(z.length(86)),
});
export type Sealed = z.infer<typeof Sealed>;

/** What is signed: the topic, the counter and the body, one per line. */
function signed(topic: string, n: number, body: string): string {
  return `crownhead/v1\n${topic}\n${n}\n${body}`;
}

/** Where a counter keeps the highest value it may have given, so a restart (even with the clock set back) goes on above it. */
export interface CounterStore {
  read(): number;
  write(n: number): void;
}

/** How far ahead of the last value a kept counter reserves on disk: a minute of microseconds (one write a minute at most). */
const RESERVE = 60_000_000;

/**
 * A sender's counter: the microseconds of its clock, or one more than the
 * last when the clock has not moved on (or went back). With a store it starts
 * above everything it may have given before a restart.
 */
export class Counter {
  private last = 0;
  private reserved = Infinity;
  constructor(
    private readonly now: () => number = Date.now,
    private readonly store?: CounterStore,
  ) {
    if (store) this.last = this.reserved = store.read();
  }
  next(): number {
    this.last = Math.max(this.last + 1, Math.floor(this.now() * 1000));
    if (this.last > this.reserved) this.store!.write((this.reserved = this.last + RESERVE));
    return this.last;
  }
}

/** Seals a message's text for a topic. */
export function seal(topic: string, body: string, me: Identity, n: number): string {
  const sealed: Sealed = { v: 1, key: me.key, n, body, sig: me.sign(signed(topic, n, body)) };
  return JSON.stringify(sealed);
}

export type Opened = { ok: true; key: string; n: number; body: string } | { ok: false; problem: string };

/**
 * Opens a sealed payload read on `topic`: its signature checked against the
 * key it names (the caller then asks whether that key is the one it pinned).
 * `accept`, when given, is asked first whether the key (and body) may speak
 * at all: a key nobody pinned costs no signature check (a flood stays cheap).
 */
export function unseal(topic: string, payload: Buffer | string, accept?: (key: string, body: string) => string | null): Opened {
  if (payload.length > MAX_MESSAGE_BYTES + 512) return { ok: false, problem: `too big (${payload.length} bytes)` };
  let json: unknown;
  try {
    json = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const r = z.safeParse(Sealed, json);
  if (!r.success) return { ok: false, problem: 'not signed (no sealed envelope)' };
  const m = r.data;
  const refused = accept?.(m.key, m.body);
  if (refused) return { ok: false, problem: refused };
  if (!verifySignature(m.key, signed(topic, m.n, m.body), m.sig))
    return { ok: false, problem: 'the signature does not check (altered, or moved from another topic)' };
  return { ok: true, key: m.key, n: m.n, body: m.body };
}
