// Tracking through the real service (HTTP/WebSocket on loopback, the journal
// on disk, the simulated board on its manual clock): a restart with kings on
// the board recognises them without lifting them; crowns put on at once, a
// few frames after the man landed, or as a ready-made stack are seen; a coin
// lying magnet-up is reported, not taken for an empty square.

import { countsOf } from '../../src/tracking/boards.ts';
import { describe, expect, it } from 'vitest';
import { Game, parseFen, type Move } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { useServices } from '../server/helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const services = useServices();

const start = services.watched;

/** Puts the position on the sim: coins at random off-centre, kings as stacks (some far off-centre: they read like one centred coin). */
function placePosition(sim: SimBoard, fen: string, offCentreKings: number[] = []): void {
  const counts = countsOf(unwrap(parseFen(fen)));
  for (let sq = 1; sq <= 32; sq++) sim.set(sq, counts[sq - 1]!, offCentreKings.includes(sq) ? { offMm: 3.2 } : undefined);
}

const moveOf = (g: Game, from: number, to: number): Move => g.legalMoves().find((m) => m.from === from && m.to === to)!;

describe('tracking through the service', () => {
  it('after a restart with kings on the board, the board calibrates and play goes on without lifting them (4 restarts)', async () => {
    const fen = 'W:WK14,22,K30,31:B1,K5,11,K27';
    const first = await start({ game: { start: { fen } } });
    placePosition(first.sim, fen);
    first.sim.advance(800);
    await first.c.event('ready');
    const dir = first.dir;
    await first.service.close();
    for (let k = 0; k < 4; k++) {
      // The board stays as it was (kings standing, two of them far off-centre); the service comes back.
      const sim = new SimBoard({ clock: 'manual', seed: 40 + k });
      await sim.open();
      placePosition(
        sim,
        fen,
        [
          [14, 5],
          [30, 27],
          [5, 27],
          [14, 30],
        ][k],
      );
      await sim.close();
      const again = await start({ board: { source: sim }, storage: { gamesDir: dir } });
      sim.advance(1500);
      await again.c.event('ready');
      const state = again.service.session.snapshot();
      expect(state.status.kind).toBe('in-sync');
      expect(state.board.calibrated).toBe(true);
      expect(again.c.received.filter((m) => m.type === 'event' && m.event.type === 'alert')).toEqual([]);
      await again.service.close();
    }
  });

  for (const [name, delay] of [
    ['at once (0 ms)', 0],
    ['40 ms after the man landed', 40],
    ['120 ms after the man landed', 120],
    ['as a ready-made stack', -1],
  ] as const) {
    it(`a crown put on ${name} is seen: the opponent plays on with no alert`, async () => {
      const fen = 'B:W5,20:B26,1';
      const s = await start({ game: { start: { fen } } });
      placePosition(s.sim, fen);
      s.sim.advance(800);
      await s.c.event('ready');
      const g = new Game(unwrap(parseFen(fen)));
      const m = moveOf(g, 26, 30);
      s.sim.lift(26);
      s.sim.advance(150);
      if (delay < 0) s.sim.set(30, 2);
      else {
        s.sim.set(30, 1);
        if (delay) s.sim.advance(delay);
        s.sim.place(30);
      }
      s.sim.advance(400);
      g.play(m);
      // The opponent answers.
      s.sim.lift(20);
      s.sim.advance(150);
      s.sim.set(16, 1);
      s.sim.advance(1500);
      await s.c.next((e) => e.type === 'event' && e.event.type === 'move' && e.state.moves.length === 2, 'the reply');
      const events = s.c.received.filter((e) => e.type === 'event').map((e) => e.event.type);
      expect(events).toContain('crowned');
      expect(events).not.toContain('alert');
      const state = s.service.session.snapshot();
      expect(state.pieces).toContainEqual({ square: 30, color: 'black', king: true });
      expect(state.status.kind).toBe('in-sync');
    });
  }

  it('a coin put down magnet-up counts as a coin and is reported ("turn it over"), then play goes on', async () => {
    const s = await start();
    placePosition(s.sim, 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12');
    s.sim.advance(800);
    await s.c.event('ready');
    s.sim.lift(11);
    s.sim.advance(150);
    s.sim.set(15, 1, { upsideDown: true });
    s.sim.advance(600);
    await s.c.next((e) => e.type === 'event' && e.event.type === 'move', 'the move with the coin magnet-up');
    expect(s.service.session.tracker.currentReminder?.message).toBe('The coin on 15 is upside down: turn it over.');
    const snap = s.service.session.snapshot();
    expect(snap.status).toMatchObject({ kind: 'in-sync', reminder: { category: 'upside-down', squares: [15] } });
    // The page hears it as a quiet notice (spoken politely, no buzzer), with the square to look at.
    const notice = await s.c.next(
      (e) => e.type === 'event' && e.event.type === 'notice' && e.event.level === 'reminder',
      'the reminder as a notice',
    );
    expect(notice.event).toEqual({ type: 'notice', level: 'reminder', squares: [15], say: 'The coin on 15 is upside down: turn it over.' });
    s.sim.flip(15);
    s.sim.advance(600);
    expect(s.service.session.tracker.currentReminder).toBeNull();
    expect(s.c.received.filter((e) => e.type === 'event' && e.event.type === 'alert')).toEqual([]);
  });
});
