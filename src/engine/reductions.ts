// How much shallower the search looks at a late quiet move off the principal
// line (late-move reductions), by the node's depth and the move's place in the
// order: a log·log table, as the chess engines have it, computed once; and the
// bound of the quiet moves' history (butterfly, by from and to, with gravity:
// a bonus or malus shrinks as the value nears the bound) and how much of it
// buys back or costs a ply of reduction. Pure tables and numbers: search.ts
// applies them.

/** Depths and move places the table covers (deeper or later reads the last row or column). */
export const LMR_SIZE = 64;
/** The reduction (plies) at depth d (row) for the move searched i-th (column, 0 first). */
export const LMR = new Uint8Array(LMR_SIZE * LMR_SIZE);
for (let d = 1; d < LMR_SIZE; d++)
  for (let i = 1; i < LMR_SIZE; i++) LMR[d * LMR_SIZE + i] = Math.max(0, Math.floor(0.25 + (Math.log(d) * Math.log(i + 1)) / 1.5));

/** The history's bound: a quiet move's value stays within ±HIST_MAX. */
export const HIST_MAX = 1 << 14;
/** History worth one ply less (above +HIST_PLY) or more (below −HIST_PLY) of reduction. */
export const HIST_PLY = 6000;
