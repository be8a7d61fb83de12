import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { run } from './run.ts';
import { CORPUS } from '../harness/corpus.ts';

describe('crownhead perft', () => {
  it('prints the node count as its last line', async () => {
    const r = await run('perft', '5');
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toBe('7361');
  });

  it('--divide prints one line per first move in PDN notation, then the total', async () => {
    const r = await run('perft', '2', '--divide');
    expect(r.out).toEqual(['9-13 7', '9-14 7', '10-14 7', '10-15 7', '11-15 7', '11-16 7', '12-16 7', '49']);
  });

  it('--fen sets the position; king routes show in long notation', async () => {
    const r = await run('perft', '1', '--divide', '--fen', 'B:W14,15,22,23:BK10');
    expect(r.out).toEqual(['10x17x26x19x10 1', '10x19x26x17x10 1', '2']);
  });

  it('bad input: clear messages, exit 2', async () => {
    expect((await run('perft')).err[0]).toMatch(/perft needs exactly one DEPTH/);
    expect((await run('perft', 'deep')).err[0]).toMatch(/DEPTH must be a whole number, not "deep"/);
    expect((await run('perft', '3', '--fen', 'B:W5:B5')).err[0]).toMatch(/two pieces on square 5/);
    const bad = await run('perft', '3', '--colour', 'red');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/unknown option --colour/);
    expect((await run('fly')).err[0]).toMatch(/unknown command "fly"/);
  });
});

describe('crownhead pdn', () => {
  it('check: one summary line per file, the error named, exit 1 when a game is rejected', async () => {
    const r = await run('pdn', 'check', join(CORPUS, 'OCA_2.0.pdn'), join(CORPUS, 'tinsley.pdn'));
    expect(r.code).toBe(1);
    expect(r.out).toEqual([
      'OCA_2.0.pdn: 43 games, 2280 moves, 0 errors',
      'tinsley.pdn: 724 games, 35986 moves, 1 error, 2 warnings',
      '  error: game 541 "Petal 1981, game 18", line 5588: move 62 for Black, "32-28": illegal move: no piece stands on 32',
    ]);
  });

  it('check: exit 0 when all games replay; --warnings lists the quirks accepted', async () => {
    const r = await run('pdn', 'check', '--warnings', join(CORPUS, 'lpc.pdn'));
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('lpc.pdn: 100 games, 0 moves, 0 errors, 5 warnings');
    expect(r.out[1]).toMatch(/^ {2}warning: game \d+: FEN: black man on 32 stands on the row where it is crowned/);
  });

  it('format: rewrites games as standard PDN that checks clean', async () => {
    const r = await run('pdn', 'format', join(CORPUS, 'OCA_2.0.pdn'));
    expect(r.code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-'));
    const file = join(dir, 'out.pdn');
    writeFileSync(file, r.out.join('\n'));
    expect((await run('pdn', 'check', file)).out).toEqual(['out.pdn: 43 games, 2280 moves, 0 errors']);
  });

  it('missing files and bad sub-commands are reported', async () => {
    expect((await run('pdn', 'check', '/nonexistent.pdn')).err[0]).toMatch(/cannot read \/nonexistent.pdn: no such file/);
    expect((await run('pdn', 'check')).err[0]).toMatch(/needs at least one FILE/);
    expect((await run('pdn', 'frobnicate', 'x')).err[0]).toMatch(/unknown pdn command "frobnicate"/);
  });
});

describe('the crownhead bin', () => {
  const root = resolve(import.meta.dirname, '../..');
  it('runs from the checkout as npx crownhead (the bin npm links)', () => {
    const out = execFileSync('npx', ['--no-install', 'crownhead', 'perft', '4'], {
      cwd: root,
      encoding: 'utf8',
      // ignore_scripts: the first npx in a checkout installs the folder into npm's npx cache and runs its
      // "prepare" (bin/build.js), which deletes and rebuilds dist/ — mid-suite, under other tests' running services.
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_ignore_scripts: 'true' },
    });
    expect(out.trim().split('\n').at(-1)).toBe('1469');
  });

  it('exits non-zero with usage on no command', () => {
    const r = spawnSync(process.execPath, [join(root, 'bin/crownhead.js')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Commands:/);
  });
});
