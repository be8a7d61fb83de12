// The reader's fixed thresholds, in one table: every fraction, band and wait
// the reader (reader.ts), the calibration (calibration.ts) and the tracker's
// level checks use, named and said why. Fractions are of a square's own coin
// step (one coin − empty, "span") unless said otherwise; "gap" is its one → two
// step. The settings a caller may change live in ReaderOptions (reader.ts).
// Pure constants, no imports.

export const THRESHOLDS = {
  /** Weight of each new frame in the smoothed readings (a fast EMA: about 3 frames). */
  smoothing: 0.3,

  // ---- steadiness
  /** A reading is steady (on a plateau, faint and still) when it stays this close to its smoothed value. */
  steady: 0.04,
  /** A rising reading has stopped moving (a coin is down, not carried over) when two frames differ by at most this. */
  still: 0.06,
  /** Steady frames in a row that make a plateau (the reading a step up or down is measured from). */
  plateauFrames: 5,
  /** Frames in a row with every reading steady before a calibration is taken from a set-up. */
  calibrateSteadyFrames: 20,

  // ---- one coin or two
  /** Where a stack is plausible (not expected), the one/two threshold sits midway in the gap. */
  plausibleStackBar: 0.5,
  /** Where no stack is plausible but the square's one- and two-coin levels were both measured, the one/two threshold (fraction of the gap). */
  measuredStackBar: 0.45,
  /** …and the band around it where the game decides (fraction of the gap). */
  measuredBand: 0.1,
  /** Where a stack is plausible, the uncertain band widens by this much of the hysteresis. */
  plausibleBandHysteresis: 0.5,
  /** A square is marked one-or-two only while it reads at least this many coin steps (not a coin going down or coming up). */
  uncertainFloor: 0.75,
  /** Where a crown is expected, the hysteresis is this fraction of the usual (a crown must not need a big step). */
  expectedHysteresis: 0.25,
  /**
   * Where a crown is awaited, a smaller step up than ReaderOptions.plateauStep
   * (at least crownStep) counts as the crown when the reading then stands at
   * least crownAbove over the one-coin level.
   */
  crownStep: 0.12,
  crownAbove: 0.08,

  // ---- empty or one coin
  /** The faint band, in coin steps above the empty level: empty or one coin is the game's call there. */
  faint: [0.15, 0.42] as const,
  /** The faint clock restarts only when the reading leaves the band by this much below its bottom (noise at the edge does not). */
  faintExit: 0.08,
  /** A faint reading counted empty may be read as a coin still there (half-lifted) only this long (ms). */
  faintCoinMs: 2000,
  /**
   * The FALLBACK before a square's own levels are known (the board not yet
   * calibrated, or the square's empty level only guessed from the others): a
   * reading more than this BELOW its own empty level is a coin lying magnet-up
   * (a magnet glued the wrong way, or a coin put down upside down): counted as
   * a coin, and the player is told to turn it over. Once calibrated, each
   * square's own bar is derived from its measured stack increment and noise
   * (Calibration.flipBar, with the flip* figures below). 0.36: the specified
   * 12 × 1 mm magnet's flipped coin reads 0.61 of a step below empty (0.52 at
   * 3 mm off-centre), and an empty level estimated from the other squares
   * (the sensors' zero levels differ) stays inside 0.3.
   */
  upsideDown: 0.36,
  /**
   * A coin upside down has its magnet on top of the coin, field reversed: a
   * coin's height above where it sits in a man, less its own thickness. So it
   * always reads further below empty than a king's upper coin reads above a
   * man (the stack increment, measured on each board): over every magnet and
   * stack-up in magnet-physics.ts (test/reading/flip.test.ts) at least this
   * many stack increments, 3 mm off-centre, with a coin 8 % weaker than the
   * board's best (the least: a small thin 6 × 1 mm magnet on a thin tile; the
   * 8–12 mm magnets of the build guide give 0.9 and more).
   */
  flipPerStack: 0.75,
  /**
   * The stack increment assumed where none was seen on the square (the
   * nominal ratio is a guess): about the smallest a board that tells kings
   * from men gives (a magnet glued proud under a 3 mm coin: 0.23).
   */
  flipUnseenStack: 0.25,
  /**
   * A crowning coin put on its man upside down takes its reversed field, a
   * coin and a magnet higher, from the man's reading: at least this many
   * stack increments (every magnet and stack-up, 3 mm off-centre, 8 % weak;
   * test/reading/flip.test.ts). Where a crown is awaited, a plateau that far
   * (flipFraction of it, and at least flipNoiseSigmas of noise) below the
   * man's is that crown.
   */
  crownFlipPerStack: 0.22,
  /** The derived flip bar sits at this fraction of that worst flipped reading (the rest is the margin on the empty side). */
  flipFraction: 0.6,
  /** …and never closer to empty than this many σ of the square's own measured noise… */
  flipNoiseSigmas: 6,
  /** …plus this much of a coin step (the empty level follows drift only this closely, see driftWindow). */
  flipDriftMargin: 0.05,
  /** The noise assumed on a square (σ, counts) until its own has been measured on empty frames. */
  assumedNoise: 3,
  /** Weight of each quiet empty frame in a square's measured noise (slow: about 50 frames). */
  noiseWeight: 0.02,
  /** A square's noise is its own once measured on this many quiet empty frames; before that, the board's. */
  noiseMeasuredFrames: 50,
  /** The board's noise (for squares not yet measured) is worked out again every this many frames. */
  noiseBoardFrames: 8,

  // ---- confidence
  /** Confidence is the distance from the nearest threshold relative to this much of a coin step (1 at or beyond). */
  confidenceScale: 0.5,

  // ---- polarity-coded board
  /** A reading this many coin steps from empty has a side (below −sideBar: White's). */
  sideBar: 0.3,
  /**
   * …and one under this many is about half a coin: a coin upside down (~0.6 of
   * a step the other way), or a crown of the other colour under a man (~0.5).
   * A coin of the wrong colour reads a full step the other way, 0.65 at the
   * farthest off-centre with a weak magnet.
   */
  halfBar: 0.75,
  // (Not derived from the stack increment like the flip bar: a thick magnet's flipped coin reads
  // up to 0.8 of a step, a thin one's 0.6, but the thick one's stack increment is the smaller.
  // Where they overlap a coin of the wrong colour off-centre, the tracker tells them apart by
  // the last move: the man just moved is the mover's own coin, so it lies upside down.)
  /** A set-up with at least this many coins reading clearly below the empty squares is a polarity-coded board. */
  codedMinCoins: 4,

  // ---- learning levels in play
  /** Levels are learnt only from a reading this close to its smoothed value (not while a hand takes the coin away). */
  learnSteady: 0.03,
  /** An empty square's level follows drift only from readings this close to it (farther: an off-centre coin, a hand). */
  driftWindow: 0.1,
  /** Weight of a fresh placement's reading when its level is learnt. */
  learnWeight: 0.3,
  /** On measured squares the one-coin level learnt in play stays at least this fraction of the measured gap below two coins. */
  measuredOneHeadroom: 0.6,
} as const;

/**
 * On measured squares, a reading this far from one coin to two (0 = one, 1 =
 * two) is higher than any man reads there: a stack, whatever the game expects.
 */
export const FIRM_STACK = 1 - THRESHOLDS.measuredOneHeadroom;
