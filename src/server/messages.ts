// The WebSocket message schema, version 1, shared by the server and the page
// (validated on both sides with zod/mini, small enough for the page bundle).
//
// Server → page:  hello (on connect: server info + full state snapshot),
//                 state (full snapshot), event (a game event + the snapshot after it),
//                 counts (live board occupancy while pieces move), clock (ticks),
//                 ok / error (replies to commands), pong.
// Page → server:  hello (ask for a full snapshot again, e.g. after reconnecting),
//                 command (with an optional id echoed in the reply, and the
//                 control token when the server is not on loopback), ping.

import * as z from 'zod/mini';

export const PROTOCOL_VERSION = 1;
/** Largest client message accepted (bytes). */
export const MAX_CLIENT_MESSAGE = 16 * 1024;

const side = z.enum(['black', 'white']);
const square = z.number().check(z.int(), z.gte(1), z.lte(32));
const tags = z.record(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/)), z.string().check(z.maxLength(200)));

export const Command = z.discriminatedUnion('name', [
  z.object({
    name: z.literal('new-game'),
    fen: z.optional(z.string().check(z.maxLength(200))),
    ballot: z.optional(z.union([z.number().check(z.int(), z.gte(1), z.lte(174)), z.literal('random')])),
    firstPlayer: z.optional(z.enum(['black', 'white', 'random'])),
    tags: z.optional(tags),
  }),
  z.object({ name: z.literal('set-tags'), tags }),
  z.object({ name: z.literal('resign'), side }),
  z.object({ name: z.literal('offer-draw'), side }),
  z.object({ name: z.literal('accept-draw'), side }),
  z.object({ name: z.literal('decline-draw') }),
  z.object({ name: z.literal('claim-draw') }),
  z.object({ name: z.literal('takeback') }),
  z.object({ name: z.literal('calibrate') }),
  z.object({ name: z.literal('clock-start') }),
  z.object({ name: z.literal('clock-pause') }),
  /** Simulated board only: the "hand" on the page. */
  z.object({ name: z.literal('hand'), action: z.enum(['place', 'lift', 'set']), square, coins: z.optional(z.number().check(z.int(), z.gte(0), z.lte(2))) }),
  /** Simulated board only: put the game's position on the board. */
  z.object({ name: z.literal('hand-setup') }),
]);
export type Command = z.infer<typeof Command>;

export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ v: z.literal(1), type: z.literal('hello') }),
  z.object({ v: z.literal(1), type: z.literal('ping') }),
  z.object({
    v: z.literal(1),
    type: z.literal('command'),
    id: z.optional(z.string().check(z.maxLength(64))),
    token: z.optional(z.string().check(z.maxLength(128))),
    command: Command,
  }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** The snapshot is checked for its shape's key fields; the server builds it from typed code. */
export const StateShape = z.looseObject({
  version: z.literal(1),
  gameId: z.string(),
  fen: z.string(),
  turn: side,
  pieces: z.array(z.looseObject({ square, color: side, king: z.boolean() })),
  moves: z.array(z.looseObject({ number: z.number(), side, text: z.string() })),
  status: z.looseObject({ kind: z.enum(['setup', 'in-sync', 'moving', 'awaiting-crown', 'illegal']) }),
  board: z.looseObject({ counts: z.array(z.number()), connected: z.boolean() }),
  result: z.string(),
});

export const ServerMessage = z.discriminatedUnion('type', [
  z.object({
    v: z.literal(1),
    type: z.literal('hello'),
    server: z.looseObject({ name: z.string(), version: z.string(), readOnly: z.boolean(), sim: z.boolean(), source: z.string() }),
    state: StateShape,
  }),
  z.object({ v: z.literal(1), type: z.literal('state'), state: StateShape }),
  z.object({ v: z.literal(1), type: z.literal('event'), event: z.looseObject({ type: z.string() }), state: StateShape }),
  z.object({ v: z.literal(1), type: z.literal('counts'), counts: z.array(z.number()), differences: z.array(z.number()), status: z.looseObject({ kind: z.string() }) }),
  z.object({ v: z.literal(1), type: z.literal('clock'), clock: z.looseObject({ black: z.number(), white: z.number() }) }),
  z.object({ v: z.literal(1), type: z.literal('ok'), id: z.optional(z.string()) }),
  z.object({ v: z.literal(1), type: z.literal('error'), id: z.optional(z.string()), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(1), type: z.literal('pong') }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Parses a client message; returns a typed error naming the problem instead of throwing. */
export function parseClientMessage(raw: string): { ok: true; msg: ClientMessage } | { ok: false; code: string; message: string } {
  if (raw.length > MAX_CLIENT_MESSAGE) return { ok: false, code: 'too-large', message: `message of ${raw.length} bytes is over the ${MAX_CLIENT_MESSAGE}-byte limit` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'bad-json', message: 'message is not JSON' };
  }
  if (typeof json === 'object' && json !== null && 'v' in json && (json as { v: unknown }).v !== PROTOCOL_VERSION) {
    return { ok: false, code: 'bad-version', message: `protocol version ${JSON.stringify((json as { v: unknown }).v)} is not supported (this server speaks ${PROTOCOL_VERSION})` };
  }
  const r = ClientMessage.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path?.length ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, code: 'bad-message', message: `${issue?.message ?? 'invalid message'}${where}` };
  }
  return { ok: true, msg: r.data };
}
