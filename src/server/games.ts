// Where a room's games are played: at this board (its session journals them,
// starts the first one, runs the clocks and its players' commands), or on a
// station (a hub's remote board, src/stations/: the room's session is a copy
// followed from the station's records, src/game/mirror.ts; games start and
// commands run on the station, its clocks tick there, and the broadcast gives
// its record with the hub's tags it lacks). A room is given one at
// construction (gamesFor) and asks it what differs; it never asks which.

import type { Command } from '../protocol/v1.ts';
import { GameSession, pdnRecord, type SessionOptions } from '../game/index.ts';
import { MirroredGame } from '../game/mirror.ts';
import { makePdn, readPdn, type PdnGame } from '../pdn/index.ts';
import type { BoardSource } from '../sensors/source.ts';
import { runCommand } from './commands.ts';

/** A board on a station (src/stations/remote.ts): its room mirrors the station's game, its commands go to the station (settled by its answer). */
export interface StationBoard extends BoardSource {
  readonly kind: 'station';
  command(command: Command): Promise<void>;
}

const isStation = (s: BoardSource | undefined): s is StationBoard => s?.kind === 'station';

/** The first game asked for when no unfinished one is resumed (the room's StartPosition). */
type FirstGame = Parameters<GameSession['newGame']>[0];

/** What differs between a board's games played here and a station's followed here. */
export interface RoomGames {
  /** the game as the room's pages, feed, PDN and director read it */
  readonly session: GameSession;
  /** A friend's seat may be given at this board (a station's board: its seat is the station's own). */
  readonly seats: boolean;
  /** The first game when none was resumed: started here; a station's comes with its records. */
  firstGame(start: FirstGame): void;
  /** Runs a player's, the director's or the arbiter's command on the game: here (on `board`), or on the station (settled by its answer). */
  command(c: Command, board: BoardSource): void | Promise<void>;
  /** Runs the game's clocks (flags, time called) every `ms`; returns the stop. */
  runClocks(ms: number): () => void;
  /** The live game's record as the broadcast gives it, with `tags` (the service's, of the board it is listed at) where it lacks them; `own`: its PDN as the room keeps it (room-record.ts). */
  broadcastPdn(tags: Readonly<Record<string, string>>, own: () => string): string;
  /** A saved game's record (its PDN text) as a tournament round's broadcast gives it. */
  savedPdn(text: string, tags: Readonly<Record<string, string>>): string;
}

/** The games of a board here: its session journals them (through `options.journal`). */
export class LocalGames implements RoomGames {
  readonly session: GameSession;
  readonly seats = true;
  constructor(options: SessionOptions) {
    this.session = new GameSession(options);
  }
  firstGame(start: FirstGame): void {
    this.session.newGame(start);
  }
  command(c: Command, board: BoardSource): void {
    runCommand(this.session, board, c);
  }
  runClocks(ms: number): () => void {
    const tick = setInterval(() => this.session.tick(), ms);
    tick.unref();
    return () => clearInterval(tick);
  }
  broadcastPdn(_tags: Readonly<Record<string, string>>, own: () => string): string {
    return own();
  }
  savedPdn(text: string): string {
    return text;
  }
}

/** The games of a station's board: followed from its records (the hub's Mirror, src/stations/mirror.ts, hands them to `mirror`). */
export class StationGames implements RoomGames {
  readonly mirror: MirroredGame;
  readonly seats = false;
  constructor(
    private readonly station: StationBoard,
    options: SessionOptions,
  ) {
    this.mirror = new MirroredGame(options);
  }
  get session(): GameSession {
    return this.mirror.session;
  }
  /** (The station's records bring its game.) */
  firstGame(): void {}
  command(c: Command): Promise<void> {
    return this.station.command(c);
  }
  /** (Its clocks run on the station: their readings come with its records.) */
  runClocks(): () => void {
    return () => undefined;
  }
  broadcastPdn(tags: Readonly<Record<string, string>>): string {
    return withTags(pdnRecord(this.session.table), tags);
  }
  savedPdn(text: string, tags: Readonly<Record<string, string>>): string {
    const saved = readPdn(text).games[0];
    return saved ? withTags(saved, tags) : text;
  }
}

/** A room's games: a station's board's followed from its station, any other's played here (journalled with `journal`). */
export function gamesFor(board: BoardSource | undefined, options: SessionOptions, journal: SessionOptions['journal']): RoomGames {
  return isStation(board) ? new StationGames(board, options) : new LocalGames({ ...options, journal });
}

/** A record with the service's tags it lacks (a station's game as a club's or a hub's broadcast lists it). */
export function withTags(record: PdnGame, serviceTags: Readonly<Record<string, string>>): string {
  const has = new Set(record.tags.map(([k]) => k));
  const extra = Object.entries(serviceTags).filter(([k]) => !has.has(k));
  return makePdn(extra.length ? { ...record, tags: [...record.tags, ...extra] } : record);
}
