// A takeback between two players from the page: one side asks,
// the other accepts or declines; a move ends the offer; against the computer
// (and from the HTTP API without a side) it happens at once.
import { describe, expect, it } from 'vitest';
import { GameSession, type SessionEvent } from '../../src/game/index.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { makeFen, START } from '../../src/rules/index.ts';
import { SessionError } from '../../src/game/errors.ts';

function session(plies: number[][]): { s: GameSession; said: SessionEvent[] } {
  const s = new GameSession({ now: () => 0 });
  const entries: JournalEntry[] = [
    { k: 'new', id: 'g1', at: 0, fen: makeFen(START), options: {}, tags: {}, ballot: null, moves: [] },
    ...plies.map((path, i) => ({ k: 'move' as const, at: i + 1, path })),
  ];
  s.restore(entries);
  const said: SessionEvent[] = [];
  s.on((e) => said.push(e));
  return { s, said };
}

describe('a takeback by consent', () => {
  it('asked by the side that moved, declined by the other: the move stands', () => {
    const { s, said } = session([[11, 15]]);
    s.takeback('black');
    expect(s.game.plies).toHaveLength(1);
    expect(s.snapshot().takebackOffer).toBe('black');
    expect(said.at(-1)).toMatchObject({ type: 'takeback-offer', side: 'black', say: 'Black asks to take back the last move.' });
    s.takebackAnswer(false);
    expect(s.game.plies).toHaveLength(1);
    expect(s.snapshot().takebackOffer).toBeNull();
    expect(said.at(-1)).toMatchObject({ type: 'takeback-offer', side: null, say: 'White declines the takeback.' });
    expect(() => s.takebackAnswer(true)).toThrow(SessionError);
  });

  it('accepted: the move is taken back and the offer is gone', () => {
    const { s, said } = session([[11, 15]]);
    s.takeback('black');
    s.takebackAnswer(true);
    expect(s.game.plies).toHaveLength(0);
    expect(s.snapshot().takebackOffer).toBeNull();
    expect(said.some((e) => e.type === 'takeback')).toBe(true);
  });

  it('asked by both sides, it happens', () => {
    const { s } = session([[11, 15]]);
    s.takeback('black');
    s.takeback('white');
    expect(s.game.plies).toHaveLength(0);
  });

  it('holds only for the position it was asked in', () => {
    const { s } = session([[11, 15]]);
    s.takeback('black');
    s.restore([
      { k: 'new', id: 'g1', at: 0, fen: makeFen(START), options: {}, tags: {}, ballot: null, moves: [] },
      { k: 'move', at: 1, path: [11, 15] },
      { k: 'move', at: 2, path: [23, 19] },
    ]);
    expect(s.snapshot().takebackOffer).toBeNull();
  });

  it('without a side (the HTTP API, an older page) it happens at once', () => {
    const { s } = session([[11, 15]]);
    s.takeback();
    expect(s.game.plies).toHaveLength(0);
  });

  it('is refused with nothing to take back', () => {
    const { s } = session([]);
    expect(() => s.takeback('white')).toThrow(/no move/);
  });
});
