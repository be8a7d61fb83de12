// The ACF retraction rule, on the simulated board with real positions: an
// illegal move made with a piece that has a legal move is put right with that
// piece. The alert names it; a correction with another piece is an illegal
// move of its own in tournament mode ('enforce') and a notice outside it.
import { describe, expect, it } from 'vitest';
import { Game, parseFen } from '../../src/rules/index.ts';
import type { TrackerOptions } from '../../src/tracking/tracker.ts';
import { Table } from '../harness/table.ts';
import { unwrap } from '../../src/common/result.ts';

async function table(fen: string, tracker: Partial<TrackerOptions> = {}): Promise<Table> {
  const t = new Table({ game: new Game(unwrap(parseFen(fen))), tracker });
  await t.open();
  t.setUp();
  expect(t.tracker.phase).toBe('play');
  return t;
}

const moves = (t: Table) => t.game.plies.map((p) => `${p.move.from}${p.move.captures.length ? 'x' : '-'}${p.move.to}`);

/** Each case: a position, the illegal move made by hand, what the alert says, the piece to use, and a correction with another piece. */
const cases = [
  {
    name: 'a missed capture (22 moved on instead of capturing; 23 could capture too)',
    fen: 'W:W22,23:B18,1',
    illegal: (t: Table) => {
      t.sim.lift(22);
      t.sim.place(17);
    },
    undo: (t: Table) => {
      t.sim.lift(17);
      t.sim.place(22);
    },
    category: 'capture-compulsory',
    message: /^A capture is compulsory: the man on 22 must capture\. .*Put 22 back and capture with it: 22x15\.$/,
    retract: { square: 22, moves: ['22x15'], capture: true },
    other: (t: Table) => {
      t.sim.lift(23);
      t.sim.lift(18);
      t.sim.place(14);
    },
    otherText: '23x14',
    right: (t: Table) => {
      t.sim.lift(22);
      t.sim.lift(18);
      t.sim.place(15);
    },
    rightText: '22x15',
  },
  {
    name: 'a man moved backwards',
    fen: 'W:W22,30:B5',
    illegal: (t: Table) => {
      t.sim.lift(22);
      t.sim.place(26);
    },
    undo: (t: Table) => {
      t.sim.lift(26);
      t.sim.place(22);
    },
    category: 'backwards',
    message: /^A man cannot move backwards \(22 to 26\)\. .*Put 22 back and move it again: 22-17 or 22-18\.$/,
    retract: { square: 22, moves: ['22-17', '22-18'], capture: false },
    other: (t: Table) => {
      t.sim.lift(30);
      t.sim.place(25);
    },
    otherText: '30-25',
    right: (t: Table) => {
      t.sim.lift(22);
      t.sim.place(18);
    },
    rightText: '22-18',
  },
  {
    name: 'a king moved two squares',
    fen: 'W:WK22,30:B5',
    illegal: (t: Table) => {
      t.sim.lift(22);
      t.sim.set(15, 2);
    },
    undo: (t: Table) => {
      t.sim.lift(15);
      t.sim.set(22, 2);
    },
    category: 'not-diagonal',
    message:
      /^22 to 15 is not a legal move: a king moves one square diagonally, or jumps\. .*Put 22 back and move it again: 22-17, 22-18, 22-25 or 22-26\.$/,
    retract: { square: 22, moves: ['22-17', '22-18', '22-25', '22-26'], capture: false },
    other: (t: Table) => {
      t.sim.lift(30);
      t.sim.place(25);
    },
    otherText: '30-25',
    right: (t: Table) => {
      t.sim.lift(22);
      t.sim.set(17, 2);
    },
    rightText: '22-17',
  },
];

describe('the retraction rule', () => {
  for (const c of cases) {
    it(`${c.name}: the alert names the piece to use`, async () => {
      const t = await table(c.fen);
      c.illegal(t);
      t.wait(3000);
      const a = t.alerts().at(-1)!;
      expect(a.category).toBe(c.category);
      expect(a.message).toMatch(c.message);
      expect(a.retract).toEqual(c.retract);
      // Retracted and played again with the same piece: the move stands, no notice.
      c.undo(t);
      t.wait(600);
      expect(t.tracker.currentAlert).toBeNull();
      c.right(t);
      t.wait(800);
      expect(moves(t)).toEqual([c.rightText]);
      expect(t.of('retraction-notice')).toEqual([]);
    });

    it(`${c.name}: tournament mode refuses a correction with another piece, with its own category and words`, async () => {
      const t = await table(c.fen, { retraction: 'enforce' });
      c.illegal(t);
      t.wait(3000);
      c.undo(t);
      t.wait(600);
      expect(t.tracker.currentAlert).toBeNull();
      c.other(t);
      t.wait(3000);
      expect(moves(t)).toEqual([]);
      const a = t.alerts().at(-1)!;
      expect(a.category).toBe('wrong-piece-retraction');
      expect(a.message).toMatch(
        new RegExp(
          `^The illegal move was made with the piece on 22, so it must be put right with that piece, not the one on ${c.otherText.slice(0, 2)}: .*Put 22 back and ${c.retract.capture ? 'capture with it' : 'move it again'}: `,
        ),
      );
      expect(a.retract).toEqual(c.retract);
      // Guided back, then the same piece: accepted.
      for (const f of a.fixes)
        t.sim.set(f.square, f.action === 'place' ? t.sim.coinsAt(f.square) + f.coins : t.sim.coinsAt(f.square) - f.coins);
      t.wait(600);
      expect(t.tracker.currentAlert).toBeNull();
      c.right(t);
      t.wait(800);
      expect(moves(t)).toEqual([c.rightText]);
    });

    it(`${c.name}: outside tournament mode a correction with another piece stands, with a notice`, async () => {
      const t = await table(c.fen);
      c.illegal(t);
      t.wait(3000);
      c.undo(t);
      t.wait(600);
      c.other(t);
      t.wait(800);
      expect(moves(t)).toEqual([c.otherText]);
      expect(t.of('retraction-notice').map((e) => e.message)).toEqual([
        expect.stringMatching(/^The illegal move was made with the piece on 22, so it must be put right with that piece/),
      ]);
      expect(t.tracker.currentAlert).toBeNull();
    });
  }

  it('a piece with no legal move of its own (the capture belongs to another) is not named', async () => {
    // 30 moved while 22 must capture: 30 has no legal move, so any capture puts it right.
    const t = await table('W:W22,30:B18,1');
    t.sim.lift(30);
    t.sim.place(25);
    t.wait(3000);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('capture-compulsory');
    expect(a.message).toMatch(/^A capture is compulsory: 22x15\./);
    expect(a.retract).toBeUndefined();
  });
});
