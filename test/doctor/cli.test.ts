// `crownhead doctor` from the command line, in-process: the simulated board
// end to end (its hand does what is asked), the report saved, the warm-up
// advice before the first step, flags that are wrong refused with a message
// that names them, an emulator not built yet named in one line with the
// command that builds it, and the full --help.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { DOCTOR_FLAGS, parseSquares } from '../../src/cli/doctor.ts';
import { unwrap } from '../../src/common/result.ts';

// An unbuilt emulator: its binary is not where the build puts it (only --board emulator loads this module).
vi.mock('../../src/sensors/emulator.ts', async (original) => ({
  ...(await original<typeof import('../../src/sensors/emulator.ts')>()),
  EMULATOR_BIN: join(tmpdir(), 'crownhead-not-built', 'firmware', 'build', 'crownhead-emu'),
}));

const capture = () => {
  const out: string[] = [],
    err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
};

describe('crownhead doctor (command line)', () => {
  it('checks the simulated board, says each step, and saves the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-doctor-'));
    const report = join(dir, 'report.txt');
    const c = capture();
    const code = await main(['doctor', '--board', 'sim:2', '--squares', '1-2,9', '--report', report], c.io);
    expect(code).toBe(0);
    const text = c.out.join('\n');
    expect(text).toContain('▶ Take every coin off the board');
    expect(text.indexOf('Warm up 10 minutes before calibrating')).toBeGreaterThan(-1);
    expect(text.indexOf('Warm up 10 minutes before calibrating')).toBeLessThan(text.indexOf('▶ Take every coin off the board'));
    expect(text).toContain('▶ Put a coin on 9, magnet side down');
    expect(text).toContain('▶ Turn the coin on 1 over (magnet side up)');
    const saved = readFileSync(report, 'utf8');
    expect(saved).toContain('Verdict: the board is good.');
    expect(saved).toMatch(/^\s+9\s+\d+\s+\d\.\d\s+\+\d+\s+ok$/m);
    expect(JSON.parse(saved.split('Observations (JSON):\n')[1]).observations.responses).toHaveLength(3);
  }, 60_000);

  it('refuses bad flags with a message naming them', async () => {
    for (const [argv, words] of [
      [['doctor', '--squares', '0-3'], /--squares: 0-3 is outside 1–32/],
      [['doctor', '--squares', 'x'], /--squares: "x" is not a square/],
      [['doctor', '--board', 'tape:9'], /--board: unknown board "tape:9"/],
      [['doctor', '--step-timeout', 'soon', '--board', 'sim'], /--step-timeout: "soon" is not a duration/],
      [['doctor', '--coins', '1'], /--coins must be between 2 and 48, not 1/],
      [['doctor', '--coins', 'all'], /--coins must be a whole number, not "all"/],
      [['doctor', '--coins', '24', '--live'], /--coins and --live/],
      [['doctor', '--sensor', 'A1302'], /--sensor: unknown sensor "A1302" \(SS49E, DRV5055A3 or auto\)/],
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io)).toBe(2);
      expect(c.err.join('\n')).toMatch(words);
    }
    expect(unwrap(parseSquares('1-3, 3, 32'))).toEqual([1, 2, 3, 32]);
  });

  it('says in one line, without a stack trace, that the emulator is not built and what to run', async () => {
    const c = capture();
    expect(await main(['doctor', '--board', 'emulator'], c.io)).toBe(1);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).toMatch(
      // (The firmware's ELF may be missing too, or be rebuilt by another test meanwhile: then both are named.)
      /^crownhead doctor: the emulator is not built \(no .*crownhead-emu( or .*crownhead\.elf)?\): run `make -C .*firmware emulator` first/,
    );
    expect(c.err[0]).not.toMatch(/\n|\bat /);
  });

  it('--help says what it does, every flag, the steps and an example', async () => {
    const c = capture();
    expect(await main(['doctor', '--help'], c.io)).toBe(0);
    const help = c.out.join('\n');
    expect(help.split('\n').length).toBeGreaterThan(30);
    expect(help).toMatch(/^usage: crownhead doctor /);
    for (const flag of DOCTOR_FLAGS) expect(help, flag).toMatch(new RegExp(`^\\s+(-h, )?${flag}\\b`, 'm'));
    expect(help).toMatch(/^Steps/m);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(help).toMatch(new RegExp(`^  ${n}\\. `, 'm'));
    expect(help).toMatch(/^Examples:\n  npx crownhead doctor --squares/m);
    expect(help).toMatch(/^  npx crownhead doctor --live/m);
    expect(help).toMatch(/Exit status: 0 .*1 .*2/s);
    expect(help).toContain('Warm up 10 minutes before calibrating');
    expect(await main(['doctor', '-h'], capture().io)).toBe(0);
  });
});
