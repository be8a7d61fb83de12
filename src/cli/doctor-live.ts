// `crownhead doctor --live`: the board's readings as a live decimal grid
// (src/doctor/live.ts draws it) until Ctrl-C. Owns the loop's I/O: the frames
// of an open board source in, the grid to standard output (in place on a
// terminal, one grid a second on a pipe), a lost or regained board said
// between grids, and a clean exit on SIGINT or SIGTERM (the cursor shown
// again, the board closed by the caller).

import type { BoardSource } from '../sensors/source.ts';
import type { Io } from './io.ts';
import { LiveGrid } from '../doctor/live.ts';

export interface LiveRun {
  source: Pick<BoardSource, 'onFrame' | 'onStatus'>;
  io: Io;
  /** resolves when the view should end (Ctrl-C) */
  stop: Promise<unknown>;
  id?: string;
  /** ms of frame time between grids (default: 200 on a terminal, 1000 otherwise) */
  everyMs?: number;
}

/** Shows the grid until `stop` resolves; returns how many grids were drawn. */
export async function runLive(o: LiveRun): Promise<number> {
  const tty = o.io.tty === true;
  let grid = new LiveGrid({ tty, id: o.id, everyMs: o.everyMs });
  let drawn = 0;
  const offFrame = o.source.onFrame((f) => {
    const lines = grid.push(f.t, f.readings);
    if (!lines) return;
    drawn++;
    for (const l of lines) o.io.out(l);
  });
  const offStatus = o.source.onStatus((s) => {
    if (s.state !== 'lost' && s.state !== 'reconnected') return;
    for (const l of grid.finish()) o.io.out(l);
    o.io.out(s.state === 'lost' ? `The board is gone (${s.reason}); waiting for it to come back…` : 'The board is back.');
    grid = new LiveGrid({ tty, id: o.id, everyMs: o.everyMs }); // a new grid below the message, from new first readings
  });
  try {
    await o.stop;
  } finally {
    offFrame();
    offStatus();
    for (const l of grid.finish()) o.io.out(l);
  }
  return drawn;
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM; `dispose` removes the handlers. */
export function interrupted(): { stop: Promise<NodeJS.Signals>; dispose(): void } {
  let handler!: (s: NodeJS.Signals) => void;
  const stop = new Promise<NodeJS.Signals>((resolve) => (handler = resolve));
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return {
    stop,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
