// Test fixture for the page's state tests: a real game session fed by the
// simulated board on a virtual clock, whose events are turned into the exact
// v1 messages the service's WebSocket hub sends (hello, event, counts, clock):
// an event carries what changed since the last state sent, as a patch.
// No network: the tests hand the message texts to the reducer.

import { countsOf } from '../../src/tracking/boards.ts';
import { GameSession, type SessionEvent } from '../../src/game/index.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { SimBoard } from '../../src/sensors/sim/index.ts';
import type { ServerInfo, ServerMessage, Snapshot } from '../../src/protocol/v1.ts';
import { diffState, sentOf, type Sent } from '../../src/protocol/state-patch.ts';

export class TableServer {
  readonly sim = new SimBoard({ clock: 'manual', seed: 3 });
  readonly session: GameSession;
  /** Messages not yet taken by the test. */
  private queue: string[] = [];
  /** the state the page was last sent, and its revision (events carry patches against it) */
  private sent: { state: Sent; rev: number } | null = null;
  private rev = 0;
  /** the last state sent (whole or as a patch): what a page holds after taking every message */
  lastState: Snapshot | null = null;

  /** Every journal entry the session wrote, in order. */
  readonly journal: JournalEntry[] = [];

  constructor(opts: { timeControl?: string } = {}) {
    this.session = new GameSession({ now: () => this.sim.now(), timeControl: opts.timeControl, journal: (e) => this.journal.push(e) });
    this.session.on((e) => this.onEvent(e));
  }

  static async open(opts: { timeControl?: string } = {}): Promise<TableServer> {
    const t = new TableServer(opts);
    await t.sim.open();
    t.sim.onFrame((f) => t.session.pushFrame(f.t, f.readings));
    t.session.newGame();
    t.session.boardStatus(true, 'sim', 'simulated board');
    t.sim.clear();
    t.wait(300);
    t.take();
    return t;
  }

  private onEvent(e: SessionEvent): void {
    if (e.type === 'counts') {
      const tr = this.session.tracker;
      this.queue.push(
        JSON.stringify({
          v: 1,
          type: 'counts',
          counts: Array.from(tr.reader.counts),
          differences: tr.differences(),
          status: tr.boardStatus,
        }),
      );
    } else if (e.type === 'clock') {
      this.queue.push(JSON.stringify({ v: 1, type: 'clock', clock: e.clock }));
    } else {
      const event = e.type === 'calibrated' ? { type: 'calibrated' as const, say: e.say } : e;
      const state = this.session.snapshot();
      const after = sentOf(state);
      const rev = ++this.rev;
      const msg: ServerMessage = this.sent
        ? { v: 1, type: 'event', event, patch: { ...diffState(this.sent.state, after, state), base: this.sent.rev, rev } }
        : { v: 1, type: 'event', event, state, rev };
      this.sent = { state: after, rev };
      this.lastState = structuredClone(state);
      this.queue.push(JSON.stringify(msg));
    }
  }

  hello(server: Partial<ServerInfo> = {}): string {
    const info: ServerInfo = {
      name: 'crownhead',
      version: '0.1.0',
      readOnly: false,
      tokenRequired: false,
      sim: true,
      source: 'sim',
      board: 'simulated board SIM',
      fallback: null,
      storage: { ok: true, message: 'games are saved in ./games' },
      ...server,
    };
    const state = this.whole();
    const msg: ServerMessage = { v: 1, type: 'hello', server: info, state, rev: this.rev };
    return JSON.stringify(msg);
  }

  state(): string {
    const state = this.whole();
    return JSON.stringify({ v: 1, type: 'state', state, rev: this.rev });
  }

  /** The whole state, sent: what the next event's patch is worked out against. */
  private whole(): Snapshot {
    const state = this.session.snapshot();
    this.sent = { state: sentOf(state), rev: ++this.rev };
    this.lastState = structuredClone(state);
    return state;
  }

  /** The messages sent since the last take. */
  take(): string[] {
    const q = this.queue;
    this.queue = [];
    return q;
  }

  wait(ms: number): void {
    this.sim.advance(ms);
  }

  /** Puts the game's position on the board. */
  setUp(): void {
    const counts = countsOf(this.session.game.position);
    for (let s = 1; s <= 32; s++) this.sim.set(s, counts[s - 1]!);
    this.wait(700);
  }

  lift(square: number): void {
    this.sim.lift(square);
    this.wait(250);
  }

  place(square: number): void {
    this.sim.place(square);
    this.wait(250);
  }

  /** A plain move: lift, put down, take the captured pieces; then let the board settle. */
  move(from: number, to: number, captures: number[] = []): void {
    this.lift(from);
    this.place(to);
    for (const c of captures) this.lift(c);
    this.wait(500);
  }
}
