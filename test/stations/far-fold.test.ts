// The far board's game, followed by a station in a game between two boards
// (src/stations/opponent.ts): each record of the other board's journal is
// folded once as it comes (game/fold.ts) — 2,000 records cost 2,000 folds,
// not a replay of the whole game per record — its plies handed on in order as
// this game reaches them, a takeback undoing one; records after a gap wait
// for it and are folded when it fills; and only the plies of the far game
// linked to this one are handed on.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { FarBoard, type FarTarget } from '../../src/stations/opponent.ts';
import { ephemeralIdentity } from '../../src/stations/identity.ts';
import { StationPins } from '../../src/stations/pairing.ts';
import { Game, makeFen, type Color } from '../../src/rules/index.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function farBoard(): FarBoard {
  const dir = mkdtempSync(join(tmpdir(), 'far-fold-'));
  dirs.push(dir);
  return new FarBoard('FAR', { secret: 's', identity: ephemeralIdentity(), pins: new StationPins(dir), log: pino({ level: 'silent' }) });
}

/** A far game of `n` records: moves by the first legal move, a names record between moves, a takeback at record 301; each ply's mover and path. */
function farJournal(n: number): { entries: JournalEntry[]; moves: { side: Color; path: number[] }[] } {
  const game = Game.standard();
  const entries: JournalEntry[] = [
    { k: 'new', id: 'F1', at: 0, fen: makeFen(game.position), options: {}, tags: { Black: 'Ann', White: 'Bob' }, ballot: null, moves: [] },
  ];
  let round = 0;
  while (entries.length < n) {
    if (!game.outcome && entries.length % 25 === 1) {
      const m = game.legalMoves()[0]!;
      game.play(m);
      entries.push({ k: 'move', at: entries.length, path: [m.from, ...m.path] });
      if (entries.length === 302) {
        game.undo();
        entries.push({ k: 'takeback', at: entries.length });
      }
    } else entries.push({ k: 'tags', at: entries.length, tags: { Black: 'Ann', White: 'Bob', Round: String(++round) } });
  }
  const moves = game.plies.map((p) => ({ side: p.before.turn, path: [p.move.from, ...p.move.path] }));
  return { entries, moves };
}

/** This board's game as the far board's plies reach it: it takes each one handed on (and back on their takeback); both sides are theirs here. */
function thisGame(): FarTarget & { played: { side: Color; path: number[] }[]; turn: Color } {
  const t = {
    played: [] as { side: Color; path: number[] }[],
    turn: 'black' as Color,
    deliver: (p: { ply: number; path: readonly number[] }) => {
      expect(p.ply).toBe(t.played.length);
      t.played.push({ side: t.turn, path: [...p.path] });
      t.turn = t.turn === 'black' ? 'white' : 'black';
    },
    plies: () => t.played.length,
    side: () => t.turn,
    linked: () => true,
    record: (e: JournalEntry) => {
      if (e.k !== 'takeback') return;
      t.played.pop();
      t.turn = t.turn === 'black' ? 'white' : 'black';
    },
  };
  return t;
}

describe('the far board’s game, followed record by record', () => {
  it('folds 2,000 records one by one: one fold each, every ply handed on in order, the takeback undone', () => {
    const { entries, moves } = farJournal(2000);
    const far = farBoard();
    const here = thisGame();
    far.follow(here);
    entries.forEach((e, seq) => {
      far.record('F1', seq, e);
      far.offer(); // (as the station does when this game's plies change)
    });
    expect(far.folded).toBe(entries.length - 1);
    expect(moves.length).toBeGreaterThan(30);
    expect(here.played).toEqual(moves);
  });

  it('folds up to a gap, and the records after it once it fills', () => {
    const { entries, moves } = farJournal(200);
    const far = farBoard();
    const here = thisGame();
    far.follow(here);
    const gap = 51; // a move record
    expect(entries[gap]!.k).toBe('move');
    entries.forEach((e, seq) => seq !== gap && far.record('F1', seq, e));
    expect(far.folded).toBe(gap - 1);
    expect(here.played).toHaveLength(2);
    far.record('F1', gap, entries[gap]!);
    for (const [seq, e] of entries.entries()) if (seq > 0) far.record('F1', seq, e); // (each sent again: already folded, once)
    expect(far.folded).toBe(entries.length - 1);
    expect(here.played).toEqual(moves);
  });

  it('hands on no ply of a far game not linked to this one (their previous game after a next game here, however alike)', () => {
    const { entries, moves } = farJournal(60);
    const far = farBoard();
    const here = thisGame();
    let linked = false;
    far.follow({ ...here, linked: () => linked });
    entries.forEach((e, seq) => far.record('F1', seq, e));
    expect(far.folded).toBe(entries.length - 1);
    expect(here.played).toEqual([]);
    linked = true; // (their game of this pairing: its plies are theirs here)
    for (let n = -1; n < here.played.length;) {
      n = here.played.length;
      far.offer();
    }
    expect(here.played).toEqual(moves);
  });
});
