// The tree is formatted by Prettier (.prettierrc.json: 140 columns, single
// quotes): every source file, test, bench and tool. `npx prettier --write .`
// formats; this test is the check CI runs, naming each file that is not.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { ROOT } from './scan.ts';

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (ext.test(name)) out.push(p);
    }
  };
  walk(join(ROOT, dir));
  return out;
}

// One test per part of the tree, so each stays well inside its time on a busy machine.
const PARTS: { name: string; files: () => string[] }[] = [
  {
    name: 'src (the pure cores)',
    files: () => ['rules', 'pdn', 'engine', 'reading', 'tracking'].flatMap((d) => files(`src/${d}`, /\.(ts|css)$/)),
  },
  {
    name: 'src (the rest)',
    files: () => files('src', /\.(ts|css)$/).filter((f) => !/[\\/]src[\\/](rules|pdn|engine|reading|tracking)[\\/]/.test(f)),
  },
  { name: 'test', files: () => files('test', /\.ts$/) },
  {
    name: 'bench, tools and bin',
    files: () => [...files('bench', /\.ts$/), ...files('hardware/tools', /\.ts$/), ...files('bin', /\.js$/)],
  },
];

describe('formatting', () => {
  it.each(PARTS)(
    'every file of $name is as Prettier writes it',
    async ({ files: list }) => {
      const all = list();
      const unformatted: string[] = [];
      for (const file of all) {
        const info = await prettier.getFileInfo(file, { ignorePath: join(ROOT, '.prettierignore') });
        if (info.ignored) continue;
        const options = await prettier.resolveConfig(file);
        if (!(await prettier.check(readFileSync(file, 'utf8'), { ...options, filepath: file }))) unformatted.push(relative(ROOT, file));
      }
      expect(all.length).toBeGreaterThan(10);
      expect(
        unformatted,
        'run: npx prettier --write "src/**/*.{ts,css}" "test/**/*.ts" "bench/**/*.ts" "hardware/tools/*.ts" "bin/*.js"',
      ).toEqual([]);
    },
    120_000,
  );
});
