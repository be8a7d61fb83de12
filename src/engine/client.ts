// The async face of the engine for the service: an EngineClient owns one
// worker_thread (worker.ts) and turns think requests into promises, so a
// search never blocks the event loop that reads the board and serves pages.
// Works from the sources (through tsx) and from the bundle (dist/node/engine-worker.js).

import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BUNDLED } from '../build-info.ts';
import type { Position } from '../rules/index.ts';
import type { Clock, SearchResult } from './search.ts';

/** What a think request may carry: plain values only (they cross the thread boundary). */
export interface ThinkRequestLimits {
  readonly depth?: number;
  readonly nodes?: number;
  readonly timeMs?: number;
  readonly clock?: Clock;
  readonly level?: number;
  readonly seed?: number;
  readonly history?: readonly number[];
  /** The game's 40-move count (Game.quietPlies), so the engine plays inside the rule. */
  readonly quietPlies?: number;
  /** Play from the opening book (built from data/corpus on first use): its most-played move or a seeded random one. Default off. */
  readonly book?: 'best' | 'random' | 'off';
}

export type WorkerRequest =
  | { id: number; type: 'think'; position: Position; limits: ThinkRequestLimits }
  | { id: number; type: 'new-game' };

export type WorkerReply =
  | { id: number; type: 'result'; result: SearchResult }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; message: string };

function startWorker(stop: SharedArrayBuffer): Worker {
  if (BUNDLED) return new Worker(new URL('./engine-worker.js', import.meta.url), { workerData: { stop } });
  // From the sources: the worker needs the TypeScript loader registered in its own thread first.
  // tsx's ESM build of its API (require() resolves to the CommonJS build, which cannot register from an eval'd worker).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
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

  /** The engine's move for the side to move; resolves when the search ends. */
  async think(position: Position, limits: ThinkRequestLimits = {}): Promise<SearchResult> {
    const reply = await this.request({ id: this.next++, type: 'think', position: { black: position.black, white: position.white, kings: position.kings, turn: position.turn }, limits });
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

  async close(): Promise<void> {
    this.failed = new Error('engine closed');
    await this.worker.terminate();
  }
}
