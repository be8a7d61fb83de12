// The builder's sensor view, behind the control token: the live
// raw reading of all 32 sensors, each square's levels as the reader learnt
// them (empty, one coin, two, and where a flipped coin reads), and the
// per-square test `crownhead doctor` does (src/doctor/bring-up.ts: a settled
// zero, "put a coin on 14", "lift it", and what answered). Raw frames never
// go to the pages: a page that opened the sensor view asks for the latest
// reading a few times a second (GET /api/sensors.json); the board's frames
// are followed only while such a page keeps asking.

import type express from 'express';
import { BringUp, stepText, type DoctorStep } from '../doctor/bring-up.ts';
import { THRESHOLDS } from '../reading/thresholds.ts';
import type { SensorSnapshot, SensorTest } from '../protocol/v1.ts';
import type { RawFrame } from '../sensors/source.ts';
import type { ServerContext } from './context.ts';
import { requesterOf } from './access.ts';

/** The board's frames are let go this long after the sensor view last asked, ms. */
const IDLE_MS = 10_000;
/** A step of the square test waits this long for the hand before it gives up, ms. */
const STEP_MS = 20_000;

interface Running {
  square: number;
  machine: BringUp;
  result: SensorTest['result'];
}

/** What the per-square test found, in words (only its own square answering is a pass). */
export function testResult(square: number, machine: BringUp): NonNullable<SensorTest['result']> {
  const r = machine.obs.responses.find((x) => x.square === square);
  const moved = r?.moved ?? [];
  const own = moved.find((m) => m.square === square);
  const others = moved.filter((m) => m.square !== square);
  const sign = (d: number) => `${d > 0 ? '+' : ''}${Math.round(d)}`;
  let text: string;
  let ok = false;
  if (!r || r.timedOut) text = `Nothing answered a coin on ${square}: its sensor may be dead or unplugged (or no coin was put down).`;
  else if (!own)
    text = `A coin on ${square} moved ${others.map((m) => `${m.square} (${sign(m.dev)})`).join(', ')} instead: the sensors are swapped or wired to the wrong mux line.`;
  else if (others.length)
    text = `${square} answered (${sign(own.dev)} counts), but so did ${others.map((m) => `${m.square} (${sign(m.dev)})`).join(', ')}: crosstalk or a shorted mux line.`;
  else if (r.stuck) text = `${square} answered (${sign(own.dev)} counts) but did not come back to its zero after the coin was lifted.`;
  else if (own.dev < 0) {
    text = `${square} answered the wrong way (${sign(own.dev)} counts): the sensor is mounted the wrong way round, or the magnet is upside down.`;
  } else {
    ok = true;
    text = `${square} is good: a coin reads ${sign(own.dev)} counts above its zero and nothing else moved.`;
  }
  return { ok, text, moved };
}

export class SensorView {
  private last: RawFrame | null = null;
  private off: (() => void) | null = null;
  private askedAt = -Infinity;
  private test: Running | null = null;

  constructor(
    private readonly ctx: ServerContext,
    private readonly now: () => number = Date.now,
  ) {}

  /** The latest reading, the levels and the test; the board's frames are followed from the first ask. */
  snapshot(): SensorSnapshot {
    this.askedAt = this.now();
    this.follow();
    const reader = this.ctx.session.tracker.reader;
    const c = reader.calibration;
    const levels = Array.from({ length: 32 }, (_, i) => {
      const span = c.one[i]! - c.empty[i]!;
      // Where the reader calls a coin upside down (a flipped magnet reads below empty).
      return {
        empty: round(c.empty[i]!),
        one: round(c.one[i]!),
        two: round(c.two[i]!),
        flipped: round(c.empty[i]! - THRESHOLDS.upsideDown * span),
      };
    });
    return {
      t: this.last?.t ?? null,
      readings: this.last ? Array.from(this.last.readings, round) : null,
      calibrated: reader.calibrated,
      levels,
      counts: Array.from(this.ctx.session.tracker.view.counts),
      test: this.testState(),
    };
  }

  /** Starts the per-square test on `square` (another one running is replaced), or stops it (null). */
  startTest(square: number | null): void {
    this.test = square === null ? null : { square, machine: new BringUp({ squares: [square], stepTimeoutMs: STEP_MS }), result: null };
    if (square !== null) this.follow();
  }

  private testState(): SensorTest | null {
    const t = this.test;
    if (!t) return null;
    const step = t.result ? ({ kind: 'done' } as DoctorStep) : t.machine.step;
    return { square: t.square, step: step.kind, instruction: instruction(step), result: t.result };
  }

  private follow(): void {
    if (this.off) return;
    this.off = this.ctx.source.onFrame((f) => this.frame(f));
  }

  private frame(f: RawFrame): void {
    this.last = { ...f, readings: Uint16Array.from(f.readings) }; // (a source may reuse its buffer)
    const t = this.test;
    if (t && !t.result) {
      t.machine.push(f.t, f.readings);
      // The square's own part is over once its coin was put on and lifted (the doctor's king test is not asked here).
      const s = t.machine.step;
      if (
        s.kind === 'done' ||
        (s.kind === 'place' && t.machine.obs.king) ||
        (s.kind !== 'clear' && s.kind !== 'place' && s.kind !== 'lift')
      )
        t.result = testResult(t.square, t.machine);
    }
    if (this.now() - this.askedAt > IDLE_MS && !(t && !t.result)) {
      // Let go: the next page to ask starts from a fresh frame, never this old one.
      this.off?.();
      this.off = null;
      this.last = null;
    }
  }

  close(): void {
    this.off?.();
    this.off = null;
  }
}

/** The instruction for a step of the square test (the empty-board step asks only for still hands: the rest of the board may hold pieces). */
function instruction(step: DoctorStep): string {
  if (step.kind === 'clear') return 'Keep your hands away from the board while its zero is read…';
  if (step.kind === 'done') return '';
  return stepText(step);
}

const round = (n: number) => Math.round(n * 10) / 10;

const views = new WeakMap<ServerContext, SensorView>();

/** GET /api/sensors.json and POST/DELETE /api/sensors/test[/:square]: control rights only (the builder's view). */
export function sensorRoutes(app: express.Express, ctx: ServerContext): void {
  const view = (): SensorView => {
    let v = views.get(ctx);
    if (!v) views.set(ctx, (v = new SensorView(ctx)));
    return v;
  };
  const allowed = (req: express.Request, res: express.Response): boolean => {
    const who = requesterOf(req);
    if (ctx.access.canControl(who)) return true;
    res.status(403).json({ ok: false, code: 'forbidden', message: `the sensor view needs control rights: ${ctx.access.refusal(who)}` });
    return false;
  };
  app.get('/api/sensors.json', (req, res) => {
    if (!allowed(req, res)) return;
    res.setHeader('Cache-Control', 'no-store');
    res.json(view().snapshot());
  });
  app.post('/api/sensors/test/:square', (req, res) => {
    if (!allowed(req, res)) return;
    const square = Number(req.params.square);
    if (!Number.isInteger(square) || square < 1 || square > 32)
      return void res
        .status(400)
        .json({ ok: false, code: 'bad-request', message: `"${String(req.params.square).slice(0, 20)}" is not a square (1-32)` });
    view().startTest(square);
    res.json({ ok: true });
  });
  app.delete('/api/sensors/test', (req, res) => {
    if (!allowed(req, res)) return;
    view().startTest(null);
    res.json({ ok: true });
  });
}
