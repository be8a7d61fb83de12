// A board on a station, as the hub's club sees it: a board source without
// frames (its game arrives as the station's records, mirror.ts) whose status
// follows the station's (online → connected, the will → lost), and whose
// commands go back to the station through the hub (signed, hub.ts).

import { SourceBase, type BoardIdentity, type HostCommand } from '../sensors/source.ts';
import type { StationBoard } from '../server/games.ts';
import type { Command } from '../protocol/v1.ts';

export class RemoteBoard extends SourceBase implements StationBoard {
  readonly kind = 'station' as const;
  readonly path = null;
  private isOnline = false;
  private opened = false;
  readonly identity: BoardIdentity;

  constructor(
    readonly id: string,
    private readonly forward: (command: Command) => Promise<void>,
  ) {
    super();
    this.identity = { type: 'identity', proto: 1, fw: 'station', id, n: 32, scan: 0, rate: 0, mode: 'S', extra: {} };
  }

  open(): Promise<BoardIdentity> {
    this.opened = true;
    return Promise.resolve(this.identity);
  }

  close(): Promise<void> {
    this.opened = false;
    return Promise.resolve();
  }

  /** The board's own buzzer is the station's: nothing to send from here. */
  send(_command: HostCommand): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** A player's or the arbiter's command: to the station; settled by its answer (through the hub). */
  command(command: Command): Promise<void> {
    return this.forward(command);
  }

  /** The station says it is online (its last status). */
  get online(): boolean {
    return this.isOnline;
  }

  /** The station came (status online) or went (its will, or a goodbye). */
  stationOnline(online: boolean, detail: string): void {
    if (online === this.isOnline || !this.opened) return void (this.isOnline = online);
    this.isOnline = online;
    this.setStatus(online ? { state: 'reconnected', identity: this.identity } : { state: 'lost', reason: detail });
  }
}
