// The page–server protocol, version 1: one schema for everything that goes
// over the WebSocket (and the JSON the HTTP API shares with it), with the
// TypeScript types inferred from it. The session builds a `Snapshot` and
// `GameEvent`s of exactly these types, the server sends them as they are
// (no second check), and the page parses each message once with
// `ServerMessage` and uses the parsed value directly. zod/mini keeps it small
// enough for the page bundle.
//
// Server → page:  hello (on connect: server info + snapshot), state (snapshot),
//                 event (a game event + the snapshot after it), counts (live
//                 board occupancy while pieces move), clock (ticks),
//                 ok / error (replies to commands), pong.
// Page → server:  hello (ask for the snapshot again), command (with an
//                 optional id echoed in the reply, and the control token when
//                 the server is not on loopback), ping.

import * as z from 'zod/mini';
import { StorageHealth, StorageProblem } from './storage-v1.ts';

export * from './storage-v1.ts';

export const PROTOCOL_VERSION = 1;
/** Largest client message accepted (bytes). */
export const MAX_CLIENT_MESSAGE = 16 * 1024;

const int = () => z.number().check(z.int());
const nonNeg = () => z.number().check(z.gte(0));

export const Side = z.enum(['black', 'white']);
export type Side = z.infer<typeof Side>;
export const Square = z.number().check(z.int(), z.gte(1), z.lte(32));

export const Result = z.enum(['1-0', '0-1', '1/2-1/2', '*', '2-0', '0-2', '1-1', '0-0']);
export type Result = z.infer<typeof Result>;

/** One thing to do on one square to put the board right. */
export const Fix = z.object({
  square: Square,
  /** put a piece there, or take coins away */
  action: z.enum(['place', 'remove']),
  /** what to place (or what stands there to remove), e.g. "a black man" */
  piece: z.string(),
  coins: int(),
});
export type Fix = z.infer<typeof Fix>;

/** An illegal board: a category (open-ended: tracking may add kinds), a sentence, the squares to fix. */
export const Alert = z.object({
  category: z.string(),
  message: z.string(),
  squares: z.array(Square),
  fixes: z.array(Fix),
  /** frame time the alert was raised */
  t: z.number(),
  /**
   * The retraction rule: the piece moved incorrectly, which has a legal move
   * and must (in tournament mode) make the correction: its square and its moves.
   */
  retract: z.optional(z.object({ square: Square, moves: z.array(z.string()), capture: z.boolean() })),
});
export type Alert = z.infer<typeof Alert>;

/**
 * A board part-way through a legal move that has stood a while (captured coins
 * still on, a crown not yet placed), or a coin lying magnet-up: a quiet
 * reminder, never a buzzer.
 */
export const Reminder = z.object({
  category: z.string(),
  message: z.string(),
  squares: z.array(Square),
  /** frame time the reminder was raised */
  t: z.number(),
});
export type Reminder = z.infer<typeof Reminder>;

export const BoardStatus = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setup'), fixes: z.array(Fix), message: z.string() }),
  z.object({ kind: z.literal('in-sync'), reminder: z.optional(Reminder) }),
  z.object({ kind: z.literal('moving'), reminder: z.optional(Reminder) }),
  z.object({ kind: z.literal('awaiting-crown'), square: Square }),
  z.object({ kind: z.literal('illegal'), alert: Alert }),
]);
export type BoardStatus = z.infer<typeof BoardStatus>;

export const Piece = z.object({ square: Square, color: Side, king: z.boolean() });
export type Piece = z.infer<typeof Piece>;

/** A move of the game record, derived from the rules game's plies. */
export const MoveRecord = z.object({
  /** index in the game's plies (0-based) */
  ply: int(),
  /** PDN move number */
  number: int(),
  side: Side,
  /** PDN text: "11-15", "15x24", "1x10x19" where routes must be told apart */
  text: z.string(),
  from: Square,
  to: Square,
  /** every square landed on (the last is `to`) */
  path: z.array(Square),
  captures: z.array(Square),
  crowned: z.boolean(),
  /** huffing: the opponent's piece removed before this move */
  huff: z.nullable(Square),
  /** the mover's time left after the move (ms), with a time control */
  clock: z.nullable(nonNeg()),
});
export type MoveRecord = z.infer<typeof MoveRecord>;

export const EndReason = z.enum(['no-moves', 'resignation', 'agreement', 'time', 'repetition', 'forty-move', 'arbiter']);
export const Outcome = z.object({ winner: z.nullable(Side), reason: EndReason });
export type Outcome = z.infer<typeof Outcome>;

export const ClockState = z.object({
  /** the time control as given, e.g. "5m+3s" */
  control: z.string(),
  black: nonNeg(),
  white: nonNeg(),
  running: z.nullable(Side),
  /** who ran out of time, if anyone */
  flagged: z.nullable(Side),
  /** false until the first move (or "Start clock"): clocks start with play, not with the set-up */
  started: z.boolean(),
  /** ACF time per move only: the move being timed (black/white above are what is left of each side's limit) */
  perMove: z.optional(
    z.object({
      /** whose move is being timed (null before the first) */
      side: z.nullable(Side),
      /** this move's limit (ms): the short one when `forced` */
      limit: nonNeg(),
      /** the mover has exactly one legal capture */
      forced: z.boolean(),
      /** "time" has been called on this side: the limit is reached and the grace period runs */
      timeCalled: z.nullable(Side),
      /** what is left of the grace period (ms); the side loses at 0 */
      graceLeft: nonNeg(),
    }),
  ),
});
export type ClockState = z.infer<typeof ClockState>;

export const CalibrationProgress = z.object({
  step: z.enum(['clear', 'start', 'stack', 'done']),
  square: z.nullable(Square),
  done: int(),
  total: int(),
  message: z.string(),
});
export type CalibrationProgress = z.infer<typeof CalibrationProgress>;

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

/** A move the analysis marks: ply index, ? or ??, the better move and a sentence with both scores. */
export const AnalysisMark = z.object({ ply: int(), mark: z.enum(['?', '??']), better: z.string(), comment: z.string() });
export type AnalysisMark = z.infer<typeof AnalysisMark>;

/** An arbiter's correction of a game, during or after play (club mode): journalled with who and when; the original stays in the journal. */
export const Correction = z.discriminatedUnion('kind', [
  /** the move at `ply` (0-based) was another: `move` in PDN ("11-15", "15x24"); the later moves are kept if they stay legal */
  z.object({ kind: z.literal('replace-move'), ply: int().check(z.gte(0)), move: z.string().check(z.minLength(3), z.maxLength(40)) }),
  /** the moves from `ply` on were never played */
  z.object({ kind: z.literal('delete-moves'), ply: int().check(z.gte(0)) }),
  /** the result the arbiter decides ("*": the game goes on) */
  z.object({ kind: z.literal('set-result'), result: z.enum(['1-0', '0-1', '1/2-1/2', '*']) }),
  /** a side's time left, ms */
  z.object({ kind: z.literal('adjust-clock'), side: Side, ms: int().check(z.gte(0), z.lte(24 * 3600_000)) }),
]);
export type Correction = z.infer<typeof Correction>;

/** A correction as the game's history shows it: when, who, why, and what changed in words. */
export const CorrectionNote = z.object({ at: z.number(), by: z.string(), reason: z.string(), say: z.string() });
export type CorrectionNote = z.infer<typeof CorrectionNote>;

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

// ------------------------------------------------------------------ page additions (s28: engine progress, takeback by consent, sensor view)
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
  /** storage trouble or recovery, with the health as it now stands */
  z.object({ type: z.literal('storage'), ok: z.boolean(), problem: z.optional(StorageProblem), storage: StorageHealth, ...said }),
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

/** One saved game in the archive list (GET /api/archive.json). */
export const ArchiveEntry = z.object({
  id: z.string(),
  event: z.string(),
  black: z.string(),
  white: z.string(),
  date: z.string(),
  result: z.string(),
  /** plies in the record (null when the file cannot be read) */
  plies: z.nullable(int()),
  modified: z.number(),
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

/** One saved game file as the games folder's listing summarises it (from the PDN's first tags): an archive entry's fields read from the file, and its name. */
export const SavedGame = z.extend(
  z.pick(ArchiveEntry, { id: true, event: true, black: true, white: true, date: true, result: true, modified: true }),
  {
    file: z.string(),
  },
);
export type SavedGame = z.infer<typeof SavedGame>;

/** An entry of the games folder that is not a readable game, and why. */
export const SkippedFile = z.object({ file: z.string(), why: z.string() });
export type SkippedFile = z.infer<typeof SkippedFile>;

/** The games folder's listing (the store's, newest first). */
export const GameList = z.object({
  games: z.array(SavedGame),
  /** entries of the folder that look like games but cannot be read as one */
  skipped: z.array(SkippedFile),
  /** why the folder itself could not be read (then `games` is empty) */
  error: z.optional(z.string()),
});
export type GameList = z.infer<typeof GameList>;

/** GET /api/games: the game in play's id and the games folder's listing. */
export const GameListBody = z.extend(GameList, { current: z.string() });
export type GameListBody = z.infer<typeof GameListBody>;

// ------------------------------------------------------------------ page additions the archive's trash and the builder's sensor view (HTTP JSON, in v1-http.ts)

export { SensorSnapshot, SensorTest, TrashEntry, TrashList } from './v1-http.ts';
