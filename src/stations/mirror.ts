// The hub's copy of one station's game: the records the sequencer hands on
// (exactly once, in order) are written to the board's own games folder (the
// room's store, so a hub restart finds them) and the room's game follows
// them (its MirroredGame, src/game/mirror.ts: one record in, its event out),
// so pages, the feed, the PDN and the director see a remote board as a local
// one. After each batch the hub acknowledges how far it has applied
// (retained); a gap is asked for; a station's retained game message that is
// ahead of the copy is asked for too (a hub that lost its files).

import type { Logger } from 'pino';
import type { Room } from '../server/room.ts';
import type { MirroredGame } from '../game/mirror.ts';
import { StationGames } from '../server/games.ts';
import { journalStart, type JournalEntry } from '../storage/journal.ts';
import type { StationStatus } from '../protocol/stations-v1.ts';
import { Sequencer, canonical, type Arrival, type SequencerAction } from './sequencer.ts';

export interface MirrorOut {
  ask(gameId: string, from: number, to: number): void;
  ack(gameId: string, next: number): void;
}

export class Mirror {
  readonly seq: Sequencer;
  private entries: JournalEntry[] = [];
  private readonly game: MirroredGame;
  /** records that did not replay (a station and hub out of step): logged, counted */
  failures = 0;

  constructor(
    readonly room: Room,
    private readonly out: MirrorOut,
    private readonly log: Logger,
    opts: { retryMs?: number } = {},
  ) {
    if (!(room.games instanceof StationGames)) throw new Error(`board ${room.board?.identity.id} is not a station's board`);
    this.game = room.games.mirror;
    this.seq = new Sequencer({ retryMs: opts.retryMs });
    // What the hub applied before it stopped: its own journal of the board's newest game.
    const found = room.store.findInProgress();
    const list = found.kind === 'game' ? journalStart(found.read.entries) : null;
    if (found.kind === 'game' && list) {
      this.entries = canonical(list);
      this.seq.resume(found.id, this.entries);
      if (room.session.gameId !== found.id) this.follow();
    }
  }

  receive(a: Arrival, now: number): void {
    this.act(this.seq.receive(a, now));
  }

  /** Asks again for what is still missing. */
  due(now: number): void {
    this.act(this.seq.due(now));
  }

  /** The station's retained word on its current game: ask for what the copy lacks. */
  announced(gameId: string, count: number): void {
    const pos = this.seq.position;
    const from = pos?.gameId === gameId ? pos.next : 0;
    if (count > from) this.out.ask(gameId, from, count);
  }

  /** The station's word on its game's far board (a game between two boards): the broadcast pairs the two records by it. */
  farBoard(gameId: string, far: { board: string; gameId?: string } | undefined): void {
    const was = this.room.farGame;
    const next = far ? { gameId, far } : null;
    if (JSON.stringify(was) === JSON.stringify(next)) return;
    this.room.farGame = next;
    this.game.refresh(); // (the broadcast's listing may change: the feed moves on)
  }

  /** The station's own state of its board (in sync, illegal, awaiting a crown…), shown in the room's summary. */
  status(s: StationStatus): void {
    const next = s.summary && s.online ? { state: s.summary.state, say: s.summary.say } : null;
    const was = this.room.remoteState;
    this.room.remoteState = next;
    // (The board's state is the station's, not an event of the game here: pages and the spectators' feed are told it changed.)
    if (was?.state !== next?.state || was?.say !== next?.say) this.game.refresh();
  }

  private act(actions: SequencerAction[]): void {
    let changed = false;
    for (const a of actions) {
      if (a.type === 'ask') {
        this.out.ask(a.gameId, a.from, a.to);
        continue;
      }
      if (a.type === 'apply') {
        if (a.entry.k === 'new') this.entries = [a.entry];
        else this.entries.push(a.entry);
      } else this.entries[a.seq] = a.entry;
      this.write(a.entry);
      // One record in, one change out; a copy out of step with the station's (a record that does not apply) is rebuilt whole.
      if (!this.applyOne(a.entry)) this.follow();
      changed = true;
    }
    if (!changed) return;
    const pos = this.seq.position;
    if (pos) this.out.ack(pos.gameId, pos.next);
  }

  private write(entry: JournalEntry): void {
    try {
      this.room.store.append(entry);
    } catch (e) {
      this.log.error(`a record of the station's game could not be kept: ${(e as Error).message}`);
    }
  }

  /** Applies one record (a changed tags record, which holds every tag, applies as well); false when it does not apply. */
  private applyOne(entry: JournalEntry): boolean {
    try {
      this.game.apply(entry);
      return true;
    } catch {
      return false;
    }
  }

  private follow(): void {
    try {
      this.game.follow(this.entries);
    } catch (e) {
      this.failures++;
      this.log.error(`the station's game does not replay here (${this.entries.length} records): ${(e as Error).message}`);
    }
  }
}
