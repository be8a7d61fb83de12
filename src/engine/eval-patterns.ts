// The evaluation's pattern tables: what the men of a small area of the board
// are worth together, learnt from games rather than named by hand (the way
// strong draughts engines such as Scan and Kingsrow evaluate). A window is 8
// dark squares — 4 rows × 2 squares of each row (15 windows, overlapping) or
// 2 whole rows (7 windows) — and its contents, each square empty, a Black man
// or a White man (kings count as empty: the square tables and the scalar terms
// weigh them), index one of 3⁸ = 6,561 entries of a table, one table for the
// middle game and one for the ending, blended like every other term (eval.ts).
// A window and its turn-round (squares 31 − i, colours swapped) share a table
// with the sign turned, so the score stays the same for either colour.
// bench/tune.ts fits the tables with the rest of the weights and writes them
// to their committed source, data/engine/eval-patterns.json.gz (the JSON of
// `patternSourceText`: each table's 6,561 weights on one line), and
// bench/patterns-data.ts copies that file into eval-patterns-data.ts (base64
// of its bytes); this file says what the tables mean, reads and writes their
// stored form, gives each position's pattern features to the tuner
// (`patternFeatures`) and folds the tables into one flat look-up per window
// for the search (`foldPatterns`).
//
// The tables that ship were fitted to depth-6 search scores mixed with the
// game results (bench/label.ts labels self-play positions; `npm run tune --
// --patterns --labels …`, 30 % result: the command is in the data file's
// header, with how the committed source was made from them). Measured against the linear table alone (bench/engine.ts --versus,
// ACF ballots, both colours): held-out error 0.0152 → 0.0129, 64.6 % at a
// fixed depth of 8 (+21 =20 −7, 48 games: a better evaluation). Tables fitted
// to the results of 4000-node self-play alone predicted results better
// (0.0552 → 0.0509) yet played worse (41.7 % at 200 ms a move): they learn the
// players' habits. Made at every evaluation, the 22 look-ups cost the search
// a third of its nodes a second; eval.ts makes them only when the rest of the
// score lies near the search's window (evaluateWithin): 1.21x the eager
// tables' speed, about 0.87x the linear table's (both measured before the
// search's horizon fix, when far fewer evaluations fell near the window).

import { gunzipSync, gzipSync } from 'node:zlib';
import { PATTERN_DATA } from './eval-patterns-data.ts';
import { CrownheadError } from '../common/errors.ts';
import { attempt, unwrap, type Result } from '../common/result.ts';

/** A window's squares (indices 0–31), ascending: the order of its index's base-3 digits. */
export type Window = readonly number[];

const quad = (r: number, a: number): Window => [0, 1, 2, 3].flatMap((i) => [4 * (r + i) + a, 4 * (r + i) + a + 1]);
const rows = (r: number): Window => [0, 1, 2, 3, 4, 5, 6, 7].map((i) => 4 * r + i);

/** The windows: 4 rows × 2 squares at each place (rows r…r+3, the row's squares a, a+1), then each pair of rows. */
export const WINDOWS: readonly Window[] = [
  ...[0, 1, 2, 3, 4].flatMap((r) => [0, 1, 2].map((a) => quad(r, a))),
  ...[0, 1, 2, 3, 4, 5, 6].map(rows),
];
/** Entries of a table: 3⁸. */
export const PATTERN_ENTRIES = 6561;

const key = (w: Window): string => [...w].sort((x, y) => x - y).join(',');
const turned = (w: Window): Window => w.map((s) => 31 - s);

/** A table's own window (its digits in that window's order) for each table, and each window's table. */
const TABLE_WINDOWS: Window[] = [];
const WINDOW_TABLE: number[] = [];
/** Whether a window is its table's own (scored for Black as it stands), its turn-round (for White), or both (self-symmetric). */
const WINDOW_KIND: ('own' | 'turned' | 'both')[] = [];
for (const w of WINDOWS) {
  const self = key(w) === key(turned(w));
  const t = TABLE_WINDOWS.findIndex((x) => key(x) === key(turned(w)));
  if (t >= 0 && !self) {
    WINDOW_TABLE.push(t);
    WINDOW_KIND.push('turned');
  } else {
    TABLE_WINDOWS.push(w);
    WINDOW_TABLE.push(TABLE_WINDOWS.length - 1);
    WINDOW_KIND.push(self ? 'both' : 'own');
  }
}
/** Tables (a window and its turn-round share one). */
export const PATTERN_TABLES = TABLE_WINDOWS.length;
/** Pattern weights: the middle game's tables end to end, then the ending's (PATTERN_TABLES × 6,561 each). */
export const PATTERN_WEIGHTS = 2 * PATTERN_TABLES * PATTERN_ENTRIES;

/** The phases' names in the stored form, in the order of PATTERN_WEIGHTS. */
const PHASES = ['middle', 'ending'] as const;

/**
 * The tables' source form (data/engine/eval-patterns.json.gz, gunzipped): JSON
 * with `source` (how the weights were made), `entries` (6,561) and `tables`,
 * one a line — each with its phase, its number, its window's squares (0–31, the
 * order of the entry's base-3 digits) and its weights — the middle game's
 * tables then the ending's, as in PATTERN_WEIGHTS.
 */
export function patternSourceText(t: Int16Array, source: string): string {
  if (t.length !== PATTERN_WEIGHTS) throw new Error(`pattern tables hold ${t.length} weights, not the ${PATTERN_WEIGHTS}`);
  const tables = PHASES.flatMap((phase, p) =>
    TABLE_WINDOWS.map((window, table) => {
      const at = (p * PATTERN_TABLES + table) * PATTERN_ENTRIES;
      const weights = Array.from(t.subarray(at, at + PATTERN_ENTRIES));
      return JSON.stringify({ phase, table, window, weights });
    }),
  );
  return `{"source":${JSON.stringify(source)},\n"entries":${PATTERN_ENTRIES},\n"tables":[\n${tables.join(',\n')}\n]}\n`;
}

/** A pattern source that cannot be the evaluation's tables: what is wrong, naming the table and entry. */
export class PatternSourceError extends CrownheadError<'bad-patterns'> {
  override readonly name = 'PatternSourceError';
  constructor(message: string) {
    super('bad-patterns', message);
  }
}

/** The weights of a source text (patternSourceText's form), every table checked against this file's windows; or the PatternSourceError naming the first problem. */
export const parsePatternSource = (text: string): Result<{ weights: Int16Array; source: string }, PatternSourceError> =>
  attempt(PatternSourceError, () => readPatternSource(text));

function readPatternSource(text: string): { weights: Int16Array; source: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PatternSourceError(`pattern source is not JSON: ${(e as Error).message}`);
  }
  const o = json as { source?: unknown; entries?: unknown; tables?: unknown };
  if (typeof o !== 'object' || o === null || typeof o.source !== 'string' || o.entries !== PATTERN_ENTRIES || !Array.isArray(o.tables))
    throw new PatternSourceError(`pattern source needs "source" (text), "entries" (${PATTERN_ENTRIES}) and "tables" (a list)`);
  if (o.tables.length !== 2 * PATTERN_TABLES)
    throw new PatternSourceError(
      `pattern source holds ${o.tables.length} tables, not the ${2 * PATTERN_TABLES} (${PATTERN_TABLES} a phase)`,
    );
  const weights = new Int16Array(PATTERN_WEIGHTS);
  (o.tables as unknown[]).forEach((x, i) => {
    const phase = PHASES[Math.floor(i / PATTERN_TABLES)]!,
      table = i % PATTERN_TABLES;
    const e = x as { phase?: unknown; table?: unknown; window?: unknown; weights?: unknown };
    const where = `pattern source table ${i} (${phase} ${table})`;
    if (typeof e !== 'object' || e === null || e.phase !== phase || e.table !== table)
      throw new PatternSourceError(`${where}: expected phase "${phase}", table ${table}`);
    if (JSON.stringify(e.window) !== JSON.stringify(TABLE_WINDOWS[table]))
      throw new PatternSourceError(`${where}: window ${JSON.stringify(e.window)}, not ${JSON.stringify(TABLE_WINDOWS[table])}`);
    const w = e.weights;
    if (!Array.isArray(w) || w.length !== PATTERN_ENTRIES) throw new PatternSourceError(`${where}: needs ${PATTERN_ENTRIES} weights`);
    w.forEach((v: unknown, n) => {
      if (!Number.isInteger(v) || (v as number) < -32768 || (v as number) > 32767)
        throw new PatternSourceError(`${where}, entry ${n}: ${JSON.stringify(v)} is not a 16-bit whole number`);
      weights[i * PATTERN_ENTRIES + n] = v as number;
    });
  });
  return { weights, source: o.source };
}

/** The tables from their stored form (base64 of the gzipped source text); an empty string is all zeros. */
export function decodePatterns(data: string): Int16Array {
  if (data === '') return new Int16Array(PATTERN_WEIGHTS);
  let text: string;
  try {
    text = gunzipSync(Buffer.from(data, 'base64')).toString('utf8');
  } catch (e) {
    throw new PatternSourceError(`pattern data does not gunzip: ${(e as Error).message}`);
  }
  return unwrap(parsePatternSource(text)).weights;
}
/** The stored form of the tables: the gzipped source text (the bytes of data/engine/eval-patterns.json.gz). */
export function encodePatterns(t: Int16Array, source: string): Buffer {
  return gzipSync(patternSourceText(t, source), { level: 9 });
}

/** The pattern weights the engine plays with (eval-patterns-data.ts, generated by bench/patterns-data.ts). */
export const PATTERNS: Int16Array = decodePatterns(PATTERN_DATA);

/** Base-3 index of a window's men, digit k for the window's k-th square: 1 for `mine`, 2 for `theirs`. */
function indexOf(squares: Window, mine: number, theirs: number): number {
  let n = 0;
  for (let k = squares.length - 1; k >= 0; k--) {
    const s = squares[k]!;
    n = 3 * n + ((mine >>> s) & 1 ? 1 : (theirs >>> s) & 1 ? 2 : 0);
  }
  return n;
}

/**
 * The pattern terms of a position (Black's men `bm`, White's `wm`): for each
 * window, the table entry it reads for Black (sign +1) and, for a turned or
 * self-symmetric window, the one it reads for White (sign −1), as offsets in
 * one phase's tables (add PATTERN_WEIGHTS / 2 for the ending's).
 */
export function patternFeatures(bm: number, wm: number): { entry: number; sign: number }[] {
  const out: { entry: number; sign: number }[] = [];
  WINDOWS.forEach((w, i) => {
    const t = WINDOW_TABLE[i]!,
      kind = WINDOW_KIND[i]!;
    if (kind !== 'turned') out.push({ entry: t * PATTERN_ENTRIES + indexOf(w, bm, wm), sign: 1 });
    if (kind !== 'own') out.push({ entry: t * PATTERN_ENTRIES + indexOf(turned(TABLE_WINDOWS[t]!), wm, bm), sign: -1 });
  });
  return out;
}

/** Σ sign·weight over a position's pattern terms, middle game and ending (the slow, plain sum the tests hold the search's to). */
export function patternSums(bm: number, wm: number, P: Int16Array): [number, number] {
  let mid = 0,
    end = 0;
  for (const { entry, sign } of patternFeatures(bm, wm)) {
    mid += sign * P[entry]!;
    end += sign * P[PATTERN_WEIGHTS / 2 + entry]!;
  }
  return [mid, end];
}

/**
 * A row's men as a byte c (Black's four squares in bits 0–3, White's in 4–7):
 * at 4c + a (a = 0, 1, 2) the base-3 value of its squares a and a + 1 (Black
 * 1, White 2; square a the low digit), at 4c + 3 that of all four squares.
 * The windows are built in an order the search relies on: 4 rows × 2 for rows
 * r = 0…4 and a = 0…2, then 2 rows for r = 0…6.
 */
export const ROW_DIGITS = Int32Array.from({ length: 1024 }, (_, j) => {
  const c = j >> 2,
    a = j & 3;
  const digit = (s: number): number => ((c >> s) & 1 ? 1 : (c >> (s + 4)) & 1 ? 2 : 0);
  return a < 3 ? digit(a) + 3 * digit(a + 1) : digit(0) + 3 * digit(1) + 9 * digit(2) + 27 * digit(3);
});

/**
 * The tables folded for the search: for window i, entry n (its men in its own
 * square order, Black 1 and White 2) at 2·(i·6561 + n) holds the middle game's
 * value for Black of what that window contributes (its table's entry, less the
 * turned entry where White reads it too) and the ending's value one after,
 * in 16 bits (the look-ups are what the patterns cost: eval.ts compileWeights
 * packs each pair into one 32-bit integer, one look-up a window).
 */
export function foldPatterns(P: Int16Array): Int16Array {
  const F = new Int16Array(WINDOWS.length * PATTERN_ENTRIES * 2);
  const half = PATTERN_WEIGHTS / 2;
  // Digits reversed and colours swapped: the entry White reads from the same men.
  const swapped = new Int32Array(PATTERN_ENTRIES);
  for (let n = 0; n < PATTERN_ENTRIES; n++) {
    let x = n,
      m = 0;
    for (let k = 0; k < 8; k++) {
      const d = x % 3;
      x = (x - d) / 3;
      m = 3 * m + (d === 0 ? 0 : 3 - d);
    }
    swapped[n] = m;
  }
  WINDOWS.forEach((_, i) => {
    const base = WINDOW_TABLE[i]! * PATTERN_ENTRIES,
      kind = WINDOW_KIND[i]!;
    for (let n = 0; n < PATTERN_ENTRIES; n++) {
      let mid = 0,
        end = 0;
      if (kind !== 'turned') {
        mid += P[base + n]!;
        end += P[half + base + n]!;
      }
      if (kind !== 'own') {
        mid -= P[base + swapped[n]!]!;
        end -= P[half + base + swapped[n]!]!;
      }
      if (Math.max(Math.abs(mid), Math.abs(end)) > 32767)
        throw new Error(`pattern window ${i}, entry ${n}: ${mid} / ${end} does not fit the search's 16-bit tables`);
      F[2 * (i * PATTERN_ENTRIES + n)] = mid;
      F[2 * (i * PATTERN_ENTRIES + n) + 1] = end;
    }
  });
  return F;
}
