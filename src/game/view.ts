// The view of the game at the table: what pages, the PDN file and the voice
// are given. The snapshot's game part, move records, pieces, the PDN record
// and every sentence about the game (moves, outcomes, ballots, set-up) — pure
// functions of the table's state (TableState, which table.ts keeps); the
// session adds the board's, the coach's and the calibration's parts.

import { correctionComment } from './corrections.ts';
import {
  BALLOTS,
  START,
  legalMoves,
  makeFen,
  moveText,
  opposite,
  sameBoard,
  sideName,
  type Color,
  type GameOptions,
  type Move,
  type Outcome,
  type Ply,
  type Position,
  type ReadonlyGame,
} from '../rules/index.ts';
import { pdnFromGame, type PdnGame, type PdnResult } from '../pdn/index.ts';
import type { BoardTracking } from '../tracking/board-tracking.ts';
import { timeControlTag, type GameClock, type TimeControl } from './clock.ts';
import type { AnalysisMark, CorrectionNote, MoveRecord, Piece } from '../model/game.ts';
import type { Snapshot } from '../protocol/v1.ts';
import { joinWords, piecesSentence } from '../words/index.ts';

/** What the view reads of the game at the table (GameTable keeps it). */
export interface TableState {
  readonly game: ReadonlyGame;
  readonly gameId: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly ballot: number | null;
  readonly clock: GameClock | null;
  readonly drawOffer: Color | null;
  /** The result written in the record (an outcome, or a result set by hand). */
  readonly result: PdnResult;
  /** This game's time control (null: no clocks). */
  readonly timeControl: TimeControl | null;
  /** The mover's time left after each ply, with a time control. */
  readonly plyClocks: WeakMap<Ply, number>;
  /** Move records by ply, derived once per ply object (a replaced or taken-back ply simply drops out). */
  readonly records: WeakMap<Ply, MoveRecord>;
  /** The arbiter's corrections, oldest first. */
  readonly corrections: readonly CorrectionNote[];
}

// ---------------------------------------------------------------- records

/** The pieces of a position, by square. */
export function piecesOf(pos: Position): Piece[] {
  const pieces: Piece[] = [];
  for (let s = 1; s <= 32; s++) {
    const b = 1 << (s - 1);
    if ((pos.black | pos.white) & b) pieces.push({ square: s, color: pos.black & b ? 'black' : 'white', king: (pos.kings & b) !== 0 });
  }
  return pieces;
}

/** The record of one move: number from its ply index and who moved first (one numbering for every list). */
export function moveRecord(
  move: Move,
  before: Position,
  ply: number,
  firstTurn: Color,
  options: GameOptions,
  huff: number | null,
): MoveRecord {
  return {
    ply,
    number: Math.floor((ply + (firstTurn === 'white' ? 1 : 0)) / 2) + 1,
    side: before.turn,
    text: moveText(move, legalMoves(before, options)),
    from: move.from,
    to: move.to,
    path: [...move.path],
    captures: [...move.captures],
    crowned: move.crowned,
    huff,
    clock: null,
  };
}

/** The record of ply `index` of the game (derived from the ply; cached per ply in the table's records). */
export function recordAt(t: TableState, index: number): MoveRecord {
  const ply = t.game.plies[index];
  let rec = t.records.get(ply);
  if (!rec) {
    rec = moveRecord(ply.move, ply.before, index, t.game.start.turn, t.game.options, ply.huff ?? null);
    t.records.set(ply, rec);
  }
  const clock = t.plyClocks.get(ply);
  return clock === undefined ? rec : { ...rec, clock };
}

/** Every move of the game, in order. */
export function moveRecords(t: TableState): MoveRecord[] {
  return t.game.plies.map((_, k) => recordAt(t, k));
}

// ---------------------------------------------------------------- the PDN record

const TAG_ORDER = ['Event', 'Site', 'Date', 'Round', 'Black', 'White'];

/** The game's PDN record: tags in the usual order, the time control and how the game ended, {[%clk]} after each move. */
export function pdnRecord(t: TableState): PdnGame {
  const tags: [string, string][] = Object.entries(t.tags).sort(([a], [b]) => {
    const ia = TAG_ORDER.indexOf(a),
      ib = TAG_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  if (t.timeControl) {
    const k = tags.findIndex(([n]) => n === 'TimeControl');
    const v = timeControlTag(t.timeControl);
    if (k >= 0) tags[k] = ['TimeControl', v];
    else tags.push(['TimeControl', v]);
  }
  const o = t.game.outcome;
  if (o && !tags.some(([n]) => n === 'Termination')) {
    const perMove = o.reason === 'time' && t.timeControl?.kind === 'per-move' ? t.timeControl : null;
    tags.push(['Termination', terminationOf(o) + (perMove ? ` (no move within ${graceWords(perMove.graceMs)} of "time")` : '')]);
  }
  // Per-move clock times, as electronic boards record them: {[%clk 0:04:57]} after each move.
  const comments = new Map<number, string[]>();
  t.game.plies.forEach((ply, k) => {
    const ms = t.plyClocks.get(ply);
    if (ms !== undefined) comments.set(k, [`[%clk ${clkText(ms)}]`]);
  });
  // The arbiter's corrections close the record, one comment each (who, when, what, why).
  return pdnFromGame(t.game, { tags, result: t.result, comments, trailing: t.corrections.map(correctionComment) });
}

/** The record with the analysis' ?/?? and better moves as comments (null: not analysed, the record as it is). */
export function annotated(record: PdnGame, marks: readonly AnalysisMark[] | null): PdnGame {
  for (const m of marks ?? []) {
    const node = record.moves[m.ply];
    if (node) record.moves[m.ply] = { ...node, strength: m.mark, after: [...node.after, m.comment] };
  }
  return record;
}

// ---------------------------------------------------------------- the snapshot

/** The board's part of the snapshot: what the tracker sees and the source's connection. */
export interface BoardState {
  readonly tracker: BoardTracking;
  readonly connected: boolean;
  readonly source: string;
  readonly detail: string;
}

/** The snapshot's parts the coach and the calibration routine add. */
export type SnapshotExtras = 'calibration' | 'computer' | 'analysis' | 'evaluation';

/** The snapshot of the game at the table and the board (without the coach's and the calibration's parts). */
export function tableSnapshot(t: TableState, board: BoardState, tournament: boolean, now: number): Omit<Snapshot, SnapshotExtras> {
  const g = t.game,
    pos = g.position;
  const r = board.tracker.view;
  return {
    version: 1,
    gameId: t.gameId,
    tags: { ...t.tags },
    options: {
      huffing: !!g.options.huffing,
      crownContinue: !!g.options.crownContinue,
      autoDraw: !!g.options.autoDraw,
      tournament,
      firstPlayer: g.start.turn,
    },
    ballot: t.ballot,
    startFen: makeFen(g.start),
    start: piecesOf(g.start),
    fen: makeFen(pos),
    pieces: piecesOf(pos),
    turn: pos.turn,
    moves: moveRecords(t),
    status: board.tracker.boardStatus,
    board: {
      counts: Array.from(r.counts),
      confidence: Array.from(r.confidence, (c) => Math.round(c * 100) / 100),
      calibrated: r.calibrated,
      differences: board.tracker.differences(),
      connected: board.connected,
      source: board.source,
      detail: board.detail,
    },
    result: t.result,
    outcome: g.outcome,
    drawOffer: t.drawOffer,
    drawClaim: g.outcome ? null : g.drawClaim(),
    clock: t.clock ? t.clock.state(now) : null,
    ...(t.corrections.length ? { corrections: [...t.corrections] } : {}),
  };
}

// ---------------------------------------------------------------- words

export function describeOutcome(o: Outcome): string {
  const w = o.winner ? sideName(o.winner) : null;
  switch (o.reason) {
    case 'no-moves':
      return `${w} wins: ${sideName(opposite(o.winner!))} has no legal move.`;
    case 'resignation':
      return `${w} wins: ${sideName(opposite(o.winner!))} resigned.`;
    case 'time':
      return `${w} wins on time.`;
    case 'agreement':
      return 'Draw by agreement.';
    case 'repetition':
      return 'Draw by threefold repetition.';
    case 'forty-move':
      return 'Draw by the 40-move rule.';
    case 'arbiter':
      return o.winner ? `${w} wins: the arbiter's decision.` : "Draw: the arbiter's decision.";
  }
}

/** The PDN Termination value for an outcome (how the game ended). */
export function terminationOf(o: Outcome): string {
  switch (o.reason) {
    case 'no-moves':
      return `${sideName(opposite(o.winner!))} has no legal move`;
    case 'resignation':
      return `${sideName(opposite(o.winner!))} resigned`;
    case 'time':
      return `${sideName(opposite(o.winner!))} lost on time`;
    case 'agreement':
      return 'draw by agreement';
    case 'repetition':
      return 'draw by threefold repetition';
    case 'forty-move':
      return 'draw by the 40-move rule';
    case 'arbiter':
      return o.winner ? `${sideName(o.winner)} wins by the arbiter's decision` : "draw by the arbiter's decision";
  }
}

/** A grace period in words: "30 seconds", "a minute", "2 minutes". */
export function graceWords(ms: number): string {
  const s = Math.round(ms / 1000);
  return s % 60 === 0 ? (s === 60 ? 'a minute' : `${s / 60} minutes`) : `${s} seconds`;
}

/** An eleven-man ballot's set-up from the start position: which coins come off, which go on. */
export function elevenManSetup(p: Position): string {
  const off = (side: Color, start: number, now: number) => {
    const sq: number[] = [];
    for (let i = 0; i < 32; i++) if ((start >>> i) & 1 && !((now >>> i) & 1)) sq.push(i + 1);
    return sq.length ? `${sideName(side)}'s ${sq.length === 1 ? 'man' : 'men'} off ${joinWords(sq.map(String))}` : '';
  };
  const on: string[] = [];
  for (let i = 0; i < 32; i++) {
    if ((p.black >>> i) & 1 && !((START.black >>> i) & 1)) on.push(`a black man on ${i + 1}`);
    if ((p.white >>> i) & 1 && !((START.white >>> i) & 1)) on.push(`a white man on ${i + 1}`);
  }
  const take = [off('black', START.black, p.black), off('white', START.white, p.white)].filter(Boolean);
  return `from the start position take ${joinWords(take)}${on.length ? `, and put ${joinWords(on)}` : ''}.`;
}

/** "0:04:57" for %clk. */
export function clkText(ms: number): string {
  const t = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(t / 3600)}:${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
}

/** Time left as a player says it: "3:59", "1:02:05" (whole seconds, rounded up as a clock shows them). */
export function clockWords(ms: number): string {
  const t = Math.ceil(Math.max(0, ms) / 1000);
  const [h, m, sec] = [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** How a move is spoken: "Black, 11 to 15", "White takes, 22 jumps to 15". */
export function speakMove(m: MoveRecord): string {
  const route = m.captures.length ? `${m.from} takes ${m.path.join(', then ')}` : `${m.from} to ${m.to}`;
  return `${sideName(m.side)}, ${route}${m.crowned ? ', crowned' : ''}.`;
}

/** What a new game's announcement says about its start: the ballot, or the eleven-man ballot's set-up. */
export function openingWords(
  game: ReadonlyGame,
  tags: Readonly<Record<string, string>>,
  ballot: number | null,
  eleven: number | null,
): string {
  if (ballot !== null)
    return `Ballot ${(tags.Ballot ?? `ACF ${ballot} ${BALLOTS.find((b) => b.number === ballot)?.name ?? ''}`.trim()).replace(/^ACF /, '')}. `;
  return eleven !== null ? `Eleven-man ballot ${eleven}: ${elevenManSetup(game.start)} ` : '';
}

/** What to do with the pieces for a new position. */
export function setupSentence(game: ReadonlyGame): string {
  return sameBoard(game.position, START) ? 'Set up the pieces.' : 'Set up the position shown.';
}

/** For a set-up position before its first move on a set that cannot show colours: "Check the colours: black men on …; white … ". */
export function colourCheck(game: ReadonlyGame, coded: boolean): string {
  // (A polarity-coded set had every coin's colour checked before it was ready.)
  if (coded || game.plies.length > 0 || sameBoard(game.start, START)) return '';
  const pieces = piecesOf(game.position);
  return `Check the colours: ${piecesSentence(pieces, 'black')}; ${piecesSentence(pieces, 'white')}. `;
}
