// Seen on the simulated board the server runs by default
// (sim seed 1, the start position set up): OCA game index 34 played with the
// page's plain hand (lift, set, lift the captured coins, put the crown on top).
// At ply 85 (6-1) the crown goes on a weak man lying off-centre on square 1 and
// the stack, off-centre too, reads below a centred man (physics, as on the
// hardware); its only evidence is the rise from the man's own reading. The game
// must not stay blocked on "Crown the king on 1 first".
// And a restart (a fresh process: the sim comes up with the start position, the
// game resumed mid-way is set up by hand on it): a king put together on a
// square where a man stood at the start was calibrated with the man's reading
// as its empty level, so the square read as a coin magnet-up once the king
// left it, and the king's next move was called illegal.
import { describe, expect, it } from 'vitest';
import { readPdn } from '../../src/pdn/index.ts';
import { Game, legalMoves, parseFen, type Move } from '../../src/rules/index.ts';
import { countsOf } from '../../src/tracking/boards.ts';
import { SimBoard } from '../../src/sensors/sim/index.ts';
import { BoardTracking } from '../../src/tracking/board-tracking.ts';
import { writerOn } from '../harness/table.ts';
import type { TrackerEvent } from '../../src/tracking/tracker.ts';
import { corpusFile } from '../harness/corpus.ts';
import { unwrap } from '../../src/common/result.ts';

describe('the default simulated board (seed 1)', () => {
  it('OCA game index 34: the crown on 1 (ply 85), weak and off-centre, is read once the opponent moves on', async () => {
    const record = readPdn(corpusFile('OCA_2.0.pdn')).games[34];
    const sim = new SimBoard({ seed: 1, startPosition: true });
    const game = Game.standard();
    const tracking = new BoardTracking(
      game,
      writerOn(() => game),
    );
    const events: TrackerEvent[] = [];
    sim.onFrame((f) => events.push(...tracking.push(f.t, f.readings)));
    await sim.open();
    sim.advance(1000);
    for (const node of record.moves) {
      const m = node.move;
      const same = (x: Move) => x.from === m.from && x.to === m.to && x.path.join() === m.path.join();
      const move = legalMoves(game.position, game.options).find(same)!;
      expect(move).toBeDefined();
      const coins = sim.coinsAt(move.from);
      sim.lift(move.from);
      sim.advance(200);
      sim.set(move.to, move.crowned ? 1 : coins);
      sim.advance(200);
      for (const c of move.captures) {
        sim.lift(c);
        sim.advance(200);
      }
      if (move.crowned) {
        sim.advance(300);
        sim.place(move.to);
      }
      sim.advance(800);
      if (tracking.currentAlert) break;
    }
    expect(events.filter((e) => e.type === 'alert')).toEqual([]);
    expect(events.some((e) => e.type === 'crowned' && e.square === 1)).toBe(true);
    expect(game.plies.length).toBe(record.moves.length);
  });

  it("a game resumed after a restart, set up by hand on the start position: a king made on a man's square moves on", async () => {
    for (const [fen, from, to] of [
      ['W:WK6,28:B3,12', 6, 10],
      ['B:WK30,5:BK2,K27,10', 27, 24],
    ] as const) {
      const game = new Game(unwrap(parseFen(fen)));
      const sim = new SimBoard({ seed: 1, startPosition: true });
      const tracking = new BoardTracking(
        game,
        writerOn(() => game),
      );
      const events: TrackerEvent[] = [];
      sim.onFrame((f) => events.push(...tracking.push(f.t, f.readings)));
      await sim.open();
      sim.advance(1500);
      const counts = countsOf(game.position);
      for (let s = 1; s <= 32; s++) sim.set(s, counts[s - 1]!);
      sim.advance(1500);
      expect(tracking.phase, fen).toBe('play');
      sim.lift(from);
      sim.advance(200);
      sim.set(to, 2);
      sim.advance(1500);
      expect(
        events.filter((e) => e.type === 'alert' || e.type === 'reminder'),
        fen,
      ).toEqual([]);
      expect(
        game.plies.map((p) => `${p.move.from}-${p.move.to}`),
        fen,
      ).toEqual([`${from}-${to}`]);
    }
  });
});
