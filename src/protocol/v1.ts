// The page–server protocol, version 1: one schema for everything that goes
// over the WebSocket (and the JSON the HTTP API shares with it), with the
// TypeScript types inferred from it. The session builds a `Snapshot` and
// `GameEvent`s of exactly these types, the server sends them as they are
// (no second check), and the page parses each message once with
// `ServerMessage` and uses the parsed value directly. zod/mini keeps it small
// enough for the page bundle. The domain's vocabulary these messages carry
// (a side, a square, a move record, an alert, the clocks, the storage
// health…) is the model's (src/model/), re-exported here for the page; this
// file owns the page's messages only.
//
// Server → page:  hello (on connect: server info + snapshot), state (snapshot),
//                 event (a game event + the snapshot after it), counts (live
//                 board occupancy while pieces move), clock (ticks),
//                 ok / error (replies to commands), pong.
// Page → server:  hello (ask for the snapshot again), command (with an
//                 optional id echoed in the reply, and the control token when
//                 the server is not on loopback), ping.

import * as z from 'zod/mini';
import { AnalysisMark, Correction, CorrectionNote, MoveRecord, Outcome, Piece, Result, Side, Square } from '../model/game.ts';
import { Alert, BoardStatus, CalibrationProgress, Fix } from '../model/board.ts';
import { ClockState } from '../model/clock.ts';
import { GameList, SavedGame, StorageEvent, StorageHealth } from '../model/storage.ts';

// The domain's vocabulary is the model's (src/model/): re-exported here, so the page imports everything it parses from one place.
export * from '../model/game.ts';
export * from '../model/board.ts';
export * from '../model/clock.ts';
export * from '../model/storage.ts';
export * from '../model/egdb.ts';

export const PROTOCOL_VERSION = 1;
/** Largest client message accepted (bytes). */
export const MAX_CLIENT_MESSAGE = 16 * 1024;

const int = () => z.number().check(z.int());
const nonNeg = () => z.number().check(z.gte(0));

export const GameOptionsView = z.object({
  huffing: z.boolean(),
  crownContinue: z.boolean(),
  autoDraw: z.boolean(),
  tournament: z.boolean(),
  firstPlayer: Side,
});

/** Playing the computer: its side and level, whether it is thinking, and the move it wants carried out on the board. */
export const ComputerState = z.object({
  side: Side,
  level: z.number().check(z.int(), z.gte(1), z.lte(10)),
  thinking: z.boolean(),
  move: z.nullable(z.object({ text: z.string(), from: Square, path: z.array(Square), captures: z.array(Square) })),
});
export type ComputerState = z.infer<typeof ComputerState>;

/** Playing someone at another board (a game between two stations): their side and name, and their move waiting to be carried out here. */
export const RemoteSetting = z.object({
  side: Side,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  /** the games of one pairing share it on both boards: the far board's next game with another starts the same game here */
  link: z.optional(z.string().check(z.maxLength(100))),
  /** where they play from: another board (absent), or a browser (a friend with no board: src/server/seat.ts) */
  where: z.optional(z.literal('browser')),
});
export type RemoteSetting = z.infer<typeof RemoteSetting>;
/** The way to the other board, as this station last knew it: their station online or gone, or the broker out of reach; since when (ms). */
export const RemoteLink = z.object({ state: z.enum(['online', 'offline', 'unreachable']), since: z.number() });
export type RemoteLink = z.infer<typeof RemoteLink>;
export const RemoteState = z.object({
  side: Side,
  name: z.string(),
  /** null until this station has heard of the other board */
  link: z.optional(z.nullable(RemoteLink)),
  /** a browser: a friend with no board, on their seat page (absent: at another board) */
  where: z.optional(z.literal('browser')),
  move: z.nullable(z.object({ text: z.string(), from: Square, path: z.array(Square), captures: z.array(Square) })),
});
export type RemoteState = z.infer<typeof RemoteState>;

/** The whole state of the game at the table, as the page draws it. */
export const Snapshot = z.object({
  version: z.literal(1),
  gameId: z.string(),
  tags: z.record(z.string(), z.string()),
  options: GameOptionsView,
  ballot: z.nullable(int()),
  startFen: z.string(),
  /** pieces of the start position (the page replays `moves` from here to review) */
  start: z.array(Piece),
  fen: z.string(),
  /** pieces of the game position */
  pieces: z.array(Piece),
  turn: Side,
  moves: z.array(MoveRecord),
  status: BoardStatus,
  /** counts per square, and how sure the reader is of each (0–1) */
  board: z.object({
    counts: z.array(int()),
    confidence: z.array(z.number()),
    calibrated: z.boolean(),
    differences: z.array(Square),
    connected: z.boolean(),
    source: z.string(),
    detail: z.string(),
  }),
  result: Result,
  outcome: z.nullable(Outcome),
  drawOffer: z.nullable(Side),
  drawClaim: z.nullable(z.enum(['repetition', 'forty-move'])),
  clock: z.nullable(ClockState),
  /** the explicit calibration routine's progress while it runs */
  calibration: z.nullable(CalibrationProgress),
  /** playing the computer (absent or null: two players) */
  computer: z.optional(z.nullable(ComputerState)),
  /** playing someone at another board (absent or null: both players are here) */
  remote: z.optional(z.nullable(RemoteState)),
  /** the engine's analysis of the finished game: its mistakes (?) and blunders (??) with the better move (absent or null: none asked for) */
  analysis: z.optional(
    z.nullable(
      z.object({
        running: z.boolean(),
        marks: z.array(AnalysisMark),
        /** while it runs: moves judged so far, of `total` (the game's plies) */
        done: z.optional(int()),
        total: z.optional(int()),
      }),
    ),
  ),
  /** the engine is working out a hint (the page shows a spinner and does not ask twice) */
  hinting: z.optional(z.boolean()),
  /** two players: the side that asked to take back the last move, waiting for the other's answer (absent or null: none) */
  takebackOffer: z.optional(z.nullable(Side)),
  /** the arbiter's corrections of this game, oldest first (absent: none) */
  corrections: z.optional(z.array(CorrectionNote)),
  /** the evaluation bar (absent or null: off): the engine's score of the position, hundredths of a man from Black's view (null while it thinks), and in words */
  evaluation: z.optional(z.nullable(z.object({ score: z.nullable(z.number()), text: z.string() }))),
});
export type Snapshot = z.infer<typeof Snapshot>;

/**
 * What changed in the state since the page's last one (an event's message
 * carries this instead of the whole snapshot): the top-level parts replaced
 * (`set`), the optional ones gone (`unset`), and the moves as a prefix kept
 * plus the moves after it. `base` is the revision it applies to, `rev` the
 * one it makes; folded by src/protocol/state-patch.ts on both sides.
 */
export const StatePatch = z.object({
  base: z.number().check(z.int(), z.gte(0)),
  rev: z.number().check(z.int(), z.gte(0)),
  set: z.partial(Snapshot),
  unset: z.optional(z.array(z.string().check(z.maxLength(40)))),
  moves: z.optional(z.object({ keep: z.number().check(z.int(), z.gte(0)), add: z.array(MoveRecord) })),
});
export type StatePatch = z.infer<typeof StatePatch>;

/** A station's own link to the broker it reports to (`crownhead station`): up or down, since when (ms). */
export const HubLink = z.object({
  url: z.string(),
  connected: z.boolean(),
  since: z.number(),
  /** the hub has taken none of these records for a while (null or absent: it takes them, or no hub has paired) */
  behind: z.optional(z.nullable(z.object({ records: z.number().check(z.int(), z.gte(1)), since: z.number() }))),
});
export type HubLink = z.infer<typeof HubLink>;

export const ServerInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** this page may only watch */
  readOnly: z.boolean(),
  /** other devices need the control token to control the game */
  tokenRequired: z.boolean(),
  /** the simulated board (the page shows the hand) */
  sim: z.boolean(),
  source: z.string(),
  board: z.string(),
  fallback: z.nullable(z.string()),
  storage: StorageHealth,
  gamesDir: z.optional(z.string()),
  /** a station: its link to the broker (changes come as hub-link events) */
  hub: z.optional(HubLink),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

const said = { say: z.string() };

// ------------------------------------------------------------------ page additions (engine progress, takeback by consent, sensor view)
// Events: "coach" (the coach's state in the snapshot changed: a hint started
// or ended, the analysis moved on; nothing to say); "takeback-offer" (two
// players: a side asks to take back; null: the offer was declined).
const CoachEvent = z.object({ type: z.literal('coach'), ...said });
const TakebackOfferEvent = z.object({ type: z.literal('takeback-offer'), side: z.nullable(Side), ...said });

/** Every event the page hears, discriminated by `type`; `say` is the sentence spoken and logged. */
export const GameEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new-game'), ...said }),
  z.object({ type: z.literal('move'), move: MoveRecord, ...said }),
  z.object({ type: z.literal('move-replaced'), move: MoveRecord, ...said }),
  z.object({ type: z.literal('takeback'), ...said }),
  /** the arbiter corrected the game (a move replaced or deleted, a result, a clock): in its history, with who and why */
  z.object({ type: z.literal('corrected'), correction: CorrectionNote, ...said }),
  z.object({ type: z.literal('crown-awaited'), square: Square, ...said }),
  z.object({ type: z.literal('crowned'), square: Square, ...said }),
  /** an illegal board: buzzer, tone, assertive announcement */
  z.object({ type: z.literal('alert'), alert: Alert, ...said }),
  z.object({ type: z.literal('alert-cleared'), ...said }),
  z.object({ type: z.literal('setup'), fixes: z.array(Fix), ...said }),
  z.object({ type: z.literal('ready'), ...said }),
  z.object({ type: z.literal('board'), connected: z.boolean(), ...said }),
  z.object({ type: z.literal('tags'), ...said }),
  z.object({ type: z.literal('draw-offer'), side: z.nullable(Side), ...said }),
  z.object({ type: z.literal('game-over'), result: Result, outcome: Outcome, ...said }),
  z.object({ type: z.literal('calibration'), progress: CalibrationProgress, ...said }),
  z.object({ type: z.literal('calibrated'), ...said }),
  /**
   * A quiet notice, never a buzzer or an alert tone: a "reminder" (e.g. a move
   * left incomplete: "take the captured man off 18") or plain "info". Shown
   * softly and spoken politely; `squares` are highlighted gently.
   */
  z.object({ type: z.literal('notice'), level: z.enum(['reminder', 'info']), squares: z.array(Square), ...said }),
  /** the analysis of the finished game is done (marks in the snapshot) */
  z.object({ type: z.literal('analysis'), ...said }),
  /** the evaluation bar has a new score (in the snapshot); nothing to say */
  z.object({ type: z.literal('evaluation'), ...said }),
  /** the computer's move, to be carried out on the board by the player (the board is checked against exactly it) */
  z.object({ type: z.literal('computer-move'), text: z.string(), from: Square, path: z.array(Square), captures: z.array(Square), ...said }),
  /** the move of the player at the other board, to be carried out here (the board is checked against exactly it) */
  z.object({ type: z.literal('remote-move'), text: z.string(), from: Square, path: z.array(Square), captures: z.array(Square), ...said }),
  /** the way to the other board changed (their station gone or back, the broker out of reach or back): in the snapshot's remote.link */
  z.object({ type: z.literal('remote-link'), ...said }),
  /** a station's own link to its broker changed (not the session's: the station says it) */
  z.object({ type: z.literal('hub-link'), hub: HubLink, ...said }),
  /** ACF time per move: "time" is called on `side` (its limit reached); it loses if it has not moved when `graceMs` is over */
  z.object({ type: z.literal('time'), side: Side, graceMs: nonNeg(), ...said }),
  /** storage trouble or recovery, with the health as it now stands (the store's own event: src/model/storage.ts) */
  StorageEvent,
  CoachEvent,
  TakebackOfferEvent,
]);
export type GameEvent = z.infer<typeof GameEvent>;
export type GameEventType = GameEvent['type'];

export const Command = z.discriminatedUnion('name', [
  z.object({
    name: z.literal('new-game'),
    fen: z.optional(z.string().check(z.maxLength(200))),
    ballot: z.optional(z.union([z.number().check(z.int(), z.gte(1), z.lte(174)), z.literal('random')])),
    /** an eleven-man ballot (one man off each side, then the opening) */
    elevenMan: z.optional(z.union([z.number().check(z.int(), z.gte(1), z.lte(2400)), z.literal('random')])),
    /** a random ballot draw skips the mail-play ballots too (barred ones are always skipped) */
    crossboardOnly: z.optional(z.boolean()),
    firstPlayer: z.optional(z.enum(['black', 'white', 'random'])),
    tags: z.optional(z.record(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/)), z.string().check(z.maxLength(200)))),
    /** e.g. "5m+3s", "40/90m,30m", "5m/move,1m/forced"; "" for no clock; absent: the service's default */
    timeControl: z.optional(z.string().check(z.maxLength(60))),
    /** tournament mode for this game: no hints, no evaluation bar, takebacks only by the arbiter (absent: the service's) */
    tournament: z.optional(z.boolean()),
    /** rules variants for this game (absent: the service's defaults) */
    rules: z.optional(z.object({ huffing: z.optional(z.boolean()), crownContinue: z.optional(z.boolean()) })),
    /** play the computer: its side and level 1–10 (null: two players; absent: the service's default) */
    computer: z.optional(z.nullable(z.object({ side: Side, level: z.number().check(z.int(), z.gte(1), z.lte(10)) }))),
    /** the player of this side is at another board (their moves come with remote-move); null or absent: both are here */
    remote: z.optional(z.nullable(RemoteSetting)),
  }),
  /** the move of the player at the other board: the ply's index (0-based), its squares, their clock after it (ms) */
  z.object({
    name: z.literal('remote-move'),
    ply: int().check(z.gte(0)),
    path: z.array(Square).check(z.minLength(2), z.maxLength(10)),
    clockMs: z.optional(z.number().check(z.gte(-3_600_000), z.lte(86_400_000))),
  }),
  z.object({
    name: z.literal('set-tags'),
    tags: z.record(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/)), z.string().check(z.maxLength(200))),
  }),
  z.object({ name: z.literal('resign'), side: Side }),
  z.object({ name: z.literal('offer-draw'), side: Side }),
  z.object({ name: z.literal('accept-draw'), side: Side }),
  z.object({ name: z.literal('decline-draw') }),
  z.object({ name: z.literal('claim-draw') }),
  /** take back the last move: two players, `side` asks and the other side answers (takeback-answer); against the computer, or without `side`, at once */
  z.object({ name: z.literal('takeback'), side: z.optional(Side) }),
  /** the other side's answer to a takeback asked for */
  z.object({ name: z.literal('takeback-answer'), accept: z.boolean() }),
  /** stop the engine's work the page asked for: the analysis, or a hint */
  z.object({ name: z.literal('cancel'), what: z.enum(['analysis', 'hint']) }),

  /** the coach: the engine's suggestion for the side to move, said quietly (refused in tournament mode) */
  z.object({ name: z.literal('hint') }),
  /** after the game: the engine marks its mistakes and blunders (shown in review, written into the PDN on request) */
  z.object({ name: z.literal('analyse') }),
  /** the evaluation bar on or off (the engine's view of the position after each move; refused in tournament mode) */
  z.object({ name: z.literal('evaluation'), on: z.boolean() }),
  z.object({ name: z.literal('calibrate') }),
  z.object({ name: z.literal('clock-start') }),
  /** after a game: the other side of the same ballot (sides and names swapped), or the next game (first player alternating) */
  z.object({ name: z.literal('next-game'), kind: z.enum(['other-side', 'next']) }),
  z.object({ name: z.literal('clock-pause') }),
  /** Simulated board only: the "hand" on the page. */
  z.object({
    name: z.literal('hand'),
    action: z.enum(['place', 'lift', 'set']),
    square: Square,
    coins: z.optional(z.number().check(z.int(), z.gte(0), z.lte(2))),
  }),
  /** Simulated board only: put the game's position on the board. */
  z.object({ name: z.literal('hand-setup') }),
  /** The arbiter corrects the game (needs the control token): who (a name) and why are recorded with it. */
  z.object({
    name: z.literal('correct'),
    correction: Correction,
    by: z.optional(z.string().check(z.maxLength(60))),
    reason: z.optional(z.string().check(z.maxLength(200))),
  }),
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

export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ v: z.literal(1), type: z.literal('hello'), server: ServerInfo, state: Snapshot, rev: z.optional(z.number()) }),
  z.object({ v: z.literal(1), type: z.literal('state'), state: Snapshot, rev: z.optional(z.number()) }),
  // An event with the state after it: the whole snapshot (`state`), or what changed since the page's last (`patch`).
  z.object({
    v: z.literal(1),
    type: z.literal('event'),
    event: GameEvent,
    state: z.optional(Snapshot),
    patch: z.optional(StatePatch),
    rev: z.optional(z.number()),
  }),
  z.object({ v: z.literal(1), type: z.literal('counts'), counts: z.array(int()), differences: z.array(Square), status: BoardStatus }),
  z.object({ v: z.literal(1), type: z.literal('clock'), clock: ClockState }),
  z.object({ v: z.literal(1), type: z.literal('ok'), id: z.optional(z.string()) }),
  z.object({ v: z.literal(1), type: z.literal('error'), id: z.optional(z.string()), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(1), type: z.literal('pong') }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

// ------------------------------------------------------------------ the archive (HTTP JSON)

/** One saved game in the archive list (GET /api/archive.json): the games folder's summary of it (src/model/storage.ts), less the file name, with its plies and whether it is in play. */
export const ArchiveEntry = z.extend(z.omit(SavedGame, { file: true }), {
  /** plies in the record (null when the file cannot be read) */
  plies: z.nullable(int()),
  /** the game being played now */
  current: z.boolean(),
});
export type ArchiveEntry = z.infer<typeof ArchiveEntry>;

/** A saved game to replay on the page (GET /api/games/:id.json). */
export const GameRecord = z.object({
  id: z.string(),
  tags: z.record(z.string(), z.string()),
  startFen: z.string(),
  start: z.array(Piece),
  moves: z.array(MoveRecord),
  result: Result,
});
export type GameRecord = z.infer<typeof GameRecord>;

// ------------------------------------------------------------------ the HTTP API's bodies
// What every HTTP route answers (src/server/http.ts, src/server/archive.ts),
// besides the shapes above it shares with the WebSocket (GET /api/state is a
// Snapshot, GET /api/games/:id.json a GameRecord).
// The routes check their bodies against these types (`satisfies`); the page
// parses what it fetches with them.

/** Every refusal or failure of the HTTP API: a code a program can test, a message a person can read. */
export const ApiErrorBody = z.object({ ok: z.literal(false), code: z.string(), message: z.string() });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** GET /api/info: the server's description as the asking page may use it (ServerInfo less tokenRequired, which pages learn in their hello). */
export const ServerInfoBody = z.omit(ServerInfo, { tokenRequired: true });
export type ServerInfoBody = z.infer<typeof ServerInfoBody>;

/** Done, nothing more to say (DELETE /api/games/:id). */
export const ApiOkBody = z.object({ ok: z.literal(true) });
export type ApiOkBody = z.infer<typeof ApiOkBody>;

/** A command carried out (POST /api/command): the state after it. */
export const CommandReplyBody = z.object({ ok: z.literal(true), state: Snapshot });
export type CommandReplyBody = z.infer<typeof CommandReplyBody>;

/** The archive list (GET /api/archive.json): every saved game, the game in play (`current`) always among them. */
export const ArchiveList = z.object({ current: z.string(), games: z.array(ArchiveEntry) });
export type ArchiveList = z.infer<typeof ArchiveList>;

/** GET /api/games: the game in play's id and the games folder's listing. */
export const GameListBody = z.extend(GameList, { current: z.string() });
export type GameListBody = z.infer<typeof GameListBody>;

// ------------------------------------------------------------------ page additions the archive's trash and the builder's sensor view (HTTP JSON, in v1-http.ts)

export { SensorSnapshot, SensorTest, TrashEntry, TrashList } from './v1-http.ts';
