// Reading and writing the station–hub messages (src/protocol/stations-v1.ts,
// and pairing.ts's): each topic's payload unsealed (envelope.ts) and parsed
// once, a journal record checked by the journal's own schema
// (src/model/journal.ts) and refused with its sentence, and every refusal
// names the topic, the field and the problem.

import * as z from 'zod/mini';
import { CrownheadError } from '../common/errors.ts';
import { err, ok, type Result } from '../common/result.ts';
import {
  CommandAnswer,
  CommandBody,
  HubAck,
  StationAlert,
  StationClock,
  StationEntry,
  StationGame,
  StationStatus,
} from '../protocol/stations-v1.ts';
import { journalEntryProblem } from '../model/journal.ts';
import { compileCheck } from '../model/check.ts';
import { boardTopic, parseTopic, type StationTopic } from './topics.ts';
import { seal, unseal } from './envelope.ts';
import type { Identity } from './identity.ts';
import { HubPaired, StationPair } from './pairing.ts';

/** A message of one topic, as its schema types it (a journal record is the journal's own schema). */
export interface TopicMessages {
  pair: StationPair;
  paired: HubPaired;
  status: StationStatus;
  game: StationGame;
  entries: StationEntry;
  alerts: StationAlert;
  clock: StationClock;
  answer: CommandAnswer;
  ack: HubAck;
  cmd: CommandBody;
}

const SCHEMAS: { [K in StationTopic]: z.ZodMiniType<unknown> } = {
  pair: StationPair,
  paired: HubPaired,
  status: StationStatus,
  game: StationGame,
  entries: StationEntry,
  alerts: StationAlert,
  clock: StationClock,
  answer: CommandAnswer,
  ack: HubAck,
  cmd: CommandBody,
};

/** The entries' schema as its fast check (src/model/check.ts). */
const entryFits = compileCheck(StationEntry);

/** A station message that cannot be taken: which topic kind and what is wrong with it. */
export class StationMessageError extends CrownheadError<'bad-station-message'> {
  override readonly name = 'StationMessageError';
  constructor(message: string) {
    super('bad-station-message', message);
  }
}

/** The first issue of a failed parse, as "field: problem". */
function issueText(error: z.core.$ZodError): string {
  const i = error.issues[0];
  if (!i) return 'does not match the schema';
  return `${i.path.length ? i.path.join('.') : 'message'}: ${i.message}`;
}

/** Why a message was refused: a journal record (an entry, a game's header) in the journal's own words, anything else by its field. */
function refusal(kind: StationTopic, json: unknown, error: z.core.$ZodError): string {
  const field = error.issues[0]?.path[0];
  const record = (name: string) => (json as Record<string, unknown>)[name];
  if (kind === 'entries' && field === 'entry') {
    const m = json as { seq?: unknown; gameId?: unknown };
    return `entries: record ${String(m.seq)} of game ${String(m.gameId)}: ${journalEntryProblem(record('entry'))}`;
  }
  if (kind === 'game' && field === 'start') return `game: the header: ${journalEntryProblem(record('start'))}`;
  return `${kind}: ${issueText(error)}`;
}

/** Parses a payload of one topic kind; a refusal says which topic and what is wrong. */
export function parseStationMessage<K extends StationTopic>(
  kind: K,
  payload: Buffer | string,
): Result<TopicMessages[K], StationMessageError> {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err(new StationMessageError(`${kind}: not JSON (${text.length} bytes: ${JSON.stringify(text.slice(0, 40))})`));
  }
  // A station's journal records come by the thousand: the schema's fast check first (zod's parse then only says why not).
  const r = kind === 'entries' && entryFits(json) ? { success: true as const, data: json } : z.safeParse(SCHEMAS[kind], json);
  if (!r.success) return err(new StationMessageError(refusal(kind, json, r.error)));
  if (kind === 'game') {
    const start = (r.data as StationGame).start;
    if (start && start.k !== 'new')
      return err(new StationMessageError(`game: the header is a "${start.k}" record, not the new-game record`));
  }
  if (kind === 'entries') {
    const m = r.data as StationEntry;
    if ((m.seq === 0) !== (m.entry.k === 'new'))
      return err(
        new StationMessageError(
          `entries: record ${m.seq} of game ${m.gameId} is a "${m.entry.k}" record (record 0, and only it, is the new-game record)`,
        ),
      );
    if (m.entry.k === 'new' && m.entry.id !== m.gameId)
      return err(new StationMessageError(`entries: the new-game record names game ${String(m.entry.id)}, the message game ${m.gameId}`));
  }
  return ok(r.data as TopicMessages[K]);
}

/** A message's payload (the type says which topic it is for). */
export function makeStationMessage<K extends StationTopic>(_kind: K, msg: TopicMessages[K]): string {
  return JSON.stringify(msg);
}

/** A message read off the broker: its board and kind (from the topic), who sealed it and its counter, and the message. */
export type Received = {
  [K in StationTopic]: { board: string; kind: K; key: string; n: number; msg: TopicMessages[K] };
}[StationTopic];

export type Read = { ok: true; m: Received } | { ok: false; board: string | null; problem: string };

/**
 * Opens a sealed payload read on a board topic of ours and parses its message; a refusal says what is wrong.
 * `accept` (the board and kind, then the key) may refuse a key before its signature is checked.
 */
export function readMessage(
  topic: string,
  payload: Buffer | string,
  accept?: (board: string, kind: StationTopic, key: string, body: string) => string | null,
): Read {
  const topicRead = parseTopic(topic);
  if (!topicRead.ok) return { ok: false, board: null, problem: topicRead.error.message };
  const t = topicRead.value;
  const o = unseal(topic, payload, accept && ((key, body) => accept(t.board, t.kind, key, body)));
  if (!o.ok) return { ok: false, board: t.board, problem: `${t.kind}: ${o.problem}` };
  const r = parseStationMessage(t.kind, o.body);
  if (!r.ok) return { ok: false, board: t.board, problem: r.error.message };
  return { ok: true, m: { board: t.board, kind: t.kind, key: o.key, n: o.n, msg: r.value } as Received };
}

/** A message sealed for its board's topic of its kind. */
export function sealMessage<K extends StationTopic>(
  board: string,
  kind: K,
  msg: TopicMessages[K],
  me: Identity,
  n: number,
): { topic: string; payload: string } {
  const topic = boardTopic(board, kind);
  return { topic, payload: seal(topic, makeStationMessage(kind, msg), me, n) };
}
