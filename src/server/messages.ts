// Checking what clients send (WebSocket messages and HTTP commands) against
// the protocol (src/protocol/v1.ts), with errors that say what was wanted and
// what came: unknown names and fields are named, sizes and versions checked.

import { joinWords } from '../words/index.ts';
import { ClientMessage, Command } from '../protocol/v1.ts';

// The schema itself lives in src/protocol/v1.ts (one declaration for server and page).
export {
  ClientMessage,
  Command,
  MAX_CLIENT_MESSAGE,
  PROTOCOL_VERSION,
  ServerMessage,
  type GameEvent,
  type Snapshot,
} from '../protocol/v1.ts';
import { MAX_CLIENT_MESSAGE, PROTOCOL_VERSION } from '../protocol/v1.ts';
import { CrownheadError } from '../common/errors.ts';
import { err, ok, type Result } from '../common/result.ts';

const MESSAGE_TYPES = ['hello', 'ping', 'command'] as const;
export const COMMAND_NAMES = Command.def.options.map((o) => o.def.shape.name.def.values[0] as Command['name']);

const list = (names: readonly string[]) => joinWords(names, 'or');

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

export type Issue = {
  message?: string;
  path?: PropertyKey[];
  code?: string;
  expected?: string;
  values?: unknown[];
  maximum?: unknown;
  minimum?: unknown;
  origin?: string;
  format?: string;
  input?: unknown;
};

/** zod/mini issues say little ("Invalid input"): say what was wanted, and what came. */
export function describeIssue(issue: Issue | undefined, input: unknown): string {
  if (!issue) return 'invalid message';
  const path = issue.path ?? [];
  let got: unknown = input;
  for (const k of path) got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[k] : undefined;
  const where = path.length ? `"${path.map(String).join('.')}" ` : '';
  const shown = got === undefined ? 'nothing' : (JSON.stringify(got)?.slice(0, 40) ?? String(got));
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
      want =
        issue.format === 'regex' ? 'is not allowed here (a tag name is a letter then letters, digits or _)' : `must be a ${issue.format}`;
      break;
    case 'invalid_key':
      return `${path.slice(0, -1).map(String).join('.')}: "${String(path[path.length - 1]).slice(0, 40)}" is not a tag name (a letter, then letters, digits or _)`;
    case 'invalid_union':
      want =
        path[path.length - 1] === 'ballot'
          ? 'must be a ballot number 1-174 or "random"'
          : path[path.length - 1] === 'elevenMan'
            ? 'must be an eleven-man ballot number 1-2400 or "random"'
            : 'matches none of the allowed forms';
      break;
    default:
      want = issue.message ?? 'is not valid';
  }
  return `${where}${want}${got !== undefined && want !== 'is required' ? `, not ${shown}` : ''}`;
}

export type MessageErrorCode = 'too-large' | 'bad-json' | 'bad-message' | 'bad-version' | 'unknown-type' | 'unknown-command';

/** A message or command from a client that cannot be taken: its code (sent back as the error's) and what is wrong. */
export class MessageError extends CrownheadError<MessageErrorCode> {
  override readonly name = 'MessageError';
}

/** Checks a command object (a page's or an HTTP client's); unknown names and fields are errors naming them. */
export function parseCommand(json: unknown): Result<Command, MessageError> {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return err(new MessageError('bad-message', 'a command must be a JSON object with a "name"'));
  const name = (json as { name?: unknown }).name;
  if (typeof name !== 'string') return err(new MessageError('bad-message', `a command needs a "name" (${list(COMMAND_NAMES)})`));
  if (!COMMAND_NAMES.includes(name as Command['name']))
    return err(new MessageError('unknown-command', `unknown command "${name.slice(0, 40)}" (expected ${list(COMMAND_NAMES)})`));
  const r = Command.safeParse(json);
  if (!r.success) return err(new MessageError('bad-message', `command ${name}: ${describeIssue(r.error.issues[0] as Issue, json)}`));
  const extra = unknownFields(json, r.data);
  if (extra.length)
    return err(
      new MessageError(
        'bad-message',
        `command ${name}: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}`,
      ),
    );
  return ok(r.data);
}

/** Parses a client message; returns a typed error naming the problem instead of throwing. */
export function parseClientMessage(raw: string): Result<ClientMessage, MessageError> {
  const bytes = Buffer.byteLength(raw);
  if (bytes > MAX_CLIENT_MESSAGE)
    return err(new MessageError('too-large', `message of ${bytes} bytes is over the ${MAX_CLIENT_MESSAGE}-byte limit`));
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return err(new MessageError('bad-json', `message is not JSON (${(e as Error).message})`));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return err(new MessageError('bad-message', 'a message must be a JSON object like {"v":1,"type":"ping"}'));
  }
  const o = json as Record<string, unknown>;
  if (!('v' in o))
    return err(new MessageError('bad-version', `message has no protocol version "v" (this server speaks ${PROTOCOL_VERSION})`));
  if (o.v !== PROTOCOL_VERSION) {
    return err(
      new MessageError('bad-version', `protocol version ${JSON.stringify(o.v)} is not supported (this server speaks ${PROTOCOL_VERSION})`),
    );
  }
  if (typeof o.type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(o.type)) {
    const got =
      typeof o.type === 'string' ? `"${o.type.slice(0, 40)}"` : o.type === undefined ? 'missing' : JSON.stringify(o.type).slice(0, 40);
    return err(new MessageError('unknown-type', `unknown message type ${got} (expected ${list(MESSAGE_TYPES)})`));
  }
  if (o.type === 'command') {
    if (!('command' in o)) return err(new MessageError('bad-message', 'a command message needs a "command" object'));
    const c = parseCommand(o.command);
    if (!c.ok) return c;
  }
  const r = ClientMessage.safeParse(json);
  if (!r.success) return err(new MessageError('bad-message', describeIssue(r.error.issues[0] as Issue, json)));
  const extra = unknownFields(json, r.data);
  if (extra.length)
    return err(
      new MessageError(
        'bad-message',
        `${o.type} message: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}`,
      ),
    );
  return ok(r.data);
}
