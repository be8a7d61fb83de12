// The game at the table on its own (no board, no coach): a new game's
// journal record and tags, the next game's request, a restore that either
// replays the whole journal or changes nothing, and takebacks.

import { describe, expect, it } from 'vitest';
import { GameTable, type TableEvent } from '../../src/game/table.ts';
import { gameIds } from '../../src/game/ids.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { SessionError } from '../../src/game/errors.ts';

function table(opts: Partial<ConstructorParameters<typeof GameTable>[0]> = {}) {
  const journal: JournalEntry[] = [];
  const heard: TableEvent[] = [];
  const t = new GameTable({
    now: () => Date.UTC(2026, 10, 25, 9, 30),
    tournament: false,
    tags: {},
    journal: (e) => journal.push(e),
    emit: (e) => heard.push(e),
    newId: gameIds(0),
    ...opts,
  });
  return { t, journal, heard };
}

describe('the game at the table', () => {
  it("journals a new game with its tags: the date, the ballot and round, the time control and the computer's name", () => {
    const { t, journal } = table({ tags: { Event: 'Club' } });
    const started = t.newGame({ ballot: 5, timeControl: '5m+3s' }, { side: 'white', name: 'Crownhead (level 3)' });
    expect(t.gameId).toBe('20261125-093000-001');
    expect(started.ballot).toBe(5);
    expect(t.tags).toMatchObject({ Event: 'Club', Date: '2026.11.25', Round: '1.1', TimeControl: '300+3', White: 'Crownhead (level 3)' });
    expect(t.tags.Ballot).toMatch(/^ACF 5 /);
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({ k: 'new', id: t.gameId, tags: t.tags, ballot: 5 });
    expect(t.clock).not.toBeNull();
    expect(t.played).toBe(false); // the ballot's opening is not the players'
  });

  it("refuses a bad start with the session's error codes, changing nothing", () => {
    const { t, journal } = table();
    t.newGame({}, null);
    const id = t.gameId;
    for (const [req, code] of [
      [{ fen: 'nonsense' }, 'bad-fen'],
      [{ ballot: 999 }, 'bad-ballot'],
      [{ elevenMan: 0 }, 'bad-ballot'],
      [{ timeControl: '5x' }, 'bad-time-control'],
      [{ fen: 'B:W18:B14', ballot: 1 }, 'bad-request'],
    ] as const) {
      expect(() => t.newGame(req, null)).toThrow(expect.objectContaining({ code }) as SessionError);
    }
    expect(t.gameId).toBe(id);
    expect(journal).toHaveLength(1);
  });

  it("the next game: sides swapped, the round counted, the ballot pair's second game on the same ballot", () => {
    const { t } = table();
    t.newGame({ ballot: 7, tags: { Black: 'Ann', White: 'Bo' } }, null);
    expect(() => t.nextGameRequest('next')).toThrow(/not over yet/);
    t.resign('black');
    expect(t.nextGameRequest('other-side')).toMatchObject({ ballot: 7, tags: { Black: 'Bo', White: 'Ann', Round: '1.2' } });
    t.newGame(t.nextGameRequest('other-side'), null);
    t.resign('white');
    expect(t.nextGameRequest('next')).toMatchObject({ ballot: 'random', tags: { Black: 'Bo', White: 'Ann', Round: '2.1' } });
    t.newGame({}, null);
    t.resign('white');
    expect(() => t.nextGameRequest('other-side')).toThrow(/not played from a ballot/);
    expect(t.nextGameRequest('next').tags).toEqual({ Round: '2' });
  });

  it('restores a journal whole, or changes nothing when it does not replay', () => {
    const { t, journal } = table();
    t.newGame({ tags: { Black: 'Ann' } }, null);
    for (const m of [
      [11, 15],
      [22, 18],
    ]) {
      t.play(t.game.legalMoves().find((x) => x.from === m[0] && x.to === m[1])!);
      t.moved(t.game.plies[t.game.plies.length - 1], false);
    }
    t.offerDraw('black');
    const saved = [...journal];
    const other = table();
    other.t.restore(saved);
    expect(other.t.gameId).toBe(t.gameId);
    expect(other.t.game.plies).toHaveLength(2);
    expect(other.t.drawOffer).toBe('black');
    expect(other.t.played).toBe(true);
    const before = other.t.game;
    expect(() => other.t.restore([...saved, { k: 'move', at: 9, path: [1, 32] }])).toThrow(/not legal/);
    expect(other.t.game).toBe(before);
    expect(other.t.game.plies).toHaveLength(2);
  });

  it('takes back one move or two; a game the move ended is open again', () => {
    const { t, journal } = table();
    t.newGame({ fen: 'B:W18:B14' }, null);
    t.play(t.game.legalMoves()[0]);
    expect(t.game.outcome).not.toBeNull();
    t.checkTakeback();
    t.takeback(1);
    expect(t.game.outcome).toBeNull();
    expect(t.result).toBe('*');
    expect(journal.slice(-2).map((e) => e.k)).toEqual(['takeback', 'result']);
    expect(() => t.checkTakeback()).toThrow(/no move to take back/);
    const strict = table({ tournament: true }).t;
    strict.newGame({}, null);
    strict.play(strict.game.legalMoves()[0]);
    expect(() => strict.checkTakeback()).toThrow(/tournament/);
  });
});

describe('clocks across a restart', () => {
  it('a running clock is journalled every few seconds, so a restart gives back at most that, and says the clocks stopped', async () => {
    const { GameSession } = await import('../../src/game/session.ts');
    let now = Date.UTC(2026, 10, 25, 20, 0);
    const journal: JournalEntry[] = [];
    const s = new GameSession({ now: () => now, journal: (e) => journal.push(e) });
    s.newGame({ timeControl: '5m' });
    s.clockStart();
    for (let k = 0; k < 63; k++) {
      now += 1000;
      s.tick();
    }
    expect(s.clock!.remainingOf('black')).toBe(300_000 - 63_000);
    // killed here: a new service resumes from the journal
    const again = new GameSession({ now: () => now });
    const said: string[] = [];
    again.on((e) => 'say' in e && said.push(e.say));
    again.restore(journal);
    const left = again.clock!.remainingOf('black');
    expect(left).toBeLessThanOrEqual(300_000 - 60_000); // not the whole 5 minutes back (main gave 5:00)
    expect(left).toBeGreaterThanOrEqual(300_000 - 63_000);
    expect(said.join(' ')).toMatch(/The clocks stopped with the restart \(Black (3:5\d|4:00), White 5:00 left\)/);
  });
});
