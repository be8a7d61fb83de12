// Pairing a round, as the next `pair-round` event: round robin by the Berger
// tables, Swiss as checkers practice does it, or a pairing list read from
// CSV. Also the ballot of a round: one ACF ballot for every board, drawn
// from the tournament's seed (never a barred ballot, never one already
// played in this tournament while others are left). Deterministic: the same
// state always pairs the same way. Pure.
//
// Colours. In checkers Black moves first. In a Berger table the first-named
// player of a pair has the first move (White in chess), so here they play
// Black in game 1. With ballot pairs both players play both sides of the
// ballot, so colour is balanced within each pairing already; what Swiss
// balances is who plays game 1 as Black (without ballots, the only game).

import { mulberry32 } from '../common/prng.ts';
import { attempt, type Result } from '../common/result.ts';
import { BALLOTS } from '../rules/ballots.ts';
import { joinWords } from '../words/index.ts';
import { TournamentError, type PairingSpec, type TournamentEvent } from './events.ts';
import { scores, gamesByPlayer } from './standings.ts';
import { currentRound, nextRoundProblem, playerByName, playerBySeed, type TournamentState } from './tournament.ts';

export type PairRoundEvent = Extract<TournamentEvent, { t: 'pair-round' }>;

// ---------------------------------------------------------------- ballots

/** The ballot every board of `round` plays: drawn from the seed, skipping barred (and, asked, mail-play) ballots and those already played. */
export function drawBallot(s: TournamentState, round: number): number | null {
  if (s.ballots === 'none') return null;
  const used = new Set(s.played.filter((r) => r.round < round).flatMap((r) => r.pairings.map((p) => p.ballot)));
  const pool = BALLOTS.filter((b) => b.status === 'crossboard' || (!s.crossboardOnly && b.status === 'mailplay'));
  const fresh = pool.filter((b) => !used.has(b.number));
  const from = fresh.length ? fresh : pool;
  // One generator per round, so re-pairing a round draws the same ballot.
  const rng = mulberry32((s.seed ^ Math.imul(round, 0x9e3779b1)) >>> 0);
  return from[Math.floor(rng() * from.length)].number;
}

// ---------------------------------------------------------------- round robin

/**
 * The Berger table for `n` players (an odd number plays with a dummy n+1:
 * meeting it is the bye): for each round, the pairs by board, first-named
 * first. Round r: player n meets k with 2k ≡ r+1 (mod n−1), on board 1, with
 * the first move in even rounds; board b pairs k+(b−1) with k−(b−1) (mod n−1),
 * the lower number first when they differ by an odd number.
 */
export function bergerTable(players: number): [number, number][][] {
  const n = players % 2 ? players + 1 : players;
  const m = n - 1;
  const wrap = (x: number) => ((((x - 1) % m) + m) % m) + 1;
  const rounds: [number, number][][] = [];
  for (let r = 1; r <= m; r++) {
    let k = 1;
    while ((2 * k) % m !== (r + 1) % m) k++;
    const pairs: [number, number][] = [r % 2 === 0 ? [n, k] : [k, n]];
    for (let b = 2; b <= n / 2; b++) {
      const i = wrap(k + b - 1);
      const j = wrap(k - (b - 1));
      const [lo, hi] = i < j ? [i, j] : [j, i];
      pairs.push((hi - lo) % 2 === 1 ? [lo, hi] : [hi, lo]);
    }
    rounds.push(pairs);
  }
  return rounds;
}

/** Rounds a round robin of `players` takes (twice as many when double). */
export const roundRobinRounds = (players: number, double = false): number => (players % 2 ? players : players - 1) * (double ? 2 : 1);

/**
 * The next round of a round robin (players by seed number, every one
 * entered before round 1). A double round robin plays the table again with
 * the colours reversed. A pairing with a withdrawn player is left out.
 */
export function pairRoundRobin(s: TournamentState, at: number, by: string): PairRoundEvent {
  const round = nextRound(s);
  const n = s.players.length;
  if (n < 2) throw new TournamentError('bad-pairing', 'a round robin needs at least two players');
  const table = bergerTable(n);
  if (round > table.length * (s.double ? 2 : 1))
    throw new TournamentError(
      'no-more-rounds',
      `a ${s.double ? 'double ' : ''}round robin of ${n} players has ${roundRobinRounds(n, s.double)} rounds`,
    );
  const second = round > table.length;
  const ballot = drawBallot(s, round);
  const pairs = table[(round - 1) % table.length].map(([a, b]) => (second ? [b, a] : [a, b]));
  let bye: number | null = null;
  const pairings: PairingSpec[] = [];
  for (const [black, white] of pairs) {
    if (black > n || white > n) {
      bye = Math.min(black, white);
      continue;
    }
    if (s.players[black - 1].withdrawn || s.players[white - 1].withdrawn) continue;
    pairings.push({ board: pairings.length + 1, black, white, ballot });
  }
  if (bye !== null && s.players[bye - 1].withdrawn) bye = null;
  return { t: 'pair-round', at, by, round, pairings, bye };
}

function nextRound(s: TournamentState): number {
  const problem = nextRoundProblem(s);
  if (problem) throw new TournamentError(currentRound(s) >= s.rounds ? 'no-more-rounds' : 'round-not-complete', problem);
  return currentRound(s) + 1;
}

// ---------------------------------------------------------------- Swiss

interface SwissPlayer {
  seed: number;
  score: number;
  opponents: Set<number>;
  /** games 1 played as Black minus as White */
  balance: number;
  /** colour of game 1 in the last round played */
  last: 'black' | 'white' | null;
  byes: number;
}

/** The colour difference a player may reach (games 1 as Black minus as White). */
export const MAX_COLOUR_DIFFERENCE = 2;

function swissPlayers(s: TournamentState): SwissPlayer[] {
  const score = scores(s);
  const { games, byes } = gamesByPlayer(s);
  const rated = (seed: number) => s.players[seed - 1].rating ?? -Infinity;
  return s.players
    .filter((p) => !p.withdrawn)
    .map((p) => {
      const firsts = games.get(p.seed)!.filter((g) => g.game === 1);
      const balance = firsts.reduce((k, g) => k + (g.colour === 'black' ? 1 : -1), 0);
      return {
        seed: p.seed,
        score: score.get(p.seed)!,
        opponents: new Set(games.get(p.seed)!.map((g) => g.opponent)),
        balance,
        last: firsts.length ? firsts[firsts.length - 1].colour : null,
        byes: byes.get(p.seed)!.length,
      };
    })
    .sort((a, b) => b.score - a.score || rated(b.seed) - rated(a.seed) || a.seed - b.seed);
}

/** Who plays Black in game 1 of a Swiss pairing (a ranked above b), or null when either would pass the colour limit. */
function colours(a: SwissPlayer, b: SwissPlayer, board: number, firstBlack: boolean, strict: boolean): [number, number] | null {
  let aBlack: boolean;
  if (a.balance !== b.balance) aBlack = a.balance < b.balance;
  else if (a.last !== b.last && a.last !== null && b.last !== null) aBlack = a.last === 'white';
  else aBlack = (board % 2 === 1) === firstBlack;
  const [black, white] = aBlack ? [a, b] : [b, a];
  if (strict && (black.balance + 1 > MAX_COLOUR_DIFFERENCE || white.balance - 1 < -MAX_COLOUR_DIFFERENCE)) return null;
  return [black.seed, white.seed];
}

/**
 * Candidates for the top remaining player, best first: their own score group
 * from its middle down then up (top half meets bottom half, as the Dutch
 * system does), then the players below in ranking order.
 */
function candidates(top: SwissPlayer, rest: SwissPlayer[]): SwissPlayer[] {
  const group = rest.filter((p) => p.score === top.score);
  const below = rest.filter((p) => p.score !== top.score);
  const h = Math.max(0, Math.floor((group.length + 1) / 2) - 1);
  return [...group.slice(h), ...group.slice(0, h).reverse(), ...below];
}

/** Search steps one attempt at a Swiss round may take (a field that cannot be paired fails fast instead of searching every matching). */
export const SWISS_SEARCH_STEPS = 200_000;

/**
 * Pairs `players` (ranked), no repeat meeting; with `strict`, nobody's colour
 * difference past the limit. Backtracks within `budget.steps`; null when
 * impossible (or the budget ran out: `budget.steps` ≤ 0).
 */
function pairUp(players: SwissPlayer[], strict: boolean, firstBlack: boolean, budget: { steps: number }): [number, number][] | null {
  if (players.length === 0) return [];
  const [top, ...rest] = players;
  for (const c of candidates(top, rest)) {
    if (--budget.steps <= 0) return null;
    if (top.opponents.has(c.seed)) continue;
    const pair = colours(top, c, 1, firstBlack, strict);
    if (!pair) continue;
    const tail = pairUp(
      rest.filter((p) => p !== c),
      strict,
      firstBlack,
      budget,
    );
    if (tail) return [pair, ...tail];
  }
  return null;
}

/**
 * The next Swiss round: players ranked by score (then rating, then seed);
 * with an odd number the bye goes to the lowest-ranked player without one
 * whose absence still lets the rest pair; no pairing repeats; colours of
 * game 1 balanced (difference kept within ±2 when any pairing allows it:
 * the limit comes before the bye order, so a player ranked higher may take
 * the bye rather than anyone reach 3). Boards in ranking order; the colour
 * of a tie on board 1 comes from the seed.
 */
export function pairSwiss(s: TournamentState, at: number, by: string): PairRoundEvent {
  const round = nextRound(s);
  const players = swissPlayers(s);
  if (players.length < 2) throw new TournamentError('bad-pairing', 'a Swiss round needs at least two players who have not withdrawn');
  const firstBlack = mulberry32(s.seed >>> 0)() < 0.5;
  const byeOrder = players.length % 2 ? [...players].reverse().sort((a, b) => a.byes - b.byes) : [null];
  let gaveUp = false;
  for (const strict of [true, false])
    for (const bye of byeOrder) {
      const budget = { steps: SWISS_SEARCH_STEPS };
      const pairs = pairUp(
        players.filter((p) => p !== bye),
        strict,
        firstBlack,
        budget,
      );
      if (budget.steps <= 0) gaveUp = true;
      if (!pairs) continue;
      const ballot = drawBallot(s, round);
      // Board colours: a tie alternates down the boards, so recompute now that boards are known.
      const pairings = pairs.map(([black, white], i) => ({ board: i + 1, black, white, ballot }));
      return { t: 'pair-round', at, by, round, pairings: rebalanceTies(players, pairings, firstBlack, strict), bye: bye?.seed ?? null };
    }
  const why = gaveUp ? 'no pairing without a repeat meeting was found' : 'cannot be paired without a repeat meeting';
  throw new TournamentError('bad-pairing', `round ${round} ${why}: the arbiter pairs it by hand`);
}

/** Colours decided by a tie (same balance and history) alternate by board, the first board's from the seed. */
function rebalanceTies(players: SwissPlayer[], pairings: PairingSpec[], firstBlack: boolean, strict: boolean): PairingSpec[] {
  const by = new Map(players.map((p) => [p.seed, p]));
  const rank = new Map(players.map((p, i) => [p.seed, i]));
  return pairings.map((spec) => {
    const [a, b] =
      rank.get(spec.black)! < rank.get(spec.white)!
        ? [by.get(spec.black)!, by.get(spec.white)!]
        : [by.get(spec.white)!, by.get(spec.black)!];
    const c = colours(a, b, spec.board, firstBlack, strict) ?? [spec.black, spec.white];
    return { ...spec, black: c[0], white: c[1] };
  });
}

// ---------------------------------------------------------------- pairing lists (CSV)

/** Splits CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF) into rows with their line numbers. */
export function csvRows(text: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  let line = 1;
  let i = 0;
  const body = text.replace(/^\uFEFF/, '');
  while (i < body.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    for (;;) {
      const c = body[i];
      if (c === '"' && field === '') {
        const close = readQuoted(body, i + 1);
        if (close.end < 0) throw new TournamentError('bad-pairing-list', `line ${start}: a quoted field is not closed`);
        field = close.value;
        line += (close.value.match(/\n/g) ?? []).length;
        i = close.end;
        if (i < body.length && !/[,\r\n]/.test(body[i]))
          throw new TournamentError('bad-pairing-list', `line ${line}: text after a closing quote (write a quote inside a field as "")`);
        continue;
      }
      if (c === undefined || c === '\n' || c === '\r') {
        fields.push(field);
        if (c === '\r' && body[i + 1] === '\n') i++;
        i++;
        line++;
        break;
      }
      if (c === ',') {
        fields.push(field);
        field = '';
        i++;
        continue;
      }
      field += c;
      i++;
    }
    if (fields.some((f) => f.trim() !== '')) rows.push({ line: start, fields });
  }
  return rows;
}

function readQuoted(s: string, from: number): { value: string; end: number } {
  let value = '';
  for (let i = from; i < s.length; i++) {
    if (s[i] !== '"') value += s[i];
    else if (s[i + 1] === '"') {
      value += '"';
      i++;
    } else return { value, end: i + 1 };
  }
  return { value, end: -1 };
}

/** One round of a pairing list. */
export interface ListedRound {
  round: number;
  pairings: PairingSpec[];
  bye: number | null;
}

const COLUMNS = ['round', 'board', 'white', 'black', 'ballot'];

/**
 * Why a pairing cannot be played on `board`, given the numbers of the boards
 * there are (board N of a round is the board numbered N), or null.
 */
export function boardProblem(board: number, boards: readonly number[]): string | null {
  if (boards.includes(board)) return null;
  const sorted = [...boards].sort((a, b) => a - b).map(String);
  const there =
    sorted.length === 0 ? 'no board is connected yet' : `the board${sorted.length === 1 ? ' is' : 's are'} ${joinWords(sorted)}`;
  return `there is no board ${board} here: ${there}`;
}

/**
 * Reads a pairing list: a header `round,board,white,black[,ballot]` (any
 * order, any case), then one row per pairing; players by name or seed
 * number; "bye" in place of one player gives the other the bye. `white` and
 * `black` are the colours of game 1 (Black moves first). Without a ballot
 * column (or an empty one), ballot tournaments play the round's drawn ballot.
 * Given the numbers of the boards there are, a pairing on any other board is
 * refused (its round could never be played). Errors name the line and the problem.
 */
export const parsePairingList = (s: TournamentState, text: string, boards?: readonly number[]): Result<ListedRound[], TournamentError> =>
  attempt(TournamentError, () => readPairingList(s, text, boards));

function readPairingList(s: TournamentState, text: string, boards?: readonly number[]): ListedRound[] {
  const rows = csvRows(text);
  if (!rows.length) throw new TournamentError('bad-pairing-list', 'the pairing list is empty');
  const [header, ...data] = rows;
  const col = new Map(header.fields.map((f, i) => [f.trim().toLowerCase(), i]));
  for (const need of COLUMNS.slice(0, 4))
    if (!col.has(need))
      throw new TournamentError(
        'bad-pairing-list',
        `line ${header.line}: the header needs a "${need}" column (round,board,white,black[,ballot])`,
      );
  const unknown = [...col.keys()].find((k) => !COLUMNS.includes(k));
  if (unknown !== undefined) throw new TournamentError('bad-pairing-list', `line ${header.line}: unknown column "${unknown}"`);
  const rounds = new Map<number, ListedRound>();
  for (const row of data) {
    const bad = (why: string) => new TournamentError('bad-pairing-list', `line ${row.line}: ${why}`);
    if (row.fields.length !== header.fields.length) throw bad(`${row.fields.length} fields where the header has ${header.fields.length}`);
    const get = (k: string) => (col.has(k) ? row.fields[col.get(k)!].trim() : '');
    const round = positive(get('round'), 'round', bad);
    const r = rounds.get(round) ?? { round, pairings: [], bye: null };
    rounds.set(round, r);
    const white = playerRef(s, get('white'), bad);
    const black = playerRef(s, get('black'), bad);
    if (white === null && black === null) throw bad('a pairing of two byes');
    if (white === null || black === null) {
      if (r.bye !== null) throw bad(`round ${round} already has a bye (${s.players[r.bye - 1].name})`);
      r.bye = white ?? black;
      continue;
    }
    const board = positive(get('board'), 'board', bad);
    const missing = boards ? boardProblem(board, boards) : null;
    if (missing) throw bad(missing);
    if (r.pairings.some((p) => p.board === board)) throw bad(`round ${round} board ${board} is listed twice`);
    for (const seed of [black, white])
      if (r.pairings.some((p) => p.black === seed || p.white === seed) || r.bye === seed)
        throw bad(`${s.players[seed - 1].name} is listed twice in round ${round}`);
    const b = get('ballot');
    const ballot = b === '' ? null : positive(b.replace(/^acf\s*/i, ''), 'ballot', bad);
    if (ballot !== null && !BALLOTS.some((x) => x.number === ballot)) throw bad(`no ACF ballot ${ballot} (they are numbered 1 to 174)`);
    if (ballot !== null && s.ballots === 'none') throw bad('this tournament plays without ballots: leave the ballot column empty');
    r.pairings.push({ board, black, white, ballot });
  }
  return [...rounds.values()].sort((a, b) => a.round - b.round);
}

function positive(v: string, what: string, bad: (why: string) => TournamentError): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw bad(`${what} "${v}" is not a positive whole number`);
  return Number(v);
}

/** A player named in a list: a seed number or a name; null for "bye". */
function playerRef(s: TournamentState, v: string, bad: (why: string) => TournamentError): number | null {
  if (v === '') throw bad('a player is missing');
  if (/^bye$/i.test(v)) return null;
  try {
    return /^\d+$/.test(v) ? playerBySeed(s, Number(v)).seed : playerByName(s, v).seed;
  } catch (e) {
    if (e instanceof TournamentError) throw bad(e.message);
    throw e;
  }
}

/** The next round from a pairing list read earlier, as its event. */
export function pairFromList(s: TournamentState, list: readonly ListedRound[], at: number, by: string): PairRoundEvent {
  const round = nextRound(s);
  const r = list.find((x) => x.round === round);
  if (!r) throw new TournamentError('bad-pairing-list', `the pairing list has no round ${round}`);
  // Rows without a ballot play the round's drawn ballot (drawn now, so it skips the ballots played before).
  const drawn = drawBallot(s, round);
  const pairings = r.pairings.map((p) => (p.ballot === null ? { ...p, ballot: drawn } : p));
  return { t: 'pair-round', at, by, round, pairings, bye: r.bye };
}

/** The next round by the tournament's own system (a list tournament needs its list). */
export function pairNextRound(s: TournamentState, at: number, by: string, list?: readonly ListedRound[]): PairRoundEvent {
  if (s.system === 'round-robin') return pairRoundRobin(s, at, by);
  if (s.system === 'swiss') return pairSwiss(s, at, by);
  if (!list) throw new TournamentError('bad-pairing-list', 'this tournament is paired from a list: give the pairing list');
  return pairFromList(s, list, at, by);
}
