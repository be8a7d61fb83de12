// The board's arrow keys: which dark square, as drawn (flipped or not), an
// arrow key reaches from a square. Pure; main.ts moves the board's one tab
// stop (a roving tabindex) there.

import { squareXY } from './model.ts';

/** The square an arrow key reaches from `from` as the board is drawn: up/down diagonally, left/right along the row (else diagonally); undefined at the edge. */
export function arrowTarget(from: number, key: string, flipped: boolean): number | undefined {
  const p = squareXY(from, flipped);
  const at = new Map<string, number>();
  for (let s = 1; s <= 32; s++) {
    const q = squareXY(s, flipped);
    at.set(`${q.x},${q.y}`, s);
  }
  const tries: [number, number][] =
    key === 'ArrowUp'
      ? [
          [1, -1],
          [-1, -1],
        ]
      : key === 'ArrowDown'
        ? [
            [-1, 1],
            [1, 1],
          ]
        : key === 'ArrowLeft'
          ? [
              [-2, 0],
              [-1, -1],
              [-1, 1],
            ]
          : [
              [2, 0],
              [1, 1],
              [1, -1],
            ];
  for (const [dx, dy] of tries) {
    const s = at.get(`${p.x + dx},${p.y + dy}`);
    if (s) return s;
  }
  return undefined;
}
