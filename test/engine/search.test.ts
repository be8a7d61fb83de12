import { describe, expect, it } from 'vitest';
import { think, Searcher, levelOf, timeForMove, WIN_BOUND, evaluate } from '../../src/engine/index.ts';
import { legalMoves, parseFen, playMove, sameMove, sameResult, START, Game, BALLOTS, type Position } from '../../src/rules/index.ts';
import { readPdn, resultWinner, gameName } from '../../src/pdn/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { playsSolution } from '../harness/shots.ts';
import { unwrap } from '../../src/common/result.ts';

const isLegal = (pos: Position, m: { from: number; path: readonly number[] } | null): boolean =>
  m !== null && legalMoves(pos).some((l) => sameMove(l, m as never));

describe('tactics: the shots of "Tricks, Traps and Shots" (the stated first move of each won example)', () => {
  const games = readPdn(corpusFile('tricks_traps_and_shots.pdn')).games.filter(
    (g) => gameName(g).includes('TTS Example') && g.moves.length > 0 && resultWinner(g.result) === g.start.turn,
  );
  it('has the examples', () => expect(games.length).toBeGreaterThanOrEqual(15));
  // Late-move reductions (reductions.ts) make a nominal depth shallower off the principal line, so the deep
  // examples get more of it; each figure is the depth from which the search plays the solution (nodes then, and
  // what the search before reductions needed at the depth it had). The figures were measured with the first
  // network (599e585); the second (76c16b9) passes at the same depths, its own figures not measured. The third
  // (256 hidden units) plays Example 9's 19-15 from depth 17 (185 k nodes; through depth 16 it prefers 32-28, +109,
  // also winning) and Example 18's 16-12 with the win's score from depth 22 (2.4 M nodes).
  // Example 18 (W:W16,19,23,30:B8,22,24,26, 16-12) is an ending won about twenty plies deep, not a shot: the
  // search plays 16-12 from depth 14 but scores it about even (-24 to 0) until depth 23 sees the win (+174, 1.9 M
  // nodes; before reductions depth 22). It gets depth 23.
  // (Example 17 with pruning on plays the shot in another order: 32-27 31x24 22-18 13x22 for the book's
  // 22-18 13x22 32-27 31x24 — Black's replies are forced captures, the same score at every depth 10–16.)
  // Example 11 (W:W10,28,K22:B13,K1,K29, 28-24) is an ending too, White's men going to crown while the king
  // holds Black's two: depth 14–17 play 28-24 on a score about even, 18–23 prefer 10-7 (+7 to +36), 25 and deeper
  // find 28-24 and its win (+114 to +350; 26: 2.3 M nodes; before reductions depth 22). It gets depth 26.
  // Two shots that sacrifice a man, searched shallower when they are late moves: Example 6 from depth 20 (620 k
  // nodes; before reductions depth 16, 113 k), Example 16's 21-17 (W:W13,21,30,K14:B6,12,25,K23) from depth 18
  // (254 k; before, 16 and 175 k). Every other example at depth 16.
  const DEPTHS: Record<string, number> = { '6': 20, '9': 17, '11': 26, '16': 18, '18': 23 };
  const depthOf = (name: string): number => DEPTHS[/TTS Example (\d+)"/.exec(name)?.[1] ?? ''] ?? 16;
  for (const g of games) {
    it(gameName(g), () => {
      const r = think({ position: g.start, limits: { depth: depthOf(gameName(g)) } });
      expect(playsSolution(g.start, r.pv, g.moves)).toBe(true);
      expect(r.score).toBeGreaterThan(0);
    });
  }
});

describe('hand-checked positions', () => {
  it('a two-for-one shot: White 27-23 gives one and takes two', () => {
    // Example 3's stroke: 28-24 20x27, 19-15 11x18, 23x14 9x18, 32x14 wins outright.
    const r = think({ position: unwrap(parseFen('W:W32,28,23,19:B20,11,9,5')), limits: { depth: 10 } });
    expect(r.pv.map((m) => `${m.from}-${m.to}`).slice(0, 3)).toEqual(['28-24', '20-27', '19-15']);
    expect(r.score).toBeGreaterThan(WIN_BOUND); // every black piece goes: a forced win
  });

  it('a side with no move has lost; a forced capture is the only move', () => {
    const stuck = unwrap(parseFen('B:W5,6,10:B1')); // Black's man on 1 blocked by White's 5 and 6 (10 behind 6: no jump)
    expect(legalMoves(stuck)).toEqual([]);
    expect(think({ position: stuck, limits: { depth: 4 } }).move).toBeNull();
    const forced = unwrap(parseFen('B:W14:B10,1'));
    const r = think({ position: forced, limits: { depth: 3 } });
    expect(r.move?.captures).toEqual([14]);
  });

  it('two kings against one: the search reports a forced win', () => {
    // Depth 26 (277 k nodes): the kings' quiet moves are reduced, and 24 scores it +613 (before reductions: 24).
    const r = think({ position: unwrap(parseFen('W:WK18,K19:BK1')), limits: { depth: 26 } });
    expect(r.score).toBeGreaterThan(WIN_BOUND);
  });

  it('evaluation is symmetric: the colour-reversed position scores the same for its mover', () => {
    const flip = (bb: number): number => {
      let r = 0;
      for (let i = 0; i < 32; i++) if (bb & (1 << i)) r |= 1 << (31 - i);
      return r;
    };
    const g = Game.fromBallot(5).game;
    let pos = g.position;
    for (let k = 0; k < 12; k++) {
      const mirrored: Position = {
        black: flip(pos.white),
        white: flip(pos.black),
        kings: flip(pos.kings),
        turn: pos.turn === 'black' ? 'white' : 'black',
      };
      expect(evaluate(mirrored)).toBe(evaluate(pos));
      pos = playMove(pos, legalMoves(pos)[0]!);
    }
  });
});

describe('never an illegal move', () => {
  it('plays 6 games from ballots at mixed levels, every answer legal', () => {
    for (let b = 0; b < 6; b++) {
      const { game } = Game.fromBallot(BALLOTS[b * 17]!.number);
      const searchers = [new Searcher(16), new Searcher(16)];
      for (let ply = 0; ply < 120 && !game.outcome; ply++) {
        const pos = game.position;
        const r = think({ position: pos, limits: { level: 1 + ((b + ply) % 10), seed: b, nodes: 3000 } }, { searcher: searchers[ply % 2] });
        expect(isLegal(pos, r.move)).toBe(true);
        game.play(r.move!);
      }
    }
  });
});

describe('verified pruning (off the principal line)', () => {
  // Late-move reductions off in both: they change what a depth means, and this measures the pruning alone.
  it('searches fewer nodes to the same depth than a full-width search, and both answer legally', () => {
    let pruned = 0,
      full = 0;
    for (const ballot of [1, 8, 31, 62, 100]) {
      const pos = Game.fromBallot(ballot).game.position;
      const a = new Searcher().search(pos, { depth: 8, reductions: false }),
        b = new Searcher().search(pos, { depth: 8, pruning: false, reductions: false });
      expect(isLegal(pos, a.move) && isLegal(pos, b.move)).toBe(true);
      expect(a.depth).toBe(8);
      pruned += a.nodes;
      full += b.nodes;
    }
    console.log(`depth 8 from 5 ballots: ${pruned} nodes with verified pruning, ${full} without`);
    expect(pruned).toBeLessThan(0.8 * full); // 1,825,059 against 2,515,011
  }, 240_000); // ~4 M nodes: seconds alone, more beside other suites (the counts hold no time)
});

describe('deterministic modes', () => {
  it('fixed depth: same move, score, line and node count on every run', () => {
    const pos = Game.fromBallot(8).game.position;
    const a = think({ position: pos, limits: { depth: 7 } }),
      b = think({ position: pos, limits: { depth: 7 } });
    expect(a.score).toBe(b.score);
    expect(a.nodes).toBe(b.nodes);
    expect(a.pv.map((m) => m.path.join())).toEqual(b.pv.map((m) => m.path.join()));
  });

  it('fixed nodes: stops at the node count, same answer each time', () => {
    const a = think({ position: START, limits: { nodes: 20000 } }),
      b = think({ position: START, limits: { nodes: 20000 } });
    expect(a.nodes).toBeLessThanOrEqual(20000);
    expect(a.move && b.move && sameMove(a.move, b.move)).toBe(true);
    expect(a.depth).toBe(b.depth);
  });

  it('time is an input: a fake clock that jumps stops the search', () => {
    let t = 0;
    const r = think({ position: START, limits: { timeMs: 100 } }, { now: () => (t += 1) }); // each reading 1 ms later
    expect(r.depth).toBeGreaterThanOrEqual(1);
    expect(isLegal(START, r.move)).toBe(true);
    expect(t).toBeLessThan(2000); // read once per 1024 nodes: stopped soon after 100 "ms"
  });

  it('a level with the same seed repeats its choices; levels cap the depth', () => {
    const pos = Game.fromBallot(20).game.position;
    const a = think({ position: pos, limits: { level: 2, seed: 7 } }),
      b = think({ position: pos, limits: { level: 2, seed: 7 } });
    expect(a.move && b.move && sameMove(a.move, b.move)).toBe(true);
    expect(a.depth).toBeLessThanOrEqual(levelOf(2).maxDepth);
    expect(() => levelOf(11)).toThrow(/1 to 10/);
  });

  it('clock time management: a slice of the remaining time plus the increment, never more than a third', () => {
    expect(timeForMove({ remainingMs: 300_000 })).toBeCloseTo(10_000);
    expect(timeForMove({ remainingMs: 60_000, incrementMs: 2000 })).toBeCloseTo(3600);
    expect(timeForMove({ remainingMs: 900, incrementMs: 5000 })).toBeLessThanOrEqual(300);
  });

  it('with a time per move and a clock, the search keeps within both (the lesser)', () => {
    const ticks = (limits: { timeMs?: number; clock?: { remainingMs: number } }): number => {
      let t = 0;
      think({ position: START, limits: { ...limits } }, { now: () => (t += 1) });
      return t;
    };
    // 60 s a move but 3 s on the clock (a tenth of a second for this move): stops near 100 "ms".
    expect(ticks({ timeMs: 60_000, clock: { remainingMs: 3000 } })).toBeLessThan(2000);
    // The clock's share is more than the time per move: the time per move holds.
    expect(ticks({ timeMs: 100, clock: { remainingMs: 3_600_000 } })).toBeLessThan(2000);
  });

  it('repetition in the game history is a draw the search sees', () => {
    // Two kings each side shuffling: with the history of the root position twice, a move back scores 0.
    const pos = unwrap(parseFen('B:WK32:BK1'));
    const r = think({ position: pos, limits: { depth: 6 } });
    expect(Math.abs(r.score)).toBeLessThan(WIN_BOUND);
  });
});
