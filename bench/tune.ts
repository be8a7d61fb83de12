// `npm run tune`: fits the evaluation's weights (src/engine/eval.ts names
// them; the table is src/engine/eval-weights.ts), and with --patterns its
// pattern tables too (src/engine/eval-patterns.ts; the data is
// data/engine/eval-patterns.json.gz, which bench/patterns-data.ts copies into
// src/engine/eval-patterns-data.ts), to game results — Texel's method. The
// positions: every quiet position (neither side has a capture) of the
// self-play games bench/selfplay.ts wrote (seed 1: 6000 games at 4000 nodes a
// move, played as two parts; with --patterns also seed 2: a 40,000-game run
// stopped after 4200 games, its first 409,868 lines — see --take), and every
// quiet position from ply 8 on of the corpus' finished games from the
// standard start (the book's files), each labelled with its game's result for
// Black (1, ½, 0). The evaluation is linear in the weights (eval.ts
// `features`, eval-patterns.ts `patternFeatures`), so the predicted result is
// σ(K · Σ wᵢ fᵢ / PHASE_STEPS) with one scale K fitted first on the starting
// table (the hand-set table of the evaluation before the tuned one,
// `handTable` below, or with --freeze-named the shipped table, and pattern
// tables of zeros: the same start every run); then every weight but the
// middle-game man's (the unit, 100; with --freeze-named every named weight) is
// moved by full-batch gradient descent (Adam) on the mean squared error plus a
// ridge penalty λ·Σ(wᵢ − startᵢ)² (λ for the named weights: a weight seen in
// few positions stays near where it started; --pattern-lambda for the
// patterns). A seeded tenth is held out (--split: of positions, or of whole
// games, the default with --patterns): the fit is on the rest, and the report
// shows the held-out error before and after. Same seed, same data → same
// tables (deterministic).
//
// Strength decides whether a table stays, measured side by side:
// `npx tsx bench/engine.ts --versus REF --games 48 --ms 200` (this tree against
// the revision with the previous table). The shipped pattern tables were
// fitted with --labels (eval-patterns.ts says what was measured); fitted to
// results alone they lost at a fixed time a move.
//
//   npx tsx bench/selfplay.ts --part 0/2 --games 6000 & npx tsx bench/selfplay.ts --part 1/2 --games 6000
//   npm run tune                        fit, print the table and the errors
//   npm run tune -- --write             … and write it into src/engine/eval-weights.ts
//   npx tsx bench/selfplay.ts --seed 2 --games 40000    (stop it after 4200 games: 17 min a 1000 games)
//   npm run tune -- --patterns --take 113363,106753,409868 --epochs 200 [--freeze-named] [--write]
//   --seed N (default 1)  --epochs N (default 400)  --lambda L (default 1e-6)  --pattern-lambda L (default 1e-9)
//   --data FILE,FILE,… (default seed 1's two parts, and with --patterns seed 2's file)  --no-corpus
//   --split positions|games  --json FILE (also write the named weights there, as JSON)
//   --labels FILE,FILE,… (bench/label.ts' files instead of --data: targets from a search's score; a leading ~/ is the home folder)
//   --mix M (the result's share of a labelled position's target, default 0.3)  --label-scale S (σ(S · score), default 0.0055)
//   --take N,N,… (only the first N lines of each data file: a run stopped part-way is a prefix of the full one)

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Game, START, hasCapture, samePosition } from '../src/rules/index.ts';
import { readPdn, resultWinner } from '../src/pdn/index.ts';
import { CORPUS_DIR } from '../src/engine-host/book-corpus.ts';
import {
  BOOK_FILES,
  PHASE_STEPS,
  WEIGHTS,
  WEIGHT_NAMES,
  features,
  seededRandom,
  PATTERN_WEIGHTS,
  PATTERNS,
  patternFeatures,
  encodePatterns,
  phaseOf,
  type WeightName,
  type Weights,
} from '../src/engine/index.ts';
import { popcount, rowOf } from '../src/rules/index.ts';
import { PATTERN_DATA_PATH, PATTERN_SOURCE_PATH, patternDataModule } from './patterns-data.ts';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean' },
    seed: { type: 'string' },
    epochs: { type: 'string' },
    lambda: { type: 'string' },
    data: { type: 'string' },
    take: { type: 'string' },
    json: { type: 'string' },
    'no-corpus': { type: 'boolean' },
    'pattern-lambda': { type: 'string' },
    patterns: { type: 'boolean' },
    'freeze-named': { type: 'boolean' },
    split: { type: 'string' },
    labels: { type: 'string' },
    mix: { type: 'string' },
    'label-scale': { type: 'string' },
  },
});
const SEED = Number(values.seed ?? 1);
const EPOCHS = Number(values.epochs ?? 400);
const LAMBDA = Number(values.lambda ?? 1e-6);
const PATTERN_LAMBDA = Number(values['pattern-lambda'] ?? 1e-9);
const FIT_PATTERNS = !!values.patterns;
const FREEZE = !!values['freeze-named'];
const SPLIT = values.split ?? (FIT_PATTERNS ? 'games' : 'positions');
if (SPLIT !== 'games' && SPLIT !== 'positions') throw new Error(`--split must be games or positions, not "${SPLIT}"`);
const SKIP_PLIES = 8;
const cache = join(homedir(), '.cache/crownhead-tune');
const DATA = values.data
  ? values.data.split(',')
  : [
      ...[0, 1].map((i) => join(cache, `selfplay-1-6000-4000-6.${i}-2.txt`)),
      ...(FIT_PATTERNS ? [join(cache, 'selfplay-2-40000-4000-6.txt')] : []),
    ];

// ---------------------------------------------------------------------------
// Positions and labels, each position's features kept sparse (most weights are squares it does not use).
// The named weights first, then the pattern tables (eval-patterns.ts: middle game, then ending).
const NL = WEIGHT_NAMES.length;
const N = NL + (FIT_PATTERNS ? PATTERN_WEIGHTS : 0);
const rowStart: number[] = [0];
const idx: number[] = [];
const val: number[] = [];
const labels: number[] = [];
/** Each position's game (a new game starts where the pieces grow in number): the held-out tenth is whole games. */
const gameOf: number[] = [];
let gameNo = -1,
  lastPieces = 99;
function addPosition(b: number, w: number, k: number, y: number, newGame = false): void {
  const pieces = popcount(b) + popcount(w);
  if (newGame || pieces > lastPieces) gameNo++;
  lastPieces = pieces;
  gameOf.push(gameNo);
  if (FIT_PATTERNS) {
    const ph = phaseOf(pieces),
      pe = PHASE_STEPS - ph;
    for (const { entry, sign } of patternFeatures(b & ~k, w & ~k)) {
      if (ph) {
        idx.push(NL + entry);
        val.push(sign * ph);
      }
      if (pe) {
        idx.push(NL + PATTERN_WEIGHTS / 2 + entry);
        val.push(sign * pe);
      }
    }
  }
  const f = features(b, w, k);
  for (let i = 0; i < NL; i++) {
    const x = f[WEIGHT_NAMES[i]!];
    if (x !== 0) {
      idx.push(i);
      val.push(x);
    }
  }
  rowStart.push(idx.length);
  labels.push(y);
}
let fromSelfplay = 0;
const TAKE = values.take ? values.take.split(',').map(Number) : [];
// With --labels, bench/label.ts' files instead: each position's target is MIX · result + (1 − MIX) · σ(KS · score).
const MIX = Number(values.mix ?? 0.3);
const KS = Number(values['label-scale'] ?? 0.0055);
if (!(MIX >= 0 && MIX <= 1)) throw new Error(`--mix must be between 0 and 1, not "${values.mix}"`);
if (!(KS > 0)) throw new Error(`--label-scale must be a positive number, not "${values['label-scale']}"`);
if (values.labels && values.take) throw new Error('--take applies to --data files; a label file is cut with bench/label.ts --limit');
if (values.labels)
  for (const file of values.labels.split(',').map((f) => (f.startsWith('~/') ? join(homedir(), f.slice(2)) : f))) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const [, b, w, k, , y, score] = line.split(' ');
      if (score === undefined || !Number.isFinite(Number(score)))
        throw new Error(`${file}: "${line}" is not a labelled position (file black white kings turn result score)`);
      addPosition(
        parseInt(b!, 16) | 0,
        parseInt(w!, 16) | 0,
        parseInt(k!, 16) | 0,
        MIX * Number(y) + (1 - MIX) / (1 + Math.exp(-KS * Number(score))),
      );
      fromSelfplay++;
    }
  }
else
  DATA.forEach((file, f) => {
    if (!existsSync(file)) throw new Error(`no self-play data at ${file}: run bench/selfplay.ts first (see the header)`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const take = TAKE[f] ?? Infinity;
    if (take < Infinity && lines.length - 1 < take) throw new Error(`${file} has ${lines.length - 1} lines, not the ${take} asked for`);
    for (const line of lines.slice(0, take)) {
      if (!line) continue;
      const [b, w, k, , y] = line.split(' ');
      addPosition(parseInt(b!, 16) | 0, parseInt(w!, 16) | 0, parseInt(k!, 16) | 0, Number(y));
      fromSelfplay++;
    }
  });
let gamesUsed = 0;
if (!values['no-corpus'])
  for (const file of BOOK_FILES) {
    for (const g of readPdn(readFileSync(join(CORPUS_DIR, file), 'utf8')).games) {
      if (!samePosition(g.start, START) || g.moves.length === 0) continue;
      const w = resultWinner(g.result);
      if (w === null) continue;
      const y = w === 'black' ? 1 : w === 'white' ? 0 : 0.5;
      const game = new Game(START, g.options);
      let first = true;
      try {
        for (const n of g.moves) {
          game.play(n.move);
          const p = game.position;
          if (game.plies.length < SKIP_PLIES || hasCapture(p)) continue;
          addPosition(p.black, p.white, p.kings, y, first);
          first = false;
        }
        gamesUsed++;
      } catch {
        // a record that does not replay (one known in tinsley.pdn) is left out
      }
    }
  }
const P = labels.length;
const IDX = Int32Array.from(idx),
  VAL = Float64Array.from(val),
  START_AT = Int32Array.from(rowStart),
  Y = Float64Array.from(labels);
// 90/10 by a seeded draw: of whole games (--split games, the default with --patterns: the positions of one
// game share its result, and split by position the held-out error flatters tables that learn games by
// heart) or of positions (a seeded shuffle: how the shipped named table was fitted).
const rnd = seededRandom(SEED);
let train: Int32Array, held: Int32Array;
if (SPLIT === 'games') {
  const heldGame = Uint8Array.from({ length: gameNo + 1 }, () => (rnd() < 0.1 ? 1 : 0));
  const all = Int32Array.from({ length: P }, (_, i) => i);
  train = all.filter((p) => !heldGame[gameOf[p]!]);
  held = all.filter((p) => heldGame[gameOf[p]!]);
} else {
  const order = Int32Array.from({ length: P }, (_, i) => i);
  for (let i = P - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const cut = Math.floor(P * 0.9);
  train = order.subarray(0, cut);
  held = order.subarray(cut);
}
console.log(
  `tune: ${P} quiet positions (${fromSelfplay} self-play, ${P - fromSelfplay} from ${gamesUsed} corpus games; ${train.length} to fit, ${held.length} held out), seed ${SEED}`,
);

const score = (w: Float64Array, p: number): number => {
  let s = 0;
  for (let j = START_AT[p]!; j < START_AT[p + 1]!; j++) s += w[IDX[j]!]! * VAL[j]!;
  return s / PHASE_STEPS;
};
const sigma = (x: number): number => 1 / (1 + Math.exp(-x));
function mse(w: Float64Array, K: number, set: Int32Array): number {
  let e = 0;
  for (const p of set) e += (sigma(K * score(w, p)) - Y[p]!) ** 2;
  return e / set.length;
}

/**
 * The start: the hand-set weights of the evaluation before the tuned one (a man 100, a king 130, 160 in
 * the ending; tempo as a man's rows advanced in the middle game, the centre squares as square values).
 */
function handTable(): Weights {
  const w = Object.fromEntries(WEIGHT_NAMES.map((n) => [n, 0])) as Record<WeightName, number>;
  const both = (s: string, v: number): void => {
    w[`${s}_m` as WeightName] += v;
    w[`${s}_e` as WeightName] += v;
  };
  both('man', 100);
  w.king_m = 130;
  w.king_e = 160;
  both('backRank', 6);
  both('bridge', 12);
  both('dogHole', 15);
  both('manMobility', 2);
  both('kingMobility', 2);
  both('runaway', 40);
  both('runawayRows', 5);
  both('trappedKing', 30);
  both('tradeDown', 4);
  for (const sq of [14, 15, 18, 19]) both(`manOn${sq}`, 8);
  for (let sq = 1; sq <= 28; sq++) w[`manOn${sq}_m` as WeightName] += rowOf(sq - 1);
  for (const sq of [10, 11, 14, 15, 18, 19, 22, 23]) both(`kingOn${sq}`, 10);
  return w;
}
const START_TABLE = handTable();
// The pattern tables start at zero.
const w0 = new Float64Array(N);
WEIGHT_NAMES.forEach((k, i) => (w0[i] = FREEZE ? WEIGHTS[k] : START_TABLE[k]));
// The scale K: golden-section search on the starting weights.
let lo = 0.0001,
  hi = 0.05;
for (let it = 0; it < 50; it++) {
  const a = hi - (hi - lo) / 1.618,
    b = lo + (hi - lo) / 1.618;
  if (mse(w0, a, train) < mse(w0, b, train)) hi = b;
  else lo = a;
}
const K = (lo + hi) / 2;
console.log(
  `scale K = ${K.toFixed(5)}; error with the starting weights: fit ${mse(w0, K, train).toFixed(5)}, held out ${mse(w0, K, held).toFixed(5)}`,
);

// Adam on every weight but the middle-game man's.
const w = Float64Array.from(w0);
const fixed = WEIGHT_NAMES.indexOf('man_m');
const m = new Float64Array(N),
  v = new Float64Array(N),
  grad = new Float64Array(N);
const rate = 1,
  b1 = 0.9,
  b2 = 0.999;
const t0 = performance.now();
for (let epoch = 1; epoch <= EPOCHS; epoch++) {
  grad.fill(0);
  for (const p of train) {
    const q = sigma(K * score(w, p));
    const g = (2 * (q - Y[p]!) * q * (1 - q) * K) / PHASE_STEPS;
    for (let j = START_AT[p]!; j < START_AT[p + 1]!; j++) grad[IDX[j]!]! += g * VAL[j]!;
  }
  for (let i = 0; i < N; i++) {
    if (i === fixed || (FREEZE && i < NL)) continue;
    const g = grad[i]! / train.length + 2 * (i < NL ? LAMBDA : PATTERN_LAMBDA) * (w[i]! - w0[i]!);
    m[i] = b1 * m[i]! + (1 - b1) * g;
    v[i] = b2 * v[i]! + (1 - b2) * g * g;
    w[i]! -= (rate * (m[i]! / (1 - b1 ** epoch))) / (Math.sqrt(v[i]! / (1 - b2 ** epoch)) + 1e-12);
  }
  if (epoch % 50 === 0)
    console.log(
      `  epoch ${epoch}: fit ${mse(w, K, train).toFixed(5)}, held out ${mse(w, K, held).toFixed(5)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
}
const rounded = Float64Array.from(w, (x) => Math.round(x));
console.log(`error with the tuned weights: fit ${mse(rounded, K, train).toFixed(5)}, held out ${mse(rounded, K, held).toFixed(5)}`);
const tuned = Object.fromEntries(WEIGHT_NAMES.map((k, i) => [k, rounded[i]! + 0])) as Record<string, number>;
const patterns = Int16Array.from(rounded.subarray(NL));
if (FIT_PATTERNS) {
  let used = 0,
    most = 0;
  for (const x of patterns) if (x !== 0) (used++, (most = Math.max(most, Math.abs(x))));
  const was = PATTERNS.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0);
  console.log(`pattern weights: ${used} of ${PATTERN_WEIGHTS} not zero (the table now: ${was}), the largest ${most}`);
}
console.log('weight               start    now  tuned');
for (const k of WEIGHT_NAMES)
  console.log(`  ${k.padEnd(18)} ${String(START_TABLE[k]).padStart(6)} ${String(WEIGHTS[k]).padStart(6)} ${String(tuned[k]).padStart(6)}`);

if (values.json) writeFileSync(values.json, JSON.stringify(tuned));
if (values.write) {
  const file = resolve(import.meta.dirname, '../src/engine/eval-weights.ts');
  const how = `bench/tune.ts --seed ${SEED} --epochs ${EPOCHS} --lambda ${LAMBDA}${values.labels ? ` --labels ${values.labels.split(homedir()).join('~')} --mix ${MIX} --label-scale ${KS}` : ''}${FIT_PATTERNS ? ` --patterns --pattern-lambda ${PATTERN_LAMBDA}` : ''}${FREEZE ? ' --freeze-named' : ''}${values.split ? ` --split ${SPLIT}` : ''}${values.take ? ` --take ${values.take}` : ''}`;
  if (!FREEZE) {
    writeFileSync(file, weightsFile(tuned as unknown as Weights, how, P, K));
    console.log(`written into ${file}`);
  }
  // The pattern tables' committed source, then the module made from it (bench/patterns-data.ts).
  const made = `${FIT_PATTERNS ? 'Fitted' : 'No pattern tables (all zeros): written'} by \`${how}\` from ${P} positions${
    values.labels ? ` (the label files: bench/label.ts' header says how to make them)` : ''
  }.`;
  writeFileSync(PATTERN_SOURCE_PATH, encodePatterns(FIT_PATTERNS ? patterns : new Int16Array(PATTERN_WEIGHTS), made));
  writeFileSync(PATTERN_DATA_PATH, patternDataModule(readFileSync(PATTERN_SOURCE_PATH)));
  console.log(`written into ${PATTERN_SOURCE_PATH} and ${PATTERN_DATA_PATH}`);
}

/** eval-weights.ts: the table, and how it was made. */
function weightsFile(W: Weights, how: string, positions: number, k: number): string {
  const lines = WEIGHT_NAMES.map((n) => `  ${n}: ${W[n]},`);
  return `// The evaluation's weights (eval.ts names them and says what each rewards;
// \`_m\` middle game, \`_e\` ending): written by \`${how}\`
// from ${positions} positions (${values.labels ? "self-play positions each labelled with bench/label.ts' depth-6\n// search score (remake the files as bench/label.ts' header says)" : `the self-play games of bench/selfplay.ts' default run${values.take ? ', the first\n// lines of its two files as --take says (a prefix of the full run),' : ''}`}
// and the corpus' games), scale K = ${k.toFixed(5)}. Rerun it rather than editing by hand.

export const TUNED_WEIGHTS = {
${lines.join('\n')}
} as const;
`;
}
