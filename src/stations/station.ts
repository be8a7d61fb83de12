// A station's side of the link: today's one-board room (its journal the
// source of truth) publishing its board to the hub. Every journal record of
// the game goes out with its sequence number (record 0 the new game) once the
// store has it on disk, never before; after every (re)connect the station
// republishes from the last record the hub acknowledged (the retained ack), and
// answers the hub's requests for missing ranges. Its status is retained, with a
// will that marks it gone; alerts and the clock go out as they happen. Commands
// from the hub (new game, names, corrections) are run only when signed with
// the pairing secret (signing.ts), and answered.

import type { MqttClient } from 'mqtt';
import { pino, type Logger } from 'pino';
import { startService, type Service, type ServiceOptions } from '../server/service.ts';
import { openLink, type LinkOptions } from './link.ts';
import { FarBoard } from './opponent.ts';
import type { Color } from '../rules/index.ts';
import type { Room } from '../server/room.ts';
import { runCommand } from '../server/commands.ts';
import type { JournalEntry } from '../storage/journal.ts';
import { journalStart } from '../storage/journal.ts';
import type { SessionEvent } from '../game/index.ts';
import type { CommandAnswer, StationStatus } from '../protocol/stations-v1.ts';
import { boardTopic, type StationTopic } from './topics.ts';
import { makeStationMessage, parseCommandBody, parseStationMessage, type TopicMessages } from './messages.ts';
import { CommandGuard } from './signing.ts';
import { canonical } from './sequencer.ts';
import { isCrownheadError } from '../common/errors.ts';

export interface StationOptions {
  /** the secret set at pairing: commands not signed with it are refused */
  secret: string;
  /** wall clock, ms (commands' time window; message stamps) */
  now?: () => number;
  /** least time between two status messages (default 500 ms) */
  statusMs?: number;
  /** the station's page, said in its status */
  url?: string;
  log: Logger;
}

interface GameRecords {
  id: string;
  entries: JournalEntry[];
  /** records handed to the broker since the last (re)connect */
  published: number;
  prev: { gameId: string; count: number } | null;
}

/** The will and the goodbye: the station is gone. */
export function offlineStatus(board: string, description: string, at: number): string {
  return makeStationMessage('status', { v: 1, board, online: false, description, at });
}

export class StationPublisher {
  private room: Room | null = null;
  private client: MqttClient | null = null;
  /** the current game and the one before it (a game that ended while the hub was away is finished from here) */
  private readonly games: GameRecords[] = [];
  private acked: { gameId: string; next: number } | null = null;
  private readonly guard: CommandGuard;
  private readonly now: () => number;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private pumpTimer: ReturnType<typeof setInterval> | null = null;
  private readonly offs: (() => void)[] = [];
  /** records published, all games (for the bench and the tests) */
  sent = 0;

  /** records of the games kept here not yet handed to the broker since the last (re)connect */
  get unpublished(): number {
    return this.games.reduce((n, g) => n + g.entries.length - g.published, 0);
  }

  constructor(private readonly opts: StationOptions) {
    this.guard = new CommandGuard(opts.secret);
    this.now = opts.now ?? Date.now;
  }

  private get board(): string {
    return this.room!.board!.identity.id;
  }

  /** The room's journal hook: each record as the session hands it to the store. */
  readonly journalled = (entry: JournalEntry): void => {
    if (!this.room) return; // before the room is attached: its records are read back from the store then
    this.record(entry);
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
    client.on('message', (topic, payload) => this.message(topic, payload));
    if (client.connected) this.connected();
    // Records wait while the store has not written them (a full disk, a burst of names): tried again until it has.
    this.pumpTimer = setInterval(() => this.pump(), 250);
    this.pumpTimer.unref();
  }

  private topic(kind: StationTopic): string {
    return boardTopic(this.board, kind);
  }

  private publish<K extends StationTopic>(kind: K, msg: TopicMessages[K], retain = false, qos: 0 | 1 = 1): void {
    this.client?.publish(this.topic(kind), makeStationMessage(kind, msg), { qos, retain });
  }

  private connected(): void {
    const c = this.client!;
    c.subscribe([this.topic('ack'), this.topic('cmd')], { qos: 1 });
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
    if (!c?.connected || !this.room?.store.flushed) return;
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
      this.publish('game', { v: 1, gameId: g.id, count: g.published, at: this.now(), start: g.entries[0] }, true);
  }

  private message(topic: string, payload: Buffer): void {
    if (topic === this.topic('ack')) {
      const r = parseStationMessage('ack', payload);
      if (!r.ok) return void this.opts.log.warn(`the hub's ack is not readable: ${r.problem}`);
      this.acked = { gameId: r.msg.gameId, next: r.msg.next };
    } else if (topic === this.topic('cmd')) this.command(payload);
  }

  private command(payload: Buffer): void {
    const r = parseStationMessage('cmd', payload);
    if (!r.ok) return void this.answer({ v: 1, id: 'unreadable', ok: false, code: 'bad-command', message: r.problem });
    const body = parseCommandBody(r.msg.body);
    const id = body.ok && body.msg.kind === 'command' ? body.msg.id : 'resend';
    const refused = this.guard.check(r.msg, this.now());
    if (refused) {
      this.opts.log.warn(`a command to this board was refused: ${refused}`);
      return void this.answer({ v: 1, id, ok: false, code: 'not-signed', message: `refused: ${refused}` });
    }
    if (!body.ok) return void this.answer({ v: 1, id, ok: false, code: 'bad-command', message: body.problem });
    const b = body.msg;
    if (b.kind === 'resend') {
      const g = this.games.find((x) => x.id === b.gameId);
      if (g && this.room?.store.flushed) this.publishRange(g, b.from, b.to);
      return;
    }
    try {
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
    if (e.type !== 'clock' && e.type !== 'counts' && !this.statusTimer)
      this.statusTimer = setTimeout(() => {
        this.statusTimer = null;
        this.sendStatus();
      }, this.opts.statusMs ?? 500);
  }

  private sendStatus(): void {
    const room = this.room!;
    const status: StationStatus = {
      v: 1,
      board: this.board,
      online: true,
      description: room.board!.description,
      summary: room.summary(),
      at: this.now(),
      ...(this.opts.url ? { url: this.opts.url } : {}),
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
    // The goodbye is waited for a moment only: with the broker gone it would wait for ever (the will says the same).
    const bounded = (p: Promise<unknown>) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
      return Promise.race([p.catch(() => undefined), late]).finally(() => clearTimeout(timer));
    };
    if (c.connected)
      await bounded(
        c.publishAsync(this.topic('status'), offlineStatus(this.board, this.room.board.description, this.now()), { qos: 1, retain: true }),
      );
    if (c.connected) await bounded(c.endAsync());
    if (!c.disconnected) await bounded(c.endAsync(true));
  }
}

/**
 * A game between two boards: this board's game has the far side played at the
 * other board (a new game, unless the game resumed already has it), and the far
 * player's moves go to the session as they come.
 */
function playTheFarBoard(service: Service, opponent: FarBoard, far: { board: string; side: Color }, log: Logger): void {
  const session = service.session;
  if (session.remote?.side !== far.side) {
    const name = session.tags[far.side === 'black' ? 'Black' : 'White'] || `Board ${far.board}`;
    session.newGame({ remote: { side: far.side, name } });
  }
  opponent.follow(
    (p) => {
      try {
        session.remoteMove(p);
      } catch (e) {
        log.warn(`the move from board ${far.board} was not taken: ${(e as Error).message}`);
      }
    },
    () => session.game.plies.length,
    far.side,
  );
  // This game's plies change (a move carried out, a takeback, a new game): the far board's next may be due.
  session.on((e) => {
    // (After the change is announced: the session takes their move as a change of its own.)
    if (e.type === 'move' || e.type === 'takeback' || e.type === 'new-game' || e.type === 'ready') queueMicrotask(() => opponent.offer());
  });
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
}

/** A station: the one-board service, and its publisher connected to the hub's broker. */
export async function startStation(
  o: StationStart,
): Promise<{ service: Service; publisher: StationPublisher; client: MqttClient; close(): Promise<void> }> {
  const log = o.service.log?.logger ?? pino({ level: o.service.log?.level ?? 'info' });
  const publisher = new StationPublisher({ secret: o.secret, now: o.now, log: log.child({ part: 'station' }) });
  const opponent = o.opponent ? new FarBoard(o.opponent.board, o.secret) : null;
  const service = await startService({ ...o.service, log: { logger: log }, onJournal: publisher.journalled });
  const board = service.board.identity.id;
  if (o.opponent && opponent) playTheFarBoard(service, opponent, o.opponent, log);
  const client = openLink({
    clientId: o.mqtt.clientId ?? `crownhead-station-${board}`,
    ...o.mqtt,
    will: { topic: boardTopic(board, 'status'), payload: offlineStatus(board, service.board.description, Date.now()), retain: true },
  });
  client.on('error', (e) => log.warn(`MQTT: ${e.message}`));
  publisher.attach(service.rooms[0]!, client);
  opponent?.attach(client);
  return {
    service,
    publisher,
    client,
    close: async () => {
      await publisher.close();
      await service.close();
    },
  };
}
