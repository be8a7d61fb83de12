// The friend's seat page as state (src/web/play-state.ts), fed the seat
// messages a real session's snapshot makes: a piece picked then its landing
// sends exactly that move, a multi-jump one landing at a time, nothing when it
// is not their turn or their move waits on the board; the words from the
// friend's side; a message that is not of the seat protocol named, the state
// kept.

import { describe, expect, it } from 'vitest';
import { GameSession } from '../../src/game/index.ts';
import { initialPlay, myTurn, onMessage, statusWords, tap, targets, type PlayState } from '../../src/web/play-state.ts';
import type { SeatInfo } from '../../src/protocol/play-v1.ts';

function seatState(fen: string | null, side: 'black' | 'white' = 'white', moved?: (s: GameSession) => void): PlayState {
  const session = new GameSession({ now: () => 0 });
  session.newGame({ ...(fen ? { fen } : {}), remote: { side, name: 'Bea' }, tags: { [side === 'white' ? 'Black' : 'White']: 'Ann' } });
  moved?.(session);
  const seat: SeatInfo = { name: 'Bea', side, opponent: 'Ann' };
  const snap = { ...session.snapshot(), status: { kind: 'in-sync' as const } };
  return onMessage({ ...initialPlay(), connected: true }, JSON.stringify({ v: 1, type: 'seat', seat, state: snap }), 0);
}

describe("the friend's seat page state", () => {
  it("picks a piece, shows its landings, and sends the move on the landing; not on the board player's turn", () => {
    const black = seatState(null, 'black');
    expect(statusWords(black)).toBe('Your move.');
    expect(targets(black).from).toEqual([9, 10, 11, 12]);
    const picked = tap(black, 11);
    expect(picked.send).toBeNull();
    expect(targets(picked.state).to.sort()).toEqual([15, 16]);
    expect(tap(picked.state, 15).send).toEqual([11, 15]);
    // Another of their pieces picks that one instead; an empty square lets go.
    expect(tap(picked.state, 10).state.picked).toEqual([10]);
    expect(tap(picked.state, 20).state.picked).toEqual([]);
    const white = seatState(null, 'white');
    expect(myTurn(white)).toBe(false);
    expect(statusWords(white)).toBe("Ann's move.");
    expect(tap(white, 22)).toMatchObject({ send: null });
  });

  it('a double jump is picked one landing at a time', () => {
    // A white man on 26, black men on 22 and 14: 26x17x10 is the only move.
    const s = seatState('W:W26:B22,14', 'white');
    const first = tap(s, 26);
    expect(targets(first.state).to).toEqual([17]);
    const mid = tap(first.state, 17);
    expect(mid.send).toBeNull();
    expect(targets(mid.state).to).toEqual([10]);
    expect(tap(mid.state, 10).send).toEqual([26, 17, 10]);
  });

  it("says when their move waits on the board, and how the game ended, from the friend's side", () => {
    const s = seatState(null, 'black', (session) => session.remoteMove({ ply: 0, path: [11, 15] }));
    expect(statusWords(s)).toBe('Ann is carrying out your move 11-15 on the board.');
    expect(myTurn(s)).toBe(false);
    const over = seatState(null, 'black', (session) => session.resign('white'));
    expect(statusWords(over)).toBe('You won (by resignation).');
  });

  it('a message that is not of the seat protocol is named, the state kept', () => {
    const s = seatState(null, 'black');
    const bad = onMessage(s, '{"v":1,"type":"event"}', 1);
    expect(bad.error).toMatch(/does not know/);
    expect(bad.snap).toBe(s.snap);
    expect(onMessage(s, 'nope', 1).error).toMatch(/not JSON/);
  });

  it("shows the sentences meant for the friend, not the board player's instructions", () => {
    const s = seatState(null, 'black');
    const event = (e: Record<string, unknown>) => JSON.stringify({ v: 1, type: 'event', event: e, seat: s.seat, state: s.snap });
    const offered = onMessage(s, event({ type: 'draw-offer', side: 'white', say: 'Ann offers a draw.' }), 1);
    expect(offered.said).toBe('Ann offers a draw.');
    const told = {
      type: 'remote-move',
      text: '11-15',
      from: 11,
      path: [15],
      captures: [],
      say: 'Bea plays 11 to 15: carry it out on the board.',
    };
    expect(onMessage(offered, event(told), 2).said).toBe('Ann offers a draw.');
  });

  it('a seat that ended (closed, or a new pairing) stops the page: said so, nothing to pick or press', () => {
    const s = seatState(null, 'black');
    const ended = onMessage(s, JSON.stringify({ v: 1, type: 'error', code: 'seat-closed', message: 'gone' }), 1);
    expect(ended.ended).toBe(true);
    expect(statusWords(ended)).toMatch(/^This link is no longer a seat/);
    expect(myTurn(ended)).toBe(false);
    expect(tap(ended, 11).send).toBeNull();
  });
});
