// Playing the computer on the board: the tracker accepts exactly the computer's
// move (the player carries it out), refuses any other with words that name
// the computer's move, and says whose move an unfinished capture is.
import { describe, expect, it } from 'vitest';
import { Game, legalMoves, moveText, parseFen, type Move } from '../../src/rules/index.ts';
import { Table } from '../harness/table.ts';
import { unwrap } from '../../src/common/result.ts';

function move(game: Game, text: string): Move {
  const all = legalMoves(game.position);
  const m = all.find((x) => moveText(x, all) === text);
  if (!m) throw new Error(`no move ${text}`);
  return m;
}

async function table(game?: Game): Promise<Table> {
  const t = new Table({ seed: 2, game });
  await t.open();
  t.setUp();
  t.wait(600);
  return t;
}

describe("the computer's move carried out on the board", () => {
  it("only the computer's move is taken; another legal move is refused, and putting it back and playing the right one goes on", async () => {
    const t = await table();
    t.tracker.expectMove(move(t.game, '11-15'));
    t.play(move(t.game, '9-13'));
    t.wait(1500);
    expect(t.game.plies).toHaveLength(0);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('not-computers-move');
    expect(a.message).toBe("That is not the computer's move: put a black man on 9 and take the coin off 13, then play 11-15.");
    t.sim.lift(13);
    t.sim.place(9);
    t.wait(600);
    expect(t.tracker.currentAlert).toBeNull();
    t.play(move(t.game, '11-15'));
    t.wait(600);
    expect(t.game.plies.map((p) => moveText(p.move, legalMoves(p.before)))).toEqual(['11-15']);
    expect(t.tracker.tracker.expectedMove).toBeNull();
    // The player's own reply is free again.
    t.play(move(t.game, '22-18'));
    t.wait(600);
    expect(t.game.plies).toHaveLength(2);
  });

  it("a capture of the computer's left part-way: the quiet reminder says it is the computer's move", async () => {
    const t = await table(new Game(unwrap(parseFen('B:W18,30:B15,1'))));
    t.tracker.expectMove(move(t.game, '15x22'));
    t.sim.hold('black');
    t.sim.lift(15);
    t.wait(150);
    t.sim.place(22);
    t.wait(3000);
    expect(t.tracker.currentReminder?.message).toBe('The computer played 15x22: take the captured piece off 18.');
    t.sim.lift(18);
    t.wait(600);
    expect(t.game.plies).toHaveLength(1);
    expect(t.alerts()).toEqual([]);
  });
});
