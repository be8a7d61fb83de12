// The order in which one engine (the service's worker) takes its work. Five
// kinds share it: the computer's move, a hint, the evaluation bar's score of
// the position on the board, the after-game analysis (a search per
// position), and the computer thinking on the player's time (ponder.ts: the
// position after the reply it expects). One search runs at a time, so the
// caller always knows which one is running; the waiting ones go by purpose
// (computer, hint, evaluation, analysis, ponder), and:
//   - at most one search per purpose waits: a newer one drops the waiting
//     older one of its purpose (it answers null), so a flood of requests
//     (a held key) never piles up searches;
//   - a newer evaluation also stops a running one early (it answers with its
//     deepest finished iteration);
//   - the computer's move or a hint stops a running evaluation early, so a
//     player with the bar on never waits a full evaluation for either;
//   - cancel(purpose) drops that purpose's waiting search and stops its
//     running one (what no longer applies after a takeback, a changed
//     position or a new game).
// Pure scheduling over an injected engine (`run`, `stop`: the worker in the
// service), so tests drive it with a scripted one.

import type { EngineRequest, EngineResult, Purpose } from './port.ts';

/** The engine as the scheduler sees it: one search at a time, and a way to end the running one early. */
export interface EngineSeat {
  run(req: EngineRequest): Promise<EngineResult | null>;
  stop(): void;
}

const RANK: Record<Purpose, number> = { computer: 0, hint: 1, evaluation: 2, analysis: 3, ponder: 4 };

interface Job {
  req: EngineRequest;
  purpose: Purpose;
  seq: number;
  resolve: (r: EngineResult | null) => void;
  reject: (e: unknown) => void;
  /** A ponder search stopped for another: it waits again instead of answering. */
  resume?: boolean;
}

export class EngineJobs {
  private readonly waiting: Job[] = [];
  private running: Job | null = null;
  /** the engine, once it is up (the first search starts it: a worker thread) */
  private seatNow: EngineSeat | null = null;
  private starting = false;
  private seq = 0;

  constructor(private readonly seat: () => Promise<EngineSeat>) {}

  /** Queues a search; resolves with its result, or null when a newer one of its purpose or a cancel dropped it. */
  think(req: EngineRequest): Promise<EngineResult | null> {
    const purpose = req.purpose ?? 'computer';
    return new Promise((resolve, reject) => {
      this.drop(purpose);
      this.waiting.push({ req, purpose, seq: this.seq++, resolve, reject });
      this.waiting.sort((a, b) => RANK[a.purpose] - RANK[b.purpose] || a.seq - b.seq);
      const running = this.running;
      if (running?.purpose === 'ponder') {
        running.resume = purpose !== 'ponder';
        this.seatNow?.stop();
      } else if (running?.purpose === 'evaluation' && purpose !== 'analysis' && purpose !== 'ponder') this.seatNow?.stop();
      this.pump();
    });
  }

  /** Drops the waiting search for `purpose` (it answers null) and stops a running one early. */
  cancel(purpose: Purpose): void {
    this.drop(purpose);
    if (this.running?.purpose === purpose) {
      this.running.resume = false;
      this.seatNow?.stop();
    }
  }

  /** The waiting searches for `purpose` leave the queue, answering null. */
  private drop(purpose: Purpose): void {
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
  get busyWith(): Purpose | null {
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
    let result: Promise<EngineResult | null>;
    try {
      result = seat.run(job.req);
    } catch (e) {
      result = Promise.reject(e);
    }
    result.then(
      (r) => {
        if (job.resume) {
          // A ponder search stopped for another search: it waits again (behind it, by its rank).
          job.resume = false;
          this.waiting.push(job);
          this.waiting.sort((a, b) => RANK[a.purpose] - RANK[b.purpose] || a.seq - b.seq);
          this.finish();
          return;
        }
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
