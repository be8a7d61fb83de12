// classify on plain counts: every verdict, from boards written out by hand
// (coins per square) against positions, with no sensors and no time.
import { describe, expect, it } from 'vitest';
import { Game, parseFen, playMove, type Move, type Position } from '../../src/rules/index.ts';
import { countsOf, outcomes, type Counts } from '../../src/tracking/boards.ts';
import { classify, type Situation } from '../../src/tracking/classify.ts';
import { unwrap } from '../../src/common/result.ts';

const find = (pos: Position, from: number, to: number, huffing = false): Move => {
  const m = new Game(pos, { huffing }).legalMoves().find((x) => x.from === from && x.to === to);
  if (!m) throw new Error(`${from}-${to} not legal`);
  return m;
};

/** The situation of a game: position, legal results, the last move (changeable), a crown awaited. */
function situation(g: Game, opts: { crown?: number; opponentStarted?: boolean; placements?: number[] } = {}): Situation {
  const ply = g.plies.at(-1);
  return {
    counts: countsOf(g.position),
    outs: outcomes(g.position, g.options),
    last: ply
      ? {
          before: ply.before,
          counts: countsOf(ply.before),
          outs: outcomes(ply.before, g.options),
          move: ply.move,
          opponentStarted: opts.opponentStarted ?? false,
        }
      : null,
    crown: opts.crown ?? null,
    huffs: [],
    placements: opts.placements ?? [],
    options: g.options,
  };
}

/** Counts of a position with some squares changed: {square: coins}. */
function board(pos: Position, changes: Record<number, number> = {}): Counts {
  const c = countsOf(pos);
  for (const [sq, n] of Object.entries(changes)) c[Number(sq) - 1] = n;
  return c;
}

describe('classify', () => {
  const start = Game.standard();
  it('in sync', () => {
    expect(classify([board(start.position)], situation(start)).verdict).toEqual({ kind: 'in-sync' });
  });

  it('the result of a legal move', () => {
    const v = classify([board(start.position, { 11: 0, 15: 1 })], situation(start)).verdict;
    expect(v.kind).toBe('legal');
    expect(v.kind === 'legal' && v.hits.map((o) => `${o.move.from}-${o.move.to}`)).toEqual(['11-15']);
  });

  it('part-way: a piece in the hand, then a jumper down with the captured coin still on (looks finished)', () => {
    const g = Game.standard();
    g.play(find(g.position, 11, 15));
    g.play(find(g.position, 22, 18));
    const s = situation(g);
    expect(classify([board(g.position, { 15: 0 })], s).verdict).toMatchObject({ kind: 'part-way', finished: false });
    expect(classify([board(g.position, { 15: 0, 22: 1 })], s).verdict).toMatchObject({ kind: 'part-way', finished: true });
  });

  it('change of mind and takeback before the opponent starts; only takeback after', () => {
    const g = Game.standard();
    const before = g.position;
    g.play(find(g.position, 11, 15));
    expect(classify([board(before, { 11: 0, 16: 1 })], situation(g)).verdict).toMatchObject({ kind: 'change-of-mind' });
    expect(classify([board(before)], situation(g)).verdict).toEqual({ kind: 'takeback' });
    expect(classify([board(before, { 11: 0, 16: 1 })], situation(g, { opponentStarted: true })).verdict.kind).not.toBe('change-of-mind');
    // The last mover has lifted the piece again (on the way to another square).
    expect(classify([board(before, { 11: 0 })], situation(g)).verdict).toEqual({ kind: 'changing-mind' });
  });

  it('a fast reply: the move and the answer, the answer seen put down', () => {
    const g = Game.standard();
    const after = playMove(playMove(g.position, find(g.position, 11, 15)), find(playMove(g.position, find(g.position, 11, 15)), 22, 18));
    const b = board(after);
    expect(classify([b], situation(g, { placements: [15, 18] })).verdict).toMatchObject({ kind: 'fast-reply' });
    expect(classify([b], situation(g, { placements: [15] })).verdict).toEqual({ kind: 'illegal' });
  });

  it('a fast reply on a soft reading: a king that landed off-centre reads as one coin, the answer already down', () => {
    const g = new Game(unwrap(parseFen('W:WK3,27:B15,1')));
    const king = find(g.position, 3, 7);
    const after = playMove(playMove(g.position, king), find(playMove(g.position, king), 15, 18));
    const read = board(after, { 7: 1 });
    const s = situation(g, { placements: [7, 18] });
    // As read (one coin on 7) nothing explains it; read with the king where the game has it land, it is the move and the answer.
    expect(classify([read], s).verdict).toEqual({ kind: 'illegal' });
    const { verdict, board: b } = classify([read, board(after)], s);
    expect(verdict).toMatchObject({ kind: 'fast-reply', first: { move: { from: 3, to: 7 } } });
    expect(b[6]).toBe(2);
  });

  it('a crown awaited: the man alone (or lifted) is waiting; the opponent moving first is the crown missing; two coins is in sync', () => {
    const g = new Game(unwrap(parseFen('B:W5,20:B26,1')));
    g.play(find(g.position, 26, 30));
    const s = situation(g, { crown: 30 });
    expect(classify([board(g.position, { 30: 1 })], s).verdict).toEqual({ kind: 'crown-awaited' });
    expect(classify([board(g.position, { 30: 0 })], s).verdict).toEqual({ kind: 'crown-awaited' });
    expect(classify([board(g.position, { 30: 1, 20: 0, 16: 1 })], s).verdict).toMatchObject({ kind: 'crown-missing' });
    expect(classify([board(g.position, { 30: 2 })], s).verdict).toEqual({ kind: 'crown-awaited' }); // counts as crowned: the tracker sees the crown placed
  });

  it('illegal: nothing legal explains it', () => {
    const g = Game.standard();
    g.play(find(g.position, 11, 15));
    g.play(find(g.position, 22, 18));
    expect(classify([board(g.position, { 15: 0, 11: 1 })], situation(g, { opponentStarted: true })).verdict).toEqual({ kind: 'illegal' });
  });

  it('of the readings of a board, the one the game explains wins (an off-centre king read as one coin)', () => {
    const g = new Game(unwrap(parseFen('W:WK14,30:B1,5')));
    const read = board(g.position, { 14: 0, 10: 1 }); // the king stepped to 10, read as one coin
    const asKing = board(g.position, { 14: 0, 10: 2 });
    const r = classify([read, asKing], situation(g));
    expect(r.verdict.kind).toBe('legal');
    expect(r.board).toBe(asKing);
    expect(classify([read], situation(g)).verdict.kind).not.toBe('legal');
  });

  it('huffing: the huffable piece removed is a huff in progress, then with a move after it', () => {
    const g = new Game(unwrap(parseFen('B:W18,30:B15,1')), { huffing: true });
    // Black could jump 15x22 but plays 1-6: white may huff the man on 15.
    g.play(find(g.position, 1, 6, true));
    const pos = g.position;
    const huffed: Position = { ...pos, black: pos.black & ~(1 << 14), white: pos.white, kings: pos.kings };
    const s = situation(g);
    s.huffs = [{ square: 15, counts: countsOf(huffed), outs: outcomes(huffed, g.options) }];
    expect(classify([board(pos, { 15: 0 })], s).verdict).toMatchObject({ kind: 'huff', square: 15, hit: null });
    expect(classify([board(pos, { 15: 0, 18: 0, 14: 1 })], s).verdict).toMatchObject({
      kind: 'huff',
      square: 15,
      hit: { move: { from: 18, to: 14 } },
    });
  });
});
