// The two descriptions of the tree stay true: every folder of src/ has its row
// in ARCHITECTURE.md's table and in the README's folder table (a folder added
// without a row fails here), ARCHITECTURE.md's column width is
// .prettierrc.json's, only the files its I/O sentence names import an I/O
// module, and the seeded generator has one copy (src/common/prng.ts).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './scan.ts';

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const SRC_FOLDERS = readdirSync(join(ROOT, 'src'))
  .filter((name) => statSync(join(ROOT, 'src', name)).isDirectory())
  .map((name) => `src/${name}/`)
  .sort();

/** The folders a markdown table names in its first column (a cell may name several: `src/rules/`, `src/pdn/`). */
function tableFolders(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`(src\/[\w-]+\/)`/g)].map((m) => m[1]!));
}

/** Modules that reach outside the process: files, ports, the network, threads, processes, the bundler. */
const IO_MODULE =
  /^(node:)?(fs|fs\/promises|net|http|https|http2|tls|dgram|child_process|worker_threads|cluster|readline)$|^(serialport|@serialport\/.+|mqtt|aedes|express|ws|esbuild|johnny-five|firmata-io|playwright-core)$/;

describe('ARCHITECTURE.md and the README', () => {
  it('every folder in src/ has its row in ARCHITECTURE.md’s table and in the README’s folder table', () => {
    expect(SRC_FOLDERS.length).toBeGreaterThan(10);
    const architecture = tableFolders(read('ARCHITECTURE.md'));
    const readme = tableFolders(read('README.md'));
    expect(
      SRC_FOLDERS.filter((f) => !architecture.includes(f)),
      'missing from ARCHITECTURE.md',
    ).toEqual([]);
    expect(
      SRC_FOLDERS.filter((f) => !readme.includes(f)),
      'missing from the README',
    ).toEqual([]);
    // And neither names a folder that is gone.
    expect([...architecture, ...readme].filter((f) => !SRC_FOLDERS.includes(f))).toEqual([]);
  });

  it('ARCHITECTURE.md gives Prettier’s width as .prettierrc.json sets it', () => {
    const { printWidth } = JSON.parse(read('.prettierrc.json')) as { printWidth: number };
    expect(read('ARCHITECTURE.md')).toMatch(new RegExp(`\\.prettierrc\\.json\`, ${printWidth} columns`));
  });

  it('only the folders and files ARCHITECTURE.md’s I/O sentence names import an I/O module', () => {
    const text = read('ARCHITECTURE.md');
    const at = text.indexOf('I/O (files');
    expect(at).toBeGreaterThan(0);
    const sentence = text.slice(at, text.indexOf('\n\n', at));
    const allowed = [...sentence.matchAll(/`(src\/[\w./-]+)`/g)].map((m) => m[1]!);
    expect(allowed).toContain('src/stations/');
    const doing = sourceFiles('src').filter((f) =>
      // Type-only imports are not I/O.
      [...read(f).matchAll(/(?:^|\n)\s*(?:import|export)\b(?!\s+type\b)[^;]*?from\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].some((m) =>
        IO_MODULE.test(m[1] ?? m[2]!),
      ),
    );
    expect(doing.length).toBeGreaterThan(10);
    expect(doing.filter((f) => !allowed.some((a) => (a.endsWith('/') ? f.startsWith(a) : f === a)))).toEqual([]);
  });

  it('the seeded generator has one copy: src/common/prng.ts', () => {
    // mulberry32's increment, which any copy of it carries.
    const copies = sourceFiles('src').filter((f) => /0x6d2b79f5/i.test(read(f)));
    expect(copies).toEqual(['src/common/prng.ts']);
  });
});
