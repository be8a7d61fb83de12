// A game between two boards far apart, on this station's side: the far
// player's moves handed to the session as they come (opponent.ts follows the
// far board), and what else they do — resign, a draw offered or answered, a
// takeback asked or answered — from their linked game only; the pairing
// going on — the far board's next game started here once this one is over —
// and the way to the far board shown honestly (their station gone, the
// broker out of reach), said when it changes.

import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { opposite, type Color } from '../rules/index.ts';
import type { GameSession } from '../game/index.ts';
import type { JournalEntry } from '../model/journal.ts';
import type { RemoteLink } from '../protocol/v1.ts';
import type { FarBoard } from './opponent.ts';

/**
 * A game between two boards: this board's game has the far side played at the
 * other board (a new game, unless the game resumed already has it), and the far
 * player's moves go to the session as they come.
 */
export function playTheFarBoard(session: GameSession, opponent: FarBoard, far: { board: string; side: Color }, log: Logger): void {
  // (A game with them resumed keeps its sides: after a next game they may have changed colours.)
  if (!session.remote) {
    const name = session.tags[far.side === 'black' ? 'Black' : 'White'] || `Board ${far.board}`;
    session.newGame({ remote: { side: far.side, name } });
  }
  opponent.follow({
    deliver: (p) => {
      try {
        session.remoteMove(p);
      } catch (e) {
        log.warn(`the move from board ${far.board} was not taken: ${(e as Error).message}`);
      }
    },
    plies: () => session.game.plies.length,
    side: () => session.remote?.side ?? null,
    linked: (start) => linkedGame(session, start),
    record: (entry, plies) => {
      try {
        dropTheCrossingMove(session, entry, plies);
        session.remoteRecord(entry, plies);
      } catch (e) {
        log.warn(`the ${entry.k} record from board ${far.board} was not taken: ${(e as Error).message}`);
      }
    },
  });
  noteOffers(session);
  followTheirNextGame(session, opponent, far.board, log);
  // This game's plies change (a move carried out, a takeback, a new game): the far board's next may be due.
  session.on((e) => {
    // (After the change is announced: the session takes their move as a change of its own.)
    if (e.type === 'move' || e.type === 'takeback' || e.type === 'new-game' || e.type === 'ready') queueMicrotask(() => opponent.offer());
  });
}

/**
 * A resignation, or an acceptance of this board's draw offer, stands in the
 * position it was made in: when this board's player moved meanwhile — their
 * record and this move crossed on the way — this move is dropped (taken back
 * here: the player is told to put the piece back; their board drops it as a
 * move after the end), the offer it lapsed stands again, and the game ends
 * there on both boards with the same plies and result.
 */
function dropTheCrossingMove(session: GameSession, entry: JournalEntry, plies: number): void {
  const r = session.remote;
  const o = entry.k === 'result' ? entry.outcome : null;
  if (!r || !o || (o.reason !== 'resignation' && o.reason !== 'agreement')) return;
  const n = session.game.plies.length;
  const last = session.game.plies[n - 1];
  // (Only one ply can cross it, this board's own: their board, at `plies`, made no move after its own record.)
  if (session.game.outcome || session.result !== '*' || n !== plies + 1 || last?.before.turn !== opposite(r.side)) return;
  const offered = o.reason === 'agreement' && lastOfferOf(session, opposite(r.side)) === plies;
  if (o.reason === 'agreement' && !offered) return;
  try {
    session.takeback();
  } catch {
    return; // (no takeback here, a tournament's game: the record applies as it stands, after the move)
  }
  if (session.game.plies.length !== plies) return; // (not taken back now: the record applies as it stands)
  if (offered) session.offerDraw(opposite(r.side));
}

/** The ply count at which `side`'s last draw offer of this game was made (-1: none), read from the session's draw-offer events. */
function lastOfferOf(session: GameSession, side: Color): number {
  return offers.get(session)?.[side] ?? -1;
}
const offers = new WeakMap<GameSession, Record<Color, number>>();
function noteOffers(session: GameSession): void {
  const seen: Record<Color, number> = { black: -1, white: -1 };
  offers.set(session, seen);
  session.on((e) => {
    if (e.type === 'draw-offer' && e.side) seen[e.side] = session.game.plies.length;
    else if (e.type === 'new-game') [seen.black, seen.white] = [-1, -1];
  });
}

/**
 * The far game is this game's other half: the same pairing (the link of the
 * next game both started, or none for the game the pairing began with) and
 * the far board's player on the side this game gives them. Only its records
 * count here.
 */
function linkedGame(session: GameSession, start: Extract<JournalEntry, { k: 'new' }>): boolean {
  const r = session.remote;
  if (!r || !start.remote) return false;
  return start.remote.side === opposite(r.side) && start.remote.link === r.setting.link;
}

/**
 * Honest status: the way to the far board as this station knows it — their
 * station online or gone (its status, or its will), this station's broker out
 * of reach — handed to the session (shown on the page, said when it changes),
 * and again after every new game.
 */
export function showTheWay(session: GameSession, client: MqttClient, opponent: FarBoard, now: () => number): void {
  let far: RemoteLink | null = null;
  let broker: RemoteLink | null = null;
  const tell = () => {
    const link = broker?.state === 'unreachable' ? broker : far;
    if (link) session.remoteLink(link);
  };
  opponent.onStatus((online, at, live) => {
    // (Gone, heard live: since now — a will's own stamp is its station's connect time. Read retained: since its stamp at the latest.)
    far = { state: online ? 'online' : 'offline', since: online ? at : live ? now() : Math.min(at, now()) };
    tell();
  });
  const reachable = (up: boolean) => {
    if (up === (broker === null)) return; // (no change)
    broker = up ? null : { state: 'unreachable', since: now() };
    tell(); // (back: what is known of the far board again; its retained status follows)
  };
  client.on('connect', () => reachable(true));
  client.on('offline', () => reachable(false));
  client.on('close', () => reachable(client.connected));
  session.on((e) => {
    if (e.type === 'new-game') queueMicrotask(tell);
  });
}

/**
 * The pairing goes on: when the far board starts the next game of this
 * pairing (its new game names a link this game does not have), the same game
 * starts here once this one is over — the same start, names and time control,
 * each player on the side the far board gives them.
 */
function followTheirNextGame(session: GameSession, opponent: FarBoard, board: string, log: Logger): void {
  let waiting: Extract<JournalEntry, { k: 'new' }> | null = null;
  const over = () => session.game.outcome !== null || session.result !== '*';
  const follow = () => {
    const start = waiting;
    const link = start?.remote?.link;
    if (!start?.remote || !link || session.remote?.setting.link === link || !session.remote || !over()) return;
    waiting = null;
    const theirs = opposite(start.remote.side);
    const name = start.tags[theirs === 'black' ? 'Black' : 'White'] || `Board ${board}`;
    const eleven = /^11-man (\d+)$/.exec(start.tags.Ballot ?? '');
    const tags: Record<string, string> = {};
    for (const k of ['Event', 'Site', 'Round', 'Black', 'White']) if (start.tags[k] !== undefined) tags[k] = start.tags[k];
    const from = start.ballot !== null ? { ballot: start.ballot } : eleven ? { elevenMan: Number(eleven[1]) } : { fen: start.fen };
    try {
      session.newGame({
        ...from,
        tags,
        timeControl: start.tags.TimeControl ?? '',
        rules: start.options,
        remote: { side: theirs, name, link },
      });
    } catch (e) {
      log.warn(`board ${board}'s next game could not start here: ${(e as Error).message}`);
    }
  };
  opponent.onNewGame((start) => {
    waiting = start;
    follow();
  });
  session.on((e) => {
    if (waiting && (e.type === 'game-over' || e.type === 'corrected')) queueMicrotask(follow);
  });
}
