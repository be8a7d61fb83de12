// Thinking on the opponent's time (src/engine/ponder.ts): the position after
// the expected reply, and what a search of it leaves for the real one — the
// work measured in nodes, never in time.
import { describe, expect, it } from 'vitest';
import {
  ponderHit,
  ponderLimits,
  ponderPlan,
  PONDER_DEPTH,
  Searcher,
  think,
  type EngineLimits,
  type SearchResult,
} from '../../src/engine/index.ts';
import { Game, legalMoves, playMove, sameMove, samePosition } from '../../src/rules/index.ts';

const DEPTH = 11;

describe('the ponder position: after the engine’s move and the reply its line expects', () => {
  const pos = Game.fromBallot(21).game.position;
  const r = think({ position: pos, limits: { depth: 8 } });

  it('is the line’s first two moves played; the opponent playing that reply is a hit, any other a miss', () => {
    const plan = ponderPlan(pos, r)!;
    expect(sameMove(plan.move, r.move!)).toBe(true);
    expect(sameMove(plan.expected, r.pv[1]!)).toBe(true);
    const after = playMove(pos, r.move!);
    expect(samePosition(plan.position, playMove(after, r.pv[1]!))).toBe(true);
    expect(ponderHit(plan, playMove(after, plan.expected))).toBe(true);
    const other = legalMoves(after).find((m) => !sameMove(m, plan.expected))!;
    expect(ponderHit(plan, playMove(after, other))).toBe(false);
  });

  it('none without a reply in the line, or for a line that does not start with the move', () => {
    expect(ponderPlan(pos, { move: r.move, pv: [r.move!] })).toBeNull();
    const other = legalMoves(pos).find((m) => !sameMove(m, r.move!))!;
    expect(ponderPlan(pos, { move: other, pv: r.pv })).toBeNull();
  });

  it('a ponder search has no time of its own: a depth, no book', () => {
    expect(ponderLimits()).toEqual({ depth: PONDER_DEPTH, book: 'off' });
    expect(ponderLimits(10)).toEqual({ depth: 10, book: 'off' });
  });
});

describe('a ponder hit is answered with less work than a cold search of the same depth', () => {
  /**
   * Ballots 5, 40, 101: the engine's move at depth 9, then the expected position pondered with `ponder` and searched
   * to DEPTH. `ponder` is told the cold search and the nodes a ponder to DEPTH takes from the same state (the same
   * steps on a second searcher: the search is deterministic), so a test can stop the ponder part-way whatever the
   * hash table the move's own search left it.
   */
  function hits(
    ponder: (cold: SearchResult, full: number) => EngineLimits,
  ): { hit: SearchResult; cold: SearchResult; pondered: SearchResult }[] {
    return [5, 40, 101].map((ballot) => {
      const pos = Game.fromBallot(ballot).game.position;
      const [searcher, twin] = [new Searcher(), new Searcher()];
      const plan = ponderPlan(pos, think({ position: pos, limits: { depth: 9 } }, { searcher }))!;
      think({ position: pos, limits: { depth: 9 } }, { searcher: twin });
      const full = think({ position: plan.position, limits: ponderLimits(DEPTH) }, { searcher: twin }).nodes;
      const cold = think({ position: plan.position, limits: { depth: DEPTH } }, { searcher: new Searcher() });
      // On the opponent's time: the expected position, until the opponent moves (here: a depth or a node count).
      const pondered = think({ position: plan.position, limits: ponder(cold, full) }, { searcher });
      const hit = think({ position: plan.position, limits: { depth: DEPTH } }, { searcher });
      expect(hit.depth).toBe(DEPTH);
      expect(legalMoves(plan.position).some((m) => sameMove(m, hit.move!))).toBe(true);
      return { hit, cold, pondered };
    });
  }

  it('a ponder search that reached the depth: its iterations stand, the hit answers with its move and searches no node', () => {
    for (const { hit, pondered } of hits(() => ponderLimits(DEPTH))) {
      expect(hit.nodes).toBe(0);
      expect(sameMove(hit.move!, pondered.move!)).toBe(true);
      expect(hit.score).toBe(pondered.score);
    }
  });

  it('a ponder stopped part-way (after 60 % of the nodes it needs to reach the depth): the hit goes on from its last iteration — each with fewer nodes than the cold search, together under a third', () => {
    let hitNodes = 0,
      coldNodes = 0;
    // (Stopped at 60 % of the cold search's nodes, the third network's ponder, warm from the move's own search,
    // reached the full depth on a ballot: no longer a ponder stopped part-way.)
    for (const { hit, cold, pondered } of hits((_, full) => ({ ...ponderLimits(), nodes: Math.round(full * 0.6) }))) {
      expect(pondered.depth).toBeLessThan(DEPTH);
      // (The last iteration costs most: a ponder stopped early in it leaves the hit most of that iteration to do.)
      expect(hit.nodes).toBeLessThan(cold.nodes);
      hitNodes += hit.nodes;
      coldNodes += cold.nodes;
    }
    expect(hitNodes).toBeLessThan(coldNodes / 3);
    // 2026-11-29, the third network: 23 % (hit/cold 0.34, 0.42, 0.12 on ballots 5, 40, 101; the whole ponder to the
    // depth 1.01, 0.98 and 0.33 of the cold search). At 60 % of the cold search's nodes: the second network 13 %
    // (0.55, 0.02, 0.05), the first 0.12, 0.40, 0.25.
  });

  it('a miss: the other position is searched afresh, to its full depth, as deep and on as much work as a cold search', () => {
    const pos = Game.fromBallot(40).game.position;
    const searcher = new Searcher();
    const mine = think({ position: pos, limits: { depth: 9 } }, { searcher });
    const plan = ponderPlan(pos, mine)!;
    think({ position: plan.position, limits: { depth: DEPTH } }, { searcher });
    const after = playMove(pos, plan.move);
    const other = playMove(
      after,
      legalMoves(after).find((m) => !sameMove(m, plan.expected))!,
    );
    const miss = think({ position: other, limits: { depth: DEPTH } }, { searcher });
    const cold = think({ position: other, limits: { depth: DEPTH } }, { searcher: new Searcher() });
    expect(miss.depth).toBe(DEPTH);
    expect(legalMoves(other).some((m) => sameMove(m, miss.move!))).toBe(true);
    expect(miss.nodes).toBeGreaterThan(cold.nodes / 4);
  });
});
