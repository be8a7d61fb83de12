// One answer shape from every parser: each exported `parse*` of
// src/ returns a Result<T, E extends CrownheadError> (src/common/result.ts),
// the value or the error naming what is wrong with the input, instead of
// throwing, returning null, or a shape of its own. The scan reads each
// exported parse function's declared return type.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './scan.ts';

/** An exported parser and what follows its parameters up to its body: `export function parseX(…): T {` or `export const parseX = (…): T =>`. */
const PARSER = /export\s+(?:function\s+(parse[A-Z]\w*)\s*(?:<[^>]*>)?\s*\(|const\s+(parse[A-Z]\w*)\s*=\s*(?:<[^>]*>)?\s*\()/g;

/** The declared return type after the parameter list that starts at `open` (the "(" of the parameters). */
function returnType(text: string, open: number): string {
  let depth = 0;
  let i = open;
  for (; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) break;
  }
  const rest = text.slice(i + 1).trimStart();
  return rest.startsWith(':') ? rest.slice(1).trimStart().slice(0, 60) : '';
}

describe('parsers', () => {
  it('every exported parse* function in src/ returns a Result', () => {
    const found: string[] = [];
    const wrong: string[] = [];
    for (const file of sourceFiles('src')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(PARSER)) {
        const name = m[1] ?? m[2]!;
        found.push(name);
        const type = returnType(text, m.index! + m[0].length - 1);
        if (!type.startsWith('Result<')) wrong.push(`${file}: ${name} returns ${type || '(no declared type)'}`);
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(20);
    expect(wrong).toEqual([]);
  });
});
