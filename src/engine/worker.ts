// The engine's worker_thread: receives think requests from client.ts, runs
// the search (keeping its hash table between moves of a game) and posts the
// result back. A shared cell (the id of the last search to stop) lets the
// client stop searches early, even one not begun yet. Near the end
// of a game it loads the endgame database (egdb.ts) once.

import { parentPort, workerData } from 'node:worker_threads';
import { think, Book, Searcher, Egdb, EGDB_PIECES, defaultCacheDir } from './index.ts';
import { popcount, type Position } from '../rules/index.ts';
import type { WorkerReply, WorkerRequest } from './client.ts';

const port = parentPort;
if (!port) throw new Error('src/engine/worker.ts runs as a worker_thread (start it through EngineClient)');
const stop = new Int32Array((workerData as { stop: SharedArrayBuffer }).stop);
const searcher = new Searcher();
// The endgame database, loaded the first time a position is near the end (built and cached if need be).
let egdb: Egdb | undefined;

port.on('message', (req: WorkerRequest) => {
  if (req.type === 'new-game') {
    searcher.reset();
    port.postMessage({ id: req.id, type: 'done' } satisfies WorkerReply);
    return;
  }
  try {
    const pos: Position = req.position;
    // The client writes the id of the last search it wants stopped (see EngineClient.stop).
    const shouldStop = (): boolean => Atomics.load(stop, 0) >= req.id;
    if (!egdb && popcount(pos.black | pos.white) <= 6) egdb = Egdb.load(EGDB_PIECES, defaultCacheDir());
    const { book: bookMode, ...rest } = req.limits;
    const book = bookMode && bookMode !== 'off' ? Book.fromCorpus() : null;
    const r = think(pos, { ...rest, shouldStop, searcher, ...(egdb ? { egdb } : {}), ...(book && bookMode && bookMode !== 'off' ? { book, bookMode } : {}) });
    port.postMessage({ id: req.id, type: 'result', result: { move: r.move, score: r.score, depth: r.depth, pv: r.pv, nodes: r.nodes, ms: r.ms, ...(r.book ? { book: true } : {}) } } satisfies WorkerReply);
  } catch (e) {
    port.postMessage({ id: req.id, type: 'error', message: (e as Error).message } satisfies WorkerReply);
  }
});
