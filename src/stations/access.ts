// Who may log in to the broker and touch which topics (least privilege, as
// Mosquitto's password and ACL files say it). Logins derive from the pairing
// secret: the hub is user `crownhead-hub`, a station is user BOARD-ID, each
// with the password HMAC(secret, user) — so a station's command line needs
// nothing beyond the secret, and a client without it cannot even connect. A
// station may publish only its own board's topics (and ask the far board of a
// two-board game for records again), and read only its own commands, acks and
// pairing answers plus any board's claim, status, game and records (the far board's);
// the hub may touch every board's. The same rules drive the embedded broker
// (aedes' authenticate/authorizePublish/authorizeSubscribe, broker.ts) and
// the files `crownhead hub mosquitto-config` writes. Pure but for the hashes.

import { createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOPIC_ROOT, parseTopic, type StationTopic } from './topics.ts';

export const HUB_USER = 'crownhead-hub';
const BOARD_USER = /^[A-Za-z0-9_-]{1,16}$/;

/** The broker password of a user (the hub, or a station by its board id), derived from the pairing secret. */
export function brokerPassword(secret: string, user: string): string {
  return createHmac('sha256', secret).update(`mqtt-login\n${user}`).digest('base64url').slice(0, 32);
}

export type Who = { kind: 'hub' } | { kind: 'station'; board: string };

/** A login's identity, or null when the password is not the one the secret gives. */
export function whoIs(secret: string, user: string | undefined, password: Buffer | string | undefined): Who | null {
  if (!user || password === undefined) return null;
  if (user !== HUB_USER && !BOARD_USER.test(user)) return null;
  const want = Buffer.from(brokerPassword(secret, user));
  const got = Buffer.from(typeof password === 'string' ? password : password.toString('utf8'));
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  return user === HUB_USER ? { kind: 'hub' } : { kind: 'station', board: user };
}

const STATION_PUBLISHES = new Set<StationTopic>(['pair', 'status', 'game', 'entries', 'alerts', 'clock', 'answer']);
const STATION_READS_OWN = new Set<StationTopic>(['pair', 'paired', 'status', 'ack', 'cmd']);
const STATION_READS_ANY = new Set<StationTopic>(['pair', 'status', 'game', 'entries']);

/** May `who` publish on `topic`? */
export function mayPublish(who: Who, topic: string): boolean {
  const read = parseTopic(topic);
  if (!read.ok) return false;
  const t = read.value;
  if (who.kind === 'hub') return true;
  return t.board === who.board ? STATION_PUBLISHES.has(t.kind) : t.kind === 'cmd';
}

/** May `who` subscribe to `filter` (an exact topic, or with + in the board's place; the hub also `#`)? */
export function maySubscribe(who: Who, filter: string): boolean {
  if (who.kind === 'hub') return filter === `${TOPIC_ROOT}/#` || filter.startsWith(`${TOPIC_ROOT}/`);
  const parts = filter.split('/');
  if (parts.length !== 5) return false;
  const [board, kind] = [parts[3]!, parts[4]!];
  const read = parseTopic([...parts.slice(0, 3), board === '+' ? 'X' : board, kind].join('/'));
  if (!read.ok) return false;
  const t = read.value;
  if (board === who.board) return STATION_READS_OWN.has(t.kind) || STATION_READS_ANY.has(t.kind);
  return STATION_READS_ANY.has(t.kind);
}

/** A Mosquitto password-file line: PBKDF2-SHA512 as mosquitto_passwd writes it ($7$, 101 iterations, a 12-byte salt). */
export function mosquittoPasswordLine(user: string, password: string, salt = randomBytes(12)): string {
  const hash = pbkdf2Sync(password, salt, 101, 64, 'sha512');
  return `${user}:$7$101$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Mosquitto's password file (the hub and each board) and ACL file (the rules above, as patterns on the user name). */
export function mosquittoFiles(secret: string, boards: readonly string[]): { passwd: string; acl: string } {
  const users = [HUB_USER, ...boards];
  const passwd = users.map((u) => mosquittoPasswordLine(u, brokerPassword(secret, u))).join('\n') + '\n';
  const own = (kinds: Iterable<StationTopic>, access: string) => [...kinds].map((k) => `pattern ${access} ${TOPIC_ROOT}/%u/${k}`);
  const acl = [
    '# Crownhead: written by `crownhead hub mosquitto-config` (src/stations/access.ts).',
    '# The hub reads and writes every board; a station (user = its board id) its own board only,',
    "# and reads any board's claim, status, game and records (the far board of a two-board game).",
    `user ${HUB_USER}`,
    `topic readwrite ${TOPIC_ROOT}/#`,
    '',
    ...own(STATION_PUBLISHES, 'write'),
    ...own(['paired', 'ack', 'cmd'] as StationTopic[], 'read'),
    ...[...STATION_READS_ANY].map((k) => `pattern read ${TOPIC_ROOT}/+/${k}`),
    `pattern write ${TOPIC_ROOT}/+/cmd`,
    '',
  ].join('\n');
  return { passwd, acl };
}
