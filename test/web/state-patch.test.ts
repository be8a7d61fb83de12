// The page's state on the wire as what changed (src/protocol/state-patch.ts):
// a real session's events sent as patches, folded by the page's reducer,
// give the page exactly the session's snapshot after every move, a takeback
// and a new game; a move's message stays the same size as the game grows; a
// patch worked out against another revision leaves the page stale, and it
// asks for the whole state again, which puts it right.

import { describe, expect, it } from 'vitest';
import { initialState, reduce, type ViewState } from '../../src/web/state.ts';
import { applyPatch, diffState, foldState, sentOf } from '../../src/protocol/state-patch.ts';
import { legalMoves, type Move } from '../../src/rules/index.ts';
import { TableServer } from './fixture.ts';

let now = 1_000;
const feed = (s: ViewState, raws: string[]): ViewState =>
  raws.reduce((st, raw) => reduce(st, { type: 'message', raw, now: (now += 10) }), s);

/** The hand carries out a move on the fixture's board (a crowned man arrives stacked). */
function play(t: TableServer, m: Move): void {
  const size = t.sim.coinsAt(m.from);
  t.lift(m.from);
  t.sim.set(m.to, m.crowned ? 2 : size);
  t.wait(250);
  for (const c of m.captures) t.lift(c);
  t.wait(500);
}

describe("the page's state as what changed", () => {
  it('folds every event into exactly the session’s snapshot; a move costs the same bytes at ply 30 as at ply 4', async () => {
    const t = await TableServer.open();
    let s = feed(initialState(), [t.hello()]);
    t.setUp();
    s = feed(s, t.take());
    const sizes: number[] = [];
    for (let ply = 0; ply < 30; ply++) {
      const m = legalMoves(t.session.game.position).at(-1)!;
      play(t, m);
      const raws = t.take();
      const moved = raws.find((r) => r.includes('"type":"move"'));
      expect(moved, `ply ${ply + 1}`).toBeDefined();
      expect(JSON.parse(moved!).state).toBeUndefined(); // a patch, not the whole game
      sizes.push(moved!.length);
      s = feed(s, raws);
      expect(s.stale).toBe(false);
      expect(s.snap).toEqual(JSON.parse(JSON.stringify(t.lastState)));
    }
    expect(t.session.game.plies).toHaveLength(30);
    // The whole snapshot grows with every move; the patch does not (a new move record, the pieces, the board).
    expect(sizes[29]).toBeLessThan(sizes[3] * 1.5);
    expect(sizes[29]).toBeLessThan(JSON.stringify(t.session.snapshot()).length / 3);

    // A takeback (the move list shrinks) and a new game (almost everything changes) fold the same way.
    t.session.takeback();
    s = feed(s, t.take());
    expect(s.snap).toEqual(JSON.parse(JSON.stringify(t.lastState)));
    t.session.newGame({ tags: { Black: 'Ann' } });
    s = feed(s, t.take());
    expect(s.snap!.moves).toEqual([]);
    expect(s.snap).toEqual(JSON.parse(JSON.stringify(t.lastState)));
  });

  it('a patch against another revision leaves the page stale and its state alone; the whole state asked for puts it right', async () => {
    const t = await TableServer.open();
    let s = feed(initialState(), [t.hello()]);
    t.setUp();
    const raws = t.take();
    expect(raws.length).toBeGreaterThan(0);
    const skipped = feed(s, raws.slice(1)); // the first event lost: the next patch does not fit
    expect(skipped.stale).toBe(true);
    expect(skipped.snap).toEqual(s.snap);
    s = feed(skipped, [t.state()]);
    expect(s.stale).toBe(false);
    expect(s.snap).toEqual(JSON.parse(JSON.stringify(t.lastState)));
  });

  it('diff and apply: optional parts that go are unset; nothing changed is an empty patch; the revision must match', () => {
    const t = new TableServer();
    const a = t.session.snapshot();
    const b = { ...a, evaluation: { score: 12, text: '+0.12' }, tags: { ...a.tags, White: 'Bo' } };
    const ab = diffState(sentOf(a), sentOf(b), b);
    expect(Object.keys(ab.set).sort()).toEqual(['evaluation', 'tags']);
    expect(applyPatch(a, { ...ab, base: 1, rev: 2 })).toEqual(b);
    const { evaluation: _gone, ...c } = b;
    const bc = diffState(sentOf(b), sentOf(c), c);
    expect(bc).toEqual({ set: {}, unset: ['evaluation'] });
    expect(applyPatch(b, { ...bc, base: 2, rev: 3 })).toEqual(c);
    expect(diffState(sentOf(c), sentOf(c), c)).toEqual({ set: {} });
    expect(foldState({ snap: b, rev: 5 }, { patch: { ...bc, base: 2, rev: 3 } })).toBeNull();
    expect(foldState({ snap: null, rev: null }, { patch: { ...bc, base: 2, rev: 3 } })).toBeNull();
    expect(foldState({ snap: b, rev: 2 }, { patch: { ...bc, base: 2, rev: 3 } })).toEqual({ snap: c, rev: 3 });
  });
});
