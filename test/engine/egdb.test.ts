import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Egdb, think, WIN, WIN_BASE } from '../../src/engine/index.ts';
import { Game, hasCapture, makeFen, parseFen, popcount } from '../../src/rules/index.ts';
import { kingsKey, loneKingWinsAKing, solveKings } from './kings-solver.ts';

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

  it('kings-only endings agree with an independent solver, and two kings beat one king except where the lone king wins a king or holds a single-corner bind', () => {
    const sq = (b: number): number[] => [...Array(32).keys()].filter((i) => b & (1 << i)).map((i) => i + 1);
    const exact = solveKings();
    let compared = 0, checked = 0;
    const binds: string[] = [];
    for (let i = 0; i < db.size; i++) {
      const p = db.positions[i]!;
      const occ = p.black | p.white;
      if ((p.kings & occ) !== occ || !p.black || !p.white) continue;
      const own = p.turn === 'black' ? p.black : p.white, opp = p.turn === 'black' ? p.white : p.black;
      const kp = { mine: sq(own), theirs: sq(opp) };
      expect(Math.sign(db.values[i]!), makeFen(p)).toBe(exact.get(kingsKey(kp)));
      compared++;
      if (popcount(occ) !== 3) continue;
      const strongToMove = popcount(own) === 2;
      if (!strongToMove && hasCapture(p)) continue; // the lone king takes one: a draw
      checked++;
      if (strongToMove ? db.values[i]! > 0 : db.values[i]! < 0) continue;
      // Not won: either the lone king wins a king by force (a fork) within two of its moves…
      if (loneKingWinsAKing(kp, !strongToMove, 2)) continue;
      // …or it is the single-corner bind: a strong king on 4 (or 29) can only leave by 8 (or 25), which
      // the lone king attacks from 11 (22) the moment the corner empties; the other strong king is tied to
      // guarding it (e.g. W:WK11:BK4,K8 — black to play 8-3/8-12, white 11-7/16 and back: no way out).
      const strong = strongToMove ? kp.mine : kp.theirs;
      expect(strong.includes(4) || strong.includes(29), makeFen(p)).toBe(true);
      binds.push(makeFen(p));
    }
    expect(compared).toBe(61_504);
    expect(checked).toBeGreaterThan(25_000);
    expect(binds.length).toBe(68);
    expect(binds).toContain('W:WK11:BK4,K8');
    // The strong side to move always wins from the open board; the lone king to move loses unless it can capture.
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
