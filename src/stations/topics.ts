// The MQTT topics of stations and the hub, all under crownhead/v1/boards/ID/:
// pair (retained: the station's claim on the board, pairing.ts), status
// (retained; the will), game (retained), entries (every journal record of a
// game with its sequence number), alerts, clock and answer (station → hub),
// paired (the hub's answer to a claim), ack (retained) and cmd (hub →
// station). Every payload is sealed (envelope.ts). Board ids are checked so a
// topic never holds a wildcard or a level separator.

import { CrownheadError } from '../common/errors.ts';
import { err, ok, type Result } from '../common/result.ts';

export const TOPIC_ROOT = 'crownhead/v1/boards';

export type StationTopic = 'pair' | 'status' | 'game' | 'entries' | 'alerts' | 'clock' | 'answer' | 'paired' | 'ack' | 'cmd';
const KINDS = new Set<string>(['pair', 'status', 'game', 'entries', 'alerts', 'clock', 'answer', 'paired', 'ack', 'cmd']);

/** A board id or topic that is not one of ours. */
export class StationTopicError extends CrownheadError<'bad-topic'> {
  override readonly name = 'StationTopicError';
  constructor(message: string) {
    super('bad-topic', message);
  }
}

const BOARD_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A board's topic of one kind. */
export function boardTopic(board: string, kind: StationTopic): string {
  if (!BOARD_ID.test(board))
    throw new StationTopicError(`board id "${board.slice(0, 80)}" cannot name an MQTT topic (letters, digits, _ . : - only, 1-64)`);
  return `${TOPIC_ROOT}/${board}/${kind}`;
}

/** Every board's topics of the kinds given (for the hub's subscriptions). */
export function allBoards(kind: StationTopic): string {
  return `${TOPIC_ROOT}/+/${kind}`;
}

/** A topic's board and kind, or the StationTopicError saying it is not a board topic of ours. */
export function parseTopic(topic: string): Result<{ board: string; kind: StationTopic }, StationTopicError> {
  const parts = topic.split('/');
  const not = (why: string) => err(new StationTopicError(`"${topic.slice(0, 80)}" is not a board topic: ${why}`));
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== TOPIC_ROOT) return not(`it is not ${TOPIC_ROOT}/BOARD/KIND`);
  const [, , , board, kind] = parts as [string, string, string, string, string];
  if (!BOARD_ID.test(board)) return not(`"${board.slice(0, 40)}" is not a board id`);
  if (!KINDS.has(kind)) return not(`"${kind.slice(0, 40)}" is not a kind of message`);
  return ok({ board, kind: kind as StationTopic });
}
