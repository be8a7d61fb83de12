// Every parser of outside input answers with one shape, Result<T, E>: the
// value, or the CrownheadError (its stable code and sentence) naming what is
// wrong — never a throw for bad input; unwrap throws that same error.

import { describe, expect, it } from 'vitest';
import { CrownheadError } from '../../src/common/errors.ts';
import { unwrap, type Result } from '../../src/common/result.ts';
import { parseFen, parseFenSetup, parseMoveText, START, makeFen } from '../../src/rules/index.ts';
import { parseTimeControl, parseTimeControlTag } from '../../src/game/clock.ts';
import { parseComputerSetting } from '../../src/game/computer.ts';
import { parseBoardSpec } from '../../src/sensors/open.ts';
import { parseSquares } from '../../src/cli/doctor.ts';
import { parseDuration } from '../../src/cli/engine.ts';

/** The error a Result carries (failing the test if it has none). */
function errorOf<T>(r: Result<T>): CrownheadError {
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('expected an error');
  expect(r.error).toBeInstanceOf(CrownheadError);
  return r.error;
}

describe('parsers answer with a Result', () => {
  it('a bad input is an error value with its code and sentence, not a throw', () => {
    const cases: [() => Result<unknown>, string, RegExp][] = [
      [() => parseFen('B:W33:B1'), 'syntax', /square 33 is off the board/],
      [() => parseFenSetup('X:W1:B2'), 'syntax', /turn must be B or W/],
      [() => parseMoveText('11--15'), 'invalid', /not a move in numeric notation/],
      [() => parseMoveText('11-33'), 'invalid', /square 33 is off the board/],
      [() => parseTimeControl('fast'), 'bad-time-control', /"fast" is not a duration/],
      [() => parseTimeControlTag('0+3'), 'bad-time-control', /more than zero/],
      [() => parseComputerSetting('white:11'), 'bad-computer', /levels go from 1 to 10/],
      [() => parseBoardSpec('sim:north pole'), 'bad-board', /sim board name "north pole"/],
      [() => parseBoardSpec('nonsense'), 'bad-board', /"nonsense" is not a board/],
      [() => parseSquares('1-40'), 'usage', /outside 1–32/],
      [() => parseDuration('soon', '--time'), 'usage', /--time must be a duration/],
    ];
    for (const [read, code, sentence] of cases) {
      const e = errorOf(read());
      expect(e.code, e.message).toBe(code);
      expect(e.message).toMatch(sentence);
      expect(() => unwrap(read())).toThrow(e.message);
    }
  });

  it('a good input is its value', () => {
    expect(makeFen(unwrap(parseFen(makeFen(START))))).toBe(makeFen(START));
    expect(unwrap(parseMoveText('15x24x31'))).toEqual({ squares: [15, 24, 31], capture: true });
    expect(unwrap(parseTimeControlTag('-'))).toBeNull();
    expect(parseComputerSetting('black:3')).toEqual({ ok: true, value: { side: 'black', level: 3 } });
    expect(unwrap(parseBoardSpec('sim:NORTH:5'))).toEqual({ kind: 'sim', name: 'NORTH', seed: 5 });
    expect(unwrap(parseSquares('1-3,32'))).toEqual([1, 2, 3, 32]);
    expect(unwrap(parseDuration('500ms', '--time'))).toBe(500);
  });
});
