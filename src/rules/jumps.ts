// Jump sequences: a table-driven depth-first search over one piece's captures
// (every complete sequence, crowning ending the move unless the variant says
// go on), reporting each to a sink. Shared by move generation and perft;
// internal to src/rules (not exported from the index).

import { JUMP_LAND, NEIGHBOUR } from './squares.ts';

export const FORWARD_BLACK = [2, 3]; // DL, DR
export const FORWARD_WHITE = [0, 1]; // UL, UR
export const ALL_DIRS = [0, 1, 2, 3];

export type JumpSink = (
  fromIdx: number,
  toIdx: number,
  capMask: number,
  crowned: boolean,
  path: Int8Array,
  caps: Int8Array,
  len: number,
) => void;

export class JumpSearch {
  readonly path = new Int8Array(32);
  readonly caps = new Int8Array(32);
  opp = 0;
  empty = 0;
  kingRow = 0;
  black = true;
  crownContinue = false;
  from = 0;
  sink: JumpSink = () => {};

  /** Searches every complete jump sequence of the piece at `from`; returns how many were reported. */
  run(from: number, king: boolean): number {
    this.from = from;
    return this.dfs(from, king, 0, 0, false);
  }

  private dfs(sq: number, king: boolean, capMask: number, len: number, crowned: boolean): number {
    const dirs = king ? ALL_DIRS : this.black ? FORWARD_BLACK : FORWARD_WHITE;
    let found = 0;
    for (let k = 0; k < dirs.length; k++) {
      const d = dirs[k];
      const land = JUMP_LAND[sq * 4 + d];
      if (land < 0) continue;
      const over = NEIGHBOUR[sq * 4 + d];
      const overBit = 1 << over;
      if ((this.opp & overBit) === 0 || (capMask & overBit) !== 0 || (this.empty & (1 << land)) === 0) continue;
      this.path[len] = land;
      this.caps[len] = over;
      const caps = capMask | overBit;
      if (!king && (this.kingRow & (1 << land)) !== 0) {
        // A man reaches the far row: crowned, and the move ends (unless the variant says go on).
        const more = this.crownContinue ? this.dfs(land, true, caps, len + 1, true) : 0;
        if (more === 0) this.sink(this.from, land, caps, true, this.path, this.caps, len + 1);
        found += more === 0 ? 1 : more;
      } else {
        const more = this.dfs(land, king, caps, len + 1, crowned);
        if (more === 0) this.sink(this.from, land, caps, crowned, this.path, this.caps, len + 1);
        found += more === 0 ? 1 : more;
      }
    }
    return found;
  }
}
