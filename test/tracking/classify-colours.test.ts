// classify's takeback on a polarity-coded board: the counts of the position
// before the last move are a takeback only if the squares the move changed do
// not read clearly the other side's colour (a confident wrong colour refuses
// it, an unsure reading does not; a board glued the old way has no colours).
// Boards written out by hand, colours as bitboards, no sensors and no time.
import { describe, expect, it } from 'vitest';
import { Game, parseFen, type Move, type Position } from '../../src/rules/index.ts';
import { countsOf, outcomes, type Counts } from '../../src/tracking/boards.ts';
import { classify, type ColoursRead, type Situation } from '../../src/tracking/classify.ts';
import { unwrap } from '../../src/common/result.ts';

const find = (pos: Position, from: number, to: number): Move => {
  const m = new Game(pos).legalMoves().find((x) => x.from === from && x.to === to);
  if (!m) throw new Error(`${from}-${to} not legal`);
  return m;
};

function situation(g: Game, colours?: ColoursRead | null, opponentStarted = false): Situation {
  const ply = g.plies.at(-1)!;
  return {
    counts: countsOf(g.position),
    outs: outcomes(g.position, g.options),
    last: {
      before: ply.before,
      counts: countsOf(ply.before),
      outs: outcomes(ply.before, g.options),
      move: ply.move,
      opponentStarted,
    },
    crown: null,
    huffs: [],
    placements: [],
    colours,
    options: g.options,
  };
}

const bits = (...sqs: number[]) => sqs.reduce((m, s) => m | (1 << (s - 1)), 0);

/** Every coin of `pos` read clearly its own side's colour (a man a full step, a king a stack), but for the `as` squares. */
function coloursOf(pos: Position, as: { black?: number[]; white?: number[]; unsure?: number[] } = {}): ColoursRead {
  const moved = bits(...(as.black ?? []), ...(as.white ?? []), ...(as.unsure ?? []));
  const black = (pos.black & ~moved) | bits(...(as.black ?? []));
  const white = (pos.white & ~moved) | bits(...(as.white ?? []));
  return { black, white, blackKing: black & pos.kings, whiteKing: white & pos.kings };
}

describe('classify: a takeback on a polarity-coded board', () => {
  // White plays 19-16; Black's answer 12x19 read with the man on 12 still counted (the stop-43 board:
  // the counts of the position before 19-16, the coin on 19 Black's jumper).
  const g = new Game(unwrap(parseFen('W:W19,28:B12,1')));
  const before = g.position;
  g.play(find(g.position, 19, 16));
  const read: Counts = countsOf(before);

  it('"19-16 taken back": refused by the coin on 19 reading clearly Black, not by an unsure reading; no colours, the counts alone', () => {
    const black19 = coloursOf(before, { black: [19] });
    // Nothing legal explains the board (the player is told what is wrong), Black's answer seen
    // started or not: not White part-way through another move either (nothing of White's is lifted).
    expect(classify([read], situation(g, black19, true)).verdict).toEqual({ kind: 'illegal' });
    expect(classify([read], situation(g, black19)).verdict).toEqual({ kind: 'illegal' });
    // About half a step either way (a coin upside down), or no side at all: never a refusal.
    expect(classify([read], situation(g, coloursOf(before, { unsure: [19] }), true)).verdict).toEqual({ kind: 'takeback' });
    // White's man read back on 19.
    expect(classify([read], situation(g, coloursOf(before), true)).verdict).toEqual({ kind: 'takeback' });
    // A board glued the old way (no colours): unchanged.
    for (const none of [null, undefined]) {
      expect(classify([read], situation(g, none, true)).verdict).toEqual({ kind: 'takeback' });
      expect(classify([read], situation(g, none)).verdict).toEqual({ kind: 'takeback' });
    }
  });

  it("a capture taken back: a captured man put back must read as his side's", () => {
    const c = new Game(unwrap(parseFen('B:W16,28:B12,1')));
    const pos = c.position;
    c.play(find(c.position, 12, 19));
    const back = countsOf(pos);
    expect(classify([back], situation(c, coloursOf(pos))).verdict).toEqual({ kind: 'takeback' });
    expect(classify([back], situation(c, coloursOf(pos, { black: [16] }))).verdict.kind).not.toBe('takeback');
    expect(classify([back], situation(c, coloursOf(pos, { unsure: [16] }))).verdict).toEqual({ kind: 'takeback' });
  });

  it("a king taken back: crowned with the opponent's coin (less than a stack of theirs) is no refusal, a stack of theirs is", () => {
    const k = new Game(unwrap(parseFen('W:WK14,30:B1,5')));
    const pos = k.position;
    k.play(find(k.position, 14, 10));
    const back = countsOf(pos);
    // A White king whose crown is a Black coin under the man: a full step on Black's side, not a stack's worth.
    const mixed = coloursOf(pos, { black: [14] });
    expect(classify([back], situation(k, { ...mixed, blackKing: mixed.blackKing & ~bits(14) })).verdict).toEqual({ kind: 'takeback' });
    expect(classify([back], situation(k, { ...mixed, blackKing: mixed.blackKing | bits(14) })).verdict.kind).not.toBe('takeback');
  });
});
