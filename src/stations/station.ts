// A station's side of the link: today's one-board room (its journal the
// source of truth) publishing its board to the hub. It speaks with its own key
// (identity.ts; every message sealed, envelope.ts) and first claims its board
// (pairing.ts): its retained `pair` message, with the pairing secret's proof;
// a board another live station holds — the hub says so, or on a bare broker
// that station's claim is the older — is refused, named on both sides, and this
// station stops reporting (never a reconnect loop). Once its claim is back from
// the broker: every journal record of the game goes out with its sequence
// number (record 0 the new game) once the store has it on disk, never before;
// after every (re)connect the station republishes from the last record the hub
// acknowledged (the retained ack), and answers requests for missing ranges. Its
// status is retained, with a will that marks it gone; alerts and the clock go
// out as they happen. Commands run only when sealed by the hub it paired with
// (signing.ts), and are answered either way.

import type { MqttClient } from 'mqtt';
import type { IPublishPacket } from 'mqtt';
import { pino, type Logger } from 'pino';
import { startService, type Service, type ServiceOptions } from '../server/service.ts';
import { openLink, type LinkOptions } from './link.ts';
import { FarBoard } from './opponent.ts';
import { playTheFarBoard, showTheWay } from './far-game.ts';
import type { Color } from '../rules/index.ts';
import type { Room } from '../server/room.ts';
import { runCommand } from '../server/commands.ts';
import type { JournalEntry } from '../model/journal.ts';
import { journalStart } from '../storage/journal.ts';
import type { SessionEvent } from '../game/index.ts';
import type { CommandAnswer, StationStatus } from '../protocol/stations-v1.ts';
import { showTheLink } from './station-link.ts';
import { boardTopic, type StationTopic } from './topics.ts';
import { readMessage, sealMessage, type Received, type TopicMessages } from './messages.ts';
import { commandRefusal } from './signing.ts';
import { canonical } from './sequencer.ts';
import { isCrownheadError, CrownheadError } from '../common/errors.ts';
import { fingerprint, loadIdentity, type Identity } from './identity.ts';
import { brokerPassword } from './access.ts';
import { Counter } from './envelope.ts';
import { StationPins, describeStation, keeps, pairChecks, pairProof, pairedChecks, type StationPair } from './pairing.ts';

/** What each option is when it is not given. */
const DEFAULTS = { statusMs: 500 } as const;

/** This station may not report its board: another station holds it. */
export class BoardTakenError extends CrownheadError<'board-taken'> {
  override readonly name = 'BoardTakenError';
  constructor(message: string) {
    super('board-taken', message);
  }
}

export interface StationOptions {
  /** the pairing secret: the proof of this station's claim, and the check of the hub's answer */
  secret: string;
  /** this station's key pair */
  identity: Identity;
  /** the keys it pinned (the hub's, far boards') and the last command it ran */
  pins: StationPins;
  /** wall clock, ms (commands' time window; message stamps) */
  now?: () => number;
  /** least time between two status messages (default 500 ms) */
  statusMs?: number;
  /** a game between two boards: the far board and its game this one is linked to, said with this board's game (the hub pairs the two) */
  far?: () => { board: string; gameId?: string };
  /** far boards' pinned keys (a game between two boards): they may ask for records again */
  peers?: () => string[];
  log: Logger;
}

interface GameRecords {
  id: string;
  entries: JournalEntry[];
  /** records handed to the broker since the last (re)connect */
  published: number;
  prev: { gameId: string; count: number } | null;
}

/** The will and the goodbye: the station is gone (sealed, as everything it says). */
export function offlineStatus(board: string, description: string, at: number, me: Identity, n: number): string {
  return sealMessage(board, 'status', { v: 1, board, online: false, description, at }, me, n).payload;
}

/**
 * The station's MQTT keepalive, s: a station silent for 1.5 × this (3 s) — crashed, frozen, its network
 * cut — is dropped by the broker, which publishes its will (status offline) to the far board and the hub
 * at once; a station whose process ends is dropped sooner still (its connection closes).
 */
export const STATION_KEEPALIVE_S = 2;

/** Where the station is in claiming its board on the broker. */
type Claim = { state: 'claiming'; n: number } | { state: 'holding' } | { state: 'refused'; error: BoardTakenError };

export class StationPublisher {
  private room: Room | null = null;
  private client: MqttClient | null = null;
  /** the current game and the one before it (a game that ended while the hub was away is finished from here) */
  private readonly games: GameRecords[] = [];
  private acked: { gameId: string; next: number } | null = null;
  /** since when the hub has taken none of the current game's records still waiting (null: none wait) */
  private behindSince: number | null = null;
  private readonly counter: Counter;
  private claim: Claim = { state: 'claiming', n: -1 };
  /** when this station started reporting its board (the older of two claims keeps it) */
  private readonly since: number;
  /** on a bare broker: another station's claim on this board, read retained (its status then says whether it lives) */
  private rival: StationPair | null = null;
  /** on a bare broker: the last status read from another key on this board's topic (whether that station lives) */
  private rivalOnline = new Map<string, boolean>();
  private readonly refusedListeners = new Set<(e: BoardTakenError) => void>();
  private readonly now: () => number;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private pumpTimer: ReturnType<typeof setInterval> | null = null;
  private readonly offs: (() => void)[] = [];
  /** why the hub has not paired this board, when it said so without the secret's proof (a wrong --hub-secret here); null otherwise */
  unpaired: string | null = null;
  /** the station's page, said in its status and its claim */
  url: string | undefined;
  /** the counter of the will this station's connection left with the broker, said in its online status */
  private willN: number | undefined;
  /** records published, all games (for the bench and the tests) */
  sent = 0;

  /** records of the games kept here not yet handed to the broker since the last (re)connect */
  get unpublished(): number {
    return this.games.reduce((n, g) => n + g.entries.length - g.published, 0);
  }

  constructor(private readonly opts: StationOptions) {
    this.now = opts.now ?? Date.now;
    this.counter = new Counter(this.now);
    this.since = this.now();
  }

  /** Records of the current game the hub has not acknowledged. */
  private waiting(): number {
    const g = this.games.at(-1);
    return g ? g.entries.length - (this.acked?.gameId === g.id ? Math.min(this.acked.next, g.entries.length) : 0) : 0;
  }

  /** The current game's records the hub has not taken, and since when it has taken none (null: it has them all). */
  hubBehind(): { records: number; since: number } | null {
    const records = this.waiting();
    if (records === 0) this.behindSince = null;
    return records > 0 && this.behindSince !== null ? { records, since: this.behindSince } : null;
  }

  /** The station's key. */
  get identity(): Identity {
    return this.opts.identity;
  }

  /** The claim is back from the broker and no other station holds the board: this station reports it. */
  get reporting(): boolean {
    return this.claim.state === 'holding';
  }

  /** Why this station stopped reporting its board (null while it may). */
  get refusal(): BoardTakenError | null {
    return this.claim.state === 'refused' ? this.claim.error : null;
  }

  /** Called once if this station is refused its board (it has stopped reporting it then). */
  onRefused(listener: (e: BoardTakenError) => void): void {
    if (this.claim.state === 'refused') listener(this.claim.error);
    else this.refusedListeners.add(listener);
  }

  private get board(): string {
    return this.room!.board!.identity.id;
  }

  /** The room's journal hook: each record as the session hands it to the store. */
  readonly journalled = (entry: JournalEntry): void => {
    if (!this.room) return; // before the room is attached: its records are read back from the store then
    this.record(entry);
    this.behindSince ??= this.now();
    this.pump();
  };

  private record(entry: JournalEntry): void {
    const cur = this.games.at(-1);
    if (entry.k === 'new') {
      this.games.push({ id: entry.id, entries: [entry], published: 0, prev: cur ? { gameId: cur.id, count: cur.entries.length } : null });
      if (this.games.length > 2) this.games.shift();
      return;
    }
    if (!cur) return;
    if (entry.k === 'tags' && cur.entries.at(-1)?.k === 'tags') {
      cur.entries[cur.entries.length - 1] = entry;
      cur.published = Math.min(cur.published, cur.entries.length - 1);
    } else cur.entries.push(entry);
  }

  /** Starts publishing the room's board through `client` (connected or not yet). */
  attach(room: Room, client: MqttClient): void {
    this.room = room;
    this.client = client;
    const found = room.store.findInProgress();
    const list = found.kind === 'game' && found.id === room.session.gameId ? journalStart(found.read.entries) : null;
    if (list) this.games.push({ id: found.kind === 'game' ? found.id : '', entries: canonical(list), published: 0, prev: null });
    this.offs.push(room.session.on((e) => this.sessionEvent(e)));
    client.on('connect', () => this.connected());
    client.on('message', (topic, payload, packet) => this.message(topic, payload, packet));
    if (client.connected) this.connected();
    // Records wait while the store has not written them (a full disk, a burst of names): tried again until it has.
    this.pumpTimer = setInterval(() => this.pump(), 250);
    this.pumpTimer.unref();
  }

  private topic(kind: StationTopic): string {
    return boardTopic(this.board, kind);
  }

  private publish<K extends StationTopic>(kind: K, msg: TopicMessages[K], retain = false, qos: 0 | 1 = 1): number {
    const n = this.counter.next();
    if (this.claim.state === 'refused' || this.closing) return n;
    const { topic, payload } = sealMessage(this.board, kind, msg, this.opts.identity, n);
    this.client?.publish(topic, payload, { qos, retain });
    return n;
  }

  /** The will's payload: sealed now, published by the broker if this station goes without a goodbye. */
  willFor(board: string, description: string): string {
    const n = this.counter.next();
    this.willN ??= n; // (the will given the broker: the first; a goodbye after is newer than all)
    return offlineStatus(board, description, this.now(), this.opts.identity, n);
  }

  /** The claim on the board (retained): this key, this board, the secret's proof. */
  private pairMessage(): StationPair {
    const key = this.opts.identity.key;
    const url = this.url;
    return {
      v: 1,
      board: this.board,
      key,
      since: this.since,
      ...(url ? { url } : {}),
      proof: pairProof(this.opts.secret, this.board, key),
    };
  }

  /** (Re)connected: claim the board first; the rest goes once the claim is back (claimed()). */
  private connected(): void {
    const c = this.client!;
    if (this.claim.state === 'refused') return;
    this.rival = null;
    this.rivalOnline.clear();
    c.subscribe(
      ['pair', 'paired', 'status', 'ack', 'cmd'].map((k) => this.topic(k as StationTopic)),
      { qos: 1 },
      () => {
        // (After the subscription: the claim comes back after whatever the broker kept for these topics.)
        // (Not retained until it holds: a claim refused must not stand in place of the holder's.)
        this.claim = { state: 'claiming', n: this.publish('pair', this.pairMessage()) };
      },
    );
  }

  /** The claim came back and no live station holds the board: report it. */
  private claimed(): void {
    this.claim = { state: 'holding' };
    this.publish('pair', this.pairMessage(), true);
    this.sendStatus();
    // Everything the hub has not acknowledged goes again (the hub drops what it already has).
    for (const g of this.games) g.published = this.acked?.gameId === g.id ? Math.min(g.published, this.acked.next) : 0;
    const prev = this.games.length > 1 ? this.games[0] : null;
    if (prev && this.acked?.gameId !== prev.id) prev.published = prev.entries.length; // the hub asks for an older game's tail if it lacks it
    this.pump();
  }

  /** Publishes every record the store has written and the broker has not been given since the last connect. */
  private pump(): void {
    const c = this.client;
    if (!c?.connected || this.claim.state !== 'holding' || !this.room?.store.flushed) return;
    for (const g of this.games) this.publishRange(g, g.published, g.entries.length);
  }

  private publishRange(g: GameRecords, from: number, to: number): void {
    const end = Math.min(to, g.entries.length);
    for (let seq = from; seq < end; seq++) {
      this.publish('entries', { v: 1, gameId: g.id, seq, entry: g.entries[seq]!, ...(seq === 0 ? { prev: g.prev } : {}) });
      this.sent++;
    }
    if (end > g.published) g.published = end;
    if (g === this.games.at(-1) && end > from)
      this.publish('game', { v: 1, gameId: g.id, count: g.published, at: this.now(), start: g.entries[0], ...this.farPart() }, true);
  }

  /** The far board of a game between two boards (and its linked game, once read), for the game message. */
  private farPart(): { far?: { board: string; gameId?: string } } {
    return this.opts.far ? { far: this.opts.far() } : {};
  }

  /** The far game this board's game is linked to was read: the game message says it (the hub pairs the two boards' records). */
  farGameLearnt(): void {
    const g = this.games.at(-1);
    if (g && g.published > 0 && this.client?.connected && this.claim.state === 'holding')
      this.publish('game', { v: 1, gameId: g.id, count: g.published, at: this.now(), start: g.entries[0], ...this.farPart() }, true);
  }

  private message(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const r = readMessage(topic, payload);
    if (!r.ok) {
      if (r.board === this.board) this.opts.log.warn(`a message on this board's topics was refused: ${r.problem}`);
      return;
    }
    const m = r.m;
    if (m.board !== this.board) return;
    switch (m.kind) {
      case 'pair':
        return this.pairSeen(m.key, m.n, m.msg, packet.retain);
      case 'paired':
        return this.pairedSeen(m.key, m.msg);
      case 'status':
        if (m.key === this.opts.identity.key) return;
        this.rivalOnline.set(m.key, m.msg.online);
        // A live rival's status on a bare broker: it holds the board.
        if (this.claim.state === 'claiming' && this.rival?.key === m.key && m.msg.online) this.refuse(this.rival);
        else if (this.claim.state === 'holding') this.sendStatus(); // (ours is the retained one)
        return;
      case 'ack':
        if (m.key !== this.opts.pins.hub) return; // acks from the hub this station paired with only
        this.acked = { gameId: m.msg.gameId, next: m.msg.next };
        this.behindSince = this.waiting() > 0 ? this.now() : null; // (the hub took something: it is there)
        return;
      case 'cmd':
        return this.command(m);
      default:
        return;
    }
  }

  /** A claim on this board: our own coming back, or another station's. */
  private pairSeen(key: string, n: number, p: StationPair, retained: boolean): void {
    const problem = pairChecks(p, this.opts.secret, this.board, key);
    if (problem) return void this.opts.log.warn(`a claim on board ${this.board} was ignored: ${problem}`);
    if (key === this.opts.identity.key) {
      if (this.claim.state === 'claiming' && n === this.claim.n) this.claimed();
      return;
    }
    if (this.claim.state === 'holding') {
      // Another station with the secret claims this board: it is refused (by the hub, or by its own rule); ours stays the retained claim.
      this.opts.log.error(
        `another station (${describeStation(p)}) claims board ${this.board}: it is refused — this station (${describeStation({ key: this.opts.identity.key, url: this.url })}) reports it`,
      );
      this.publish('pair', this.pairMessage(), true);
      this.sendStatus();
      return;
    }
    if (this.claim.state !== 'claiming') return;
    if (retained) {
      // Held by another station, or once was: its status (read before or after) says whether it still lives.
      this.rival = p;
      if (this.rivalOnline.get(p.key)) this.refuse(p);
    } else if (keeps(p, { since: this.since, key: this.opts.identity.key })) this.refuse(p); // two starting at once: the older keeps it
  }

  /** The hub's answer to a claim: accepted (pin its key), or refused. */
  private pairedSeen(hubKey: string, p: TopicMessages['paired']): void {
    if (p.station !== this.opts.identity.key) return;
    const problem = pairedChecks(p, this.opts.secret, this.board, hubKey);
    if (problem) {
      // (Unproven: an answer anyone could send. A refusal for a wrong secret cannot be proven to a station that lacks it.)
      if (!p.ok)
        this.unpaired = `the hub refused this board (unproven: ${problem}): "${p.reason ?? 'refused'}" — is --hub-secret the one the hub printed?`;
      return void this.opts.log.error(
        `the hub's answer to this board's pairing cannot be trusted (${problem})${p.ok ? '' : `: it says "${p.reason ?? 'refused'}"`}`,
      );
    }
    const pinned = this.opts.pins.hub;
    if (pinned && pinned !== hubKey)
      return void this.opts.log.error(
        `a hub with another key (${describeStation({ key: hubKey })}, pinned: ${describeStation({ key: pinned })}) answered: ignored. If the hub was rebuilt, remove "hub" from pins.json in this station's games folder`,
      );
    this.unpaired = null;
    if (!p.ok) return this.refuse(this.rival?.key && p.reason?.includes(fingerprint(this.rival.key)) ? this.rival : null, p.reason);
    if (!pinned) {
      this.opts.pins.pinHub(hubKey);
      this.opts.log.info(`paired with the hub (${describeStation({ key: hubKey })})`);
    }
  }

  /** Another station holds this board: stop reporting it, say so, and leave the broker without a will. */
  private refuse(holder: StationPair | null, reason?: string): void {
    if (this.claim.state === 'refused') return;
    // Refused before its own claim went out (the holder's retained word came first): it goes now, so the holder and the hub hear of the clash.
    if (this.claim.state === 'claiming' && this.claim.n < 0) this.publish('pair', this.pairMessage());
    const mine = describeStation({ key: this.opts.identity.key, url: this.url });
    const who = holder
      ? `another station (${describeStation(holder)}, reporting it since ${new Date(holder.since).toISOString()})`
      : 'another station';
    const error = new BoardTakenError(
      `board ${this.board} is already reported by ${who}${reason ? ` — the hub says: ${reason}` : ''}; this station (${mine}) stops reporting it. Give this board a name of its own (--board sim:NAME for a simulated one; crownhead doctor names a real one), or stop the other station`,
    );
    this.claim = { state: 'refused', error };
    this.opts.log.error(error.message);
    this.client?.end(false); // (a clean goodbye: no will over the holder's status)
    for (const l of this.refusedListeners) l(error);
    this.refusedListeners.clear();
  }

  private command(m: Extract<Received, { kind: 'cmd' }>): void {
    const b = m.msg;
    const id = b.kind === 'command' ? b.id : 'resend';
    const pins = this.opts.pins;
    const peers = this.opts.peers?.() ?? [];
    const refused = commandRefusal(m, b.kind, { hub: pins.hub, peers, lastRun: pins.lastCommand }, this.now());
    if (refused) {
      this.opts.log.warn(`a command to this board was refused: ${refused}`);
      return void this.answer({ v: 1, id, ok: false, code: 'not-signed', message: `refused: ${refused}` });
    }
    if (b.kind === 'resend') {
      const g = this.games.find((x) => x.id === b.gameId);
      if (g && this.room?.store.flushed && this.claim.state === 'holding') this.publishRange(g, b.from, b.to);
      return;
    }
    try {
      pins.ranCommand(m.n); // (on disk before it runs: a crash in between never runs it twice)
      runCommand(this.room!.session, this.room!.board!.source, b.command);
      this.answer({ v: 1, id, ok: true });
    } catch (e) {
      const code = isCrownheadError(e) ? e.code : 'internal';
      this.answer({ v: 1, id, ok: false, code, message: (e as Error).message });
    }
  }

  private answer(a: CommandAnswer): void {
    this.publish('answer', a);
  }

  private sessionEvent(e: SessionEvent): void {
    const gameId = this.room!.session.gameId;
    if (e.type === 'alert') this.publish('alerts', { v: 1, gameId, alert: e.alert, at: this.now() }, false, 0);
    else if (e.type === 'alert-cleared') this.publish('alerts', { v: 1, gameId, alert: null, at: this.now() }, false, 0);
    else if (e.type === 'clock') this.publish('clock', { v: 1, gameId, clock: e.clock, at: this.now() }, false, 0);
    if (e.type !== 'clock' && e.type !== 'counts' && !this.statusTimer && this.claim.state === 'holding')
      this.statusTimer = setTimeout(() => {
        this.statusTimer = null;
        this.sendStatus();
      }, this.opts.statusMs ?? DEFAULTS.statusMs);
  }

  private sendStatus(): void {
    const room = this.room!;
    if (this.claim.state !== 'holding') return;
    const status: StationStatus = {
      v: 1,
      board: this.board,
      online: true,
      description: room.board!.description,
      summary: room.summary(),
      at: this.now(),
      ...(this.url ? { url: this.url } : {}),
      ...(this.willN !== undefined ? { will: this.willN } : {}),
    };
    this.publish('status', status, true);
  }

  private closing: Promise<void> | null = null;
  /** Says goodbye (the status offline, retained) and stops; the room is closed by its owner. */
  close(): Promise<void> {
    return (this.closing ??= this.shut());
  }

  private async shut(): Promise<void> {
    if (this.statusTimer) clearTimeout(this.statusTimer);
    if (this.pumpTimer) clearInterval(this.pumpTimer);
    for (const off of this.offs.splice(0)) off();
    const c = this.client;
    if (!c || !this.room?.board) return;
    if (this.claim.state === 'refused') return void (await c.endAsync(true).catch(() => undefined));
    // The goodbye is waited for a moment only: with the broker gone it would wait for ever (the will says the same).
    const bounded = (p: Promise<unknown>) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
      return Promise.race([p.catch(() => undefined), late]).finally(() => clearTimeout(timer));
    };
    if (c.connected)
      await bounded(c.publishAsync(this.topic('status'), this.willFor(this.board, this.room.board.description), { qos: 1, retain: true }));
    if (c.connected) await bounded(c.endAsync());
    if (!c.disconnected) await bounded(c.endAsync(true));
  }
}

export interface StationStart {
  /** the broker the hub follows */
  mqtt: Omit<LinkOptions, 'clientId' | 'will'> & { clientId?: string };
  secret: string;
  /** the one-board service's options (today's `serve`) */
  service: ServiceOptions;
  now?: () => number;
  /** a game between two boards: the other station's board id, and the side its player takes */
  opponent?: { board: string; side: Color };
  /** the station's key (default: the one kept in its games folder, made on first start) */
  identity?: Identity;
}

export interface Station {
  service: Service;
  publisher: StationPublisher;
  client: MqttClient;
  /** a game between two boards: the far board followed (null: none) */
  far: FarBoard | null;
  close(): Promise<void>;
}

const withId = (gameId: string | null) => (gameId ? { gameId } : {});

/** A station: the one-board service, and its publisher connected to the hub's broker. */
export async function startStation(o: StationStart): Promise<Station> {
  const log = o.service.log?.logger ?? pino({ level: o.service.log?.level ?? 'info' });
  const dir = o.service.storage.gamesDir;
  const identity = o.identity ?? loadIdentity(dir);
  const pins = new StationPins(dir);
  const opponent = o.opponent ? new FarBoard(o.opponent.board, { secret: o.secret, identity, pins, log, now: o.now }) : null;
  const publisher = new StationPublisher({
    secret: o.secret,
    identity,
    pins,
    now: o.now,
    log: log.child({ part: 'station' }),
    ...(opponent ? { peers: () => opponent.keys() } : {}),
    ...(opponent && o.opponent ? { far: () => ({ board: o.opponent!.board, ...withId(opponent.linkedGameId()) }) } : {}),
  });
  const service = await startService({ ...o.service, log: { logger: log }, onJournal: publisher.journalled });
  publisher.url = service.url;
  const board = service.board.identity.id;
  if (o.opponent && opponent) playTheFarBoard(service.session, opponent, o.opponent, log);
  const client = openLink({
    // (The key's fingerprint in the client id: two stations claiming one board never knock each other off the broker.)
    clientId: o.mqtt.clientId ?? `crownhead-station-${board}-${identity.fingerprint}`,
    // (The login the pairing secret gives this board, unless one is given: a locked-down broker lets it in, an open one ignores it.)
    keepaliveS: STATION_KEEPALIVE_S,
    ...o.mqtt,
    username: o.mqtt.username ?? board,
    password: o.mqtt.password ?? brokerPassword(o.secret, board),
    will: { topic: boardTopic(board, 'status'), payload: publisher.willFor(board, service.board.description), retain: true },
  });
  client.on('error', (e) => log.warn(`MQTT: ${e.message}`));
  publisher.attach(service.rooms[0]!, client);
  opponent?.attach(client);
  if (opponent) showTheWay(service.session, client, opponent, o.now ?? Date.now);
  opponent?.onNewGame(() => queueMicrotask(() => publisher.farGameLearnt()));
  service.session.on((e) => {
    if (opponent && e.type === 'new-game') queueMicrotask(() => publisher.farGameLearnt());
  });
  showTheLink(service.rooms[0]!, client, o.mqtt.url, o.now ?? Date.now, () => (pins.hub ? publisher.hubBehind() : null));
  return {
    service,
    publisher,
    client,
    far: opponent,
    close: async () => {
      await publisher.close();
      await service.close();
    },
  };
}
