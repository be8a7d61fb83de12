// ACF time per move through the service: the new-game command sets it, the
// page's socket gets the clock with the short limit for a forced capture,
// "time" as an event at the limit, a move in the grace period is in time, and
// the side that does not move loses; a malformed control is refused by name.
import { describe, expect, it } from 'vitest';
import { parseFen } from '../../src/rules/index.ts';
import { playOnSim, setUp, until, useServices } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const { watched } = useServices();

describe('time per move through the service', () => {
  it('short limit for the one capture, "time" at the limit, a move in the grace period counts, a side that never moves loses', async () => {
    let now = 1_000_000;
    const s = await watched({ game: { now: () => now, tickMs: 20 } });
    const { c, sim } = s;
    const fen = 'W:W22,30:B18,1';
    // (The board calibrates itself from the start position first.)
    setUp(sim);
    await c.event('ready');
    expect((await c.command({ name: 'new-game', fen, timeControl: '5m/move,1m/forced' })).type).toBe('ok');
    await c.event('new-game');
    setUp(sim, unwrap(parseFen(fen)));
    sim.advance(3000); // (emptied squares whose empty level was only guessed read faint for up to 2 s)
    await c.event('ready');
    expect((await c.command({ name: 'clock-start' })).type).toBe('ok');
    const started = await c.next((m) => m.type === 'clock' && m.clock.running === 'white');
    expect(started.clock).toMatchObject({
      control: '5 min a move, 1 min for a forced capture',
      white: 60_000,
      perMove: { side: 'white', forced: true, limit: 60_000, timeCalled: null },
    });

    now += 61_000;
    const time = await c.event('time');
    expect(time.event).toMatchObject({ side: 'white', graceMs: 60_000, say: 'Time, White. Move within a minute or lose on time.' });
    // The board's buzzer sounds too, once.
    const buzzes = () => sim.commands.filter((x) => x.command.type === 'buzz' && x.command.pattern === 'ILLEGAL').length;
    await until(() => buzzes() > 0, 'the buzzer');
    expect(buzzes()).toBe(1);
    const called = await c.next((m) => m.type === 'clock' && m.clock.perMove?.timeCalled === 'white');
    expect(called.clock.white).toBe(0);

    // White captures within the grace period: in time; Black's move starts afresh with 5 minutes.
    const capture = s.service.session.game.legalMoves().find((m) => m.from === 22)!;
    playOnSim(sim, capture);
    const mv = await c.event('move');
    expect(mv.event.move).toMatchObject({ from: 22, to: 15 });
    // (The move's event carries the state, clock included.)
    expect(mv.state.clock).toMatchObject({
      black: 300_000,
      running: 'black',
      perMove: { side: 'black', forced: false, limit: 300_000, timeCalled: null },
    });
    expect(s.service.session.game.outcome).toBeNull();

    // Black never moves: time at 5 minutes, lost a minute later.
    now += 300_000;
    expect((await c.event('time')).event.side).toBe('black');
    now += 60_000;
    const over = await c.event('game-over');
    expect(over.event).toMatchObject({ result: '0-1', outcome: { winner: 'white', reason: 'time' } });
    const pdn = s.service.session.pdn();
    expect(pdn).toContain('[TimeControl "300s/move,60s/forced,60s/grace"]');
    expect(pdn).toContain('[Termination "Black lost on time (no move within a minute of \\"time\\")"]');
    expect(pdn).toMatch(/22x15 \{\[%clk 0:00:00\]\}/);
  });

  it('a malformed per-move control is refused with the problem named, and the game in progress kept', async () => {
    const { c, service } = await watched();
    const id = service.session.gameId;
    const bad = await c.command({ name: 'new-game', timeControl: '1m/move,5m/forced' });
    expect(bad).toMatchObject({ type: 'error', code: 'bad-time-control' });
    expect(bad.message).toMatch(
      /time control "1m\/move,5m\/forced": the limit for a forced capture \(5 min\) is longer than for a move \(1 min\)/,
    );
    expect(service.session.gameId).toBe(id);
  });
});
