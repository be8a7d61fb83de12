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

const MESSAGE_TYPES = ['hello', 'ping', 'command'] as const;
export const COMMAND_NAMES = Command.def.options.map((o) => o.def.shape.name.def.values[0] as Command['name']);

const list = (names: readonly string[]) => names.slice(0, -1).join(', ') + ' or ' + names[names.length - 1];

/** Keys of `input` that the schema dropped from `output` (unknown fields), with their paths. */
function unknownFields(input: unknown, output: unknown, path: string[] = []): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || typeof output !== 'object' || output === null) return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (!(k in output)) found.push([...path, k].join('.'));
    else if (k !== 'tags') found.push(...unknownFields(v, (output as Record<string, unknown>)[k], [...path, k]));
  }
  return found;
}

type Issue = { message?: string; path?: PropertyKey[]; code?: string; expected?: string; values?: unknown[]; maximum?: unknown; minimum?: unknown; origin?: string; format?: string; input?: unknown };

/** zod/mini issues say little ("Invalid input"): say what was wanted, and what came. */
function describeIssue(issue: Issue | undefined, input: unknown): string {
  if (!issue) return 'invalid message';
  const path = issue.path ?? [];
  let got: unknown = input;
  for (const k of path) got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[k] : undefined;
  const where = path.length ? `"${path.map(String).join('.')}" ` : '';
  const shown = got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 40) ?? String(got);
  const size = issue.origin === 'string' ? ' characters' : '';
  let want: string;
  switch (issue.code) {
    case 'invalid_value':
      want = `must be ${list((issue.values ?? []).map((v) => JSON.stringify(v)))}`;
      break;
    case 'invalid_type':
      want = got === undefined ? 'is required' : `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
      break;
    case 'too_big':
      want = `must be at most ${String(issue.maximum)}${size}`;
      break;
    case 'too_small':
      want = `must be at least ${String(issue.minimum)}${size}`;
      break;
    case 'invalid_format':
      want = issue.format === 'regex' ? 'is not allowed here (a tag name is a letter then letters, digits or _)' : `must be a ${issue.format}`;
      break;
    case 'invalid_key':
      return `${path.slice(0, -1).map(String).join('.')}: "${String(path[path.length - 1]).slice(0, 40)}" is not a tag name (a letter, then letters, digits or _)`;
    case 'invalid_union':
      want = path[path.length - 1] === 'ballot' ? 'must be a ballot number 1-174 or "random"' : 'matches none of the allowed forms';
      break;
    default:
      want = issue.message ?? 'is not valid';
  }
  return `${where}${want}${got !== undefined && want !== 'is required' ? `, not ${shown}` : ''}`;
}

/** Checks a command object (a page's or an HTTP client's); unknown names and fields are errors naming them. */
export function parseCommand(json: unknown): { ok: true; command: Command } | { ok: false; code: string; message: string } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, code: 'bad-message', message: 'a command must be a JSON object with a "name"' };
  const name = (json as { name?: unknown }).name;
  if (typeof name !== 'string') return { ok: false, code: 'bad-message', message: `a command needs a "name" (${list(COMMAND_NAMES)})` };
  if (!COMMAND_NAMES.includes(name as Command['name'])) return { ok: false, code: 'unknown-command', message: `unknown command "${name.slice(0, 40)}" (expected ${list(COMMAND_NAMES)})` };
  const r = Command.safeParse(json);
  if (!r.success) return { ok: false, code: 'bad-message', message: `command ${name}: ${describeIssue(r.error.issues[0] as Issue, json)}` };
  const extra = unknownFields(json, r.data);
  if (extra.length) return { ok: false, code: 'bad-message', message: `command ${name}: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}` };
  return { ok: true, command: r.data };
}

/** Parses a client message; returns a typed error naming the problem instead of throwing. */
export function parseClientMessage(raw: string): { ok: true; msg: ClientMessage } | { ok: false; code: string; message: string } {
  const bytes = Buffer.byteLength(raw);
  if (bytes > MAX_CLIENT_MESSAGE) return { ok: false, code: 'too-large', message: `message of ${bytes} bytes is over the ${MAX_CLIENT_MESSAGE}-byte limit` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, code: 'bad-json', message: `message is not JSON (${(e as Error).message})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, code: 'bad-message', message: 'a message must be a JSON object like {"v":1,"type":"ping"}' };
  }
  const o = json as Record<string, unknown>;
  if (!('v' in o)) return { ok: false, code: 'bad-version', message: `message has no protocol version "v" (this server speaks ${PROTOCOL_VERSION})` };
  if (o.v !== PROTOCOL_VERSION) {
    return { ok: false, code: 'bad-version', message: `protocol version ${JSON.stringify(o.v)} is not supported (this server speaks ${PROTOCOL_VERSION})` };
  }
  if (typeof o.type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(o.type)) {
    const got = typeof o.type === 'string' ? `"${o.type.slice(0, 40)}"` : o.type === undefined ? 'missing' : JSON.stringify(o.type).slice(0, 40);
    return { ok: false, code: 'unknown-type', message: `unknown message type ${got} (expected ${list(MESSAGE_TYPES)})` };
  }
  if (o.type === 'command') {
    if (!('command' in o)) return { ok: false, code: 'bad-message', message: 'a command message needs a "command" object' };
    const c = parseCommand(o.command);
    if (!c.ok) return c;
  }
  const r = ClientMessage.safeParse(json);
  if (!r.success) return { ok: false, code: 'bad-message', message: describeIssue(r.error.issues[0] as Issue, json) };
  const extra = unknownFields(json, r.data);
  if (extra.length) return { ok: false, code: 'bad-message', message: `${o.type} message: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}` };
  return { ok: true, msg: r.data };
}
