// Ballots at the table: a random three-move ballot skips barred ones (and,
// asked, mail-play ones) and is announced by number and name; eleven-man
// ballots by number or at random, with the coins to take off said.
import { describe, expect, it } from 'vitest';
import { BALLOTS, makeFen } from '../../src/rules/index.ts';
import { elevenManPosition } from '../../src/rules/eleven-man.ts';
import { GameSession } from '../../src/game/session.ts';
import { elevenManSetup } from '../../src/game/view.ts';

const sessionWithEvents = () => {
  const s = new GameSession({ now: () => Date.UTC(2026, 10, 23) });
  const said: string[] = [];
  s.on((e) => {
    if (e.type === 'new-game') said.push(e.say);
  });
  return { s, said };
};

describe('three-move ballots at the table', () => {
  it('a random draw never gives a barred ballot; crossboard-only never a mail-play one either', () => {
    const { s } = sessionWithEvents();
    const seen = new Set<string>();
    for (let k = 0; k < 200; k++) {
      s.newGame({ ballot: 'random', random: () => k / 200 });
      const b = BALLOTS.find((x) => x.number === s.ballot)!;
      expect(b.status).not.toBe('barred');
      seen.add(b.status);
      s.newGame({ ballot: 'random', crossboardOnly: true, random: () => k / 200 });
      expect(BALLOTS.find((x) => x.number === s.ballot)!.status).toBe('crossboard');
    }
    expect(seen).toEqual(new Set(['crossboard', 'mailplay']));
  });

  it('is announced by number and name', () => {
    const { s, said } = sessionWithEvents();
    s.newGame({ ballot: 5 });
    expect(s.tags.Ballot).toBe('ACF 5 Dreaded Edinburgh');
    expect(said.at(-1)).toMatch(/^New game\. Ballot 5 Dreaded Edinburgh\. /);
  });
});

describe('eleven-man ballots at the table', () => {
  it('by number: the position, the Ballot tag, and which coins to take off', () => {
    const { s, said } = sessionWithEvents();
    s.newGame({ elevenMan: 1 });
    expect(makeFen(s.game.start)).toBe(makeFen(elevenManPosition(1)));
    expect(s.tags.Ballot).toBe('11-man 1');
    expect(s.ballot).toBeNull();
    // Ballot 1: B:W19,21-23,25-27,29-32:B1-7,9-12 (Black's 8 off; White's 24 and 28 off, a man on 19).
    expect(said.at(-1)).toBe(
      "New game. Eleven-man ballot 1: from the start position take Black's man off 8 and White's men off 24 and 28, and put a white man on 19. Set up the position shown.",
    );
    expect(s.pdn()).toMatch(/\[Ballot "11-man 1"\]/);
    expect(s.pdn()).toContain(`[FEN "${makeFen(elevenManPosition(1))}"]`);
  });

  it('at random, and unknown numbers refused by name', () => {
    const { s } = sessionWithEvents();
    s.newGame({ elevenMan: 'random', random: () => 0.9999 });
    expect(s.tags.Ballot).toBe('11-man 2400');
    expect(() => s.newGame({ elevenMan: 2401 })).toThrow(/no eleven-man ballot 2401: they are numbered 1 to 2400/);
    expect(() => s.newGame({ elevenMan: 3, ballot: 4 })).toThrow(/give one of a FEN, a ballot or an eleven-man ballot/);
  });

  it('the set-up sentence names only what differs from the start', () => {
    const p = elevenManPosition(5); // Black: 9-13 with 12 off; White: 24-19 with 28 off
    expect(elevenManSetup(p)).toBe(
      "from the start position take Black's men off 9 and 12 and White's men off 24 and 28, and put a black man on 13 and a white man on 19.",
    );
  });
});

describe('ballot pairs', () => {
  const finish = (s: GameSession) => s.resign('white');

  it('the other side: same ballot, sides and names swapped, Round 1.1 then 1.2; next game: a new ballot, the first player alternating', () => {
    const { s, said } = sessionWithEvents();
    s.newGame({ ballot: 5, tags: { Black: 'Ann', White: 'Bob', Event: 'Club night' }, timeControl: '5m/move,1m/forced' });
    expect(s.tags).toMatchObject({ Black: 'Ann', White: 'Bob', Round: '1.1', Ballot: 'ACF 5 Dreaded Edinburgh' });
    expect(() => s.nextGame('other-side')).toThrow(/the game is not over yet/);
    finish(s);
    s.nextGame('other-side');
    expect(s.ballot).toBe(5);
    expect(s.tags).toMatchObject({
      Black: 'Bob',
      White: 'Ann',
      Round: '1.2',
      Event: 'Club night',
      Ballot: 'ACF 5 Dreaded Edinburgh',
      TimeControl: '300s/move,60s/forced,60s/grace',
    });
    expect(s.game.plies.map((p) => `${p.move.from}-${p.move.to}`)).toEqual(['9-13', '22-18', '6-9']);
    expect(said.at(-1)).toMatch(/^New game\. Ballot 5 Dreaded Edinburgh\./);
    expect(s.pdn()).toMatch(/\[Round "1\.2"\]/);
    finish(s);
    // Pair 2: Ann had Black first in pair 1, so Bob has it now (as in game 1.2), on a new ballot.
    s.nextGame('next', () => 0.5);
    expect(s.tags).toMatchObject({ Black: 'Bob', White: 'Ann', Round: '2.1' });
    expect(s.ballot).not.toBeNull();
    expect(BALLOTS.find((b) => b.number === s.ballot)!.status).not.toBe('barred');
    finish(s);
    s.nextGame('other-side');
    expect(s.tags).toMatchObject({ Black: 'Ann', White: 'Bob', Round: '2.2' });
    finish(s);
    s.nextGame('next', () => 0.1);
    expect(s.tags).toMatchObject({ Black: 'Ann', White: 'Bob', Round: '3.1' });
  });

  it('an eleven-man pair keeps its position; a game from the start position has no other side, and its next game swaps the players', () => {
    const { s } = sessionWithEvents();
    s.newGame({ elevenMan: 42, tags: { Black: 'Ann', White: 'Bob' } });
    finish(s);
    s.nextGame('other-side');
    expect(s.tags).toMatchObject({ Black: 'Bob', White: 'Ann', Round: '1.2', Ballot: '11-man 42' });
    expect(makeFen(s.game.start)).toBe(makeFen(elevenManPosition(42)));

    s.newGame({ tags: { Black: 'Ann', White: 'Bob' } });
    finish(s);
    expect(() => s.nextGame('other-side')).toThrow(/not played from a ballot/);
    s.nextGame('next');
    expect(s.tags).toMatchObject({ Black: 'Bob', White: 'Ann', Round: '2' });
    expect(s.ballot).toBeNull();
  });
});
