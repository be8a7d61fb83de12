// The scanner behind the architecture checks, tried on small sources so a
// check that passes is known to be able to fail.
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, blank, functionSpans, importCycles, importsOf, sourceFiles, specifiersOf, unknownCasts } from './scan.ts';

const dir = mkdtempSync(join(ROOT, 'test/architecture/.tmp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string): string => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), text);
  return relative(ROOT, join(dir, name));
};

describe('architecture scanner', () => {
  it('blanks comments and string contents but keeps lines and braces of code', () => {
    const src = "const a = '{'; // }\nconst b = `x${ {y: 1}.y }z{`; /* { */\nconst r = /[{]/;\n";
    const out = blank(src);
    expect(out.split('\n').length).toBe(src.split('\n').length);
    expect(out.length).toBe(src.length);
    expect([...out].filter((c) => c === '{').length).toBe([...out].filter((c) => c === '}').length);
    expect(out).toContain('{y: 1}');
  });

  it('finds a cycle through type-only imports and none in a chain', () => {
    const a = put('cyc/a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    const b = put('cyc/b.ts', "import type { C } from './c.ts';\nexport const b = 1 as unknown as C;\n");
    const c = put('cyc/c.ts', "import {\n  a,\n} from './a.ts';\nexport type C = typeof a;\n");
    const d = put('cyc/d.ts', "export { a } from './a.ts';\n");
    expect(importCycles([a, b, c, d])).toEqual([[a, b, c].sort()]);
    expect(importCycles([a, b, d])).toEqual([]);
    expect(sourceFiles(relative(ROOT, join(dir, 'cyc')))).toEqual([a, b, c, d]);
  });

  it('lists what a file imports: packages as written, relative paths resolved, dynamic imports on request', () => {
    const f = put(
      'imp/bench.ts',
      [
        "import { a } from '../cyc/a.ts';",
        "import type { T } from 'vitest';",
        "export { b } from './b.ts';",
        "import './side.ts';",
        "const lazy = async () => (await import('../harness/x.ts')).x;",
        '',
      ].join('\n'),
    );
    const at = (p: string) => relative(ROOT, join(dir, p));
    expect(specifiersOf(f).sort()).toEqual(['../cyc/a.ts', './b.ts', './side.ts', 'vitest']);
    expect(specifiersOf(f, true)).toContain('../harness/x.ts');
    expect(importsOf(f).sort()).toEqual([at('cyc/a.ts'), at('imp/b.ts'), at('imp/side.ts')].sort());
    expect(importsOf(f, true)).toContain(at('harness/x.ts'));
  });

  it('measures functions, methods, constructors and block arrows, not ifs or object literals', () => {
    const f = put(
      'fn.ts',
      [
        'export function outer(x: number, o: { a: number } = { a: 1 }): number {', // 1
        '  if (x > 1) {',
        '    return 1;',
        '  }',
        '  const inner = (y: number) => {', // 5
        '    return y;',
        '  };',
        '  const obj = { k: 1, m() { return 2; } };',
        '  return inner(x) + obj.m() + o.a;',
        '}', // 10
        'class K {',
        '  constructor(readonly n: number) {',
        '    this.n = n;',
        '  }',
        '  private async run<T>(t: T): Promise<T> {', // 15
        '    return t;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const spans = functionSpans(f)
      .map((s) => [s.line, s.lines])
      .sort((p, q) => p[0] - q[0]);
    expect(spans).toEqual([
      [1, 10],
      [5, 3],
      [8, 1],
      [12, 3],
      [15, 3],
    ]);
  });

  it('tells a reasoned `as unknown as` from a bare one', () => {
    const f = put(
      'cast.ts',
      "// the library's type omits it\nconst a = 1 as unknown as string;\nconst b = 2 as unknown as string;\nconst c = 3 as unknown as string; // library edge: untyped\n",
    );
    expect(unknownCasts(f)).toEqual([
      { line: 2, reasoned: true },
      { line: 3, reasoned: false },
      { line: 4, reasoned: true },
    ]);
  });
});
