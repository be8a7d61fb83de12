// Endgame database by our own retrograde solver: every position with up to N
// pieces (both colours, men and kings, either side to move) is solved exactly
// — win or loss in d plies with best play, or a draw — by backing values up
// from the positions with no move, on a table of each position's successors.
// The 40-move rule and repetitions are not part of the value (a draw means
// neither side can force a win). Built on first use and cached on disk;
// `verify` checks every value against its successors.

import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { legalMoves, playMove, popcount, type Position } from '../rules/index.ts';

/** Value of a position for the side to move: > 0 win in (WIN_BASE − v) plies, < 0 loss in (WIN_BASE + v), 0 draw. */
export const WIN_BASE = 1000;

const BLACK_KING_ROW = 0xf0000000 | 0, WHITE_KING_ROW = 0x0000000f;

/** A code for a position of at most 3 pieces: each piece one byte (1 + square·4 + kind), ascending squares, and the turn. */
function codeOf(b: number, w: number, k: number, blackToMove: boolean): number {
  let code = 0;
  let all = b | w;
  while (all) {
    const i = 31 - Math.clz32(all & -all);
    all &= all - 1;
    const bit = 1 << i;
    const kind = ((b & bit) ? 0 : 2) + ((k & bit) ? 1 : 0);
    code = code * 256 + 1 + i * 4 + kind;
  }
  return code * 2 + (blackToMove ? 0 : 1);
}

export class Egdb {
  private readonly index = new Map<number, number>();
  readonly positions: Position[] = [];
  values: Int16Array = new Int16Array(0);
  buildMs = 0;

  constructor(readonly maxPieces: number) {
    if (maxPieces < 2 || maxPieces > 3) throw new RangeError('this database holds 2 or 3 pieces (4 needs a denser index than a Map)');
    // Enumerate: every placement of 1..N pieces (kinds: black man/king, white man/king), both sides to move.
    const place = (from: number, left: number, b: number, w: number, k: number): void => {
      if (b | w) for (const black of [true, false]) this.add({ black: b, white: w, kings: k, turn: black ? 'black' : 'white' });
      if (left === 0) return;
      for (let i = from; i < 32; i++) {
        const bit = 1 << i;
        for (let kind = 0; kind < 4; kind++) {
          const isBlack = kind < 2, king = (kind & 1) === 1;
          if (!king && (isBlack ? BLACK_KING_ROW : WHITE_KING_ROW) & bit) continue; // a man on its crowning row is a king
          place(i + 1, left - 1, isBlack ? b | bit : b, isBlack ? w : w | bit, king ? k | bit : k);
        }
      }
    };
    place(0, maxPieces, 0, 0, 0);
  }

  private add(p: Position): void {
    this.index.set(codeOf(p.black, p.white, p.kings, p.turn === 'black'), this.positions.length);
    this.positions.push(p);
  }

  get size(): number {
    return this.positions.length;
  }

  indexOf(p: Position): number {
    if (popcount(p.black | p.white) > this.maxPieces) return -1;
    return this.index.get(codeOf(p.black, p.white, p.kings, p.turn === 'black')) ?? -1;
  }

  /** Successor indices of every position, as one flat list with offsets. */
  private successors(): { start: Int32Array; next: Int32Array } {
    const start = new Int32Array(this.size + 1);
    const list: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const p = this.positions[i]!;
      start[i] = list.length;
      for (const m of legalMoves(p)) list.push(this.indexOf(playMove(p, m)));
    }
    start[this.size] = list.length;
    return { start, next: Int32Array.from(list) };
  }

  /** Solves every position (a few seconds for 3 pieces). */
  solve(): void {
    const t0 = performance.now();
    const { start, next } = this.successors();
    const v = new Int16Array(this.size);
    // Ply 0: no move is a loss now.
    for (let i = 0; i < this.size; i++) if (start[i] === start[i + 1]) v[i] = -WIN_BASE;
    for (let d = 1; ; d++) {
      let changed = 0;
      const fresh: [number, number][] = [];
      for (let i = 0; i < this.size; i++) {
        if (v[i] !== 0) continue;
        let win = false, allWins = true;
        for (let j = start[i]!; j < start[i + 1]!; j++) {
          const c = v[next[j]!]!;
          if (c === -(WIN_BASE - (d - 1))) win = true; // a successor lost in d−1: we win in d
          if (c <= 0) allWins = false;
        }
        if (win) fresh.push([i, WIN_BASE - d]);
        else if (allWins) fresh.push([i, -(WIN_BASE - d)]); // every move loses; the longest defence decided this ply at the latest
      }
      // Losses: all successors won, longest one exactly d−1 (shorter ones were found at earlier plies).
      for (const [i, val] of fresh) {
        if (val < 0) {
          let longest = 0;
          for (let j = start[i]!; j < start[i + 1]!; j++) longest = Math.max(longest, WIN_BASE - v[next[j]!]!);
          if (longest !== d - 1) continue;
        }
        v[i] = val;
        changed++;
      }
      if (changed === 0 && d > 2) {
        // Nothing new at this ply; any later change needs a loss at d−1 or a longest win at d−1, none exist.
        break;
      }
    }
    this.values = v;
    this.buildMs = performance.now() - t0;
  }

  /** Exact value for the side to move, or null when the position has too many pieces. */
  probe(p: Position): number | null {
    const i = this.indexOf(p);
    return i < 0 ? null : this.values[i]!;
  }

  /** Every value agrees with its successors (the retrograde solution is a fixed point). Returns the disagreements found. */
  verify(): string[] {
    const bad: string[] = [];
    for (let i = 0; i < this.size && bad.length < 10; i++) {
      const p = this.positions[i]!;
      const kids = legalMoves(p).map((m) => this.values[this.indexOf(playMove(p, m))]!);
      const val = this.values[i]!;
      let want: number;
      if (kids.length === 0) want = -WIN_BASE;
      else {
        const losses = kids.filter((c) => c < 0);
        if (losses.length) want = WIN_BASE - (1 + Math.min(...losses.map((c) => WIN_BASE + c)));
        else if (kids.every((c) => c > 0)) want = -(WIN_BASE - (1 + Math.max(...kids.map((c) => WIN_BASE - c))));
        else want = 0;
      }
      if (want !== val) bad.push(`position ${i}: value ${val}, successors say ${want}`);
    }
    return bad;
  }

  /** Loads the cached values from dir, or solves and writes them (atomically). The cache is checked against the successors. */
  static load(maxPieces: number, dir: string): Egdb {
    const db = new Egdb(maxPieces);
    const file = join(dir, `egdb-${maxPieces}.bin`);
    if (existsSync(file)) {
      const buf = readFileSync(file);
      if (buf.length === db.size * 2) {
        db.values = new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
        if (db.verify().length === 0) return db;
      }
    }
    db.solve();
    mkdirSync(dir, { recursive: true });
    writeFileSync(file + '.tmp', Buffer.from(db.values.buffer));
    renameSync(file + '.tmp', file);
    return db;
  }
}

/** Where the database is cached: $CROWNHEAD_CACHE, else $XDG_CACHE_HOME/crownhead, else ~/.cache/crownhead. */
export function defaultCacheDir(): string {
  if (process.env.CROWNHEAD_CACHE) return process.env.CROWNHEAD_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crownhead');
}
