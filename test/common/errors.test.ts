import { describe, expect, it } from 'vitest';
import { CrownheadError, errorBody } from '../../src/common/errors.ts';
import { FenError, GameError, parseFen } from '../../src/rules/index.ts';
import { UsageError } from '../../src/cli/args.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { unwrap } from '../../src/common/result.ts';

describe('one error shape', () => {
  it('stage errors are CrownheadErrors with a code, and keep their own class', () => {
    let caught: unknown;
    try {
      unwrap(parseFen('W:Wx'));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(FenError);
    expect(caught).toBeInstanceOf(CrownheadError);
    const fen = caught as FenError;
    expect(typeof fen.code).toBe('string');
    expect(errorBody(fen)).toEqual({ ok: false, code: fen.code, message: fen.message });
    expect(JSON.parse(JSON.stringify(new GameError('game-over', 'the game is over')))).toEqual({
      code: 'game-over',
      message: 'the game is over',
    });
    expect(new UsageError('no such flag --x').code).toBe('usage');
  });

  it('errors returned as values by a parser have the same shape', () => {
    const { errors } = readPdn('[Event "x"]\n1. 11-15 99-98 *\n');
    expect(errors.length).toBe(1);
    expect(errors[0]).toBeInstanceOf(CrownheadError);
    expect(errorBody(errors[0]).code).toBe(errors[0].code);
  });

  it('anything else goes on the wire as internal, without its details', () => {
    expect(errorBody(new Error('EACCES /secret/path'))).toEqual({
      ok: false,
      code: 'internal',
      message: 'internal error (see the service log)',
    });
    expect(errorBody('a string')).toMatchObject({ code: 'internal' });
  });
});
