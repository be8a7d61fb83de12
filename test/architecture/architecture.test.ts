// The layout rules the team keeps: no import cycle anywhere in src/, no
// file over 600 lines, no function over 80 lines where the wiring and the
// state live (server, game, storage, tracking, tournament), every `as
// unknown as` with its reason beside it, every error a CrownheadError, every
// source file opening with the header comment that says what it owns, and
// ARCHITECTURE.md naming only files that exist.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, functionSpans, importCycles, lineCount, sourceFiles, unknownCasts } from './scan.ts';

const SRC = sourceFiles('src');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;
/** Where the wiring and the state live: the server, the game, the storage, the tracker and the tournament (no exemptions). */
const WIRING = ['src/server/', 'src/game/', 'src/storage/', 'src/tracking/', 'src/tournament/'];

describe('architecture', () => {
  it('has no import cycle in src/ (type-only imports included)', () => {
    expect(importCycles(SRC)).toEqual([]);
  });

  it(`has no file in src/ over ${MAX_FILE_LINES} lines`, () => {
    const long = SRC.map((f) => ({ f, n: lineCount(f) })).filter(({ n }) => n > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`has no function in ${WIRING.join(', ')} over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = SRC.filter((f) => WIRING.some((w) => f.startsWith(w)))
      .flatMap(functionSpans)
      .filter((s) => s.lines > MAX_FUNCTION_LINES)
      .map((s) => `${s.file}:${s.line} ${s.lines} lines: ${s.header}`);
    expect(long).toEqual([]);
  });

  it('gives the reason for every `as unknown as` beside it', () => {
    const bare = SRC.flatMap((f) =>
      unknownCasts(f)
        .filter((c) => !c.reasoned)
        .map((c) => `${f}:${c.line}`),
    );
    expect(bare).toEqual([]);
  });

  it('derives every error class from CrownheadError', () => {
    const plain = SRC.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .map((text, i) => ({ text, at: `${f}:${i + 1}` }))
        .filter(({ text }) => /\bextends Error\b/.test(text) && !/^\s*\/\//.test(text))
        .map(({ at }) => at),
    ).filter((at) => !at.startsWith('src/common/errors.ts'));
    expect(plain).toEqual([]);
  });

  it('opens every source file with a header comment', () => {
    const bare = SRC.filter((f) => !/^(\/\/|\/\*)/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(bare).toEqual([]);
  });

  it('names only files and folders that exist in ARCHITECTURE.md', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const named = [...text.matchAll(/`((?:src|test|bench|bin|firmware|hardware|data)\/[\w./-]*)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });
});
