// An independent solver for kings-only endings (up to 3 kings), written apart
// from src/rules and src/engine on purpose: board coordinates instead of
// bitboards, a plain "repeat until nothing changes" win/loss propagation
// instead of ply-by-ply retrograde analysis. The endgame database's values
// are checked against it (test/engine/egdb.test.ts).

/** Square 1–32 → [row, col] on the 8×8 board (square 1 at row 0, col 1; the single corners are 4 and 29). */
const rc = (s: number): [number, number] => {
  const r = Math.floor((s - 1) / 4),
    i = (s - 1) % 4;
  return [r, r % 2 === 0 ? 2 * i + 1 : 2 * i];
};
const sq = (r: number, c: number): number => (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 === 0 ? 0 : r * 4 + Math.floor(c / 2) + 1);
const DIRS: [number, number][] = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];

/** A kings-only position: the side to move's kings and the other side's kings (square numbers). */
export interface KPos {
  readonly mine: readonly number[];
  readonly theirs: readonly number[];
}

/** Every successor, seen from the new side to move (captures compulsory, jumps continue). */
export function successors(p: KPos): KPos[] {
  const out: KPos[] = [];
  const occupied = (s: number, mine: readonly number[], theirs: readonly number[]) => mine.includes(s) || theirs.includes(s);
  const jump = (from: number, mine: number[], theirs: number[]): boolean => {
    const [r, c] = rc(from);
    let found = false;
    for (const [dr, dc] of DIRS) {
      const over = sq(r + dr, c + dc),
        to = sq(r + 2 * dr, c + 2 * dc);
      if (!over || !to || !theirs.includes(over) || occupied(to, mine, theirs)) continue;
      found = true;
      const m2 = mine.map((x) => (x === from ? to : x)),
        t2 = theirs.filter((x) => x !== over);
      if (!jump(to, m2, t2)) out.push({ mine: t2, theirs: m2 });
    }
    return found;
  };
  for (const k of p.mine) jump(k, [...p.mine], [...p.theirs]);
  if (out.length) return out;
  for (const k of p.mine) {
    const [r, c] = rc(k);
    for (const [dr, dc] of DIRS) {
      const to = sq(r + dr, c + dc);
      if (to && !occupied(to, p.mine, p.theirs)) out.push({ mine: [...p.theirs], theirs: p.mine.map((x) => (x === k ? to : x)) });
    }
  }
  return out;
}

const keyOf = (p: KPos): string => `${[...p.mine].sort((a, b) => a - b).join(',')}/${[...p.theirs].sort((a, b) => a - b).join(',')}`;

/** Win (1), loss (−1) or draw (0) for the side to move, for every kings-only position of 2 and 3 kings with both sides present. */
export function solveKings(): Map<string, number> {
  const all: KPos[] = [];
  for (let a = 1; a <= 32; a++)
    for (let b = 1; b <= 32; b++) {
      if (b === a) continue;
      all.push({ mine: [a], theirs: [b] });
      for (let c = b + 1; c <= 32; c++)
        if (c !== a) {
          all.push({ mine: [a], theirs: [b, c] });
          all.push({ mine: [b, c], theirs: [a] });
        }
    }
  const val = new Map<string, number>(all.map((p) => [keyOf(p), 0]));
  const kids = all.map((p) => successors(p).map(keyOf));
  for (let changed = true; changed;) {
    changed = false;
    all.forEach((p, i) => {
      const k = keyOf(p);
      if (val.get(k) !== 0) return;
      const vs = kids[i]!.map((c) => (c.startsWith('/') ? -1 : val.get(c)!)); // no kings left to move: that side has lost
      const v = vs.length === 0 || vs.every((x) => x === 1) ? -1 : vs.some((x) => x === -1) ? 1 : 0;
      if (v !== 0) {
        val.set(k, v);
        changed = true;
      }
    });
  }
  return val;
}
export { keyOf as kingsKey };

const capturesNow = (p: KPos): boolean => successors(p).some((s) => s.mine.length + s.theirs.length < p.mine.length + p.theirs.length);

/** Does the lone king (the side with one king) win one of the two kings by force within `moves` of its own moves? */
export function loneKingWinsAKing(p: KPos, loneToMove: boolean, moves: number): boolean {
  if (loneToMove) return capturesNow(p) || (moves > 0 && successors(p).some((s) => loneKingWinsAKing(s, false, moves - 1)));
  const next = successors(p);
  return !capturesNow(p) && next.length > 0 && next.every((s) => loneKingWinsAKing(s, true, moves));
}
