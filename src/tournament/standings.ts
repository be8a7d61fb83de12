// Standings and the crosstable of a tournament, as functions of its state:
// points per game (1 a win, ½ a draw, 0 a loss; a bye is worth what the
// arbiter set per game of a pairing), games won/drawn/lost, and the named
// tie-breaks: Sonneborn-Berger for a round robin (the sum, over every game,
// of the points scored times that opponent's final score); Buchholz (the sum
// of the final scores of every opponent met, once per pairing) then median
// Buchholz (the same without the highest and lowest opponent, with three
// opponents or more) for Swiss and pairing lists. A bye adds nothing to a
// tie-break. The crosstable comes as CSV (RFC 4180 quoting) and as an HTML
// fragment (names escaped; a <table> with a caption and scope headers, so
// screen readers read it). Pure.

import type { GameResult } from './events.ts';
import { gamesPerPairing, type TournamentState } from './tournament.ts';

/** The points one side scores from a game's result (null: no result yet). 1-0 is a win for Black, the first player. */
export function gamePoints(result: GameResult, side: 'black' | 'white'): number | null {
  if (result === '1/2-1/2') return 0.5;
  if (result === '1-0') return side === 'black' ? 1 : 0;
  if (result === '0-1') return side === 'white' ? 1 : 0;
  return null;
}

/** One finished or unfinished game seen from one player. */
export interface PlayerGame {
  round: number;
  board: number;
  game: 1 | 2;
  opponent: number;
  colour: 'black' | 'white';
  /** points scored, null while the game has no result */
  points: number | null;
}

/** Every game of every player (by seed), round by round; byes apart. */
export function gamesByPlayer(s: TournamentState): { games: Map<number, PlayerGame[]>; byes: Map<number, number[]> } {
  const games = new Map<number, PlayerGame[]>(s.players.map((p) => [p.seed, []]));
  const byes = new Map<number, number[]>(s.players.map((p) => [p.seed, []]));
  for (const r of s.played) {
    if (r.bye !== null) byes.get(r.bye)!.push(r.round);
    for (const p of r.pairings)
      for (const g of p.games) {
        const base = { round: r.round, board: p.board, game: g.game };
        games.get(g.black)!.push({ ...base, opponent: g.white, colour: 'black', points: gamePoints(g.result, 'black') });
        games.get(g.white)!.push({ ...base, opponent: g.black, colour: 'white', points: gamePoints(g.result, 'white') });
      }
  }
  return { games, byes };
}

/** Each player's points (games and byes), by seed. */
export function scores(s: TournamentState): Map<number, number> {
  const { games, byes } = gamesByPlayer(s);
  const bye = s.byePoints * gamesPerPairing(s);
  return new Map(s.players.map((p) => [p.seed, sum(games.get(p.seed)!.map((g) => g.points ?? 0)) + byes.get(p.seed)!.length * bye]));
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

export interface TieBreak {
  name: 'Sonneborn-Berger' | 'Buchholz' | 'Median Buchholz';
  value: number;
}

export interface Standing {
  /** 1 = first; players equal on points and every tie-break share a rank */
  rank: number;
  seed: number;
  name: string;
  club: string | null;
  withdrawn: boolean;
  points: number;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  byes: number;
  tieBreaks: TieBreak[];
}

/** The tie-breaks a tournament uses, in order. */
export const tieBreakNames = (s: TournamentState): TieBreak['name'][] =>
  s.system === 'round-robin' ? ['Sonneborn-Berger'] : ['Buchholz', 'Median Buchholz'];

function tieBreaksOf(s: TournamentState, own: PlayerGame[], score: Map<number, number>): TieBreak[] {
  if (s.system === 'round-robin')
    return [{ name: 'Sonneborn-Berger', value: sum(own.map((g) => (g.points ?? 0) * score.get(g.opponent)!)) }];
  // Once per pairing: a ballot pair's two games are one meeting.
  const met = own.filter((g) => g.game === 1).map((g) => score.get(g.opponent)!);
  const sorted = [...met].sort((a, b) => a - b);
  const median = sorted.length >= 3 ? sum(sorted.slice(1, -1)) : sum(sorted);
  return [
    { name: 'Buchholz', value: sum(met) },
    { name: 'Median Buchholz', value: median },
  ];
}

/** The standings, best first: points, then the tie-breaks, then seed. */
export function standings(s: TournamentState): Standing[] {
  const { games, byes } = gamesByPlayer(s);
  const score = scores(s);
  const rows = s.players.map((p) => {
    const own = games.get(p.seed)!;
    const done = own.filter((g) => g.points !== null);
    return {
      rank: 0,
      seed: p.seed,
      name: p.name,
      club: p.club,
      withdrawn: p.withdrawn,
      points: score.get(p.seed)!,
      played: done.length,
      won: done.filter((g) => g.points === 1).length,
      drawn: done.filter((g) => g.points === 0.5).length,
      lost: done.filter((g) => g.points === 0).length,
      byes: byes.get(p.seed)!.length,
      tieBreaks: tieBreaksOf(s, own, score),
    };
  });
  const keys = (r: Standing) => [r.points, ...r.tieBreaks.map((t) => t.value)];
  const cmp = (a: Standing, b: Standing) => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return 0;
  };
  rows.sort((a, b) => cmp(a, b) || a.seed - b.seed);
  rows.forEach((r, i) => (r.rank = i > 0 && cmp(rows[i - 1], r) === 0 ? rows[i - 1].rank : i + 1));
  return rows;
}

/** A number of points as people write them: "1½", "½", "2". */
export function pointsText(n: number): string {
  const whole = Math.floor(n);
  const half = n - whole >= 0.5;
  return half ? (whole ? `${whole}½` : '½') : String(whole);
}

/** The crosstable as rows of text: a header row, then one row per player in standing order; `points` writes a number of points. */
export interface CrosstableModel {
  caption: string;
  head: string[];
  rows: string[][];
  /** column of each row's name (a row header) */
  nameColumn: number;
}

/**
 * The crosstable: for a round robin, one column per opponent (by rank) with
 * the points scored against them (both meetings of a double round robin
 * added); for Swiss and lists, one column per round: the opponent's rank,
 * the colour of game 1 (B or W) and the points, e.g. "5B 1½", or "bye".
 */
export function crosstableModel(s: TournamentState, points: (n: number) => string): CrosstableModel {
  const table = standings(s);
  const rankOf = new Map(table.map((r) => [r.seed, r.rank]));
  const orderOf = new Map(table.map((r, i) => [r.seed, i + 1]));
  const { games, byes } = gamesByPlayer(s);
  const tb = tieBreakNames(s);
  const rr = s.system === 'round-robin';
  const middle = rr ? table.map((_, i) => String(i + 1)) : s.played.map((r) => `R${r.round}`);
  const head = ['No', 'Rank', 'Name', 'Club', ...middle, 'Points', 'Won', 'Drawn', 'Lost', ...tb];
  const rows = table.map((r, i) => {
    const own = games.get(r.seed)!;
    const cells = rr
      ? table.map((o) => {
          if (o.seed === r.seed) return 'x';
          const vs = own.filter((g) => g.opponent === o.seed && g.points !== null);
          return vs.length ? points(sum(vs.map((g) => g.points!))) : '';
        })
      : s.played.map((round) => {
          if (byes.get(r.seed)!.includes(round.round)) return 'bye';
          const vs = own.filter((g) => g.round === round.round);
          if (!vs.length) return '';
          const first = vs.find((g) => g.game === 1)!;
          const done = vs.filter((g) => g.points !== null);
          const pts = done.length ? ` ${points(sum(done.map((g) => g.points!)))}` : '';
          return `${orderOf.get(first.opponent)}${first.colour === 'black' ? 'B' : 'W'}${pts}`;
        });
    const name = r.withdrawn ? `${r.name} (withdrawn)` : r.name;
    const rank = String(rankOf.get(r.seed));
    return [String(i + 1), rank, name, r.club ?? '', ...cells, points(r.points), String(r.won), String(r.drawn), String(r.lost)].concat(
      r.tieBreaks.map((t) => points(t.value)),
    );
  });
  const after = s.played.length ? ` after round ${s.played.length}` : '';
  return { caption: `${s.name}: crosstable${after}`, head, rows, nameColumn: 2 };
}

/** One CSV field, quoted as RFC 4180 says when it holds a comma, a quote or a line break. */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Text a spreadsheet would run as a formula (starting =, +, -, @, tab or CR) gets a leading apostrophe, as OWASP advises for CSV exports. */
export const csvText = (v: string): string => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * The crosstable as CSV (CRLF line ends, RFC 4180); points as decimals
 * ("1.5"), tie-breaks to two places at most; names and clubs guarded
 * against formula injection (`csvText`).
 */
export function crosstableCsv(s: TournamentState): string {
  const m = crosstableModel(s, (n) => String(Math.round(n * 100) / 100));
  const text = new Set([m.nameColumn, m.head.indexOf('Club')]);
  const rows = m.rows.map((row) => row.map((v, i) => (text.has(i) ? csvText(v) : v)));
  return [m.head, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => ESC[c]);

/** The crosstable as an HTML fragment: a <table> with a caption, column headers and each player's name as the row header. */
export function crosstableHtml(s: TournamentState): string {
  const m = crosstableModel(s, (n) => (Number.isInteger(n * 2) ? pointsText(n) : n.toFixed(2)));
  const th = (scope: 'col' | 'row', v: string) => `<th scope="${scope}">${escapeHtml(v)}</th>`;
  const head = `<thead><tr>${m.head.map((h) => th('col', h)).join('')}</tr></thead>`;
  const body = m.rows
    .map((row) => `<tr>${row.map((v, i) => (i === m.nameColumn ? th('row', v) : `<td>${escapeHtml(v)}</td>`)).join('')}</tr>`)
    .join('\n');
  return `<table class="crosstable">\n<caption>${escapeHtml(m.caption)}</caption>\n${head}\n<tbody>\n${body}\n</tbody>\n</table>\n`;
}
