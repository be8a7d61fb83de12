// The test tiers are in the file names: a `*.soak.test.ts` is a soak (whole
// games end to end, deep perft: minutes), every other `*.test.ts` is quick.
// vitest.config.ts chooses by that suffix alone, not by a list of paths (a
// slow test once landed in the quick tier because it was not on the list), and
// every file the old path list named is a soak by its name.
import { describe, expect, it } from 'vitest';
import config, { SOAKS } from '../../vitest.config.ts';
import { sourceFiles } from './scan.ts';

/** The path list vitest.config.ts chose the soaks by before the suffix. */
const OLD_SOAKS = [
  'test/tracking/games-*.test.ts',
  'test/tracking/injected.test.ts',
  'test/sensors/emulator-game.test.ts',
  'test/server/crash.test.ts',
  'test/doctor/emulator.test.ts',
  'test/tournament/journal.test.ts',
  'test/server/tournament-crash.test.ts',
];
const SUFFIX_GLOBS = ['test/**/*.test.ts', 'test/**/*.soak.test.ts'];

/** A glob of the forms the config uses (`**` for any folders, `*` within a name) as a regular expression. */
function globRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:[^/]+/)*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}
const matches = (globs: readonly string[], file: string): boolean => globs.some((g) => globRegExp(g).test(file));

const TESTS = sourceFiles('test').filter((f) => f.endsWith('.test.ts'));
const isSoak = (f: string): boolean => f.endsWith('.soak.test.ts');

type Project = { test: { name: string; include?: string[]; exclude?: string[] } };
const projects = (config.test?.projects ?? []) as Project[];
const project = (name: string): Project['test'] => {
  const p = projects.find((x) => x.test.name === name);
  if (!p) throw new Error(`vitest.config.ts has no project "${name}"`);
  return p.test;
};

describe('test tiers', () => {
  it('every file the old path list named is a *.soak.test.ts', () => {
    const misnamed = TESTS.filter((f) => matches(OLD_SOAKS, f) && !isSoak(f));
    expect(misnamed, 'rename each with `git mv X.test.ts X.soak.test.ts`').toEqual([]);
    // The list's files are all still there, under their soak names.
    for (const glob of OLD_SOAKS) {
      const renamed = glob.replace(/\.test\.ts$/, '.soak.test.ts');
      expect(TESTS.filter((f) => matches([renamed], f)).length, renamed).toBeGreaterThan(0);
    }
  });

  it('vitest.config.ts has no path list: its tiers are globs on the file name alone', () => {
    expect(SOAKS, 'rename each listed file `*.soak.test.ts` and take it off SOAKS').toEqual([]);
    const globs = projects.flatMap((p) => [...(p.test.include ?? []), ...(p.test.exclude ?? [])]);
    expect(globs.filter((g) => !SUFFIX_GLOBS.includes(g))).toEqual([]);
  });

  it('quick runs every test but the soaks, and soak runs exactly the *.soak.test.ts files', () => {
    const inTier = (t: Project['test'], f: string) => matches(t.include ?? [], f) && !matches(t.exclude ?? [], f);
    const quick = project('quick'),
      soak = project('soak');
    expect(TESTS.filter((f) => inTier(quick, f) === isSoak(f))).toEqual([]);
    expect(TESTS.filter((f) => inTier(soak, f) !== isSoak(f))).toEqual([]);
    expect(TESTS).toContain('test/rules/perft.soak.test.ts');
    expect(TESTS.filter(isSoak).length).toBeGreaterThanOrEqual(12);
  });
});
