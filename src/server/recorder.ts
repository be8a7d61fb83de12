// The raw-frame recording for bug reports (`--record FILE`): a header, every
// frame, new games and the board lost/back, appended to a plain text file
// (format in src/tracking/recording.ts). A write error stops the recording
// and is logged; play goes on.

import { createWriteStream, type WriteStream } from 'node:fs';
import type { Logger } from 'pino';
import type { GameOptions } from '../rules/index.ts';
import { recordEvent, recordFrame, recordingHeader } from '../tracking/recording.ts';

export class Recorder {
  private out: WriteStream | null;
  /** time of the last frame: events are stamped with it */
  private lastT = 0;

  constructor(
    readonly file: string,
    header: Record<string, unknown>,
    logger: Logger,
  ) {
    this.out = createWriteStream(file, { flags: 'a' });
    this.out.on('error', (e) => {
      logger.error({ file }, `recording stopped: ${e.message}`);
      this.out = null;
    });
    this.write(recordingHeader(header));
  }

  private write(line: string): void {
    this.out?.write(line);
  }

  frame(t: number, seq: number, readings: Uint16Array): void {
    this.lastT = t;
    this.write(recordFrame(t, seq, readings));
  }

  newGame(data: { fen: string; options: GameOptions }): void {
    this.write(recordEvent(this.lastT, 'new-game', data));
  }

  board(connected: boolean): void {
    this.write(recordEvent(this.lastT, 'board', { connected }));
  }

  async close(): Promise<void> {
    const out = this.out;
    this.out = null;
    if (out) await new Promise<void>((resolve) => out.end(resolve));
  }
}
