// A problem's stated solution, as the tactics test and the engine bench judge
// an answer: the stated first move, or the same shot in another order — the
// answer's line and the book's stand on the same position after 4 plies.
import { playMove, samePosition, sameResult, type Move, type Position } from '../../src/rules/index.ts';

/** Does `pv` (an engine's line from `start`) play the solution `line` (the book's moves)? */
export function playsSolution(start: Position, pv: readonly Move[], line: readonly { readonly move: Move }[]): boolean {
  if (pv.length > 0 && line.length > 0 && sameResult(pv[0]!, line[0]!.move)) return true;
  if (pv.length < 4 || line.length < 4) return false;
  let a = start,
    b = start;
  for (let i = 0; i < 4; i++) [a, b] = [playMove(a, pv[i]!), playMove(b, line[i]!.move)];
  return samePosition(a, b);
}
