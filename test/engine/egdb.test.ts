import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Egdb, think, WIN, WIN_BASE } from '../../src/engine/index.ts';
import { FORTY_MOVE_PLIES, Game, hasCapture, makeFen, parseFen, popcount } from '../../src/rules/index.ts';
import { kingsKey, loneKingWinsAKing, solveKings } from './kings-solver.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';
import { forgetEgdbs, loadEgdb } from '../../src/engine-host/egdb-cache.ts';
import { unwrap } from '../../src/common/result.ts';

describe('endgame database, 3 pieces (built in a fresh folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-egdb-'));
  const logs: string[] = [];
  const db = loadEgdb(3, dir, (m) => logs.push(m));

  it('is built on first use, cached with a checksum, and consistent with every successor', () => {
    expect(logs[0]).toMatch(/^building the 3-piece endgame database/);
    expect(db.size).toBe(432_000);
    expect(db.positions).toBe(399_040);
    const file = join(dir, 'egdb-3.bin');
    expect(statSync(file).size).toBe(32 + db.size);
    expect(db.verify()).toEqual([]); // every position, its moves generated afresh
    // A second load (after forgetting the in-process copy) reads the cache and checks its checksum.
    forgetEgdbs();
    logs.length = 0;
    expect(loadEgdb(3, dir, (m) => logs.push(m)).data).toEqual(db.data);
    expect(logs).toEqual([]);
  });

  // (Three rebuilds of the 3-piece database: about 15 s on a quiet core, over a minute on a busy 2-core machine.)
  it('a damaged cache is reported and rebuilt, never trusted', { timeout: 300_000 }, () => {
    const file = join(dir, 'egdb-3.bin');
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[40_000] ^= 4; // one bit of one value
    for (const [bytes, why] of [
      [flipped, /checksum mismatch/],
      [good.subarray(0, 1000), /truncated/],
      [Buffer.from('hello'), /not an endgame database/],
    ] as const) {
      writeFileSync(file, bytes);
      forgetEgdbs();
      const logs: string[] = [];
      const again = loadEgdb(3, dir, (m) => logs.push(m));
      expect(logs[0]).toMatch(why);
      expect(logs[0]).toMatch(/: rebuilding it$/);
      expect(again.data).toEqual(db.data);
      expect(readFileSync(file)).toEqual(good);
    }
  });

  it('kings-only endings agree with an independent solver, and two kings beat one king except where the lone king wins a king or holds a single-corner bind', () => {
    const sq = (b: number): number[] => [...Array(32).keys()].filter((i) => b & (1 << i)).map((i) => i + 1);
    const exact = solveKings();
    let compared = 0,
      checked = 0;
    const binds: string[] = [];
    for (const [i, p] of db.entries()) {
      const occ = p.black | p.white;
      if ((p.kings & occ) !== occ || !p.black || !p.white) continue;
      const own = p.turn === 'black' ? p.black : p.white,
        opp = p.turn === 'black' ? p.white : p.black;
      const kp = { mine: sq(own), theirs: sq(opp) };
      expect(Math.sign(db.valueAt(i)!), makeFen(p)).toBe(exact.get(kingsKey(kp)));
      compared++;
      if (popcount(occ) !== 3) continue;
      const strongToMove = popcount(own) === 2;
      if (!strongToMove && hasCapture(p)) continue; // the lone king takes one: a draw
      checked++;
      if (strongToMove ? db.valueAt(i)! > 0 : db.valueAt(i)! < 0) continue;
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
    expect(db.probe(unwrap(parseFen('W:WK18,K19:BK1')))).toBe(WIN_BASE - 21);
    expect(db.probe(unwrap(parseFen('B:WK18,K19:BK1')))).toBeLessThan(0);
    expect(db.probe(unwrap(parseFen('B:WK18:BK1')))).toBe(0); // king against king: a draw
    expect(db.probe(unwrap(parseFen('W:WK6,K7:BK2')))).toBe(0); // the lone king forks both: a draw
  });

  it('a man on its own crowning row (only a set-up puts one there) is not in the database, and the search goes on without it', () => {
    // Beginner's Problem #10 of data/corpus/beginner.pdn as printed: a white man on 1 (the PDN
    // reader takes such a set-up with a warning; `crownhead analyse` of that file crashed on it).
    const lenient = (fen: string) => unwrap(parseFen(fen, { allowUncrownedMen: true }));
    const odd = lenient('W:W18,K15,1:BK30,K26,2');
    const db3 = loadEgdb(3, dir);
    for (const fen of ['W:W1:BK30', 'B:W1:BK30', 'W:WK18:B30', 'B:WK18:B29,K2']) {
      expect(db3.indexOf(lenient(fen)), fen).toBe(-1);
      expect(db3.probe(lenient(fen)), fen).toBeNull();
    }
    // (the neighbours of those squares are in it)
    expect(db3.indexOf(unwrap(parseFen('W:W5:BK30')))).toBeGreaterThanOrEqual(0);
    expect(db3.indexOf(unwrap(parseFen('W:WK18:B28')))).toBeGreaterThanOrEqual(0);
    const r = think({ position: odd, limits: { depth: 8 } }, { egdb: db3 });
    expect(r.move).not.toBeNull();
  });
});

describe('endgame database, 4 pieces', () => {
  const db = loadEgdb(4, TEST_EGDB_DIR);

  it('holds every position of up to 4 pieces, consistent with its successors', () => {
    expect(db.size).toBe(14_910_600);
    expect(db.positions).toBe(12_817_672);
    expect(statSync(join(TEST_EGDB_DIR, 'egdb-4.bin')).size).toBe(32 + db.size);
    // Every slice was checked against its successors while it was built; here one position in 211
    // is checked again with its moves generated afresh.
    expect(db.verify(211)).toEqual([]);
  });

  it('two kings beat one king from the open board, and two kings beat two kings only with a shot', () => {
    expect(db.probe(unwrap(parseFen('W:WK18,K19:BK1')))).toBe(WIN_BASE - 21);
    expect(db.probe(unwrap(parseFen('W:WK18,K19:BK1,K2')))).toBe(0);
  });

  // First Position, from Edward Lasker, "Chess and Checkers: The Way to Mastership" (1918),
  // Diagram 93, "White to Move and Win": White kings on 19 and 23, a Black king on 28 and a Black
  // man on 12 (https://bitlit.ru/chapter/en/edward-lasker/chess-and-checkers-the-way-to-mastership/the-first-position-27).
  // With Black to move it is a draw (http://wylliedraughts.com/FirstPos.htm: "with Red to play it would be a draw").
  const FIRST_POSITION = 'W:WK19,K23:BK28,12';

  it('First Position is a win for the two kings inside the 40-move rule, and a draw without the move', () => {
    const v = db.probe(unwrap(parseFen(FIRST_POSITION)))!;
    expect(v).toBeGreaterThan(0);
    expect(WIN_BASE - v).toBeLessThanOrEqual(FORTY_MOVE_PLIES);
    expect(db.probe(unwrap(parseFen(FIRST_POSITION.replace(/^W/, 'B'))))).toBe(0);
  });

  it('the engine wins First Position playing both sides, inside the 40-move rule', () => {
    const game = new Game(unwrap(parseFen(FIRST_POSITION)));
    const expected = WIN_BASE - db.probe(game.position)!;
    const first = think({ position: game.position, quietPlies: 0, limits: { depth: 6 } }, { egdb: db });
    expect(first.score).toBe(WIN - expected);
    while (!game.outcome && game.plies.length < 200) {
      expect(game.drawClaim()).toBeNull();
      game.play(think({ position: game.position, quietPlies: game.quietPlies, limits: { depth: 4 } }, { egdb: db }).move!);
    }
    expect(game.outcome?.winner).toBe('white');
    expect(game.plies.length).toBe(expected);
    expect(Math.max(...game.plies.map((p) => p.quiet))).toBeLessThan(FORTY_MOVE_PLIES);
  });
});

describe('the 40-move rule in the search', () => {
  const db = loadEgdb(4, TEST_EGDB_DIR);
  // Two kings against one: the shortest win takes 21 plies, all of them king moves but the last capture.
  const pos = unwrap(parseFen('W:WK18,K19:BK1'));

  it('a win that ends inside the count is exact; one the rule would cut off scores as a draw', () => {
    expect(think({ position: pos, quietPlies: 0, limits: { depth: 6 } }, { egdb: db }).score).toBe(WIN - 21);
    expect(think({ position: pos, quietPlies: 59, limits: { depth: 6 } }, { egdb: db }).score).toBe(WIN - 21); // the capture is the 80th quiet ply's move
    for (const quietPlies of [60, 75, 79]) expect(think({ position: pos, quietPlies, limits: { depth: 24 } }, { egdb: db }).score).toBe(0);
    // Without the database the search sees it too: at 79 quiet plies any move lets the lone king claim the draw.
    expect(think({ position: pos, quietPlies: 79, limits: { depth: 3 } }).score).toBe(0);
  });

  it('from a count near the limit the engine still wins by resetting it: a man’s move or a capture first', () => {
    // Two kings against a king and a man far from crowning: the man must move sooner or later, which resets the count.
    const game = new Game(unwrap(parseFen('W:WK19,K23:BK28,12')));
    const r = think({ position: game.position, quietPlies: 70, limits: { depth: 8 } }, { egdb: db });
    expect(r.score).toBeGreaterThan(0);
  });
});
