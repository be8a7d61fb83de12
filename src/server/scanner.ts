// Club mode with `--board auto`: boards plugged in after the start join the
// room. Every few seconds the serial ports no board of this service holds are
// tried with the handshake; a board not yet known becomes a new room (its
// games folder by its id, so a board seen before resumes its game); a board
// already known is left to its own source, which is looking for it (the port
// is closed again untouched).

import type { Logger } from 'pino';
import type { FindOptions } from '../sensors/detect.ts';
import type { SerialBinding } from '../sensors/line-port.ts';
import type { OpenedSource, SerialTuning } from '../sensors/open.ts';

export interface ScannerOptions {
  binding: SerialBinding;
  serial?: SerialTuning;
  /** period between scans, ms */
  everyMs: number;
  /** the ports this service's boards hold */
  held: () => string[];
  /** a board id this service already has */
  known: (id: string) => boolean;
  /** makes a room for a new board (its source is open) */
  add: (board: OpenedSource) => Promise<void>;
  log: Logger;
}

export class BoardScanner {
  private timer: ReturnType<typeof setInterval>;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly o: ScannerOptions) {
    this.timer = setInterval(() => void this.scan(), o.everyMs);
    this.timer.unref();
  }

  /** One scan (never two at once). */
  scan(): Promise<void> {
    return (this.running ??= this.once().finally(() => (this.running = null)));
  }

  private async once(): Promise<void> {
    const find: FindOptions = { ...this.o.serial, skip: this.o.held };
    // (Loaded only here: a service of simulated boards never loads serialport.)
    const { findBoards } = await import('../sensors/detect.ts');
    const { found } = await findBoards(this.o.binding, find);
    for (const f of found) {
      if (this.closed || this.o.known(f.identity.id)) {
        await f.port.close();
        continue;
      }
      const { SerialBoardSource } = await import('../sensors/serial.ts');
      const source = new SerialBoardSource({ ...this.o.serial, binding: this.o.binding, sameBoard: true, opened: f });
      try {
        const identity = await source.open();
        await this.o.add({ source, identity });
        this.o.log.info({ board: identity.id }, `board ${identity.id} plugged in: added`);
      } catch (e) {
        await source.close();
        this.o.log.warn(`a board plugged in could not be added: ${(e as Error).message}`);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}
