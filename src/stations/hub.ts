// The hub: club mode (src/server/club.ts) whose boards are stations. It
// follows every board under crownhead/v1/boards/+ on the broker. A board
// exists only once a station has paired it (pairing.ts: its claim proven with
// the pairing secret, its key pinned in stations.json); from then on only
// messages sealed with that key count (envelope.ts), each newer than the last
// (retained ones aside): anything else is dropped, counted and shown per
// board. The club's pages are up at once, with no board; a paired board is a
// RemoteBoard in a room of the club, joining it with its number — given once
// and kept in the hub's games folder (board-numbers.json), so a restart keeps
// every board's number whatever order they come back in; the station's records go through the
// board's Mirror (exactly once, in order, journalled in the hub's own folder);
// the hub acknowledges (retained), asks for gaps, and sends the players' and
// the arbiter's commands to the station sealed with its own key. A hub
// restart rebuilds each board from its own journal, then the retained state
// and the stations' republishing fill in what it missed.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { CrownheadError } from '../common/errors.ts';
import { pino } from 'pino';
import { startService, type Service, type ServiceOptions } from '../server/service.ts';
import type { Room } from '../server/room.ts';
import type { Command } from '../protocol/v1.ts';
import type { CommandAnswer, CommandBody, Refusals, StationsList } from '../protocol/stations-v1.ts';
import type { IPublishPacket } from 'mqtt';
import { allBoards, boardTopic, type StationTopic } from './topics.ts';
import { parseStationMessage, readMessage, sealMessage, type Received, type TopicMessages } from './messages.ts';
import { RemoteBoard } from './remote.ts';
import { fingerprint, loadIdentity, type Identity } from './identity.ts';
import { HUB_USER, brokerPassword } from './access.ts';
import { Presence } from './presence.ts';
import { Counter } from './envelope.ts';
import { PairingRegistry, counterFile, describeStation, pairChecks, pairedProof, proofMatches } from './pairing.ts';
import { Mirror } from './mirror.ts';
import { openLink, type LinkOptions } from './link.ts';
import { BoardNumbers } from '../server/board-numbers.ts';

/** What each option is when it is not given. */
const DEFAULTS = { retryMs: 2000, answerMs: 10_000 } as const;

const FOLLOWED: StationTopic[] = ['pair', 'status', 'game', 'entries', 'answer', 'alerts'];

/** Messages a second a station may send on average, and at once (its whole game republished after a reconnect). */
const RATE_PER_S = 200;
const RATE_BURST = 2000;

export interface HubOptions {
  /** the broker: its address and how to log in (clientId defaults to crownhead-hub) */
  mqtt: Omit<LinkOptions, 'clientId' | 'will'> & { clientId?: string };
  /** the pairing secret every station of this hub checks commands against */
  secret: string;
  /** the club service's options (its boards are the stations') */
  service: Omit<ServiceOptions, 'board' | 'club'>;
  /** wall clock, ms (commands' signatures, gap retries) */
  now?: () => number;
  /** how long a gap waits before it is asked for again (default 2 s) */
  retryMs?: number;
  /** the hub's key (default: hub-key.pem in its games folder, made on first start) */
  identity?: Identity;
  /** how long a command waits for its station's answer, ms (default 10 s) */
  answerMs?: number;
}

/** A station's answer to a command that did not run: its own code and reason, or none came. */
export class StationAnswerError extends CrownheadError<string> {
  override readonly name = 'StationAnswerError';
}

type Followed = Exclude<StationTopic, 'pair' | 'paired' | 'ack' | 'cmd' | 'clock'>;
type Queued = { [K in Followed]: { kind: K; msg: TopicMessages[K] } }[Followed];

interface BoardLink {
  source: RemoteBoard;
  mirror: Mirror | null;
  /** messages that came before the board's room was open */
  queue: Queued[];
}

export class Hub {
  service: Service | null = null;
  readonly boards = new Map<string, BoardLink>();
  private readonly answerListeners = new Set<(board: string, a: CommandAnswer) => void>();
  private joining: Promise<unknown> = Promise.resolve();
  /** each board's number, kept across restarts */
  private readonly numbers: BoardNumbers;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly now: () => number;
  private readonly log: Logger;
  private closed = false;
  /** messages dropped, all boards (for the tests and the bench) */
  refused = 0;
  /** messages dropped, by board ("" for boards nobody paired) */
  readonly refusals = new Map<string, Refusals>();
  readonly identity: Identity;
  private readonly registry: PairingRegistry;
  private readonly counter: Counter;
  /** when a refused claim was last answered, by board and key */
  private readonly refusedClaims = new Map<string, number>();
  /** each paired board's message allowance */
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** the hub's link to the broker: up or not, since when (ms) */
  private broker = { connected: false, since: 0 };
  /** commands sent and not yet answered, by id */
  private readonly pending = new Map<string, (a: CommandAnswer) => void>();
  /** the counter of the last message read from each board (a message not newer is a replay) */
  private readonly lastN = new Map<string, number>();
  /** each board's station's status messages as taken (a replayed one refused) */
  private readonly presence = new Map<string, Presence>();
  private presenceOf(board: string): Presence {
    let p = this.presence.get(board);
    if (!p) this.presence.set(board, (p = new Presence()));
    return p;
  }

  private constructor(
    private readonly client: MqttClient,
    private readonly opts: HubOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.counter = new Counter(this.now, counterFile(opts.service.storage.gamesDir));
    this.log = opts.service.log?.logger ?? pino({ level: opts.service.log?.level ?? 'info' });
    const dir = opts.service.storage.gamesDir;
    this.identity = opts.identity ?? loadIdentity(dir, 'hub-key.pem');
    this.registry = new PairingRegistry(dir);
    this.numbers = new BoardNumbers(dir);
  }

  /** Connects to the broker and serves at once (no board yet, or those it mirrored before); boards join as their stations pair. */
  static async start(opts: HubOptions): Promise<Hub> {
    const client = openLink({
      clientId: 'crownhead-hub',
      ...opts.mqtt,
      username: opts.mqtt.username ?? HUB_USER,
      password: opts.mqtt.password ?? brokerPassword(opts.secret, HUB_USER),
    });
    const hub = new Hub(client, opts);
    try {
      await hub.run();
    } catch (e) {
      await hub.close();
      throw e;
    }
    return hub;
  }

  private async run(): Promise<void> {
    // The boards it knew, numbered as before (folders from before the numbers were kept: by name, after them).
    for (const id of new Set([...this.numbers.ids(), ...this.knownBoards(), ...this.registry.boards()])) this.board(id);
    this.client.on('message', (topic, payload, packet) => this.message(topic, payload, packet));
    this.client.on('connect', () => {
      this.client.subscribe(
        FOLLOWED.map((k) => allBoards(k)),
        { qos: 1 },
      );
    });
    this.client.on('error', (e) => this.log.warn(`MQTT: ${e.message}`));
    // The hub's own way to the stations: up since its connect, down since it lost the broker (the arbiter is told).
    this.client.on('connect', () => (this.broker = { connected: true, since: this.now() }));
    const lost = () => {
      if (this.broker.connected) this.broker = { connected: false, since: this.now() };
    };
    this.client.on('offline', lost);
    this.client.on('close', lost);
    const stations = { list: () => this.stations(), forget: (board: string) => this.forget(board) };
    const club = { specs: [], sources: [], always: true, scanMs: 0, stations };
    this.service = await startService({ ...this.opts.service, club });
    if (this.closed) return void (await this.service.close());
    if (!this.boards.size) this.log.info('no board yet: each joins when its station pairs');
    // Every board known so far (and those that reported while the service was starting) joins, by number.
    const known = [...this.boards.values()].sort((a, b) => (this.numberOf(a.source.id) ?? 1e9) - (this.numberOf(b.source.id) ?? 1e9));
    for (const b of known) this.join(b);
    const every = Math.max(50, (this.opts.retryMs ?? DEFAULTS.retryMs) / 2);
    this.timer = setInterval(() => {
      for (const b of this.boards.values()) b.mirror?.due(this.now());
    }, every);
    this.timer.unref();
  }

  /** Boards this hub mirrored before (their folders under <games>/boards). */
  private knownBoards(): string[] {
    try {
      return readdirSync(join(this.opts.service.storage.gamesDir, 'boards'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
    } catch {
      return [];
    }
  }

  private board(id: string): BoardLink {
    let b = this.boards.get(id);
    if (b) return b;
    b = { source: new RemoteBoard(id, (c) => this.runCommand(id, c)), mirror: null, queue: [] };
    this.boards.set(id, b);
    this.numberOf(id);
    if (this.service) this.join(b);
    return b;
  }

  /** The board's number (given once, kept on disk); none when it cannot be kept (the club then gives the next free one). */
  private numberOf(id: string): number | undefined {
    try {
      return this.numbers.number(id);
    } catch (e) {
      this.log.error({ board: id }, `board ${id}'s number could not be kept: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** The board's room opens in the running club, with the board's own number (one at a time, in the order asked). */
  private join(b: BoardLink): void {
    const service = this.service!;
    this.joining = this.joining
      .then(async () => service.join!({ source: b.source, identity: await b.source.open() }, this.numberOf(b.source.id)))
      .then((room) => this.attach(room))
      .catch((e: Error) => this.log.error(`station board ${b.source.id} could not join: ${e.message}`));
  }

  private attach(room: Room): void {
    const id = room.board!.identity.id;
    const b = this.boards.get(id);
    if (!b) return;
    b.mirror = new Mirror(
      room,
      { ask: (gameId, from, to) => this.ask(id, gameId, from, to), ack: (gameId, next) => this.ack(id, gameId, next) },
      this.log.child({ board: id, part: 'mirror' }),
      { retryMs: this.opts.retryMs },
    );
    for (const q of b.queue.splice(0)) this.deliver(b, q);
  }

  private message(topic: string, payload: Buffer, packet: IPublishPacket): void {
    if (payload.length === 0) return; // a retained message cleared
    // A key that may not speak for the board is refused before its signature is checked (a flood of them stays cheap).
    const r = readMessage(topic, payload, (board, kind, key, body) => {
      if (kind === 'pair') return this.claimProof(board, key, body);
      const pinned = this.registry.key(board);
      if (!pinned) return `board ${board} is not paired with any station`;
      return key === pinned ? null : `not signed by its station (${describeStation({ key })})`;
    });
    if (!r.ok) return this.drop(r.board && this.registry.key(r.board) ? r.board : '', r.problem, topic.endsWith('/pair'));
    const m = r.m;
    if (!FOLLOWED.includes(m.kind)) return;
    if (m.kind === 'pair') return this.pairing(m);
    if (!this.rate(m.board))
      return this.drop(m.board, `${m.kind}: over ${RATE_PER_S} messages a second from this station (asked for again later)`);
    // Retained messages are as old as they are, and records are the sequencer's to take once each (by game and number, in any
    // order); every other message is newer than the last from its board (a copy sent again is a replay).
    if (!packet.retain && m.kind !== 'status' && m.kind !== 'entries') {
      if (m.n <= (this.lastN.get(m.board) ?? 0)) return this.drop(m.board, `${m.kind}: sent before (a replay)`);
      this.lastN.set(m.board, m.n);
    }
    // A status: the station's newest word, or its will (presence.ts); an old one sent again is a replay.
    if (m.kind === 'status' && this.presenceOf(m.board).take(m.n, m.msg.online, m.msg.will) === 'replay')
      return this.drop(m.board, 'status: sent before (a replay)');
    if (m.kind === 'clock') return;
    const b = this.board(m.board);
    const q = { kind: m.kind, msg: m.msg } as Queued;
    if (b.mirror) this.deliver(b, q);
    else if (q.kind !== 'status') b.queue.push(q);
    if (q.kind === 'status') {
      b.source.stationOnline(q.msg.online, q.msg.online ? q.msg.description : 'the station went offline');
      if (!b.mirror) b.queue.push(q);
    }
  }

  /**
   * A claim's proof with the secret, checked before its signature (a flood of guessed claims stays cheap); null when it
   * holds. A claim without it is answered (at most once in 10 s a key): a station with a wrong --hub-secret learns why.
   */
  private claimProof(board: string, key: string, body: string): string | null {
    const r = parseStationMessage('pair', body);
    if (!r.ok) return `a claim on board ${board}: ${r.error.message}`;
    if (proofMatches(this.opts.secret, board, key, r.value.proof)) return null;
    const problem = 'its proof does not match the pairing secret (a wrong --hub-secret?)';
    this.answerClaim(board, key, false, `this board's claim was refused: ${problem}`);
    return `a claim on board ${board} (${describeStation({ key })}): ${problem}`;
  }

  /** Each station's allowance: a bucket of RATE_BURST messages refilled at RATE_PER_S (a republish after a reconnect fits). */
  private rate(board: string): boolean {
    const now = this.now();
    const b = this.buckets.get(board) ?? { tokens: RATE_BURST, at: now };
    b.tokens = Math.min(RATE_BURST, b.tokens + ((now - b.at) / 1000) * RATE_PER_S);
    b.at = now;
    this.buckets.set(board, b);
    if (b.tokens < 1) return false;
    b.tokens--;
    return true;
  }

  /** A message dropped: counted for its board (shown on the arbiter page) and logged, the first and then every hundredth. */
  private drop(board: string, why: string, claim = false): void {
    this.refused++;
    const r: Refusals = this.refusals.get(board) ?? { count: 0, last: '', at: 0 };
    r.count++;
    r.last = why;
    if (claim) r.claim = why;
    r.at = this.now();
    this.refusals.set(board, r);
    if (r.count === 1 || r.count % 100 === 0)
      this.log.warn({ board: board || undefined }, `${board ? `board ${board}: ` : ''}${r.count} message(s) refused — ${why}`);
  }

  /** A station claims a board: the first key with the secret's proof is pinned; another key for a paired board is refused, named. */
  private pairing(m: Extract<Received, { kind: 'pair' }>): void {
    const board = m.board;
    const problem = pairChecks(m.msg, this.opts.secret, board, m.key);
    const pinned = this.registry.key(board);
    if (problem) {
      this.drop(pinned ? board : '', `a claim on board ${board} (${describeStation(m.msg)}): ${problem}`, true);
      return this.answerClaim(board, m.key, false, `this board's claim was refused: ${problem}`);
    }
    if (pinned && pinned !== m.key) {
      const holder = this.boards.get(board)?.source.online ? 'online now' : 'offline now';
      this.drop(board, `a second station (${describeStation(m.msg)}) claims this board: refused`, true);
      return this.answerClaim(
        board,
        m.key,
        false,
        `board ${board} is paired with another station (${describeStation({ key: pinned })}, ${holder}); if that station was rebuilt, the arbiter can forget its key`,
      );
    }
    if (!pinned) {
      try {
        this.registry.pin(board, m.key, this.now());
      } catch (e) {
        return void this.log.error(`board ${board} could not be paired: ${(e as Error).message}`);
      }
      this.log.info({ board }, `board ${board} paired: ${describeStation(m.msg)}`);
    }
    this.board(board);
    this.answerClaim(board, m.key, true);
  }

  /** The answer to a claim: accepted (retained, so the station finds it after a restart) or refused (to that station, once in 10 s). */
  private answerClaim(board: string, station: string, ok: boolean, reason?: string): void {
    if (!ok) {
      const key = `${board}\n${station}`;
      const last = this.refusedClaims.get(key);
      if (last !== undefined && this.now() - last < 10_000) return; // (a flood of claims gets no flood of answers)
      if (this.refusedClaims.size > 1000) this.refusedClaims.clear();
      this.refusedClaims.set(key, this.now());
    }
    const hub = this.identity.key;
    const proof = pairedProof(this.opts.secret, board, station, hub, ok);
    this.publish(board, 'paired', { v: 1, board, station, hub, ok, ...(reason ? { reason } : {}), proof }, ok);
  }

  /** Every paired board: its station's key, whether it is online, the messages dropped for it; and those for boards nobody paired. */
  stations(): StationsList {
    const list: StationsList['stations'] = this.registry.boards().map((board) => ({
      board,
      key: fingerprint(this.registry.key(board)!),
      online: this.boards.get(board)?.source.online ?? false,
      refused: this.refusals.get(board) ?? null,
    }));
    return { stations: list, unpaired: this.refusals.get('') ?? null, broker: this.broker };
  }

  /** Forgets a board's key (the arbiter, for a station rebuilt from scratch): the next station to claim it with the secret pairs. */
  forget(board: string): boolean {
    const had = this.registry.forget(board);
    if (had) {
      this.client.publish(boardTopic(board, 'paired'), '', { qos: 1, retain: true });
      this.lastN.delete(board);
      this.presence.delete(board);
      this.log.info({ board }, `board ${board}: its station's key is forgotten; the next station to claim it pairs`);
    }
    return had;
  }

  private deliver(b: BoardLink, q: Queued): void {
    const m = b.mirror!;
    switch (q.kind) {
      case 'entries':
        return m.receive(q.msg, this.now());
      case 'game':
        m.farBoard(q.msg.gameId, q.msg.far);
        return m.announced(q.msg.gameId, q.msg.count);
      case 'status':
        return m.status(q.msg);
      case 'answer':
        this.pending.get(q.msg.id)?.(q.msg);
        this.pending.delete(q.msg.id);
        for (const l of this.answerListeners) l(b.source.id, q.msg);
        if (!q.msg.ok) this.log.warn({ board: b.source.id }, `station ${b.source.id} refused a command: ${q.msg.message ?? q.msg.code}`);
        return;
      case 'alerts':
        if (q.msg.alert) this.log.info({ board: b.source.id }, `station ${b.source.id}: ${q.msg.alert.message}`);
        return;
      default:
        return;
    }
  }

  private publish<K extends StationTopic>(board: string, kind: K, msg: TopicMessages[K], retain = false): void {
    const { topic, payload } = sealMessage(board, kind, msg, this.identity, this.counter.next());
    this.client.publish(topic, payload, { qos: 1, retain });
  }

  private signed(board: string, body: CommandBody): void {
    this.publish(board, 'cmd', body);
  }

  private ask(board: string, gameId: string, from: number, to: number): void {
    this.signed(board, { kind: 'resend', gameId, from, to });
  }

  private ack(board: string, gameId: string, next: number): void {
    this.publish(board, 'ack', { v: 1, gameId, next }, true);
  }

  /** A command to a station's board (from its page on the hub, the arbiter, the director); its answer comes back as an answer message. Returns its id. */
  command(board: string, command: Command): string {
    const id = randomBytes(8).toString('hex');
    this.signed(board, { kind: 'command', id, command });
    return id;
  }

  /**
   * A command to a station's board, settled by the station's answer: done, refused (its reason, as a
   * StationAnswerError with the station's code), or no answer within `answerMs` (offline: it runs if the
   * station is back within the command window, else the station refuses it).
   */
  runCommand(board: string, command: Command): Promise<void> {
    const id = this.command(board, command);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new StationAnswerError(
            'station-silent',
            `board ${board}'s station has not answered (offline?): the command runs if it is back within a minute, else it is refused`,
          ),
        );
      }, this.opts.answerMs ?? DEFAULTS.answerMs);
      timer.unref();
      this.pending.set(id, (a) => {
        clearTimeout(timer);
        if (a.ok) resolve();
        else
          reject(
            new StationAnswerError(a.code ?? 'refused', `board ${board}'s station refused it: ${a.message ?? a.code ?? 'no reason given'}`),
          );
      });
    });
  }

  /** Follows the stations' answers to commands. */
  onAnswer(listener: (board: string, a: CommandAnswer) => void): () => void {
    this.answerListeners.add(listener);
    return () => this.answerListeners.delete(listener);
  }

  /** The room of a station's board, once it has one. */
  room(board: string): Room | null {
    return this.boards.get(board)?.mirror?.room ?? null;
  }

  private closing: Promise<void> | null = null;
  close(): Promise<void> {
    return (this.closing ??= this.shut());
  }

  private async shut(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.joining;
    await this.service?.close();
    // (With the broker gone, a polite end would wait for it for ever.)
    await this.client.endAsync(!this.client.connected).catch(() => undefined);
  }
}
