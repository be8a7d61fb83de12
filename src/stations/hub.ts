// The hub: club mode (src/server/club.ts) whose boards are stations. It
// follows every board under crownhead/v1/boards/+ on the broker: a station's
// status makes its board (a RemoteBoard in a room of the club, joining the
// running service if it appears later); the station's records go through the
// board's Mirror (exactly once, in order, journalled in the hub's own folder);
// the hub acknowledges (retained), asks for gaps, and sends the players' and
// the arbiter's commands to the station signed with the pairing secret. A hub
// restart rebuilds each board from its own journal, then the retained state
// and the stations' republishing fill in what it missed.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { startService, type Service, type ServiceOptions } from '../server/service.ts';
import type { Room } from '../server/room.ts';
import type { Command } from '../protocol/v1.ts';
import type { CommandAnswer, CommandBody } from '../protocol/stations-v1.ts';
import { allBoards, boardTopic, parseTopic, type StationTopic } from './topics.ts';
import { makeStationMessage, parseStationMessage, type TopicMessages } from './messages.ts';
import { signCommand } from './signing.ts';
import { RemoteBoard } from './remote.ts';
import { Mirror } from './mirror.ts';
import { openLink, type LinkOptions } from './link.ts';

const FOLLOWED: StationTopic[] = ['status', 'game', 'entries', 'answer', 'alerts'];

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
}

type Queued = { [K in StationTopic]: { kind: K; msg: TopicMessages[K] } }[StationTopic];

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
  private readonly firstBoard: Promise<void>;
  private resolveFirst: () => void = () => undefined;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly now: () => number;
  private readonly log: Logger;
  private closed = false;
  /** messages refused (unreadable), for the log and the tests */
  refused = 0;

  private constructor(
    private readonly client: MqttClient,
    private readonly opts: HubOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.log = opts.service.log?.logger ?? pino({ level: opts.service.log?.level ?? 'info' });
    this.firstBoard = new Promise<void>((resolve) => (this.resolveFirst = resolve));
  }

  /** Connects to the broker, waits for the first board (one the hub mirrored before, or a station's status), and serves. */
  static async start(opts: HubOptions): Promise<Hub> {
    const client = openLink({ clientId: 'crownhead-hub', ...opts.mqtt });
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
    for (const id of this.knownBoards()) this.board(id);
    this.client.on('message', (topic, payload) => this.message(topic, payload));
    this.client.on('connect', () => {
      this.client.subscribe(
        FOLLOWED.map((k) => allBoards(k)),
        { qos: 1 },
      );
    });
    this.client.on('error', (e) => this.log.warn(`MQTT: ${e.message}`));
    if (!this.boards.size) this.log.info('waiting for the first station to report');
    await this.firstBoard;
    if (this.closed) return;
    const sources = [...this.boards.values()].map((b) => b.source);
    const storage = this.opts.service.storage;
    this.service = await startService({ ...this.opts.service, storage, club: { sources, always: true, scanMs: 0 } });
    for (const room of this.service.rooms) this.attach(room);
    // Stations that reported while the service was starting join now.
    for (const b of this.boards.values()) if (!sources.includes(b.source)) this.join(b);
    const every = Math.max(50, (this.opts.retryMs ?? 2000) / 2);
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
    b = { source: new RemoteBoard(id, (c) => this.command(id, c)), mirror: null, queue: [] };
    this.boards.set(id, b);
    this.resolveFirst();
    if (this.service) this.join(b);
    return b;
  }

  private join(b: BoardLink): void {
    const service = this.service!;
    this.joining = this.joining
      .then(() => service.join!({ source: b.source, identity: b.source.identity }))
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

  private message(topic: string, payload: Buffer): void {
    const t = parseTopic(topic);
    if (!t || !FOLLOWED.includes(t.kind)) return;
    if (t.kind === 'status' && payload.length === 0) return; // a retained status cleared
    const r = parseStationMessage(t.kind, payload);
    if (!r.ok) {
      this.refused++;
      return void this.log.warn({ board: t.board }, `a message from station ${t.board} was refused: ${r.problem}`);
    }
    const b = this.board(t.board);
    const q = { kind: t.kind, msg: r.msg } as Queued;
    if (b.mirror) this.deliver(b, q);
    else if (q.kind !== 'status') b.queue.push(q);
    if (q.kind === 'status') {
      b.source.stationOnline(q.msg.online, q.msg.online ? q.msg.description : 'the station went offline');
      if (!b.mirror) b.queue.push(q);
    }
  }

  private deliver(b: BoardLink, q: Queued): void {
    const m = b.mirror!;
    switch (q.kind) {
      case 'entries':
        return m.receive(q.msg, this.now());
      case 'game':
        return m.announced(q.msg.gameId, q.msg.count);
      case 'status':
        return m.status(q.msg);
      case 'answer':
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
    this.client.publish(boardTopic(board, kind), makeStationMessage(kind, msg), { qos: 1, retain });
  }

  private signed(board: string, body: CommandBody): void {
    this.publish(board, 'cmd', signCommand(this.opts.secret, JSON.stringify(body), this.now()));
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
    this.resolveFirst();
    await this.joining;
    await this.service?.close();
    // (With the broker gone, a polite end would wait for it for ever.)
    await this.client.endAsync(!this.client.connected).catch(() => undefined);
  }
}
