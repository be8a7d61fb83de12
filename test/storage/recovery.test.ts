// Recovery at start-up (src/storage/recovery.ts): the newest game is the
// one resumed, from every record that can be read, or the loss is reported
// and never another game picked; the originals are kept aside.

import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameSession } from '../../src/game/session.ts';
import { makeJournalLine, type JournalEntry } from '../../src/storage/journal.ts';
import { resumeNewest } from '../../src/storage/recovery.ts';
import { folder, journalOf, movesOf, newGame, open } from './helpers.ts';

describe('resuming', () => {
  const probe = () => new GameSession();
  const write = (dir: string, id: string, text: string | Buffer, mtime: number) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.journal`), text);
    utimesSync(join(dir, `${id}.journal`), mtime, mtime);
  };
  const moves = movesOf(12);
  const lines = (id: string, es: JournalEntry[]) => [newGame(id), ...es].map(makeJournalLine);

  it('a damaged middle record: the rest is resumed, the loss reported, the original kept aside and the journal rewritten clean', () => {
    const dir = folder();
    const l = lines('new', [...moves.slice(0, 5), { k: 'tags', at: 50, tags: { Black: 'Ann' } }, ...moves.slice(5)]);
    l[6] = l[6].replace('Ann', 'A\u0000n'); // the tags record garbled
    write(dir, 'old', lines('old', moves.slice(0, 3)).join(''), 1000); // an older unfinished game
    write(dir, 'new', l.join(''), 2000);
    writeFileSync(join(dir, 'new.pdn'), '[Event "as last saved"]\n*\n');
    const { store, events } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: true, id: 'new', moves: 12 });
    expect(session.game.plies).toHaveLength(12);
    expect(r.damage).toMatchObject({
      game: 'new',
      dropped: [{ line: 7, why: expect.stringMatching(/checksum/) }],
      unreplayed: 0,
      resumed: true,
      moves: 12,
    });
    expect(readFileSync(r.damage!.keptAt!, 'utf8')).toBe(l.join(''));
    expect(readFileSync(r.damage!.pdn!, 'utf8')).toContain('as last saved');
    expect(journalOf(dir, 'new')).toMatchObject({ damage: [], entries: [newGame('new'), ...moves] });
    const h = store.health();
    expect(h).toMatchObject({ ok: false, problem: 'damaged-journal', damaged: { keptAt: r.damage!.keptAt } });
    expect(h.message).toMatch(
      /journal of game new was damaged: 1 record could not be read \(line 7: checksum mismatch.*resumed from what could be read: 12 moves/,
    );
    expect(h.choice).toMatch(/Play on .* or start a new game .* kept at/);
    expect(events).toHaveLength(1);
    // play goes on in the same journal; a new game clears the report
    session.newGame();
    expect(store.health()).toMatchObject({ ok: true });
  });

  it('a lost move record: the game is resumed up to it, and what no longer fits is counted as dropped', () => {
    const dir = folder();
    const l = lines('g', moves);
    l[5] = l[5].slice(0, 12) + '\n'; // move 5 cut short, then the rest
    write(dir, 'g', l.join(''), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: true, moves: 4, damage: { unreplayed: 7, dropped: [{ line: 6 }] } });
    expect(store.health().message).toMatch(/7 after them no longer fit the game.*4 moves/);
  });

  it('a journal that lost its start is not resumed, and no older game is picked instead: it is moved aside and a new game is due', () => {
    const dir = folder();
    write(dir, 'old', lines('old', moves.slice(0, 3)).join(''), 1000);
    const l = lines('new', moves);
    l[0] = 'garbage\n';
    write(dir, 'new', l.join(''), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: false, id: 'new', damage: { resumed: false, dropped: [{ line: 1, why: 'not a journal record' }] } });
    expect(existsSync(join(dir, 'new.journal'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('new.journal.damaged-'))).toHaveLength(1);
    expect(store.health()).toMatchObject({ ok: false, problem: 'unresumable' });
    expect(store.health().message).toMatch(/newest game, new, cannot be resumed.*no older game was resumed in its place/);
  });

  it('a torn last line is cut off before appending, so the next record does not follow a fragment', () => {
    const dir = folder();
    const l = lines('g', moves.slice(0, 4));
    write(dir, 'g', l.join('') + l[4].slice(0, 9), 2000);
    const { store } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    expect(resumeNewest(store, session, probe)).toMatchObject({ resumed: true, torn: true, damage: null });
    store.append(moves[4]);
    expect(journalOf(dir, 'g')).toMatchObject({ damage: [], torn: false, entries: [newGame('g'), ...moves.slice(0, 5)] });
    expect(store.health().ok).toBe(true);
  });

  // Every CRLF line used to fail its checksum, so the game was not resumed.
  it('a journal with Windows line ends (CRLF) is resumed whole, rewritten with plain ends, and the notice says so', () => {
    const dir = folder();
    write(dir, 'g', lines('g', moves).join('').replace(/\n/g, '\r\n'), 2000);
    const { store, notes, events } = open(dir);
    const session = new GameSession({ journal: (e) => store.append(e) });
    const r = resumeNewest(store, session, probe);
    expect(r).toMatchObject({ resumed: true, id: 'g', moves: 12, damage: null, crlf: true });
    expect(notes.join('\n')).toMatch(
      /journal of game g has Windows line ends \(CRLF, 13 records\).*read as line ends and the game resumed; the journal was rewritten with plain line ends/,
    );
    expect(readFileSync(join(dir, 'g.journal'), 'utf8')).not.toContain('\r');
    expect(events).toEqual([]); // nothing was lost: no damage report
    store.append(movesOf(13)[12]);
    expect(journalOf(dir, 'g')).toMatchObject({ damage: [], crlf: 0, entries: [newGame('g'), ...movesOf(13)] });
  });
});
