// ComputerPlayer on a scripted think: it asks once per turn, hands on the
// answer only for the position it was asked about, and on cancel() stops a
// search under way (so the engine's next search need not wait for it).
import { describe, expect, it } from 'vitest';
import { ComputerPlayer } from '../../src/game/computer.ts';
import type { EngineRequest, EngineResult } from '../../src/engine/port.ts';
import { Game, legalMoves, START } from '../../src/rules/index.ts';

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
});
