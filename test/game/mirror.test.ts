// The hub's copy of a station's game (src/game/mirror.ts): one record in, one
// change out. 2,000 records of a long game applied one by one cost one
// replayed record each — the work per record does not grow with the game —
// and end where a restore of the whole journal ends; each record is
// announced as the station's session announced it.

import { describe, expect, it } from 'vitest';
import { MirroredGame } from '../../src/game/mirror.ts';
import { GameSession } from '../../src/game/session.ts';
import { Game, makeFen } from '../../src/rules/index.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import type { SessionEvent } from '../../src/game/index.ts';

/** A journal of 2,000 records: a game played to its end by its first legal moves, names changed between moves, a takeback. */
function longJournal(): JournalEntry[] {
  const game = Game.standard();
  const out: JournalEntry[] = [
    { k: 'new', id: 'G1', at: 0, fen: makeFen(game.position), options: {}, tags: { Black: 'Ann', White: 'Bob' }, ballot: null, moves: [] },
  ];
  let at = 1;
  let n = 0;
  while (out.length < 2000) {
    if (!game.outcome && out.length % 25 === 1) {
      const m = game.legalMoves()[0]!;
      game.play(m);
      out.push({ k: 'move', at: at++, path: [m.from, ...m.path] });
      if (out.length === 302) {
        game.undo();
        out.push({ k: 'takeback', at: at++ });
      }
    } else out.push({ k: 'tags', at: at++, tags: { Black: 'Ann', White: 'Bob', Round: String(++n) } });
  }
  return out;
}

describe('the hub’s copy of a station’s game', () => {
  it('applies 2,000 records one by one: one replayed record each, and the same game as a restore of them all', () => {
    const journal = longJournal();
    const mirror = new MirroredGame();
    const events: SessionEvent[] = [];
    mirror.session.on((e) => events.push(e));
    for (const e of journal) mirror.apply(e);
    expect(mirror.replayed).toBe(journal.length);
    const whole = new GameSession();
    whole.restore(journal);
    expect(mirror.session.pdn()).toBe(whole.pdn());
    expect(mirror.session.game.plies.length).toBeGreaterThan(30);
    // Each record announced as the station's session did: one new game, a move per move record, the takeback.
    expect(events.filter((e) => e.type === 'new-game')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'move')).toHaveLength(journal.filter((e) => e.k === 'move').length);
    expect(events.filter((e) => e.type === 'takeback')).toHaveLength(1);
  });

  it('refuses a record that does not apply, changing nothing', () => {
    const mirror = new MirroredGame();
    mirror.apply(longJournal()[0]!);
    const before = mirror.session.pdn();
    expect(() => mirror.apply({ k: 'move', at: 5, path: [11, 40] })).toThrow(/journal move 11-40 is not legal/);
    expect(mirror.session.pdn()).toBe(before);
  });

  it('announces each record by its kind: a move that ends the game as over too, a result, a correction, the rest as a look again', () => {
    const mirror = new MirroredGame();
    const events: SessionEvent[] = [];
    mirror.session.on((e) => events.push(e));
    const start: JournalEntry = { k: 'new', id: 'G2', at: 0, fen: 'B:W18:B14', options: {}, tags: {}, ballot: null, moves: [] };
    mirror.apply(start);
    mirror.apply({ k: 'move', at: 1, path: [14, 23] });
    expect(events.map((e) => e.type)).toEqual(['new-game', 'move', 'game-over']);
    expect(mirror.session.result).toBe('1-0');
    events.length = 0;
    mirror.apply({ k: 'correction', at: 2, by: 'arbiter', reason: 'wrong square', say: 'the last move taken back' });
    mirror.apply({ k: 'takeback', at: 3 });
    mirror.apply({ k: 'result', at: 4, result: '*', outcome: null });
    mirror.apply({ k: 'result', at: 5, result: '0-1', outcome: { winner: 'white', reason: 'resignation' } });
    mirror.apply({ k: 'draw-offer', at: 6, side: 'black' });
    expect(events.map((e) => e.type)).toEqual(['corrected', 'takeback', 'tags', 'game-over', 'tags']);
    expect(mirror.replayed).toBe(7);
  });
});
