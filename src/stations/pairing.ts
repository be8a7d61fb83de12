// Pairing: which key speaks for which board. A station proves it may join with
// the pairing secret (an HMAC over its board id and its public key, in its
// retained `pair` message, sealed with that key); the hub pins the first key a
// board pairs with (trust on first use) in `stations.json` beside its games and
// answers on the board's `paired` topic — accepted (retained, with the hub's
// own public key and a proof the station checks with the same secret, so the
// station pins the hub's key), or refused, naming the station that holds the
// board. A station pins the hub's key and the far board's key (a game between
// two boards) in `pins.json` in its games folder. Owns the proofs, both files,
// and the station's rule for two stations claiming one board on a bare broker.

import { createHmac, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { fingerprint } from './identity.ts';
import { atomicWrite } from '../storage/disk.ts';

const key = () => z.string().check(z.length(43));
const board = () => z.string().check(z.minLength(1), z.maxLength(64));
const proof = () => z.string().check(z.regex(/^[0-9a-f]{64}$/));

/** A station's claim on a board (retained on crownhead/v1/boards/ID/pair). */
export const StationPair = z.object({
  v: z.literal(1),
  board: board(),
  key: key(),
  /** when this station started reporting the board (the older of two claims keeps it) */
  since: z.number(),
  /** the station's page, to name it to the other side of a clash */
  url: z.optional(z.string().check(z.maxLength(300))),
  proof: proof(),
});
export type StationPair = z.infer<typeof StationPair>;

/** The hub's answer to a claim (retained when accepted): the station's key, the hub's, and a proof with the secret. */
export const HubPaired = z.object({
  v: z.literal(1),
  board: board(),
  station: key(),
  hub: key(),
  ok: z.boolean(),
  /** a refusal: why, in words, naming the station that holds the board */
  reason: z.optional(z.string().check(z.maxLength(400))),
  proof: proof(),
});
export type HubPaired = z.infer<typeof HubPaired>;

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export function pairProof(secret: string, boardId: string, stationKey: string): string {
  return hmac(secret, `pair\n${boardId}\n${stationKey}`);
}

export function pairedProof(secret: string, boardId: string, stationKey: string, hubKey: string, ok: boolean): string {
  return hmac(secret, `paired\n${boardId}\n${stationKey}\n${hubKey}\n${ok}`);
}

/** The proof a claim carries matches the secret for that board and key (compared in constant time). */
export function proofMatches(secret: string, boardId: string, stationKey: string, proof: string): boolean {
  return sameHex(proof, pairProof(secret, boardId, stationKey));
}

/** A claim made with the secret, for the board of its topic and the key that sealed it. */
export function pairChecks(p: StationPair, secret: string, topicBoard: string, sealedBy: string): string | null {
  if (p.board !== topicBoard) return `it names board ${p.board} on board ${topicBoard}'s topic`;
  if (p.key !== sealedBy) return 'it names a key other than the one that signed it';
  if (!sameHex(p.proof, pairProof(secret, p.board, p.key))) return 'its proof does not match the pairing secret (a wrong --hub-secret?)';
  return null;
}

export function pairedChecks(p: HubPaired, secret: string, topicBoard: string, sealedBy: string): string | null {
  if (p.board !== topicBoard) return `it names board ${p.board} on board ${topicBoard}'s topic`;
  if (p.hub !== sealedBy) return 'it names a hub key other than the one that signed it';
  if (!sameHex(p.proof, pairedProof(secret, p.board, p.station, p.hub, p.ok))) return 'its proof does not match the pairing secret';
  return null;
}

/** Reads a small JSON file; absent is `empty`, unreadable or malformed is an error naming the file. */
function readJson<T>(path: string, schema: z.ZodMiniType<T>, empty: T): T {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw new Error(`cannot read ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON: move it aside (the stations then pair again)`);
  }
  const r = z.safeParse(schema, json);
  if (!r.success) throw new Error(`${path} is not a pairing file (${r.error.issues[0]?.message}): move it aside`);
  return r.data;
}

/** Replaces a small JSON file atomically (storage's atomicWrite), readable by its owner only. */
function writeJson(dir: string, path: string, value: unknown): void {
  fs.mkdirSync(dir, { recursive: true });
  atomicWrite(fs, dir, path, JSON.stringify(value, null, 2) + '\n', 0o600);
}

const Registry = z.object({
  v: z.literal(1),
  boards: z.record(z.string(), z.object({ key: key(), pairedAt: z.number() })),
});
type Registry = z.infer<typeof Registry>;

/** The hub's pinned keys, board by board (stations.json in its games folder). */
export class PairingRegistry {
  private readonly file: string;
  private data: Registry;

  constructor(private readonly dir: string) {
    this.file = join(dir, 'stations.json');
    this.data = readJson(this.file, Registry, { v: 1, boards: {} });
  }

  key(boardId: string): string | null {
    return Object.hasOwn(this.data.boards, boardId) ? this.data.boards[boardId]!.key : null;
  }

  boards(): string[] {
    return Object.keys(this.data.boards).sort();
  }

  /** Pins a board's key (kept on disk before it counts). */
  pin(boardId: string, stationKey: string, at: number): void {
    const next: Registry = { v: 1, boards: { ...this.data.boards, [boardId]: { key: stationKey, pairedAt: at } } };
    writeJson(this.dir, this.file, next);
    this.data = next;
  }

  /** Forgets a board's key: the next station to claim it with the secret pairs (a station rebuilt from scratch). */
  forget(boardId: string): boolean {
    if (!this.key(boardId)) return false;
    const boards = { ...this.data.boards };
    delete boards[boardId];
    const next: Registry = { v: 1, boards };
    writeJson(this.dir, this.file, next);
    this.data = next;
    return true;
  }
}

const Pins = z.object({
  v: z.literal(1),
  hub: z.optional(key()),
  /** the last command counter run, so a restart does not reopen old commands */
  commands: z.optional(z.number()),
  peers: z.record(z.string(), key()),
});
type Pins = z.infer<typeof Pins>;

/** A station's pinned keys (the hub's, the far boards') and the last command counter it ran (pins.json in its games folder). */
export class StationPins {
  private readonly file: string;
  private data: Pins;

  constructor(private readonly dir: string) {
    this.file = join(dir, 'pins.json');
    this.data = readJson(this.file, Pins, { v: 1, peers: {} });
  }

  get hub(): string | null {
    return this.data.hub ?? null;
  }

  get lastCommand(): number {
    return this.data.commands ?? 0;
  }

  peer(boardId: string): string | null {
    return Object.hasOwn(this.data.peers, boardId) ? this.data.peers[boardId]! : null;
  }

  private save(next: Pins): void {
    writeJson(this.dir, this.file, next);
    this.data = next;
  }

  pinHub(k: string): void {
    if (this.data.hub !== k) this.save({ ...this.data, hub: k });
  }

  pinPeer(boardId: string, k: string): void {
    if (this.peer(boardId) !== k) this.save({ ...this.data, peers: { ...this.data.peers, [boardId]: k } });
  }

  ranCommand(n: number): void {
    this.save({ ...this.data, commands: n });
  }
}

/** The hub's command counter kept in its games folder (hub-counter.json): a restarted hub's commands stay newer than any before. */
export function counterFile(dir: string): { read(): number; write(n: number): void } {
  const file = join(dir, 'hub-counter.json');
  const Kept = z.object({ v: z.literal(1), n: z.number().check(z.int(), z.gte(0)) });
  return {
    read: () => readJson(file, Kept, { v: 1, n: 0 }).n,
    write: (n) => writeJson(dir, file, { v: 1, n }),
  };
}

/** Two stations' claims on one board: the older keeps it (ties: the smaller key). True when `a` keeps it against `b`. */
export function keeps(a: { since: number; key: string }, b: { since: number; key: string }): boolean {
  return a.since !== b.since ? a.since < b.since : a.key < b.key;
}

/** A station named for people: its fingerprint and, when it said, its page. */
export function describeStation(p: { key: string; url?: string }): string {
  return `key ${fingerprint(p.key)}${p.url ? `, page ${p.url}` : ''}`;
}
