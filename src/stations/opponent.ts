// A game between two boards far apart: the other board's player is this
// game's player "at another board" (src/game/remote.ts). The other station's
// key is learned from its claim (its retained `pair` message, proven with the
// pairing secret both share) and pinned; only records sealed with that key are
// read. Its journal records (its entries topic on the broker both reach) are
// folded into its plies each once, as they come (game/fold.ts, the fold the
// table replays with; records after a gap wait for it); the next ply of this
// game, when it is theirs in the far game linked to this one, is handed to
// the session as their move (with their clock after it, once that record is
// in), shown and spoken by name, carried out on this board and checked
// against exactly it; both journals hold the same moves. A copy or a ply already played is dropped by the
// session; a record missing from the other board's stream is asked for
// again. Their player's other doings — a result, a draw offer or its answer,
// a takeback asked or answered — are handed on too, each once, in order, with
// the far game's ply count when it was made, once this game has reached it,
// and only while the far game is the one linked to this one (far-game.ts
// says which).

import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { Color, Game } from '../rules/index.ts';
import type { JournalEntry } from '../storage/journal.ts';
import type { RemotePly } from '../game/remote.ts';
import { foldRecord, gameOf, type Folded, type NewGameEntry } from '../game/fold.ts';
import { boardTopic } from './topics.ts';
import { readMessage, sealMessage, type Received } from './messages.ts';
import { Counter } from './envelope.ts';
import { Presence } from './presence.ts';
import type { Identity } from './identity.ts';
import { describeStation, pairChecks, type StationPins } from './pairing.ts';

export interface FarBoardOptions {
  /** the pairing secret both stations share: proves the far board's claim */
  secret: string;
  /** this station's key (its requests to the far station are sealed with it) */
  identity: Identity;
  /** where the far board's key is pinned */
  pins: StationPins;
  log: Logger;
  /** the station's clock, wall-clock ms (its requests' counters are read from it; default Date.now) */
  now?: () => number;
}

/** Messages from the far board held until its key is known (its claim may come after its game). */
const HELD_MAX = 256;

/** A ply of the other board's game: who made it, its squares, the mover's clock after it (undefined: no clock, or its record not in yet). */
interface FarPly {
  side: Color;
  path: number[];
  clockMs?: number;
}

/** A record of the other board's game that is not a move, with the game's ply count when it was made. */
interface FarRecord {
  index: number;
  entry: JournalEntry;
  plies: number;
}

/** The far game as folded so far: its rules game, its plies, its other records, and the next record to fold. */
interface FarFold {
  game: Game;
  plies: FarPly[];
  records: FarRecord[];
  next: number;
}

/** The records of the far board's game handed on besides its moves: what its player did. */
const DOINGS = new Set<JournalEntry['k']>(['result', 'draw-offer', 'takeback-offer', 'takeback']);

/** Where the far board's game goes: the station's session. */
export interface FarTarget {
  /** their move (the session's remoteMove) */
  deliver: (p: RemotePly) => void;
  /** this game's ply count */
  plies: () => number;
  /** the side they play here (null: not followed yet) */
  side: () => Color | null;
  /** the far game (its start) is the one linked to this game: its records count here */
  linked: (start: Extract<JournalEntry, { k: 'new' }>) => boolean;
  /** one of their records besides moves (the session's remoteRecord), with the far game's ply count when it was made */
  record: (entry: JournalEntry, plies: number) => void;
}

/** The other station's board, followed through the broker: its game's plies, handed on one at a time as they become due here. */
export class FarBoard {
  /** the other board's current game: its records by seq (record 0 its start) */
  private game: { id: string; entries: (JournalEntry | undefined)[] } | null = null;
  private client: MqttClient | null = null;
  /** where their moves and other records go (the station's session) */
  private target: FarTarget | null = null;
  /** the far game folded so far (fold): its rules game, its plies, its other records, and the next record to fold */
  private far: FarFold | null = null;
  /** records of the far board's games folded, all told (each once: the work per record does not grow with the game) */
  folded = 0;
  /** the next record of the far game to hand on besides its moves (record 0 is its start) */
  private cursor = 1;
  /** their takeback request handed on here, once this game had the ply it asks back: that ply is not handed on again while it stands */
  private asked: { index: number; plies: number } | null = null;

  private readonly counter: Counter;
  private readonly presence = new Presence();
  private held: Received[] = [];
  /** messages from the far board's topics refused (not sealed by its key, unreadable), for the tests */
  refused = 0;

  constructor(
    readonly board: string,
    private readonly o: FarBoardOptions,
  ) {
    this.counter = new Counter(o.now);
  }

  /** The far game this board's game is linked to, by id (null: not read yet, or the far board plays another game). */
  linkedGameId(): string | null {
    const start = this.game?.entries[0];
    return start?.k === 'new' && this.target?.linked(start) ? this.game!.id : null;
  }

  /** The far board's pinned key, as a list (the station lets it ask for records again). */
  keys(): string[] {
    const k = this.o.pins.peer(this.board);
    return k ? [k] : [];
  }

  /** Follows the other board's records through this station's broker connection. */
  attach(client: MqttClient): void {
    this.client = client;
    const topics = (['pair', 'game', 'entries', 'status'] as const).map((k) => boardTopic(this.board, k));
    client.on('connect', () => client.subscribe(topics, { qos: 1 }));
    if (client.connected) client.subscribe(topics, { qos: 1 });
    client.on('message', (t, payload, packet) => {
      if (!topics.includes(t)) return;
      const r = readMessage(t, payload);
      if (!r.ok) return void this.refused++;
      const m = r.m;
      if (m.kind === 'pair') return this.claimSeen(m);
      const pinned = this.o.pins.peer(this.board);
      if (!pinned) return void (this.held.length < HELD_MAX ? this.held.push(m) : this.refused++);
      if (m.key !== pinned) return void this.refused++;
      this.take(m, !packet.retain);
    });
  }

  /** The far board's claim: its key pinned on first sight (with the secret's proof); then what waited for it is read. */
  private claimSeen(m: Extract<Received, { kind: 'pair' }>): void {
    const problem = pairChecks(m.msg, this.o.secret, this.board, m.key);
    if (problem) return void this.refused++;
    const pinned = this.o.pins.peer(this.board);
    if (pinned && pinned !== m.key)
      return void this.o.log.warn(
        `a station with another key (${describeStation(m.msg)}) claims board ${this.board}, the far board: ignored (pinned ${describeStation({ key: pinned })}; if that board was rebuilt, remove it from pins.json)`,
      );
    if (!pinned) this.o.pins.pinPeer(this.board, m.key);
    for (const h of this.held.splice(0)) if (h.key === m.key) this.take(h, false);
  }

  private take(m: Received, live: boolean): void {
    if (m.kind === 'status') {
      // (A status sent again — an old "offline" replayed — is refused: the far station's presence is its newest word.)
      const v = this.presence.take(m.n, m.msg.online, m.msg.will);
      if (v === 'replay') this.refused++;
      if (v === 'taken') this.statusListener?.(m.msg.online, m.msg.at, live);
    } else if (m.kind === 'entries') this.record(m.msg.gameId, m.msg.seq, m.msg.entry);
    else if (m.kind === 'game') {
      // The retained header: the game's start even when its first records went out before this board listened; the rest is asked for.
      if (!m.msg.start) return;
      if (this.game?.id !== m.msg.gameId) this.record(m.msg.gameId, 0, m.msg.start);
      this.askMissing(m.msg.gameId, m.msg.count);
    }
  }

  /** Asks the other station for the records of its game this board lacks (sealed with this station's key, which it pinned). */
  private askMissing(gameId: string, count: number): void {
    const g = this.game;
    if (!g || g.id !== gameId) return;
    let from = 0;
    while (from < count && g.entries[from]) from++;
    if (from >= count) return;
    const { topic, payload } = sealMessage(
      this.board,
      'cmd',
      { kind: 'resend', gameId, from, to: count },
      this.o.identity,
      this.counter.next(),
    );
    this.client?.publish(topic, payload, { qos: 1 });
  }

  /**
   * Their moves (the side `side()` says they play now) go to `deliver` (the session's remoteMove), their
   * other records to `record`; `plies` is this game's ply count. Each record offers the next ply; call
   * `offer()` too whenever this game's plies change.
   */
  follow(target: FarTarget): void {
    this.target = target;
    this.offer();
  }

  record(gameId: string, seq: number, entry: JournalEntry): void {
    if (entry.k === 'new') {
      const fresh = this.game?.id !== gameId;
      this.game = { id: gameId, entries: [entry] };
      this.far = startFold(entry);
      if (fresh) [this.cursor, this.asked] = [1, null];
      if (fresh) for (const l of this.newGameListeners) l(entry);
    } else if (this.game?.id === gameId) this.game.entries[seq] = entry; // (sent again, or a newer tags record in its place: folded once, as it was)
    this.fold();
    this.offer();
  }

  private statusListener: ((online: boolean, at: number, live: boolean) => void) | null = null;
  /**
   * Called with the far station's status (sealed by its key): online or gone, when it said so, and whether
   * it was heard as it was said (live) or read retained. (A will is sealed when its station connects: its
   * `at` is that moment, not the moment the station fell silent; heard live, it fell silent just now.)
   */
  onStatus(listener: (online: boolean, at: number, live: boolean) => void): void {
    this.statusListener = listener;
  }

  private readonly newGameListeners = new Set<(start: Extract<JournalEntry, { k: 'new' }>) => void>();
  /** Called with each new game the far board starts (its new-game record), as it is first seen. */
  onNewGame(listener: (start: Extract<JournalEntry, { k: 'new' }>) => void): void {
    this.newGameListeners.add(listener);
  }

  /** Hands on the next ply of this game if the other board has made it in the linked game (theirs, and complete), then their other records due here. */
  offer(): void {
    const to = this.target;
    if (!to) return;
    const n = to.plies();
    const { plies, records } = this.far ?? { plies: [], records: [] };
    // (Only the linked far game's plies are theirs in this game: after a next game here, their previous game's are not, however alike.)
    const start = this.game?.entries[0];
    const linked = start?.k === 'new' && to.linked(start);
    // (Their ply they asked to take back, taken back here on agreement before their own takeback record is in, is not theirs to make again.)
    const next = !linked || n === this.askedBack() ? undefined : plies[n];
    // With a clock, their move comes with their time after it (the record after the move's): wait for it.
    if (next && next.side === to.side() && !(this.timed && next.clockMs === undefined))
      to.deliver({ ply: n, path: next.path, ...(next.clockMs !== undefined ? { clockMs: next.clockMs } : {}) });
    this.handOn(to, records);
  }

  /**
   * Their other records, in order, each once: one made after a ply this game
   * has not reached waits for it (a takeback's is handed on at once: the
   * ply it takes back may never be carried out here); none while the far game
   * is not this one's linked game (this board may not have followed it yet).
   */
  private handOn(to: FarTarget, records: FarRecord[]): void {
    const start = this.game?.entries[0];
    if (start?.k !== 'new' || !to.linked(start)) return;
    for (const r of records) {
      if (r.index < this.cursor) continue;
      if (r.plies > to.plies() && r.entry.k !== 'takeback') return;
      this.cursor = r.index + 1;
      if (r.entry.k === 'takeback-offer' && r.entry.side === to.side() && r.plies === to.plies())
        this.asked = { index: r.index, plies: r.plies };
      to.record(r.entry, r.plies);
    }
  }

  /** The index of their ply their standing takeback request asks back (-1: none stands: their board has moved, taken back or answered since). */
  private askedBack(): number {
    const a = this.asked;
    const after = a ? (this.game?.entries.slice(a.index + 1) ?? []) : [];
    const ended = after.some((e) => e?.k === 'move' || e?.k === 'takeback' || e?.k === 'takeback-offer');
    if (ended) this.asked = null; // (for good: records are only added, or a tags record replaced by a newer one)
    return a && !ended ? a.plies - 1 : -1;
  }

  /** The other board's game has a time control (its start's TimeControl tag). */
  private get timed(): boolean {
    const first = this.game?.entries[0];
    return first?.k === 'new' && !!first.tags.TimeControl && first.tags.TimeControl !== '-';
  }

  /**
   * Folds the far game's records not folded yet, in order, up to a gap in them (the records after it wait for it),
   * each once (game/fold.ts, the fold the table replays with): its plies with the mover's clock after each, and its
   * other records with the ply count when each was made. A record that does not apply stops the fold there.
   */
  private fold(): void {
    const g = this.game;
    const f = this.far;
    if (!g || !f) return;
    for (let e = g.entries[f.next]; e; e = g.entries[f.next]) {
      const plies = f.game.plies.length;
      let folded: Folded;
      try {
        folded = foldRecord(f.game, e);
      } catch {
        return;
      }
      this.folded++;
      if (DOINGS.has(e.k)) f.records.push({ index: f.next, entry: e, plies });
      if (folded.k === 'move' && e.k === 'move') {
        f.plies.length = plies;
        f.plies.push({ side: folded.ply.before.turn, path: [...e.path] });
      } else if (folded.k === 'takeback') f.plies.length = f.game.plies.length;
      else if (folded.k === 'clock') {
        const last = f.plies[f.game.plies.length - 1];
        if (last && last.clockMs === undefined) last.clockMs = folded.clock.remaining[last.side];
      }
      f.next++;
    }
  }
}

/** The far game's fold from its start: its opening moves (a ballot's) are its first plies; null when its start does not play. */
function startFold(start: NewGameEntry): FarFold | null {
  try {
    const game = gameOf(start);
    const plies = game.plies.map((p) => ({ side: p.before.turn, path: [p.move.from, ...p.move.path] }));
    return { game, plies, records: [], next: 1 };
  } catch {
    return null;
  }
}
