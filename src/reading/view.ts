// What the reader shows and takes, as plain data: its settings
// (ReaderOptions, DEFAULT_READER), the BoardView it makes each frame (coin
// counts, confidence, the soft squares the game decides, levels) and the
// ReaderFeedback the game sends back (stack priors, where a coin may lie
// magnet-up, settled calls, confirmed boards, a set-up to calibrate from).
// The seam between reading/ and tracking/: the tracker reads only these.
// Types and constants, no logic.

export interface ReaderOptions {
  /** A changed count must hold this long (ms, frame time) before the board changes. */
  debounceMs: number;
  /** …and for at least this many frames. */
  debounceFrames: number;
  /** Hysteresis around each threshold, as a fraction of the square's coin delta. */
  hysteresis: number;
  /**
   * Where the game allows no stack, a reading must reach this far above the
   * one-coin level (in units of the one→two gap; 1 = the learnt two-coin
   * level) to count as two: a well-centred coin can read as high as an
   * off-centre stack.
   */
  unexpectedStackBar: number;
  /** …and stay there this long (ms): a finger letting go, a nudge, a knocked neighbour all pass. */
  unexpectedStackMs: number;
  /** A reading below the empty level must stay there this long (ms) to be a coin lying magnet-up. */
  upsideDownMs: number;
  /** Where a stack is expected (a crown awaited), the one/two threshold sits this far from one towards two. */
  expectedStackBar: number;
  /**
   * A coin put on (or taken off) a coin shows as a step between two steady
   * readings of at least this fraction of a coin, even when the stack reads
   * low in absolute terms.
   */
  plateauStep: number;
  /** The empty/one-coin threshold, as a fraction of the square's coin delta above empty. */
  emptyBar: number;
  /** Readings this close to the one/two threshold (fraction of the gap) are marked uncertain. */
  uncertainBand: number;
  /** Empty squares' level follows drift with this weight per frame once settled. */
  driftAlpha: number;
  /** A square must be settled this long (ms) before its level is learnt from it. */
  learnAfterMs: number;
  /** Smallest coin delta (counts) accepted when calibrating from a known set-up. */
  minCoinDelta: number;
}

/**
 * What the reader makes of the board, as plain values: coin counts, how sure
 * it is of each square, and the squares whose one-or-two call is soft (the
 * game decides there). Bitboards: bit s−1 for square s.
 */
export interface BoardView {
  readonly counts: Readonly<Uint8Array>;
  readonly confidence: Readonly<Float32Array>;
  readonly calibrated: boolean;
  /** one or two coins could be read either way */
  readonly uncertain: number;
  /** two coins read where no stack can be, on levels only learnt in play (most likely a man sitting better) */
  readonly unexpected: number;
  /** a coin lying magnet-up (counted as a coin) */
  readonly flipped: number;
  /** empty or one coin could be read either way */
  readonly faint: number;
  /** where the game said a stack is plausible, and where one is expected (a crown awaited) */
  readonly plausibleStacks: number;
  readonly expectedStacks: number;
  /** frame time of the last change of any count */
  readonly lastChange: number;
  /** frame time of the last frame */
  readonly now: number;
  /** some square is still waiting out its debounce (the board is about to change) */
  readonly settling: boolean;
  /** per square: the smoothed reading in coins above empty (0 = empty, 1 = the best-centred single coin seen) */
  readonly coins: Readonly<Float32Array>;
  /** per square: where the smoothed reading sits between one coin (0) and two (1) */
  readonly stack: Readonly<Float32Array>;
  /** squares whose one- and two-coin levels were measured deliberately (the routine): their one-or-two calls are firm outside `uncertain` */
  readonly measured: number;
  /**
   * Not calibrated yet, the board at rest in the set-up asked for: squares
   * where it should hold a coin but the reading cannot be told from an empty
   * square (a weak sensor or magnet, a coin far off-centre — or no coin).
   * Seeing the square empty for a moment (the coin lifted and put back)
   * settles it.
   */
  readonly unclear: number;
  /**
   * The board is polarity-coded (Black's coins raise the reading, White's
   * lower it): detected when it calibrates from a set-up. Counts are then read
   * from how far a reading stands from empty, either way, and `signed` says
   * which way.
   */
  readonly coded: boolean;
  /** per square: the reading in coin steps from empty, signed (+ Black's side, − White's; on an old board − is a coin upside down) */
  readonly signed: Readonly<Float32Array>;
  /** coded board: squares whose coin reads on White's side (below empty), and on Black's */
  readonly whiteSide: number;
  readonly blackSide: number;
  /** coded board: squares reading only about half a step from empty, either way (a coin upside down, or a crown of the other colour under a man) */
  readonly half: number;
}

/**
 * What the game settled, for the reader: plain data, applied in order by the
 * reader's owner (BoardReader.apply). The tracker returns these; it never
 * holds the reader.
 */
/** The levels a view reads out per square: the arrays, which each reader keeps its own of. */
type PerSquare = 'counts' | 'confidence' | 'coins' | 'stack' | 'signed';

/** A view's every other field before the first frame: nothing read yet. */
export const UNREAD: Omit<BoardView, PerSquare> = {
  calibrated: false,
  uncertain: 0,
  unexpected: 0,
  flipped: 0,
  faint: 0,
  plausibleStacks: 0,
  expectedStacks: 0,
  lastChange: -Infinity,
  now: -Infinity,
  settling: false,
  measured: 0,
  unclear: 0,
  coded: false,
  whiteSide: 0,
  blackSide: 0,
  half: 0,
};

/** The view before the first frame (what a tracker holds until its reader has read). */
export const EMPTY_VIEW: BoardView = {
  ...UNREAD,
  counts: new Uint8Array(32),
  confidence: new Float32Array(32),
  coins: new Float32Array(32),
  stack: new Float32Array(32),
  signed: new Float32Array(32),
};

export type ReaderFeedback =
  /** where a two-coin stack is plausible now (kings, crowning squares, king destinations), and where one is expected (a crown awaited) */
  | { kind: 'stack-prior'; plausible: number; expected: number }
  /**
   * polarity-coded board: where a coin may lie magnet-up now (a man of the position, a landing of
   * the side to move), by which way its reversed field reads: below empty (a Black coin) or above
   * (a White coin). There a reading that far the other way is that coin, by the square's own flip bar.
   */
  | { kind: 'flip-prior'; below: number; above: number }
  /** the game settled a soft call: this square holds this many coins */
  | { kind: 'correct'; square: number; count: 0 | 1 | 2 }
  /** the board matched a position (but for the `except` squares): its counts may teach the levels */
  | { kind: 'confirm'; except: number }
  /** the board should stand in this known occupancy (a set-up): calibrate from it if the readings agree */
  | { kind: 'calibrate-from'; counts: ArrayLike<number> };

export const DEFAULT_READER: ReaderOptions = {
  debounceMs: 20,
  debounceFrames: 2,
  hysteresis: 0.08,
  unexpectedStackBar: 1.1,
  unexpectedStackMs: 400,
  upsideDownMs: 150,
  plateauStep: 0.22,
  uncertainBand: 0.3,
  emptyBar: 0.3,
  expectedStackBar: 0.25,
  driftAlpha: 0.002,
  learnAfterMs: 120,
  minCoinDelta: 40,
};
