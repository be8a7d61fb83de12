// The engine's worker_thread: receives the port's requests from client.ts, runs
// the search (keeping its hash table between moves of a game) and posts the
// result back. A shared cell (the id of the last search to stop) lets the
// client stop searches early, even one not begun yet. Near the end
// of a game it loads the endgame database (egdb-cache.ts) once, and the
// opening book from the corpus (book-corpus.ts) when a request wants it.

import { parentPort, workerData } from 'node:worker_threads';
import { think, Searcher, type EndgameProbe } from '../engine/index.ts';
import { popcount } from '../rules/index.ts';
import type { WorkerReply, WorkerRequest } from './client.ts';
import { defaultCacheDir, ENDGAME_PIECES, forgetEgdbs, loadEndgame } from './egdb-cache.ts';
import { bookFromCorpus } from './book-corpus.ts';

const port = parentPort;
if (!port) throw new Error('src/engine-host/worker.ts runs as a worker_thread (start it through EngineClient)');
const stop = new Int32Array((workerData as { stop: SharedArrayBuffer }).stop);
const searcher = new Searcher();
// The endgame database, loaded the first time a position is near the end (built and cached if need be).
let egdb: EndgameProbe | undefined;

port.on('message', (req: WorkerRequest) => {
  if (req.type === 'new-game' || req.type === 'forget-endgame') {
    if (req.type === 'new-game') searcher.reset();
    else {
      forgetEgdbs();
      egdb = undefined;
    }
    port.postMessage({ id: req.id, type: 'done' } satisfies WorkerReply);
    return;
  }
  try {
    const pos = req.request.position;
    // The client writes the id of the last search it wants stopped (see EngineClient.stop).
    const shouldStop = (): boolean => Atomics.load(stop, 0) >= req.id;
    if (!egdb && popcount(pos.black | pos.white) <= ENDGAME_PIECES) egdb = loadEndgame(defaultCacheDir());
    // The book only when asked for (the request's default here is none).
    const bookMode = req.request.limits.book ?? 'off';
    const book = bookMode !== 'off' ? bookFromCorpus() : null;
    const r = think(req.request, { shouldStop, searcher, egdb: egdb ?? null, book });
    port.postMessage({
      id: req.id,
      type: 'result',
      result: { move: r.move, score: r.score, depth: r.depth, pv: r.pv, nodes: r.nodes, ms: r.ms, ...(r.book ? { book: true } : {}) },
    } satisfies WorkerReply);
  } catch (e) {
    port.postMessage({ id: req.id, type: 'error', message: (e as Error).message } satisfies WorkerReply);
  }
});
