// A game between two boards when a player's doing and the other's move cross
// on the way (each made before the other's reached its board). The rule: a
// resignation, or a draw accepted, stands in the position it was made in; a
// move the other board made meanwhile is dropped on both (taken back where it
// was made, refused where it arrives after the end), so both boards end with
// the same plies and the same result — one PDN. A draw offered while the
// other's move is on its way lapses on both, as a move lapses it at one board.
// Two simulated stations (NORTH: Ann, Black; SOUTH: Bob, White) on the
// embedded broker and on Mosquitto; "crossing" is both done in one turn of the
// event loop, before either station has published anything.

import { afterEach, describe, expect, it } from 'vitest';
import type { Move } from '../../src/rules/index.ts';
import { GAMES, brokers, removeTempDirs, twoFarBoards, until, type FarBoard } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

type Board = FarBoard;

const twoBoards = (url: string) => twoFarBoards(url, [81, 82], closers);

/** A move made at `here`, carried out at `there` once shown. */
async function playOne(here: Board, there: Board, move: Move): Promise<void> {
  const ply = here.session.game.plies.length;
  here.hand.playMove(move);
  here.sim.advance(800);
  expect(here.session.game.plies.length).toBe(ply + 1);
  await until(() => there.session.remote?.state().move !== null, `ply ${ply + 1} shown on the far board`);
  there.hand.playMove(move);
  there.sim.advance(800);
  expect(there.session.game.plies.length).toBe(ply + 1);
}

function quietOpening(n: number): Move[] {
  for (const g of GAMES) {
    const moves = g.moves.slice(0, n).map((m) => m.move);
    if (moves.length === n && moves.every((m) => m.captures.length === 0)) return moves;
  }
  throw new Error(`no corpus game opens with ${n} quiet moves`);
}

/** Three plies played on both boards: White (Bob, at SOUTH) to move; the fourth ply returned. */
async function threePlies(north: Board, south: Board): Promise<Move> {
  const moves = quietOpening(4);
  await playOne(north, south, moves[0]!);
  await playOne(south, north, moves[1]!);
  await playOne(north, south, moves[2]!);
  return moves[3]!;
}

/** Both boards' games over with the same record. */
async function sameEnd(north: Board, south: Board): Promise<void> {
  await until(() => north.session.result !== '*' && south.session.result !== '*', 'the game over on both boards');
  // (The move dropped where it arrived after the end: its records, the takeback and the result, come and change nothing there.)
  await until(() => north.session.pdn() === south.session.pdn(), 'one PDN on both boards', 10_000).catch(() => undefined);
  expect(south.session.pdn()).toBe(north.session.pdn());
}

const BROKERS = brokers(closers);

describe.each(BROKERS)('a doing and a move crossing between two boards (%s)', (_name, brokerUrl) => {
  it('Ann resigns at ply 3 while Bob’s fourth ply is on its way: his move is dropped, 0-1 after 3 plies on both', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const fourth = await threePlies(north, south);
    // Crossing: neither has heard of the other's doing.
    north.session.resign('black');
    south.hand.playMove(fourth);
    south.sim.advance(800);
    expect(south.session.game.plies).toHaveLength(4);
    await sameEnd(north, south);
    for (const b of [north, south]) {
      expect(b.session.result).toBe('0-1');
      expect(b.session.game.outcome).toEqual({ winner: 'white', reason: 'resignation' });
      expect(b.session.game.plies).toHaveLength(3);
    }
    expect(north.session.pdn()).toMatch(/\[Termination "Black resigned"\]/);
    // Bob is told his move did not count: taken back (put the piece back), and the game is over.
    const after = south.events.slice(south.events.findIndex((e) => e.type === 'takeback'));
    expect(after.map((e) => e.type)).toEqual(expect.arrayContaining(['takeback', 'game-over']));
    expect(after.find((e) => e.type === 'game-over')).toMatchObject({ say: expect.stringMatching(/^Ann resigned, at the other board/) });
  });

  it('Bob offers a draw at ply 3, Ann accepts while Bob’s fourth ply is on its way: his move is dropped, 1/2-1/2 after 3 plies on both', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const fourth = await threePlies(north, south);
    south.session.offerDraw('white');
    await until(() => north.session.drawOffer === 'white', 'the offer shown at NORTH');
    // Crossing: Ann accepts the offer; Bob, not knowing, plays on (his move lapses his offer at SOUTH).
    north.session.acceptDraw('black');
    south.hand.playMove(fourth);
    south.sim.advance(800);
    expect(south.session.game.plies).toHaveLength(4);
    expect(south.session.drawOffer).toBeNull();
    await sameEnd(north, south);
    for (const b of [north, south]) {
      expect(b.session.result).toBe('1/2-1/2');
      expect(b.session.game.outcome).toEqual({ winner: null, reason: 'agreement' });
      expect(b.session.game.plies).toHaveLength(3);
    }
  });

  it('Ann offers a draw at ply 3 while Bob’s fourth ply is on its way: the offer lapses on both, and the game goes on', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const fourth = await threePlies(north, south);
    north.session.offerDraw('black');
    south.hand.playMove(fourth);
    south.sim.advance(800);
    await until(() => north.session.remote?.state().move !== null, 'Bob’s fourth ply shown at NORTH');
    north.hand.playMove(fourth);
    north.sim.advance(800);
    expect(north.session.game.plies).toHaveLength(4);
    // SOUTH hears of the offer made in a position it has left: not shown; NORTH's move lapsed it there.
    await until(() => south.events.some((e) => e.type === 'move') && north.session.drawOffer === null, 'the offer lapsed at NORTH');
    expect(south.session.drawOffer).toBeNull();
    expect(north.session.result).toBe('*');
    expect(south.session.result).toBe('*');
    expect(south.session.pdn()).toBe(north.session.pdn());
    expect(() => south.session.acceptDraw('white')).toThrow();
  });
});
