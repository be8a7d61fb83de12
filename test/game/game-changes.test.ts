// game changes (new game, next game,
// restore, takeback) are applied one after the other — one asked for while
// another is being applied and announced waits until that one is done, so
// two games' announcements never interleave — and a game nobody played that
// a new game replaces is dropped (the service removes it), not archived.

import { describe, expect, it } from 'vitest';
import { GameSession, type SessionEvent } from '../../src/game/session.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';

/** A session with its journal and its announcements, each noted with the game it was made in. */
function watched(opts: ConstructorParameters<typeof GameSession>[0] = {}) {
  const journal: JournalEntry[] = [];
  const dropped: string[] = [];
  const s = new GameSession({
    now: () => Date.UTC(2026, 10, 25, 12),
    journal: (e) => journal.push(e),
    dropped: (id) => dropped.push(id),
    ...opts,
  });
  const heard: { type: SessionEvent['type']; game: string }[] = [];
  s.on((e) => heard.push({ type: e.type, game: s.gameId }));
  return { s, journal, dropped, heard };
}

/** The games in the order their announcements were heard, each once per run of announcements. */
const runs = (heard: { game: string }[]) => heard.map((h) => h.game).filter((g, k, all) => k === 0 || all[k - 1] !== g);

describe('game changes, one after the other', () => {
  it('two new games in one turn: the first, never played, is dropped, the second is the game', () => {
    const { s, journal, dropped } = watched();
    s.newGame({});
    const first = s.gameId;
    s.newGame({});
    s.newGame({});
    const ids = journal.filter((e) => e.k === 'new').map((e) => (e as { id: string }).id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe(first);
    expect(dropped).toEqual(ids.slice(0, 2));
    expect(s.gameId).toBe(ids[2]);
  });

  it('a game with a move or a result is not dropped; an untouched ballot game and one whose only move was taken back are', () => {
    const { s, dropped } = watched();
    s.newGame({});
    s.resign('white');
    s.newGame({});
    expect(dropped).toEqual([]);
    const empty = s.gameId;
    s.newGame({ ballot: 1 });
    const ballot = s.gameId;
    s.newGame({});
    expect(dropped).toEqual([empty, ballot]); // the ballot's opening moves are not the players'
    s.table.play(s.game.legalMoves()[0]);
    s.newGame({});
    expect(dropped).toEqual([empty, ballot]);
    const undone = s.gameId;
    s.table.play(s.game.legalMoves()[0]);
    s.takeback();
    s.newGame({});
    expect(dropped).toEqual([empty, ballot, undone]);
  });

  it('a new game asked for while another is being announced waits for it: the two games are announced one after the other', () => {
    const { s, journal, heard } = watched();
    let asked = false;
    s.on((e) => {
      if (e.type === 'new-game' && !asked) {
        asked = true;
        s.newGame({ fen: 'B:W18:B14' });
      }
    });
    s.newGame({});
    const ids = journal.filter((e) => e.k === 'new').map((e) => (e as { id: string }).id);
    expect(ids).toHaveLength(2);
    expect(s.gameId).toBe(ids[1]);
    // Every announcement of the first game came before the second game was installed; none twice.
    expect(runs(heard)).toEqual(ids);
    expect(heard.filter((h) => h.type === 'new-game').map((h) => h.game)).toEqual(ids);
    expect(heard.filter((h) => h.type === 'setup').map((h) => h.game)).toEqual(ids);
  });

  it('a takeback asked for by a listener while a takeback is being announced waits until the board has been told', () => {
    const { s, journal, heard } = watched();
    s.newGame({});
    for (let k = 0; k < 2; k++) s.table.play(s.game.legalMoves()[0]);
    let asked = false;
    s.on((e) => {
      if (e.type === 'takeback' && !asked) {
        asked = true;
        s.takeback();
      }
    });
    heard.length = 0;
    s.takeback();
    expect(s.game.plies).toHaveLength(0);
    expect(journal.filter((e) => e.k === 'takeback')).toHaveLength(2);
    // takeback, what to put back for it, then the second takeback and what to put back for that: never two setups for one.
    const types = heard.map((h) => h.type).filter((t) => t === 'takeback' || t === 'setup');
    expect(types).toEqual(['takeback', 'setup', 'takeback', 'setup']);
  });
});
