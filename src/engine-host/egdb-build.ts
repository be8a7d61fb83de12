// Building the 5-piece endgame database from the page: `crownhead egdb build
// --pieces 5` run as a child process at the lowest priority (the board's
// reading and the pages never wait for it), its progress read from the lines
// it writes ("slice 37/85 … solved, 412.0 s elapsed"), its end (the file
// written and checked, or why not) kept as the status the page shows. One
// build at a time; a stopped build resumes from the slices it solved
// (egdb-cache.ts keeps them). A machine with too little memory is told so
// before anything starts. The engine workers are told when a new database is
// there (onBuilt), so the next search near the end uses it.

import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { setPriority, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CrownheadError } from '../common/errors.ts';
import { defaultCacheDir, egdbFile, packedEgdbShape } from './egdb-cache.ts';
import type { EgdbStatus } from '../model/egdb.ts';

/** What the page shows of the 5-piece database (src/model/egdb.ts). */
export type { EgdbStatus };

export class EgdbBuildError extends CrownheadError<'building' | 'built' | 'memory'> {
  override readonly name = 'EgdbBuildError';
}

/** Building holds about 2.4 GB at its peak (measured: 2.34 GB); below this much memory in the machine it would swap or be killed. */
export const BUILD_MEMORY = 3 * 1024 ** 3;

const DEFAULTS = { memory: totalmem, now: () => Date.now() };

export interface EgdbBuilderOptions {
  /** the cache folder (default $CROWNHEAD_CACHE or ~/.cache/crownhead) */
  dir?: string;
  /** the compressed database's piece count: 5 (fewer in tests) */
  pieces?: number;
  /** the child to run (default: this crownhead, `egdb build --pieces 5`, with CROWNHEAD_CACHE set to dir) */
  command?: { cmd: string; args: string[] };
  /** the machine's memory, bytes */
  memory?: () => number;
  now?: () => number;
  /** told when a new database was written and checked */
  onBuilt?: () => void;
}

const SLICE = /^slice (\d+)\/(\d+) /;

export class EgdbBuilder {
  private child: ChildProcess | null = null;
  private progress = { done: 0, total: 0, startedAt: 0 };
  private last: { state: 'failed' | 'stopped'; message: string } | null = null;
  private readonly dir: string;

  constructor(private readonly opts: EgdbBuilderOptions = {}) {
    this.dir = opts.dir ?? defaultCacheDir();
  }

  status(): EgdbStatus {
    const now = (this.opts.now ?? DEFAULTS.now)();
    const base = { done: this.progress.done, total: this.progress.total, elapsedMs: 0, bytes: 0 };
    if (this.child) {
      const message = this.progress.total
        ? `Building the 5-piece endgame database: slice ${this.progress.done} of ${this.progress.total}.`
        : 'Building the 5-piece endgame database: starting (the 4-piece one first, if need be).';
      return { ...base, state: 'building', elapsedMs: now - this.progress.startedAt, message };
    }
    const pieces = this.opts.pieces ?? 5;
    const file = egdbFile(pieces, this.dir);
    let bytes: number;
    try {
      bytes = statSync(file).size;
    } catch {
      if (this.last) return { ...base, ...this.last };
      return { ...base, state: 'absent', message: 'The 5-piece endgame database is not built: the engine uses the 4-piece one.' };
    }
    const why = packedEgdbShape(file, pieces);
    if (why !== null)
      return { ...base, bytes, state: 'damaged', message: `The 5-piece endgame database is damaged (${why}): not used. Build it again.` };
    return {
      ...base,
      bytes,
      state: 'built',
      message: `The 5-piece endgame database is built (${(bytes / 1e6).toFixed(0)} MB) and in use.`,
    };
  }

  /** Starts the build (at the lowest priority). Refused while one runs, when the database is there and whole, or when the machine has too little memory. */
  start(): EgdbStatus {
    if (this.child) throw new EgdbBuildError('building', 'the 5-piece endgame database is being built already');
    if (this.status().state === 'built') throw new EgdbBuildError('built', 'the 5-piece endgame database is built already');
    const memory = (this.opts.memory ?? DEFAULTS.memory)();
    if (memory < BUILD_MEMORY)
      throw new EgdbBuildError(
        'memory',
        `this computer has ${(memory / 1024 ** 3).toFixed(1)} GB of memory; building the 5-piece endgame database needs about 2.4 GB free (3 GB in all)`,
      );
    const { cmd, args } = this.opts.command ?? {
      cmd: process.execPath,
      args: [fileURLToPath(new URL('../../bin/crownhead.js', import.meta.url)), 'egdb', 'build', '--pieces', '5'],
    };
    const child = spawn(cmd, args, { env: { ...process.env, CROWNHEAD_CACHE: this.dir }, stdio: ['ignore', 'ignore', 'pipe'] });
    if (child.pid !== undefined) setPriority(child.pid, 19);
    this.child = child;
    this.last = null;
    this.progress = { done: 0, total: 0, startedAt: (this.opts.now ?? DEFAULTS.now)() };
    let tail = '';
    let lastLine = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop()!;
      for (const line of lines) this.read(line, (l) => (lastLine = l));
    });
    let stopping = false;
    this.stop = () => {
      stopping = true;
      child.kill('SIGTERM');
    };
    child.on('error', (e) => (lastLine = e.message));
    child.on('close', (code) => {
      this.child = null;
      this.stop = () => undefined;
      if (code === 0) this.opts.onBuilt?.();
      else if (stopping)
        this.last = {
          state: 'stopped',
          message: `The build was stopped at slice ${this.progress.done}: building again goes on from there.`,
        };
      else
        this.last = {
          state: 'failed',
          message: `The build failed${lastLine ? `: ${lastLine}` : ` (exit code ${code})`}. Building again goes on from the last slice solved.`,
        };
    });
    return this.status();
  }

  /** Stops a build under way (it resumes from its solved slices when started again). */
  stop: () => void = () => undefined;

  /** Stops a build under way and waits for it to end. */
  async close(): Promise<void> {
    const c = this.child;
    if (!c) return;
    const ended = new Promise((resolve) => c.once('close', resolve));
    this.stop();
    await ended;
  }

  private read(line: string, keep: (line: string) => void): void {
    const m = SLICE.exec(line);
    if (m) this.progress = { ...this.progress, done: Number(m[1]), total: Number(m[2]) };
    else if (line.trim()) keep(line.trim());
  }
}
