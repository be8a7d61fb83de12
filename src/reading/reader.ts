// Readings → board: owns all the evidence about coins. Turns each frame's 32
// raw readings into a count of coins (0, 1, 2) per square, with confidence,
// using the per-square calibration, hysteresis and a per-square debounce (a
// coin counts once its reading has stopped moving), so noise, a hand brushing
// past or a coin carried over never changes the board. One coin or two is
// left to the game where the evidence cannot settle it: the reader marks the
// squares it could read either way, and a step up counts as a coin added only
// where the game expects a stack. A reading clearly below empty is a coin
// lying magnet-up (coded board: past its flip bar the way the game says one
// may lie). Tracks slow drift of empty squares and learns levels as play
// goes. Out: a plain BoardView per frame. In: what the game settled, as plain
// data (ReaderFeedback: where stacks are plausible or expected, where a coin
// may lie magnet-up, counts the game decided, boards it confirmed, a known
// set-up to calibrate from), applied by whoever owns the reader. Its settings,
// the BoardView and the feedback are declared in view.ts, its fixed
// thresholds in thresholds.ts. Pure: time comes from the frames.

import { Calibration, SQUARE_COUNT, calibrationFromSetup } from './calibration.ts';
import { ViewFigures } from './figures.ts';
import { SquareNoise } from './noise.ts';
import { FIRM_STACK, THRESHOLDS as T } from './thresholds.ts';
import { DEFAULT_READER, UNREAD, type BoardView, type ReaderFeedback, type ReaderOptions } from './view.ts';

export { DEFAULT_READER, type BoardView, type ReaderFeedback, type ReaderOptions } from './view.ts';

export class BoardReader {
  readonly options: ReaderOptions;
  calibration: Calibration;
  /** true once calibrated from a known set-up, the routine, or a saved file */
  calibrated: boolean;
  /** debounced counts per square (index 0 = square 1) */
  readonly counts = new Uint8Array(SQUARE_COUNT);
  /** 0–1 per square: how clearly the last reading sits inside its band */
  /** confidence and levels, worked out when a view reads them */
  private readonly figures = new ViewFigures();
  /** Confidence per square: distance from the nearest threshold, relative to half a coin (1: clear). */
  get confidence(): Float32Array {
    return this.figures.confidence();
  }
  /** bit s−1 set where the one-or-two decision on square s is close: the tracker may read it either way */
  uncertain = 0;
  /** bit s−1 set where the coin on square s lies magnet-up (reads below empty): counted as a coin, to be turned over */
  flippedMask = 0;
  /** bit s−1 set where the reading is faint (empty or one coin could be read either way: a half-lifted coin, a guessed empty level) */
  faintMask = 0;
  /** bit s−1 set where two coins are read but the game allows no stack and the square's levels were only learnt in play: most likely a man sitting better */
  unexpectedMask = 0;
  /** smoothed readings (fast EMA) as counted: on a polarity-coded board folded about each square's empty level */
  readonly smooth = new Float64Array(SQUARE_COUNT);
  /** smoothed readings as they come (signed: below empty on a coded board is White's side) */
  readonly rawSmooth = new Float64Array(SQUARE_COUNT);
  /** the board is polarity-coded (see BoardView.coded) */
  coded = false;
  /** see BoardView.whiteSide and .half */
  whiteSideMask = 0;
  blackSideMask = 0;
  halfMask = 0;
  /** frame time of the last debounced change of any square */
  lastChange = -Infinity;
  /** frame time of the last frame */
  now = -Infinity;
  private readonly pending = new Int8Array(SQUARE_COUNT).fill(-1);
  private pendingBits = 0; // bit i set where pending[i] ≥ 0
  private readonly pendingSince = new Float64Array(SQUARE_COUNT);
  private readonly pendingFrames = new Uint16Array(SQUARE_COUNT);
  /** when each square's reading became faint (Infinity: it is not) */
  private readonly faintSince = new Float64Array(SQUARE_COUNT).fill(Infinity);
  /** an empty-or-one call the game settled on a faint reading, held while it stays faint (−1: none) */
  private readonly held = new Int8Array(SQUARE_COUNT).fill(-1);
  /** the previous frame's reading of each square, and the one before */
  private readonly last = new Float64Array(SQUARE_COUNT);
  private readonly before = new Float64Array(SQUARE_COUNT);
  /** frame time each square's count last changed */
  readonly settledSince = new Float64Array(SQUARE_COUNT);
  private readonly learnt = new Uint8Array(SQUARE_COUNT);
  /** a one-or-two call the game settled (see correct), held until the square empties */
  private readonly frozen = new Uint8Array(SQUARE_COUNT);
  /** 1 where the game confirmed the square's count (the board matched a position) since it last changed */
  private readonly confirmed = new Uint8Array(SQUARE_COUNT);
  private stackMask = 0;
  private stackExpected = 0;
  /** coded board: where the game says a coin may lie magnet-up reading below empty, and above (see ReaderFeedback 'flip-prior') */
  private flipBelow = 0;
  private flipAbove = 0;
  private frames = 0;
  /** last steady reading of each square since its count last changed (NaN: none yet), and the run of steady frames */
  private readonly plateau = new Float64Array(SQUARE_COUNT).fill(NaN);
  private readonly steadyRun = new Uint16Array(SQUARE_COUNT);
  /** coded board: the side each square last read (−1 White's, +1 Black's, 0 none yet) */
  private readonly lastSide = new Int8Array(SQUARE_COUNT);
  /** consecutive frames in which no reading moved away from its smoothed value */
  private steadyFrames = 0;
  /** the lowest steady reading of each square so far (Infinity: none yet): its own empty level, if it was ever seen empty */
  private readonly lowSeen = new Float64Array(SQUARE_COUNT).fill(Infinity);
  /** …and the highest: a square seen both ways (at least a coin step apart) has a known empty level */
  private readonly highSeen = new Float64Array(SQUARE_COUNT).fill(-Infinity);
  /** see BoardView.unclear (from the last attempt to calibrate from a set-up) */
  private unclearMask = 0;
  /** where a crown is awaited: the man's plateau before a step down as deep as a coin upside down (NaN: none) */
  private readonly crownFlipBase = new Float64Array(SQUARE_COUNT).fill(NaN);
  /** each square's frame noise, measured on quiet empty frames */
  private readonly noises = new SquareNoise();

  constructor(options: Partial<ReaderOptions> = {}, calibration?: Calibration) {
    this.options = { ...DEFAULT_READER, ...options };
    this.calibration = calibration ?? Calibration.nominal();
    this.calibrated = calibration !== undefined;
    this.coded = calibration?.coded ?? false;
  }

  /**
   * Squares (bitboard, bit s−1) where a two-coin stack is plausible now (kings,
   * crowning squares, king destinations), and where one is expected (a crown
   * awaited): there a smaller rise over one coin reads as two.
   */
  setStackPrior(mask: number, expected = 0): void {
    this.stackMask = mask | expected;
    this.stackExpected = expected;
  }

  /**
   * The board as read: one object, brought up to date at each call (live
   * values: read, do not keep; a view is made every frame).
   */
  view(): BoardView {
    const v = this.liveView;
    v.calibrated = this.calibrated;
    v.uncertain = this.uncertain;
    v.unexpected = this.unexpectedMask;
    v.flipped = this.flippedMask;
    v.faint = this.faintMask;
    v.plausibleStacks = this.stackMask;
    v.expectedStacks = this.stackExpected;
    v.lastChange = this.lastChange;
    v.now = this.now;
    v.settling = this.settling;
    v.measured = this.calibration.measuredBits;
    v.unclear = this.calibrated ? 0 : this.unclearMask;
    v.coded = this.coded;
    v.whiteSide = this.whiteSideMask;
    v.blackSide = this.blackSideMask;
    v.half = this.halfMask;
    return v;
  }

  // (Levels are worked out only if read: the tracker needs them rarely.)
  private readonly liveView: { -readonly [K in keyof BoardView]: BoardView[K] } = (() => {
    const r = this;
    return {
      ...UNREAD,
      counts: this.counts,
      get confidence() {
        return r.confidence;
      },
      get coins() {
        return r.figures.levels(r.calibration, r.rawSmooth, r.smooth).coins;
      },
      get stack() {
        return r.figures.levels(r.calibration, r.rawSmooth, r.smooth).stack;
      },
      get signed() {
        return r.figures.levels(r.calibration, r.rawSmooth, r.smooth).signed;
      },
    };
  })();

  /**
   * Applies what the game settled (see ReaderFeedback), in order. Returns true
   * if a calibration was taken from a known set-up (the counts were reset to it).
   */
  apply(feedback: readonly ReaderFeedback[]): boolean {
    let recalibrated = false;
    for (const f of feedback) {
      switch (f.kind) {
        case 'stack-prior':
          this.setStackPrior(f.plausible, f.expected);
          break;
        case 'flip-prior':
          this.flipBelow = f.below;
          this.flipAbove = f.above;
          break;
        case 'correct':
          this.correct(f.square, f.count);
          break;
        case 'confirm':
          this.confirm(f.except);
          break;
        case 'calibrate-from':
          if (this.calibrateFrom(f.counts)) recalibrated = true;
          break;
      }
    }
    return recalibrated;
  }

  /**
   * Where a square's smoothed reading sits between its levels: 0 = empty,
   * 1 = one coin (the best-centred seen), and `stack`: 0 = one coin, 1 = two.
   */
  level(square: number): { coins: number; stack: number } {
    return ViewFigures.level(this.calibration, this.smooth, square - 1);
  }

  /** A square's measured frame noise (σ, counts; see SquareNoise). */
  noise(square: number): number {
    return this.noises.sigma(square - 1);
  }

  /** How far below its empty level (coin steps) square i reads a coin upside down: its own bar once calibrated (Calibration.flipBar). */
  flipBar(i: number): number {
    return this.calibrated ? this.calibration.flipBar(i, this.noise(i + 1)) : T.upsideDown;
  }

  /** Where a crown is awaited on square i: how far below the man's plateau (coin steps) the crown lies magnet-up (Calibration.crownFlipBar). */
  private crownFlipBar(i: number): number {
    return this.calibrated ? this.calibration.crownFlipBar(i, this.noise(i + 1)) : T.upsideDown;
  }

  /**
   * Coded board, on the flip prior: how far from empty (coin steps) square i reads a coin magnet-up — its own
   * flip bar where nearer than THRESHOLDS.sideBar (a small magnet glued proud flips only a quarter of a step);
   * never nearer than flipDriftMargin (a reading nearer needs no bar worked out).
   */
  private flipPriorBar(i: number): number {
    return this.calibrated ? Math.min(T.sideBar, this.flipBar(i)) : T.sideBar;
  }

  /** Is square i on the flip prior for a reading `d` from its empty level (the side a coin magnet-up would read)? Only where that level is known, not guessed. */
  private flipPriorSide(i: number, d: number): boolean {
    return d !== 0 && this.calibration.emptyKnown[i] === 1 && (((d < 0 ? this.flipBelow : this.flipAbove) >>> i) & 1) === 1;
  }

  /** Is any square waiting out its debounce? */
  get settling(): boolean {
    return this.pendingBits !== 0;
  }

  /** Feeds one frame; returns true when the debounced board changed. */
  push(t: number, readings: ArrayLike<number>): boolean {
    const o = this.options,
      cal = this.calibration;
    let changed = false;
    this.now = t;
    const first = this.frames++ === 0;
    const steadyTol = o.minCoinDelta / 4;
    let steady = true;
    let uncertain = 0;
    let flipped = 0;
    let faint = 0;
    let white = 0,
      black = 0,
      half = 0;
    // Two coins read where the game allows no stack, on a square whose levels were never measured (only
    // learnt from play): the evidence cannot tell a stack from a man sitting better than any coin seen
    // there before. The game decides (see the tracker).
    let unexpected = 0;
    let pendingBits = this.pendingBits;
    for (let i = 0; i < SQUARE_COUNT; i++) {
      const raw = readings[i];
      const quiet = Math.abs(raw - this.rawSmooth[i]) <= steadyTol;
      if (!quiet) steady = false;
      // (Noise from quiet frames of a square that has stood empty a moment.)
      this.noises.see(i, raw, quiet && !first && this.counts[i] === 0 && this.pending[i] < 0 && t - this.settledSince[i] >= o.learnAfterMs);
      this.rawSmooth[i] = first ? raw : this.rawSmooth[i] + T.smoothing * (raw - this.rawSmooth[i]);
      if (quiet && !first) {
        if (this.rawSmooth[i] < this.lowSeen[i]) this.lowSeen[i] = this.rawSmooth[i];
        if (this.rawSmooth[i] > this.highSeen[i]) this.highSeen[i] = this.rawSmooth[i];
      }
      // On a coded board a coin is read by how far it stands from empty, either way (its colour is the sign).
      const v = this.coded ? cal.empty[i] + Math.abs(raw - cal.empty[i]) : raw;
      // (Where the game says a coin may lie magnet-up reading that way, the square's own flip bar;
      // nearer than the side bar, only such a coin explains the reading.)
      let flipSide = false;
      if (this.coded) {
        const sg = (this.rawSmooth[i] - cal.empty[i]) / Math.max(1, cal.span(i));
        flipSide = this.flipPriorSide(i, sg);
        const bar = flipSide && Math.abs(sg) >= T.flipDriftMargin ? this.flipPriorBar(i) : T.sideBar;
        if (sg < -bar) white |= 1 << i;
        else if (sg > bar) black |= 1 << i;
        if (Math.abs(sg) >= bar && Math.abs(sg) < T.halfBar) half |= 1 << i;
        // (A reading gone over to the other side — a coin turned over — is no step from the last plateau.)
        const side = sg < -bar ? -1 : sg > bar ? 1 : 0;
        if (side !== 0 && side !== this.lastSide[i]) {
          if (this.lastSide[i] !== 0) this.plateau[i] = NaN;
          this.lastSide[i] = side;
        }
      }
      this.smooth[i] = first ? v : this.smooth[i] + T.smoothing * (v - this.smooth[i]);
      const cur = this.counts[i];
      const span = Math.max(cal.one[i] - cal.empty[i], 1);
      const expected = (this.stackExpected >>> i) & 1;
      const h = (expected ? T.expectedHysteresis : 1) * o.hysteresis * span;
      // Empty squares read steadily (noise is a few counts) while a coin's reading falls off fast
      // with distance from the centre, so the empty/one threshold sits low in the coin's span.
      const t01 = cal.empty[i] + o.emptyBar * span;
      const gap12 = Math.max(cal.two[i] - cal.one[i], 1);
      const plausible = (this.stackMask >>> i) & 1;
      // (Where both levels were measured deliberately on this square, they are no guess: nearer midway.)
      const stackBar = expected
        ? o.expectedStackBar
        : plausible
          ? T.plausibleStackBar
          : cal.measured[i]
            ? T.measuredStackBar
            : o.unexpectedStackBar;
      const t12 = cal.one[i] + stackBar * gap12;

      // Candidate count, with hysteresis towards the current one. A reading clearly below the
      // square's own empty level is a coin lying magnet-up: a coin (1), flagged to be turned over.
      let c: number;
      // (Worked out only below empty: a flip bar is always more than the hysteresis below it.)
      const tFlip =
        (v < cal.empty[i] || this.smooth[i] < cal.empty[i]) &&
        !this.coded &&
        (!this.calibrated || cal.mayReachFlipBar(i, Math.min(v, this.smooth[i]), this.noises.variance(i), o.hysteresis / 2))
          ? cal.empty[i] - this.flipBar(i) * span
          : -Infinity;
      // (One coin or two from the smoothed reading where a stack must hold a while, without
      // hysteresis going up: the wait is the guard, and frame noise would keep restarting it.)
      // (Where a crown is awaited on a man whose reading is known, the crown is a step up from it too:
      // men differ by more than a small magnet's stack increment.)
      const crownFloor = expected && cur === 1 && !Number.isNaN(this.plateau[i]) ? this.plateau[i] + T.crownStep * span : -Infinity;
      if (plausible || expected ? v >= Math.max(t12 + (cur === 2 ? -h : h), crownFloor) : this.smooth[i] >= t12 - (cur === 2 ? h : 0))
        c = 2;
      else if (v >= t01 + (cur === 0 ? h : -h)) c = 1;
      else if (!this.coded && v <= tFlip + ((this.flippedMask >>> i) & 1 ? h : -h) / 2) c = 1;
      else c = 0;
      // (Coded: a reading past the square's flip bar the way the game says a coin may lie magnet-up is that coin. The
      // hysteresis keeps only a coin already read magnet-up: a man lifted off is no coin turning over in place, and his
      // square's empty level, unseen while he stood, may have drifted towards the bar: one magnet-up there arrives.)
      if (c === 0 && this.coded && this.flipPriorSide(i, raw - cal.empty[i]))
        c = Math.abs(raw - cal.empty[i]) >= this.flipPriorBar(i) * span + ((this.flippedMask >>> i) & 1 ? -h : h) / 2 ? 1 : 0;
      const sm = this.smooth[i];
      // Close to the one/two threshold: the tracker may read it either way (the game decides). Where
      // a stack is plausible the band is wide; on measured levels narrow; elsewhere a stack is never
      // a reading's call alone (see the unexpected stacks below).
      const band = plausible || expected ? o.uncertainBand : cal.measured[i] ? T.measuredBand : 0;
      // (On measured levels the band is the band: the hysteresis margin would widen it over most of a
      // narrow one-to-two gap.)
      if (
        band &&
        !this.frozen[i] &&
        sm > cal.empty[i] + T.uncertainFloor * span &&
        Math.abs(sm - t12) < band * gap12 + (plausible || expected ? T.plausibleBandHysteresis * h : 0)
      )
        uncertain |= 1 << i;
      // Faint: between a far off-centre or half-lifted coin and an empty square whose level was
      // guessed (off by the sensor's offset). Empty or one coin is then the game's call.
      // (Not a coin counted on the flip prior's side: a coin magnet-up, no coin half-lifted.)
      const faintBand = !(flipSide && c === 1) && sm > cal.empty[i] + T.faint[0] * span && sm < cal.empty[i] + T.faint[1] * span;
      // (Only a steady faint reading: a coin going down or coming up passes through the band. Read
      // as a coin still there only for a while: a finger lets go, an empty square stays faint.)
      // (The clock restarts only when the reading leaves the band clearly: noise at its edge does not.)
      if (sm >= cal.empty[i] + T.faint[1] * span || sm <= cal.empty[i] + (T.faint[0] - T.faintExit) * span) this.faintSince[i] = Infinity;
      if (!faintBand) {
        // (outside the band: not faint)
      } else if (!this.frozen[i] && Math.abs(v - sm) <= T.steady * span) {
        if (this.faintSince[i] === Infinity) this.faintSince[i] = t;
        // (Read as a coin still there — counted empty, or held so — only for a while; an emptied
        // square still counted as holding its coin may always be read empty.)
        const coinStillThere = cur === 0 || this.held[i] === 1;
        if (!coinStillThere || t - this.faintSince[i] <= T.faintCoinMs) faint |= 1 << i;
        // A square whose empty level was only guessed, reading faint and still for that long after
        // its coin went: empty (a finger would have let go by now).
        if (cur === 1 && c === 1 && !cal.emptyKnown[i] && this.held[i] < 0 && t - this.faintSince[i] > T.faintCoinMs) c = 0;
      }
      if (this.held[i] >= 0) {
        if (faintBand && !(this.held[i] === 1 && t - this.faintSince[i] > T.faintCoinMs)) c = this.held[i];
        else this.held[i] = -1;
      }
      if (this.frozen[i]) {
        // (A man the game settled on a measured square, now reading steadily higher than any man
        // reads there: a coin was put on it. The evidence overrules the old call.)
        const firm =
          this.frozen[i] === 1 && cal.measured[i] && (sm - cal.one[i]) / gap12 >= FIRM_STACK && Math.abs(v - sm) <= T.steady * span;
        if (c === 0 || sm < t01 || firm) this.frozen[i] = 0;
        else c = this.frozen[i];
      }
      // Confidence: distance from the nearest threshold, relative to half a coin.
      const d = Math.min(Math.abs(v - t01), Math.abs(v - t12));
      this.figures.nearest[i] = d;
      this.figures.spans[i] = span;
      if (c === cur) {
        this.pending[i] = -1;
        this.before[i] = this.last[i];
        this.last[i] = v;
        if (cur === 1 && expected && !Number.isNaN(this.crownFlipBase[i])) {
          if (sm < this.crownFlipBase[i] - (this.crownFlipBar(i) * span) / 2) flipped |= 1 << i;
          else this.crownFlipBase[i] = NaN;
        } else this.crownFlipBase[i] = NaN;
        if (cur === 1 && (sm <= tFlip || (flipSide && Math.abs(this.rawSmooth[i] - cal.empty[i]) < T.sideBar * span))) flipped |= 1 << i;
        else if (cur === 1 && (this.flippedMask >>> i) & 1 && sm < t01) flipped |= 1 << i;
        // (Not from a coin reading about half a step: on a coded board, folded up, a coin upside down
        // would teach its square a man's level that far down, and then read as a man of the other side.)
        if (!(this.coded && ((half >>> i) & 1 || (cur === 1 && flipSide)))) this.learn(i, cur, v, t, raw);
        // Plateau to plateau: a steady reading that stepped by a coin's fraction from the last
        // steady reading, with no lift between. Where a crown is awaited a step up is the crown
        // put on; on a stack a step down is a coin taken off. Anywhere else a step up is a coin
        // sitting better (nudged to the centre, a finger let go, a neighbour knocked away) and
        // never counts as a coin added.
        if (cur >= 1 && Math.abs(v - sm) <= T.steady * span) {
          // (A small step — a crown put on a small magnet's man upside down — may never read unsteady:
          // a reading that has left the last plateau starts a new run.)
          if (this.steadyRun[i] > T.plateauFrames && Math.abs(sm - this.plateau[i]) > T.steady * span) this.steadyRun[i] = 0;
          if (++this.steadyRun[i] === T.plateauFrames) {
            const base = this.plateau[i];
            const up = sm - base;
            if (
              !Number.isNaN(base) &&
              cur === 1 &&
              expected &&
              (up >= o.plateauStep * span || (up >= T.crownStep * span && sm >= cal.one[i] + T.crownAbove * span))
            ) {
              this.counts[i] = 2;
              this.frozen[i] = 2; // a step up where a crown is awaited is evidence the absolute level cannot overrule
              uncertain &= ~(1 << i);
              this.settledSince[i] = t;
              this.learnt[i] = 0;
              this.confirmed[i] = 0;
              changed = true;
            } else if (!Number.isNaN(base) && cur === 1 && expected && base - sm >= this.crownFlipBar(i) * span) {
              // A step DOWN where a crown is awaited, as deep as a coin upside down: the crown
              // was put on the man magnet-up (its reversed field, a coin higher, takes from the man's).
              this.crownFlipBase[i] = base;
            } else if (!Number.isNaN(base) && cur === 2 && base - sm >= o.plateauStep * span && sm < cal.two[i]) {
              this.counts[i] = 1;
              this.frozen[i] = 0;
              uncertain &= ~(1 << i);
              this.settledSince[i] = t;
              this.learnt[i] = 0;
              this.confirmed[i] = 0;
              changed = true;
            }
            // (A coin lying magnet-up, below empty, is no plateau to step from: a man that landed on
            // its crowning square upside down and is turned over rises by more than a crown, and
            // was taken as crowned — its crown, put on magnet-up after, then never said.)
            this.plateau[i] = !this.coded && sm < cal.empty[i] ? NaN : sm;
          }
        } else this.steadyRun[i] = 0;
        if (this.counts[i] === 2 && !plausible && !cal.measured[i]) unexpected |= 1 << i;
        pendingBits &= ~(1 << i);
        continue;
      }
      this.steadyRun[i] = 0;
      // A man the game confirmed reading higher where no stack can be, on a square whose levels were
      // only learnt from play: it sits better than any coin seen there (its level rises with it).
      if (cur === 1 && c === 2 && !plausible && !expected && !cal.measured[i]) this.learn(i, 1, v, t, raw);
      // (A coin coming down where one coin and two meet — a king off-centre — has noise flip the
      // call every frame: that does not restart its wait; one or two is the soft call.)
      if (this.pending[i] !== c && !(cur === 0 && c > 0 && this.pending[i] > 0)) {
        this.pendingSince[i] = t;
        this.pendingFrames[i] = 0;
      }
      this.pending[i] = c;
      this.pendingFrames[i]++;
      // Where the game allows no stack, two coins must be read for a sustained time.
      const hold = c === 2 && !plausible ? o.unexpectedStackMs : c === 1 && cur === 0 && v < t01 ? o.upsideDownMs : o.debounceMs;
      // A coin is counted put down once its reading stops moving (a coin carried low over the
      // square, or still coming down, is not there yet): two frame steps in a row (at the top of
      // a coin carried past, one step reads still).
      const tol = T.still * span;
      const still = c < cur || (Math.abs(v - this.last[i]) <= tol && Math.abs(this.last[i] - this.before[i]) <= tol);
      this.before[i] = this.last[i];
      this.last[i] = v;
      if (still && this.pendingFrames[i] >= o.debounceFrames && t - this.pendingSince[i] >= hold) {
        // A change between one and two coins that came as a clear step from the last steady
        // reading is firm evidence (a coin put on or taken off), not a borderline call.
        const base = this.plateau[i];
        if (expected && !Number.isNaN(base) && Math.abs(sm - base) >= T.crownStep * span && cur === 1 && c === 2 && sm > base) {
          this.frozen[i] = c;
          uncertain &= ~(1 << i);
        }
        this.counts[i] = c;
        this.pending[i] = -1;
        // A coin counted put down has stopped moving: its reading is the first plateau (a crown
        // put on within a few frames is then still seen as a step up from it).
        this.plateau[i] = c > cur ? v : NaN;
        this.settledSince[i] = t;
        this.learnt[i] = 0;
        this.confirmed[i] = 0;
        changed = true;
      }
      if (this.counts[i] === 2 && !plausible && !cal.measured[i]) unexpected |= 1 << i;
      if (this.pending[i] >= 0) pendingBits |= 1 << i;
      else pendingBits &= ~(1 << i);
    }
    this.pendingBits = pendingBits;
    this.steadyFrames = steady && !first ? this.steadyFrames + 1 : 0;
    this.noises.endFrame();
    this.uncertain = uncertain | unexpected;
    this.unexpectedMask = unexpected;
    this.faintMask = faint;
    this.flippedMask = flipped;
    this.whiteSideMask = white;
    this.blackSideMask = black;
    this.halfMask = half;
    if (changed) this.lastChange = t;
    return changed;
  }

  /**
   * Refines levels from a settled square whose count the game confirmed:
   * empties follow drift; a fresh placement teaches its level once.
   */
  private learn(i: number, count: number, v: number, t: number, raw: number): void {
    if (!this.calibrated || !this.confirmed[i] || t - this.settledSince[i] < this.options.learnAfterMs) return;
    // Only from a steady reading (not while a hand is taking the coin away).
    if (Math.abs(v - this.smooth[i]) > T.learnSteady * this.calibration.span(i)) return;
    if (count === 0) {
      // Drift is slow: a reading far from the empty level is not drift (an off-centre coin, a hand).
      // A square's first confirmed empty reading (its level only guessed so far) is its level.
      // (From the reading as it comes: on a coded board the folded one cannot fall below the level.)
      const cal = this.calibration;
      if (!cal.emptyKnown[i]) cal.learn(i, 0, this.rawSmooth[i], 1);
      else if (Math.abs(raw - cal.empty[i]) < T.driftWindow * cal.span(i)) cal.learn(i, 0, raw, this.options.driftAlpha);
    } else if (!this.learnt[i]) {
      this.learnt[i] = 1;
      this.calibration.learn(i, count as 1 | 2, this.smooth[i], T.learnWeight);
    } else if (count === 1 && this.smooth[i] > this.calibration.one[i]) {
      // The man sits better than any coin seen here before (nudged to the centre): its level rises.
      this.calibration.learn(i, 1, this.smooth[i], T.learnWeight);
    }
  }

  /** The game state agrees with the board as read (but for the `except` squares): its counts may teach the calibration. */
  confirm(except = 0): void {
    for (let i = 0; i < SQUARE_COUNT; i++) this.confirmed[i] = (except >>> i) & 1 ? 0 : 1;
  }

  /**
   * The tracker knows better (the game state settled an uncertain one-or-two
   * reading): set the square's count, and learn its level from this reading.
   */
  correct(square: number, count: 0 | 1 | 2): void {
    const i = square - 1;
    if (this.counts[i] === count) return;
    this.counts[i] = count;
    this.pending[i] = -1;
    this.pendingBits &= ~(1 << i);
    this.plateau[i] = NaN;
    this.steadyRun[i] = 0;
    this.settledSince[i] = this.now;
    // Hold this one-or-two call until the piece is lifted (an empty-or-one call while the reading
    // stays faint); learn its level once the reading is steady.
    if (count === 0 || (this.faintMask >>> i) & 1) this.held[i] = count;
    else this.frozen[i] = count;
    this.learnt[i] = 0;
    this.confirmed[i] = 1;
  }

  /** Sets the board to known counts without debounce (after calibrating from them). */
  resetCounts(counts: ArrayLike<number>): void {
    for (let i = 0; i < SQUARE_COUNT; i++) {
      this.counts[i] = counts[i];
      this.pending[i] = -1;
      this.pendingBits = 0;
      this.plateau[i] = NaN;
      this.steadyRun[i] = 0;
      this.settledSince[i] = this.now;
      this.learnt[i] = 1;
      this.confirmed[i] = 1;
    }
    this.lastChange = this.now;
  }

  /**
   * Calibrates from the board standing in a known occupancy (e.g. the start
   * position), if the smoothed readings agree with it clearly. Returns true if
   * it did.
   */
  calibrateFrom(counts: ArrayLike<number>): boolean {
    // Only from a board at rest: every reading steady for a while (no hand moving, no ramp).
    if (this.steadyFrames < T.calibrateSteadyFrames) return false;
    const got = calibrationFromSetup(this.rawSmooth, this.lowSeen, this.highSeen, counts, this.options.minCoinDelta);
    this.unclearMask = got.unclear;
    const fresh = got.calibration;
    if (!fresh) return false;
    this.coded = fresh.coded;
    this.smooth.set(got.folded);
    // Keep what a previous calibration measured and this set-up could not (e.g. stacks).
    if (this.calibrated) {
      for (let i = 0; i < SQUARE_COUNT; i++) {
        if (!fresh.twoKnown[i] && this.calibration.twoKnown[i]) fresh.learn(i, 2, this.calibration.two[i], 1);
      }
    }
    this.calibration = fresh;
    this.calibrated = true;
    this.resetCounts(counts);
    return true;
  }

  /** Uses a saved or routine-made calibration. */
  useCalibration(c: Calibration): void {
    this.calibration = c;
    this.calibrated = true;
    this.coded = c.coded;
  }
}
