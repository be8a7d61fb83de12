// A game's journal record (JournalEntry), as one zod/mini schema with its
// type inferred: the record the station's journal writes on disk
// (src/storage/journal.ts), replays on restart, and sends to a hub over MQTT
// (src/protocol/stations-v1.ts). `checkJournalEntry` is its one check (fast:
// compiled from the schema, src/model/check.ts), and names what is wrong
// with a record in words ("a move needs a path of squares 1-32"): the table
// of sentences below, by record kind and field.

import * as z from 'zod/mini';
import { Square, Side, Result, Outcome, GameOptions } from './game.ts';
import { SavedClock } from './clock.ts';
import { compileCheck } from './check.ts';

const at = z.number();
const Path = z.array(Square).check(z.minLength(2));
const Tags = z.record(z.string(), z.string());
const Offer = z.nullable(Side);

/** The side played at another board (or from a browser: `where`), its player's name, and the pairing's link. */
export const JournalRemote = z.object({
  side: Side,
  name: z.string(),
  link: z.optional(z.string()),
  where: z.optional(z.literal('browser')),
});

/** One record of a game's journal, by kind (`k`); every record has its time `at` (ms since 1970). */
export const JournalEntry = z.discriminatedUnion('k', [
  z.object({
    k: z.literal('new'),
    at,
    id: z.string().check(z.minLength(1)),
    fen: z.string(),
    options: GameOptions,
    tags: Tags,
    ballot: z.nullable(z.number().check(z.int())),
    /** the ballot's opening moves, each as its squares */
    moves: z.array(Path),
    /** the side played at another board, and its player's name */
    remote: z.optional(JournalRemote),
    /** the game's own tournament mode (a tournament's round), when given; absent: the service's */
    tournament: z.optional(z.boolean()),
  }),
  z.object({ k: z.literal('move'), at, path: Path, huff: z.optional(Square) }),
  z.object({ k: z.literal('takeback'), at }),
  z.object({ k: z.literal('crown'), at, square: Square }),
  z.object({ k: z.literal('tags'), at, tags: Tags }),
  z.object({ k: z.literal('result'), at, result: Result, outcome: z.nullable(Outcome) }),
  z.object({ k: z.literal('draw-offer'), at, side: Offer }),
  /** a takeback asked for in a game with a player at another board (null: declined), for the far board to show and answer */
  z.object({ k: z.literal('takeback-offer'), at, side: Offer }),
  z.object({ k: z.literal('clock'), at, clock: SavedClock }),
  /** an arbiter's correction: who, why and what, in words (the changes themselves follow as ordinary entries) */
  z.object({ k: z.literal('correction'), at, by: z.string(), reason: z.string(), say: z.string() }),
]);
export type JournalEntry = z.infer<typeof JournalEntry>;
export type JournalKind = JournalEntry['k'];

/** What is wrong with a record of each kind, by the first field found wrong ('': any other field). */
const PROBLEMS: { readonly [K in JournalKind]: Readonly<Record<string, string>> } = {
  new: {
    id: 'a new-game entry needs an id',
    fen: 'a new-game entry needs a FEN',
    options: 'a new-game entry needs options and tags',
    tags: 'a new-game entry needs options and tags',
    ballot: "a new-game entry's ballot is a whole number or null",
    moves: 'a new-game entry needs its opening moves as paths of squares 1-32',
    remote: "a new-game entry's remote player needs a side (black or white), a name and, if any, a link that is text",
    tournament: "a new-game entry's tournament mode is true or false",
    '': 'not a new-game entry',
  },
  move: { '': 'a move needs a path of squares 1-32' },
  takeback: { '': 'not a takeback entry' },
  crown: { '': 'a crown entry needs a square 1-32' },
  tags: { '': 'a tags entry needs text tags' },
  result: {
    result: `a result entry needs a result (${Result.options.join(', ')})`,
    outcome: 'a result entry needs its outcome (the winner or null, and the reason), or null',
    '': 'a result entry needs a result',
  },
  'draw-offer': { '': 'a draw offer needs a side' },
  'takeback-offer': { '': 'a takeback offer needs a side' },
  clock: { '': 'a clock entry needs the clock' },
  correction: { '': 'a correction entry needs who, why and what (by, reason, say)' },
};

const isKind = (k: unknown): k is JournalKind => typeof k === 'string' && Object.hasOwn(PROBLEMS, k);

/** The sentence for a record the schema refused: its kind's, by the first field the schema found wrong. */
function problemOf(value: unknown, issues: readonly z.core.$ZodIssue[]): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a journal entry';
  const k = (value as { k?: unknown }).k;
  if (typeof k !== 'string') return 'not a journal entry';
  if (!isKind(k)) return `unknown entry kind "${k.slice(0, 20)}"`;
  if (issues.some((i) => i.path[0] === 'at')) return `a ${k} entry needs a time "at"`;
  const field = issues[0]?.path[0];
  const said = PROBLEMS[k];
  const sentence = (typeof field === 'string' && said[field]) || said['']!;
  // A clock's shape has many fields: name the one that is wrong.
  return k === 'clock' && issues[0] ? `${sentence} (${issues[0].path.slice(1).join('.') || 'an object'}: ${issues[0].message})` : sentence;
}

/** The schema's fast check (src/model/check.ts): a journal is read a record at a time, thousands of them. */
const fits = compileCheck(JournalEntry);

/**
 * A parsed JSON value as a journal record (the value itself, as written), or
 * the sentence saying what is wrong with it. The fast check decides; zod's
 * parse runs only on a record it refuses, to say why (and is the judge if
 * the two ever disagree: test/model/check.test.ts says they do not).
 */
export function checkJournalEntry(value: unknown): { entry: JournalEntry } | { why: string } {
  if (fits(value)) return { entry: value as JournalEntry };
  const r = z.safeParse(JournalEntry, value);
  return r.success ? { entry: r.data } : { why: problemOf(value, r.error.issues) };
}

/** Why a parsed JSON value is not a journal record, or null when it is one. */
export function journalEntryProblem(value: unknown): string | null {
  const c = checkJournalEntry(value);
  return 'why' in c ? c.why : null;
}
