// The environment variables the README documents: every one is accepted by
// every command that reads it (serve rejects unknown CROWNHEAD_* variables, so
// a documented one it does not know would stop it), and the README's list and
// the code's (OTHER_ENV in src/cli/serve.ts) are the same.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OTHER_ENV, resolveServeSettings } from '../../src/cli/serve.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const documented = [...new Set(README.match(/\bCROWNHEAD_[A-Z_]+[A-Z]\b/g) ?? [])].sort();

const dir = mkdtempSync(join(tmpdir(), 'crownhead-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'settings.json'), '{}');
/** A sensible value for each documented variable (the README's own example where it gives one). */
const SAMPLE: Record<string, string> = {
  CROWNHEAD_PORT: '9000',
  CROWNHEAD_CONFIG: join(dir, 'settings.json'),
  CROWNHEAD_CACHE: join(dir, 'cache'),
  CROWNHEAD_FROM_SOURCE: '1',
};

describe("the README's environment variables", () => {
  it('are found (the list is not empty)', () => {
    expect(documented).toEqual(expect.arrayContaining(['CROWNHEAD_CACHE', 'CROWNHEAD_CONFIG', 'CROWNHEAD_FROM_SOURCE', 'CROWNHEAD_PORT']));
  });

  it.each(documented)('serve accepts %s', (name) => {
    expect(SAMPLE[name], `give ${name} a sample value in this test`).toBeDefined();
    expect(() => resolveServeSettings([], { [name]: SAMPLE[name] }, dir)).not.toThrow();
  });

  it('all together', () => {
    const env = Object.fromEntries(documented.map((n) => [n, SAMPLE[n]!]));
    expect(resolveServeSettings([], env, dir)?.options).toBeDefined();
  });

  it("the code's list of variables that are not a flag's is the README's", () => {
    for (const name of Object.keys(OTHER_ENV)) expect(documented).toContain(name);
  });

  it('a misspelt one is still refused, naming it', () => {
    expect(() => resolveServeSettings([], { CROWNHEAD_CAHCE: '/tmp' }, dir)).toThrow(/unknown environment variable CROWNHEAD_CAHCE/);
  });
});
