// `crownhead doctor` from the command line, in-process: the simulated board
// end to end (its hand does what is asked), the report saved, and flags that
// are wrong refused with a message that names them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { parseSquares } from '../../src/cli/doctor.ts';

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
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io)).toBe(2);
      expect(c.err.join('\n')).toMatch(words);
    }
    expect(parseSquares('1-3, 3, 32')).toEqual([1, 2, 3, 32]);
  });
});
