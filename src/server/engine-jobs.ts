// The order in which the service's one engine worker takes its work. Four
// kinds share it: the computer's move, a hint, the evaluation bar's score of
// the position on the board, and the after-game analysis (a search per
// position). One search runs at a time, so the service always knows which one
// is running; the waiting ones go by purpose (computer, hint, evaluation,
// analysis; first come first served within one), and:
//   - a newer evaluation drops the waiting older one (its position is gone)
//     and stops a running one early (it answers with its deepest finished
//     iteration);
//   - the computer's move or a hint stops a running evaluation early, so a
//     player with the bar on never waits a full evaluation for either;
//   - cancel(purpose) drops that purpose's waiting searches and stops its
//     running one (the computer's search after a takeback or a new game).
// Pure scheduling over an injected engine (`run`, `stop`), so tests drive it
// with a scripted one.

import type { ThinkPurpose, ThinkRequest, ThinkResult } from '../game/computer.ts';

/** The engine as the scheduler sees it: one search at a time, and a way to end the running one early. */
export interface EngineSeat {
  run(req: ThinkRequest): Promise<ThinkResult | null>;
  stop(): void;
}

const RANK: Record<ThinkPurpose, number> = { computer: 0, hint: 1, evaluation: 2, analysis: 3 };

interface Job {
  req: ThinkRequest;
  purpose: ThinkPurpose;
  seq: number;
  resolve: (r: ThinkResult | null) => void;
  reject: (e: unknown) => void;
}

export class EngineJobs {
  private readonly waiting: Job[] = [];
  private running: Job | null = null;
  /** the engine, once it is up (the first search starts it: a worker thread) */
  private seatNow: EngineSeat | null = null;
  private starting = false;
  private seq = 0;

  constructor(private readonly seat: () => Promise<EngineSeat>) {}

  /** Queues a search; resolves with its result, or null when a newer evaluation dropped it. */
  think(req: ThinkRequest): Promise<ThinkResult | null> {
    const purpose = req.purpose ?? 'computer';
    return new Promise((resolve, reject) => {
      if (purpose === 'evaluation') this.drop('evaluation');
      this.waiting.push({ req, purpose, seq: this.seq++, resolve, reject });
      this.waiting.sort((a, b) => RANK[a.purpose] - RANK[b.purpose] || a.seq - b.seq);
      if (this.running?.purpose === 'evaluation' && purpose !== 'analysis') this.seatNow?.stop();
      this.pump();
    });
  }

  /** Drops the waiting searches for `purpose` (they answer null) and stops a running one early. */
  cancel(purpose: ThinkPurpose): void {
    this.drop(purpose);
    if (this.running?.purpose === purpose) this.seatNow?.stop();
  }

  /** The waiting searches for `purpose` leave the queue, answering null. */
  private drop(purpose: ThinkPurpose): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const j = this.waiting[i]!;
      if (j.purpose === purpose) {
        this.waiting.splice(i, 1);
        j.resolve(null);
      }
    }
  }

  /** Searches waiting (not the running one). */
  get queued(): number {
    return this.waiting.length;
  }

  /** What is running now (null: the engine is idle). */
  get busyWith(): ThinkPurpose | null {
    return this.running?.purpose ?? null;
  }

  private pump(): void {
    if (this.running || !this.waiting.length) return;
    const seat = this.seatNow;
    if (!seat) {
      // The search to run is chosen once the engine is up, so what came meanwhile goes by its purpose too.
      if (this.starting) return;
      this.starting = true;
      this.seat().then(
        (s) => {
          this.starting = false;
          this.seatNow = s;
          this.pump();
        },
        (e: unknown) => {
          this.starting = false;
          for (const j of this.waiting.splice(0)) j.reject(e);
        },
      );
      return;
    }
    const job = this.waiting.shift()!;
    this.running = job;
    let result: Promise<ThinkResult | null>;
    try {
      result = seat.run(job.req);
    } catch (e) {
      result = Promise.reject(e);
    }
    result.then(
      (r) => {
        this.finish();
        job.resolve(r);
      },
      (e: unknown) => {
        this.finish();
        job.reject(e);
      },
    );
  }

  /** The running search is over: the next one starts (before the finished one's answer is handed on). */
  private finish(): void {
    this.running = null;
    this.pump();
  }
}
