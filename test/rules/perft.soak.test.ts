// Perft from the start position at depths 9 and 10 (seconds each, so in the
// soak tier); depths 1–8 are in perft.test.ts.
import { describe, expect, it } from 'vitest';
import { START, perft } from '../../src/rules/index.ts';

// Aart Bik / OEIS A133046: a multi-jump is one move, a king's duplicate routes count separately.
const DEEP_PERFT: [depth: number, nodes: number][] = [
  [9, 3963680],
  [10, 18391564],
];

describe('perft from the start position, deep', () => {
  it.each(DEEP_PERFT)('depth %i = %i', (depth, nodes) => {
    expect(perft(START, depth)).toBe(nodes);
  });
});
