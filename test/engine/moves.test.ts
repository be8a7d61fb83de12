import { describe, expect, it } from 'vitest';
import { generate, keyNumber, MoveStack, mFrom, mTo, mCrowned, zobrist } from '../../src/engine/moves.ts';
import { BALLOTS, Game, hashKey, hashPosition, legalMoves, parseFen, playMove, type Move, type Position } from '../../src/rules/index.ts';
import { seededRandom } from '../../src/engine/index.ts';
import { unwrap } from '../../src/common/result.ts';

// The search's generator against the rules core: the same moves (equal routes of a king once), the same keys.
const capMask = (m: Move): number => m.captures.reduce((c, s) => c | (1 << (s - 1)), 0);
const rulesSet = (pos: Position): string[] =>
  [...new Set(legalMoves(pos).map((m) => `${m.from - 1}-${m.to - 1}:${capMask(m)}:${m.crowned}`))].sort();
function ownSet(pos: Position): string[] {
  const st = new MoveStack();
  const n = generate(st, 100, pos.black, pos.white, pos.kings, pos.turn === 'black');
  const out: string[] = [];
  for (let i = 100; i < n; i++) out.push(`${mFrom(st.move[i]!)}-${mTo(st.move[i]!)}:${st.cap[i]}:${mCrowned(st.move[i]!)}`);
  expect(new Set(out).size).toBe(out.length); // no duplicates
  return out.sort();
}
function sameKey(pos: Position): void {
  const out = new Int32Array(2);
  zobrist(pos.black, pos.white, pos.kings, pos.turn === 'black', out);
  expect(keyNumber(out[0]!, out[1]!)).toBe(hashKey(hashPosition(pos)));
}

describe('the search move generator agrees with the rules', () => {
  it('over random games from ballots (men, kings, multi-jumps, crowning)', () => {
    const random = seededRandom(11);
    let positions = 0,
      withKings = 0,
      multiJumps = 0;
    for (let g = 0; g < 100; g++) {
      let pos = Game.fromBallot(BALLOTS[(g * 7) % BALLOTS.length]!.number).game.position;
      for (let ply = 0; ply < 200; ply++) {
        expect(ownSet(pos)).toEqual(rulesSet(pos));
        sameKey(pos);
        positions++;
        const legal = legalMoves(pos);
        if (pos.kings) withKings++;
        if (legal.some((m) => m.captures.length > 1)) multiJumps++;
        if (!legal.length) break;
        pos = playMove(pos, legal[Math.floor(random() * legal.length)]!);
      }
    }
    expect(positions).toBeGreaterThan(6000);
    expect(withKings).toBeGreaterThan(1000);
    expect(multiJumps).toBeGreaterThan(50);
  });

  it('a king that captures round a loop back to its own square; two routes over the same men are one move', () => {
    const loop = unwrap(parseFen('W:WK10:B14,15,22,23')); // 10x19x26x17x10 (either way round)
    expect(ownSet(loop)).toEqual(rulesSet(loop));
    expect(ownSet(loop).some((m) => m.startsWith('9-9:'))).toBe(true);
    expect(legalMoves(loop).length).toBeGreaterThan(ownSet(loop).length);
  });

  it('a man crowned by a capture ends its move there', () => {
    const pos = unwrap(parseFen('B:W27,19:B23'));
    expect(ownSet(pos)).toEqual(rulesSet(pos));
    expect(ownSet(pos)).toEqual([`22-31:${1 << 26}:true`]);
  });
});
