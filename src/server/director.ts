// The tournament director: club mode's tournament (src/tournament/) tied to the
// rooms. Board N of a round is the room numbered N. Starting a round puts
// each board's first game on it (the session's new game with the round's
// tags and ballot, then the tournament's note that it began); a game's end
// (at the board or by the arbiter) is recorded as the board's result and the
// board's next game of the round (the other side of the ballot) follows. At
// start-up the newest tournament in the games folder is opened and squared
// with the rooms: a game the boards began or finished while the tournament's
// note of it was lost (a crash in between) is noted now, from the session or
// the game's saved record. The tournament journals before it answers; the
// sessions journal their games; neither is ever rewritten. A result the
// arbiter sets in the tournament reaches the game itself: the game still on
// its board is corrected there (the `correct` command, journalled with who
// and why), a game the board has moved on from gets its saved PDN rewritten
// with the result and the correction's comment; either way the broadcast
// moves on, so standings, PDN and /broadcast.pdn agree.

import type { Logger } from 'pino';
import {
  Tournament,
  TournamentError,
  boardProblem,
  gameById,
  parsePairingList,
  gameOfTags,
  tournamentFiles,
  tournamentResult,
  type GameToPlay,
  type TournamentEvent,
  type TournamentSettings,
  type TournamentState,
} from '../tournament/index.ts';
import { correctedRecord } from '../game/corrected-record.ts';
import { readPdn, type PdnResult } from '../pdn/index.ts';
import type { SessionEvent } from '../game/index.ts';
import type { Room } from './room.ts';
import { SessionError } from '../game/errors.ts';
import { unwrap } from '../common/result.ts';

export class Director {
  tournament: Tournament | null = null;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly rooms: readonly Room[],
    private readonly dir: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    /** a saved game's record was rewritten (the broadcast moves on) */
    private readonly recordChanged: () => void = () => undefined,
  ) {
    for (const room of rooms) this.watchRoom(room);
  }

  /** Follows a room's games (each room of the list at the start; a board added later when it joins the list). */
  watchRoom(room: Room): void {
    this.offs.push(room.session.on((e) => this.sessionEvent(room, e)));
  }

  /** Opens the newest tournament of the games folder, if any, and squares it with the boards. */
  async open(): Promise<void> {
    const files = tournamentFiles(this.dir);
    const newest = files.at(-1);
    if (!newest) return;
    this.tournament = Tournament.open(newest, { now: this.now });
    if (this.tournament.torn) this.log.warn(`tournament: the unfinished last line of ${newest} was dropped (it was never acknowledged)`);
    this.log.info(`tournament "${this.tournament.state.name}" resumed (round ${this.tournament.currentRound()})`);
    await this.reconcile();
  }

  create(settings: TournamentSettings, by: string): Tournament {
    this.tournament?.close();
    this.tournament = Tournament.create(this.dir, settings, { now: this.now }, by);
    return this.tournament;
  }

  /** The numbers of the boards here (board N of a round is the room numbered N). */
  boards(): number[] {
    return this.rooms.map((r) => r.number).sort((a, b) => a - b);
  }

  /** The next round paired, from a CSV pairing list when given: a list naming a board that is not here is refused. */
  pairNextRound(by: string, list?: string): TournamentState {
    const t = this.t;
    return t.pairNextRound(by, list === undefined ? undefined : unwrap(parsePairingList(t.state, list, this.boards())));
  }

  /**
   * An arbiter's change (see Tournament.edit); a round paired by hand only on
   * boards that are here; a result set reaches the game's record and the broadcast.
   */
  async edit(change: Record<string, unknown>, by: string): Promise<TournamentState> {
    const t = this.t;
    if (change.t === 'pair-round' && Array.isArray(change.pairings))
      for (const p of change.pairings as unknown[]) {
        const board = (p as { board?: unknown } | null)?.board;
        const missing = typeof board === 'number' ? boardProblem(board, this.boards()) : null;
        if (missing) throw new TournamentError('bad-pairing', `round ${String(change.round)}: ${missing}`);
      }
    const state = t.edit(change, by);
    const e = state.log.at(-1);
    if (e?.t === 'set-result') await this.resultReached(e);
    return state;
  }

  /** A result the arbiter set: on the game at its board, or in its saved record; then the board's next game of the round. */
  private async resultReached(e: Extract<TournamentEvent, { t: 'set-result' }>): Promise<void> {
    const t = this.t;
    const g = t
      .gamesOfRound(e.round)
      .find((b) => b.board === e.board)
      ?.games.find((x) => x.game === e.game);
    const room = this.rooms.find((r) => r.number === e.board);
    if (!g?.gameId || !room) return;
    try {
      if (room.session.gameId === g.gameId) {
        const correction = { kind: 'set-result' as const, result: e.result };
        if (room.session.result !== e.result) room.command({ name: 'correct', correction, by: e.by, reason: e.reason });
      } else {
        const text = await room.store.readPdn(g.gameId);
        const say = e.result === '*' ? 'the game goes on (no result)' : `result set to ${e.result}`;
        const fixed = text === null ? null : correctedRecord(text, e.result, { at: e.at, by: e.by, reason: e.reason, say });
        if (fixed === null) throw new SessionError('not-allowed', `the record of game ${g.gameId} could not be read`);
        room.store.writePdn(g.gameId, fixed);
        this.recordChanged();
      }
    } catch (err) {
      this.log.error({ board: e.board, err }, `tournament: the result could not reach board ${e.board}'s game: ${(err as Error).message}`);
    }
    const next = t.nextGameOnBoard(e.board);
    if (next && !next.started && next.round === e.round) setImmediate(() => this.beginLater(room, next));
  }

  /** The tournament, or a clear refusal. */
  get t(): Tournament {
    if (!this.tournament) throw new SessionError('not-allowed', 'there is no tournament: create one first (POST /api/tournament)');
    return this.tournament;
  }

  private room(board: number): Room {
    const room = this.rooms.find((r) => r.number === board);
    if (!room)
      throw new SessionError(
        'not-allowed',
        `board ${board} is not here: the round needs ${board} boards, ${this.rooms.length} are connected`,
      );
    return room;
  }

  /** Puts each board's next game of the current round on it (a board still playing is left alone). Returns the games started. */
  startRound(by: string): GameToPlay[] {
    const t = this.t;
    const round = t.currentRound();
    if (round === 0) throw new SessionError('not-allowed', 'no round is paired yet: pair round 1 first');
    const boards = t.gamesOfRound(round);
    for (const b of boards) this.room(b.board); // every board there, or nothing started
    const started: GameToPlay[] = [];
    for (const b of boards) {
      const next = b.games.find((g) => g.result === '*');
      if (!next || next.started) continue;
      const room = this.room(b.board);
      if (room.session.result === '*' && room.session.table.played && gameById(t.state, room.session.gameId) === null)
        throw new SessionError('not-allowed', `board ${b.board} has a game in progress that is not the tournament's: finish it first`);
      started.push(this.begin(room, next, by));
    }
    return started;
  }

  /**
   * Asks the board for its next game, as a player's new-game command (the room runs it where its games are played:
   * here at once, or on its station); it is the tournament's once the board's new game is announced (started).
   */
  private begin(room: Room, g: GameToPlay, by: string): GameToPlay {
    this.starting.set(room, { g, by, was: room.session.gameId });
    this.notNoted = null;
    let sent: void | Promise<void>;
    try {
      sent = room.command({ name: 'new-game', ...g.request });
    } catch (e) {
      this.starting.delete(room);
      throw e;
    }
    // A board here started it at once: if the tournament could not note it (its journal refused: a full disk), the arbiter hears why.
    const failed = this.notNoted;
    this.notNoted = null;
    if (failed) throw failed;
    // (A station's answer comes later: refused, the game is not started and the board is asked again by the next round or the arbiter.)
    sent?.catch((e: Error) => this.log.warn(`board ${room.number}: its new game was not started: ${e.message}`));
    return g;
  }

  /** Why the tournament could not note as begun the game a board here just started (begin() throws it to its caller). */
  private notNoted: Error | null = null;

  /** The games asked of a board, until its new game is announced (the game id there before). */
  private readonly starting = new Map<Room, { g: GameToPlay; by: string; was: string }>();

  /** A board has a new game: the one asked for, if its tags say it is (round, board, game). */
  private started(room: Room): void {
    const asked = this.starting.get(room);
    const tags = room.session.table.tags;
    if (!asked || room.session.gameId === asked.was) return;
    const { g, by } = asked;
    if (tags.Round !== g.request.tags.Round || tags.Board !== g.request.tags.Board || tags.Game !== g.request.tags.Game) return;
    this.starting.delete(room);
    try {
      this.t.startGame(g.round, g.board, g.game, room.session.gameId, by);
    } catch (err) {
      this.notNoted = err as Error;
      return void this.log.error(
        { board: g.board, err },
        `tournament: board ${g.board}'s game could not be noted as begun: ${(err as Error).message}`,
      );
    }
    this.log.info({ board: g.board, round: g.round, game: g.game }, `round ${g.round}, board ${g.board}: ${g.black} – ${g.white} begins`);
  }

  private sessionEvent(room: Room, e: SessionEvent): void {
    if (!this.tournament) return;
    if (e.type === 'new-game') return this.started(room);
    if (e.type !== 'game-over' && e.type !== 'corrected') return;
    try {
      this.noteResult(room, room.session.gameId, room.session.result);
    } catch (err) {
      this.log.error(
        { board: room.number, err },
        `tournament: the result of board ${room.number} could not be recorded: ${(err as Error).message}`,
      );
    }
  }

  /** A tournament game's result, from its board; then the board's next game of the round. */
  private noteResult(room: Room, gameId: string, pdnResult: PdnResult): void {
    const t = this.t;
    const ref = gameById(t.state, gameId);
    const result = tournamentResult(pdnResult);
    if (!ref || !result) return;
    const g = t
      .gamesOfRound(ref.round)
      .find((b) => b.board === ref.board)
      ?.games.find((x) => x.game === ref.game);
    if (g?.result === result) return;
    t.recordResult(ref.round, ref.board, ref.game, result, gameId, 'board');
    const next = t.nextGameOnBoard(ref.board);
    if (next && !next.started && next.round === ref.round) setImmediate(() => this.beginLater(room, next));
  }

  private beginLater(room: Room, g: GameToPlay): void {
    try {
      const now = this.t.nextGameOnBoard(g.board);
      if (now && !now.started && now.game === g.game && now.round === g.round) this.begin(room, now, 'board');
    } catch (err) {
      this.log.error({ board: g.board, err }, `tournament: board ${g.board}'s next game could not start: ${(err as Error).message}`);
    }
  }

  /** After a restart: games the boards began or finished that the tournament did not hear of. */
  private async reconcile(): Promise<void> {
    const t = this.t;
    const round = t.currentRound();
    if (round === 0) return;
    for (const b of t.gamesOfRound(round)) {
      const room = this.rooms.find((r) => r.number === b.board);
      if (!room) continue;
      for (const g of b.games) {
        if (g.result !== '*') continue;
        if (!g.started) {
          const ref = gameOfTags(t.state, room.session.table.tags);
          if (ref && ref.round === round && ref.board === b.board && ref.game === g.game)
            t.startGame(round, b.board, g.game, room.session.gameId, 'restart');
          else continue;
        }
        const id = gameById(t.state, room.session.gameId) ? room.session.gameId : (g.gameId ?? '');
        const live = id === room.session.gameId;
        const text = live ? null : await room.store.readPdn(id).catch(() => null);
        const result = live ? room.session.result : text ? (readPdn(text).games[0]?.result ?? '*') : '*';
        if (result !== '*') this.noteResult(room, id, result);
      }
    }
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    this.tournament?.close();
  }
}
