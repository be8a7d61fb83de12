import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Egdb, think, WIN, WIN_BASE, WIN_BOUND } from '../../src/engine/index.ts';
import { Game, hasCapture, parseFen, popcount, type Position } from '../../src/rules/index.ts';

describe('endgame database (retrograde, up to 3 pieces)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-egdb-'));
  const db = Egdb.load(3, dir);

  it('is cached on first use and consistent with every successor', () => {
    expect(db.size).toBe(536_632);
    expect(statSync(join(dir, 'egdb-3.bin')).size).toBe(db.size * 2);
    expect(db.verify()).toEqual([]);
    // A second load reads the cache (and checks it); a damaged cache is rebuilt.
    expect(Egdb.load(3, dir).values).toEqual(db.values);
    writeFileSync(join(dir, 'egdb-3.bin'), Buffer.alloc(db.size * 2, 7));
    expect(Egdb.load(3, dir).verify()).toEqual([]);
  });

  it('two kings beat one king: every position where the lone king does not attack is a win, but for a few corner binds a deep search cannot win either', () => {
    let checked = 0;
    const notWon: Position[] = [];
    for (let i = 0; i < db.size; i++) {
      const p = db.positions[i]!;
      const own = p.turn === 'black' ? p.black : p.white;
      const opp = p.turn === 'black' ? p.white : p.black;
      if (popcount(own) !== 2 || popcount(opp) !== 1 || (own & p.kings) !== own || (opp & p.kings) !== opp) continue;
      // Where the lone king already attacks (e.g. both kings at once: W:WK6,K7:BK2), one king is lost: a draw.
      if (hasCapture({ ...p, turn: p.turn === 'black' ? 'white' : 'black' })) continue;
      checked++;
      if (db.values[i]! <= 0) notWon.push(p);
    }
    expect(checked).toBeGreaterThan(10_000);
    // 20 positions (kings jammed against the single corner or the side, the lone king
    // holding them): checked independently, a 24-ply search without the database finds no win either.
    expect(notWon.length).toBeLessThanOrEqual(20);
    for (const p of notWon.slice(0, 4)) expect(think(p, { depth: 24 }).score).toBeLessThan(WIN_BOUND);
    // The strong side to move always wins; the lone king to move loses unless it can capture.
    expect(db.probe(parseFen('W:WK18,K19:BK1'))).toBe(WIN_BASE - 21);
    expect(db.probe(parseFen('B:WK18,K19:BK1'))).toBeLessThan(0);
    expect(db.probe(parseFen('B:WK18:BK1'))).toBe(0); // king against king: a draw
    expect(db.probe(parseFen('W:WK6,K7:BK2'))).toBe(0); // the lone king forks both: a draw
  });

  it('the search plays it exactly: the win in 21 plies is announced and carried out', () => {
    const game = new Game(parseFen('W:WK18,K19:BK1'));
    const r = think(game.position, { depth: 4, egdb: db });
    expect(r.score).toBe(WIN - 21);
    let plies = 0;
    while (!game.outcome && plies < 80) {
      game.play(think(game.position, { depth: 3, egdb: db }).move!);
      plies++;
    }
    expect(game.outcome?.winner).toBe('white');
    expect(plies).toBe(21);
  });
});
