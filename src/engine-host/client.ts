// The async face of the engine for the service: an EngineClient owns one
// worker_thread (worker.ts) and turns the port's requests (src/engine/port.ts)
// into promises, so a
// search never blocks the event loop that reads the board and serves pages.
// Works from the sources (through tsx) and from the bundle (dist/node/engine-worker.js).

import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BUNDLED } from '../build-info.ts';
import type { EngineRequest, EngineResult } from '../engine/port.ts';

export type WorkerRequest =
  | { id: number; type: 'think'; request: EngineRequest }
  | { id: number; type: 'new-game' }
  /** a new endgame database was built: load it afresh at the next search near the end */
  | { id: number; type: 'forget-endgame' };

export type WorkerReply =
  { id: number; type: 'result'; result: EngineResult } | { id: number; type: 'done' } | { id: number; type: 'error'; message: string };

function startWorker(stop: SharedArrayBuffer): Worker {
  if (BUNDLED) return new Worker(new URL('./engine-worker.js', import.meta.url), { workerData: { stop } });
  // From the sources: the worker needs the TypeScript loader registered in its own thread first.
  // tsx's ESM build of its API (require() resolves to the CommonJS build, which cannot register from an eval'd worker).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: { stop } });
}

export class EngineClient {
  private readonly worker: Worker;
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private next = 1;
  private readonly pending = new Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>();
  private failed: Error | null = null;

  constructor() {
    this.worker = startWorker(this.stopFlag.buffer as SharedArrayBuffer);
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      p.resolve(reply);
    });
    const fail = (e: Error): void => {
      this.failed = e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', (e) => fail(new Error(`engine worker failed: ${e.message}`)));
    this.worker.on('exit', (code) => fail(new Error(`engine worker stopped (exit code ${code})`)));
  }

  private request(req: WorkerRequest): Promise<WorkerReply> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(req);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<WorkerReply>;
  }

  /** The engine's answer to one request (port.ts); resolves when the search ends. */
  async think(req: EngineRequest): Promise<EngineResult> {
    const { position: p, history, ...rest } = req;
    // Plain values only cross the thread boundary (a Position may be a class instance).
    const request: EngineRequest = {
      ...rest,
      position: { black: p.black, white: p.white, kings: p.kings, turn: p.turn },
      ...(history ? { history: [...history] } : {}),
    };
    const reply = await this.request({ id: this.next++, type: 'think', request });
    if (reply.type === 'error') throw new Error(`engine: ${reply.message}`);
    if (reply.type !== 'result') throw new Error('engine: unexpected reply');
    return reply.result;
  }

  /**
   * Ends the current search now; its promise resolves with the deepest
   * completed iteration. It ends every search asked for so far, one the worker
   * has not begun yet included (the shared cell holds the last request's id;
   * a search stops when the cell reaches its own id), and none asked later.
   */
  stop(): void {
    Atomics.store(this.stopFlag, 0, this.next - 1);
  }

  /** Forget the previous game (hash table, history). */
  async newGame(): Promise<void> {
    await this.request({ id: this.next++, type: 'new-game' });
  }

  /** A new endgame database is there: the worker loads it afresh at its next search near the end. */
  async forgetEndgame(): Promise<void> {
    await this.request({ id: this.next++, type: 'forget-endgame' });
  }

  async close(): Promise<void> {
    this.failed = new Error('engine closed');
    await this.worker.terminate();
  }
}
