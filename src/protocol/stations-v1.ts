// The station–hub protocol, version 1: what goes over MQTT between a station
// (one board, its own journal) and the hub (club mode mirroring it), one zod
// schema per topic of src/stations/topics.ts, the types inferred from it.
//
// Station → hub:  status (retained; the will says offline), game (retained:
//                 the current game's id and its new-game record), entry (each
//                 journal record of a game with its sequence number, QoS 1),
//                 alert, clock, answer (a command's outcome).
// Hub → station:  ack (retained: how many records of which game the hub has
//                 applied), cmd (a command or a request to send records again).
// Every payload travels sealed with its sender's key (src/stations/envelope.ts);
// the pairing messages are src/stations/pairing.ts's.
//
// A journal record travels as the station's journal wrote it, checked by the
// journal's own schema (src/model/journal.ts: JournalEntry), whose sentence
// for a bad record src/stations/messages.ts gives.

import * as z from 'zod/mini';
import { Command } from './v1.ts';
import { Alert } from '../model/board.ts';
import { ClockState } from '../model/clock.ts';
import { JournalEntry } from '../model/journal.ts';
import { BoardSummary } from './club-v1.ts';

export const STATIONS_PROTOCOL_VERSION = 1;

const int = () => z.number().check(z.int());
const count = () => z.number().check(z.int(), z.gte(0));
const id = () => z.string().check(z.minLength(1), z.maxLength(80));

/** The station and its board: online (retained) or gone (the will, or a clean stop). */
export const StationStatus = z.object({
  v: z.literal(1),
  board: id(),
  online: z.boolean(),
  /** the board in words (station side) */
  description: z.string(),
  /** the station's own page, when it says where */
  url: z.optional(z.string()),
  /** the board at a glance, as the station sees it (absent in the will) */
  summary: z.optional(BoardSummary),
  at: z.number(),
  /** online: the counter of the will this station's connection left with the broker (only that will, or a newer status, says it went) */
  will: z.optional(z.number().check(z.int(), z.gte(0))),
});
export type StationStatus = z.infer<typeof StationStatus>;

/** The game being played (retained): its id, its header (the new-game record) and how many records it has so far. */
export const StationGame = z.object({
  v: z.literal(1),
  gameId: id(),
  count: count(),
  at: z.number(),
  /** the game's header: its new-game record (tags, start position, rules) */
  start: z.optional(JournalEntry),
  /** a game between two boards: the far board, and its game this one is linked to (once this station has read it) */
  far: z.optional(z.object({ board: id(), gameId: z.optional(id()) })),
});
export type StationGame = z.infer<typeof StationGame>;

/**
 * One journal record of a game: `seq` counts from 0 (the new-game record);
 * a new game's first record names the game before it and how many records
 * that one ended with, so the hub can tell it has every record of it.
 */
export const StationEntry = z.object({
  v: z.literal(1),
  gameId: id(),
  seq: count(),
  entry: JournalEntry,
  prev: z.optional(z.nullable(z.object({ gameId: id(), count: count() }))),
});
export type StationEntry = z.infer<typeof StationEntry>;

/** The hub has applied records 0..next-1 of this game (retained, per board). */
export const HubAck = z.object({ v: z.literal(1), gameId: id(), next: count() });
export type HubAck = z.infer<typeof HubAck>;

/** What the hub asks a station: records it is missing, or a player's / the arbiter's command. */
export const CommandBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('resend'), gameId: id(), from: count(), to: count() }),
  z.object({ kind: z.literal('command'), id: id(), command: Command }),
]);
export type CommandBody = z.infer<typeof CommandBody>;

/** A station's answer to a command (by its id): done, or refused with the reason. */
export const CommandAnswer = z.object({
  v: z.literal(1),
  id: id(),
  ok: z.boolean(),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
});
export type CommandAnswer = z.infer<typeof CommandAnswer>;

export const StationAlert = z.object({ v: z.literal(1), gameId: z.string(), alert: z.nullable(Alert), at: z.number() });
export type StationAlert = z.infer<typeof StationAlert>;

export const StationClock = z.object({ v: z.literal(1), gameId: z.string(), clock: ClockState, at: z.number() });
export type StationClock = z.infer<typeof StationClock>;

/** Messages the hub dropped for one board (or for boards nobody paired): how many, the last reason, when, and the last refused claim. */
export const Refusals = z.object({
  count: count(),
  last: z.string(),
  at: z.number(),
  claim: z.optional(z.string()),
});
export type Refusals = z.infer<typeof Refusals>;

/** GET /api/stations on a hub: every paired board (its station's key fingerprint, online or not, what was refused from it), what came for boards nobody paired, and the hub's own link to the broker. */
export const StationsList = z.object({
  stations: z.array(z.object({ board: id(), key: z.string(), online: z.boolean(), refused: z.nullable(Refusals) })),
  unpaired: z.nullable(Refusals),
  /** while it is down, what the stations do is not known on the hub */
  broker: z.object({ connected: z.boolean(), since: z.number() }),
});
export type StationsList = z.infer<typeof StationsList>;
