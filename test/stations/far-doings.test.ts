// A game between two boards far apart is one game on both: what a player does
// besides moving passes to the other board as that player's doing. A
// resignation at one board ends the game on the other (announced, spoken, the
// same result and termination); a draw offered at one is shown at the other
// and, accepted there, ends the game on both; a takeback asked at one is
// shown at the other and, agreed there, taken back on both (each board's
// player puts the pieces back); refused, nothing changes. The two boards'
// PDNs are the same after each. Two simulated stations (NORTH and SOUTH) on
// the embedded broker and on Mosquitto.

import { afterEach, describe, expect, it } from 'vitest';
import { colorAt, type Move } from '../../src/rules/index.ts';
import type { SessionEvent } from '../../src/game/index.ts';
import { countsOf } from '../../src/tracking/boards.ts';
import { GAMES, brokers, removeTempDirs, twoFarBoards, until, type FarBoard } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

type Board = FarBoard;

const BROKERS = brokers(closers);

const twoBoards = (url: string) => twoFarBoards(url, [51, 52], closers);

/** The n-th move made at `here` (by its player), carried out on the far board by its player; both boards at `ply` + 1 plies. */
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

/** The player puts the pieces back as the board's page shows them after a takeback; the board is ready again. */
function putBack(b: Board): void {
  const pos = b.session.game.position;
  const counts = countsOf(pos);
  for (let q = 1; q <= 32; q++)
    if (b.sim.coinsAt(q) !== counts[q - 1]) b.sim.set(q, counts[q - 1]!, { color: colorAt(pos, q) ?? undefined });
  b.sim.advance(800);
  expect(b.session.tracker.phase).toBe('play');
}

/** What the board said of one kind of event, in order. */
const said = (b: Board, type: SessionEvent['type']) =>
  b.events.filter((e) => e.type === type).map((e) => e as Extract<SessionEvent, { say: string }>);

/** A corpus game's first moves, none a capture (so each board's player puts a move back by hand). */
function quietOpening(n: number): Move[] {
  for (const g of GAMES) {
    const moves = g.moves.slice(0, n).map((m) => m.move);
    if (moves.length === n && moves.every((m) => m.captures.length === 0)) return moves;
  }
  throw new Error(`no corpus game opens with ${n} quiet moves`);
}

describe.each(BROKERS)('what the players do besides moving passes between the two boards (%s)', (_name, brokerUrl) => {
  it('a resignation at one board ends the game on the other, the same result and termination, announced and spoken', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const moves = quietOpening(4);
    for (const [i, m] of moves.entries()) await playOne(i % 2 === 0 ? north : south, i % 2 === 0 ? south : north, m);
    // Bob (White, at SOUTH) cannot resign for Ann; Ann resigns at her own board.
    expect(() => south.session.resign('black')).toThrow(/Ann plays Black at the other board/);
    north.session.resign('black');
    await until(() => south.session.result !== '*', 'the resignation reaching SOUTH');
    expect(south.session.result).toBe('0-1');
    expect(south.session.game.outcome).toEqual({ winner: 'white', reason: 'resignation' });
    const over = said(south, 'game-over').at(-1)!;
    expect(over.say).toBe('Ann resigned, at the other board. White wins: Black resigned.');
    expect(south.session.pdn()).toMatch(/\[Termination "Black resigned"\]/);
    expect(south.session.pdn()).toBe(north.session.pdn());
    expect(said(north, 'game-over')).toHaveLength(1);
  });

  it('a draw offered at one board, declined and offered again, accepted at the other: 1/2-1/2 on both', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const moves = quietOpening(4);
    await playOne(north, south, moves[0]!);
    await playOne(south, north, moves[1]!);
    // Ann offers at NORTH: shown at SOUTH as an offer from the far player; Bob declines: cleared on both.
    north.session.offerDraw('black');
    await until(() => south.session.drawOffer === 'black', 'the offer shown at SOUTH');
    expect(() => north.session.acceptDraw('white')).toThrow(/Bob plays White at the other board/);
    south.session.declineDraw();
    expect(south.session.drawOffer).toBeNull();
    await until(() => north.session.drawOffer === null, 'the offer cleared at NORTH');
    expect(said(north, 'draw-offer').at(-1)).toMatchObject({ side: null, say: 'White declines the draw.' });
    // Offered again, then a move: cleared on both, as at one board.
    north.session.offerDraw('black');
    await until(() => south.session.drawOffer === 'black', 'the second offer shown at SOUTH');
    await playOne(north, south, moves[2]!);
    expect(north.session.drawOffer).toBeNull();
    expect(south.session.drawOffer).toBeNull();
    // Bob offers at SOUTH; Ann accepts at NORTH: the game ends 1/2-1/2 on both.
    south.session.offerDraw('white');
    await until(() => north.session.drawOffer === 'white', 'the offer shown at NORTH');
    north.session.acceptDraw('black');
    expect(north.session.result).toBe('1/2-1/2');
    await until(() => south.session.result !== '*', 'the agreement reaching SOUTH');
    expect(south.session.result).toBe('1/2-1/2');
    expect(south.session.game.outcome).toEqual({ winner: null, reason: 'agreement' });
    expect(said(south, 'game-over').at(-1)!.say).toBe('Ann accepts the draw, at the other board. Draw by agreement.');
    expect(south.session.pdn()).toBe(north.session.pdn());
  });

  it('a takeback asked at one board, agreed at the other, is taken back on both; refused, nothing changes', async () => {
    const { north, south } = await twoBoards(await brokerUrl());
    const moves = quietOpening(4);
    await playOne(north, south, moves[0]!);
    await playOne(south, north, moves[1]!);
    await playOne(north, south, moves[2]!);
    // Ann asks at NORTH to take back her move; Bob refuses at SOUTH: nothing changes on either board.
    north.session.takeback('black');
    await until(() => south.session.snapshot().takebackOffer === 'black', 'the request shown at SOUTH');
    expect(said(south, 'takeback-offer').at(-1)!.say).toBe('Ann asks to take back the last move.');
    expect(() => north.session.takebackAnswer(true)).toThrow(/Bob answers the takeback/);
    south.session.takebackAnswer(false);
    await until(() => north.session.snapshot().takebackOffer === null, 'the refusal reaching NORTH');
    expect(said(north, 'takeback-offer').at(-1)!.say).toBe('Bob declines the takeback.');
    expect(north.session.game.plies).toHaveLength(3);
    expect(south.session.game.plies).toHaveLength(3);
    expect(south.session.pdn()).toBe(north.session.pdn());
    // Asked again, agreed at SOUTH: taken back on both; each player puts the pieces back.
    north.session.takeback('black');
    await until(() => south.session.snapshot().takebackOffer === 'black', 'the second request shown at SOUTH');
    south.session.takebackAnswer(true);
    expect(south.session.game.plies).toHaveLength(2);
    await until(() => north.session.game.plies.length === 2, 'the takeback reaching NORTH');
    expect(north.session.snapshot().takebackOffer).toBeNull();
    expect(said(north, 'takeback').at(-1)!.say).toMatch(/Put the pieces back as shown/);
    putBack(north);
    putBack(south);
    expect(south.session.pdn()).toBe(north.session.pdn());
    // Play goes on from there: Ann plays another move, it reaches SOUTH as hers.
    const other = north.session.game.legalMoves().find((m) => m.from !== moves[2]!.from && m.captures.length === 0)!;
    await playOne(north, south, other);
    // Bob asks at SOUTH (the last ply is Ann's); Ann agrees at NORTH: taken back on both again.
    south.session.takeback('white');
    await until(() => north.session.snapshot().takebackOffer === 'white', "Bob's request shown at NORTH");
    north.session.takebackAnswer(true);
    await until(() => south.session.game.plies.length === 2, 'the takeback reaching SOUTH');
    putBack(north);
    putBack(south);
    expect(south.session.pdn()).toBe(north.session.pdn());
    expect(north.session.game.plies).toHaveLength(2);
  });
});
