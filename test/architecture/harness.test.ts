// The simulation harness is shared by tests and benches: bench/ imports from
// test/ only what lives in test/harness/ (the corpus reader, the firmware
// emulator driver, the mock serial board, the simulated table and hand, the
// WebSocket client), and the harness itself stands alone (nothing else from
// test/, no vitest), so a bench runs outside the test runner.
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, specifiersOf } from './scan.ts';

const HARNESS = 'test/harness/';
const inTest = (f: string) => f.startsWith('test/');

describe('the shared harness', () => {
  const bench = sourceFiles('bench');
  const harness = sourceFiles('test/harness');

  it('is where the benches and the tests meet', () => {
    expect(harness.length).toBeGreaterThanOrEqual(6);
    const used = new Set(bench.flatMap((f) => importsOf(f, true)).filter(inTest));
    expect(harness.filter((h) => used.has(h)).length).toBeGreaterThanOrEqual(5);
  });

  it('is all bench/ imports from test/', () => {
    const stray = bench.flatMap((f) =>
      importsOf(f, true)
        .filter((g) => inTest(g) && !g.startsWith(HARNESS))
        .map((g) => `${f} → ${g}`),
    );
    expect(stray).toEqual([]);
  });

  it('imports nothing else from test/ and not the test runner', () => {
    const stray = harness.flatMap((f) => [
      ...importsOf(f, true)
        .filter((g) => inTest(g) && !g.startsWith(HARNESS))
        .map((g) => `${f} → ${g}`),
      ...specifiersOf(f, true)
        .filter((s) => s === 'vitest' || s.startsWith('vitest/') || s.startsWith('@vitest/'))
        .map((s) => `${f} → ${s}`),
    ]);
    expect(stray).toEqual([]);
  });
});
