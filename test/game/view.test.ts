// The view: pure functions of the table's state — the PDN record, the move
// records, the snapshot's game part and the sentences about the game.

import { describe, expect, it } from 'vitest';
import { Game } from '../../src/rules/index.ts';
import { makePdn, readOnePdn } from '../../src/pdn/index.ts';
import {
  clkText,
  clockWords,
  moveRecords,
  openingWords,
  pdnRecord,
  piecesOf,
  speakMove,
  terminationOf,
  type TableState,
} from '../../src/game/view.ts';
import { parseTimeControlTag } from '../../src/game/clock.ts';
import { unwrap } from '../../src/common/result.ts';

function state(game: Game, extra: Partial<TableState> = {}): TableState {
  return {
    game,
    gameId: 'g',
    tags: { White: 'Bo', Event: 'Club', Black: 'Ann' },
    ballot: null,
    clock: null,
    drawOffer: null,
    result: '*',
    timeControl: null,
    plyClocks: new WeakMap(),
    corrections: [],
    records: new WeakMap(),
    ...extra,
  };
}

describe('the view', () => {
  it('writes the record with the usual tag order, the time control, the termination and %clk after each move', () => {
    const game = Game.standard();
    const plyClocks = new WeakMap();
    for (const ms of [297_000, 295_000]) {
      game.play(game.legalMoves()[0]);
      plyClocks.set(game.plies[game.plies.length - 1], ms);
    }
    game.resign('white');
    const rec = pdnRecord(state(game, { plyClocks, result: '1-0', timeControl: unwrap(parseTimeControlTag('300+3')) }));
    expect(rec.tags.map(([k]) => k)).toEqual(['Event', 'Black', 'White', 'TimeControl', 'Termination']);
    expect(rec.tags).toContainEqual(['Termination', 'White resigned']);
    expect(rec.moves[0].after).toEqual(['[%clk 0:04:57]']);
    const back = readOnePdn(makePdn(rec));
    expect(back.moves).toHaveLength(2);
    expect(back.result).toBe('1-0');
  });

  it('derives move records from the plies, once per ply', () => {
    const game = Game.standard();
    game.play(game.legalMoves()[0]);
    const t = state(game);
    const [a] = moveRecords(t);
    expect(a).toMatchObject({ ply: 0, number: 1, side: 'black', clock: null });
    expect(moveRecords(t)[0]).toBe(a);
    expect(speakMove(a)).toMatch(/^Black, \d+ to \d+\.$/);
  });

  it('speaks of outcomes and openings', () => {
    expect(terminationOf({ winner: 'black', reason: 'time' })).toBe('White lost on time');
    expect(piecesOf(Game.standard().position)).toHaveLength(24);
    expect(openingWords(Game.standard(), { Ballot: 'ACF 5 Dyke' }, 5, null)).toBe('Ballot 5 Dyke. ');
    expect(openingWords(Game.standard(), {}, null, null)).toBe('');
  });
});

describe('time left in words', () => {
  it('is said as a clock shows it, and written for %clk with hours', () => {
    expect(clockWords(239_000)).toBe('3:59');
    expect(clockWords(238_200)).toBe('3:59'); // a clock shows the second not yet over
    expect(clockWords(3_725_000)).toBe('1:02:05');
    expect(clockWords(-5)).toBe('0:00');
    expect(clkText(297_000)).toBe('0:04:57');
  });
});
