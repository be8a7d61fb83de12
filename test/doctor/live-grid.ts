// Reading `crownhead doctor --live`'s output back: the value the last grid
// printed beside a square (ANSI redraw codes stripped).
import { boardCell } from '../../src/doctor/live.ts';

/** The value the grid shows beside square `sq` (the last grid among `lines`). */
export function shown(lines: readonly string[], sq: number): number {
  const grid = lines.filter((l) => /^(\x1b\[[^a-zA-Z]*[a-zA-Z])*\s*(·|\d+:)/.test(l)).slice(-8);
  const row = grid[boardCell(sq)[0]].replace(/\x1b\[[^a-zA-Z]*[a-zA-Z]/g, '');
  const m = new RegExp(`(?:^|\\s)${sq}:\\s*(\\d+)`).exec(row);
  if (!m) throw new Error(`square ${sq} not in "${row}"`);
  return Number(m[1]);
}
