// ComputerPlayer on a scripted think: it asks once per turn, hands on the
// answer only for the position it was asked about, and on cancel() stops a
// search under way (so the engine's next search need not wait for it).
import { describe, expect, it } from 'vitest';
import { ComputerPlayer } from '../../src/game/computer.ts';
import type { EngineRequest, EngineResult } from '../../src/engine/port.ts';
import { Game, legalMoves, playMove, sameMove, samePosition, START, type Move } from '../../src/rules/index.ts';

describe('ComputerPlayer', () => {
  it('thinks on its turn only; a cancel while thinking stops the search and drops its answer; one after it does not stop anything', async () => {
    const asked: EngineRequest[] = [];
    const answers: ((r: EngineResult | null) => void)[] = [];
    let stops = 0;
    const player = new ComputerPlayer(
      { side: 'white', level: 5 },
      (req) => {
        asked.push(req);
        return new Promise((resolve) => answers.push(resolve));
      },
      () => stops++,
    );
    const game = new Game(START);
    const moves: string[] = [];
    const onMove = (_: unknown, text: string) => moves.push(text);
    const onError = (e: Error) => {
      throw e;
    };
    player.consider(game, true, onMove, onError);
    expect(asked).toHaveLength(0); // Black's turn
    game.play(legalMoves(game.position)[0]!);
    player.consider(game, true, onMove, onError, { remainingMs: 30_000, incrementMs: 0 });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ purpose: 'computer', limits: { book: 'random', level: 5, clock: { remainingMs: 30_000 } } });
    player.consider(game, true, onMove, onError);
    expect(asked).toHaveLength(1); // already thinking
    player.cancel();
    expect(stops).toBe(1);
    answers[0]!({ move: legalMoves(game.position)[0]!, score: 0, depth: 1, pv: [], nodes: 0, ms: 0 });
    await Promise.resolve();
    expect(moves).toEqual([]); // the cancelled search's answer is dropped
    // Asked again: this time the answer is handed on; a cancel afterwards stops nothing.
    player.consider(game, true, onMove, onError);
    answers[1]!({ move: legalMoves(game.position)[0]!, score: 0, depth: 1, pv: [], nodes: 0, ms: 0 });
    await Promise.resolve();
    await Promise.resolve();
    expect(moves).toHaveLength(1);
    player.cancel();
    expect(stops).toBe(1);
  });

  describe('pondering: the position after the expected reply is searched on the player’s time', () => {
    /** A level-10 computer playing White on a scripted engine; its answers' lines are [its move, the reply it expects]. */
    function setUp(ponder = true) {
      const asked: EngineRequest[] = [];
      const answers: ((r: EngineResult | null) => void)[] = [];
      const stops: string[] = [];
      const player = new ComputerPlayer(
        { side: 'white', level: 10 },
        (req) => {
          asked.push(req);
          return new Promise((resolve) => answers.push(resolve));
        },
        (p) => stops.push(p),
        2000,
        ponder,
      );
      const game = new Game(START);
      const played: Move[] = [];
      const onMove = (m: Move) => played.push(m);
      const onError = (e: Error) => {
        throw e;
      };
      game.play(legalMoves(game.position)[0]!);
      player.consider(game, true, onMove, onError);
      const mine = legalMoves(game.position)[0]!;
      const after = playMove(game.position, mine);
      const [expected, other] = legalMoves(after) as [Move, Move];
      return { asked, answers, stops, player, game, played, onMove, onError, mine, expected, other };
    }
    const flush = async () => {
      for (let i = 0; i < 3; i++) await Promise.resolve();
    };

    it('its move played, it ponders the expected reply; that reply played: a hit, the ponder stopped, its own search asked', async () => {
      const t = setUp();
      t.answers[0]!({ move: t.mine, score: 0, depth: 9, pv: [t.mine, t.expected], nodes: 0, ms: 0 });
      await flush();
      expect(t.played).toHaveLength(1);
      t.player.consider(t.game, true, t.onMove, t.onError);
      expect(t.asked).toHaveLength(1); // its move is not on the board yet
      t.game.play(t.mine);
      t.player.played();
      t.player.consider(t.game, true, t.onMove, t.onError);
      expect(t.asked).toHaveLength(2);
      const ponder = t.asked[1]!;
      expect(ponder.purpose).toBe('ponder');
      expect(ponder.limits).toMatchObject({ book: 'off' });
      expect(samePosition(ponder.position, playMove(t.game.position, t.expected))).toBe(true);
      t.player.consider(t.game, true, t.onMove, t.onError); // a board event while the player thinks: still one ponder
      expect(t.asked).toHaveLength(2);
      expect(t.stops).toEqual([]);
      t.game.play(t.expected);
      t.player.consider(t.game, true, t.onMove, t.onError);
      expect(t.player.ponderHits).toBe(1);
      expect(t.stops).toEqual(['ponder']);
      expect(t.asked[2]).toMatchObject({ purpose: 'computer' });
      expect(samePosition(t.asked[2]!.position, ponder.position)).toBe(true);
    });

    it('another reply played: a miss, the ponder stopped, the new position searched afresh', async () => {
      const t = setUp();
      t.answers[0]!({ move: t.mine, score: 0, depth: 9, pv: [t.mine, t.expected], nodes: 0, ms: 0 });
      await flush();
      t.game.play(t.mine);
      t.player.played();
      t.player.consider(t.game, true, t.onMove, t.onError);
      expect(t.asked[1]!.purpose).toBe('ponder');
      t.game.play(t.other);
      t.player.consider(t.game, true, t.onMove, t.onError);
      expect(t.player.ponderMisses).toBe(1);
      expect(t.player.ponderHits).toBe(0);
      expect(t.stops).toEqual(['ponder']);
      expect(t.asked[2]).toMatchObject({ purpose: 'computer' });
      expect(samePosition(t.asked[2]!.position, t.game.position)).toBe(true);
      expect(sameMove(t.expected, t.other)).toBe(false);
    });

    it('a takeback while pondering stops it; off, or at a level with noise, it never ponders', async () => {
      const t = setUp();
      t.answers[0]!({ move: t.mine, score: 0, depth: 9, pv: [t.mine, t.expected], nodes: 0, ms: 0 });
      await flush();
      t.game.play(t.mine);
      t.player.played();
      t.player.consider(t.game, true, t.onMove, t.onError);
      t.player.cancel();
      expect(t.stops).toEqual(['ponder']);
      const off = setUp(false);
      off.answers[0]!({ move: off.mine, score: 0, depth: 9, pv: [off.mine, off.expected], nodes: 0, ms: 0 });
      await flush();
      off.game.play(off.mine);
      off.player.played();
      off.player.consider(off.game, true, off.onMove, off.onError);
      expect(off.asked).toHaveLength(1);
      expect(new ComputerPlayer({ side: 'white', level: 6 }, async () => null).ponders).toBe(false);
      expect(new ComputerPlayer({ side: 'white', level: 7 }, async () => null).ponders).toBe(true);
    });
  });
});
