// Runs the firmware's host unit tests (C++, g++, fake hardware seam) through
// `make -C firmware test` and checks that every test passed.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('firmware host unit tests', () => {
  it('make -C firmware test passes', () => {
    const r = spawnSync('make', ['-C', resolve(root, 'firmware'), 'test'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    const m = /host tests: (\d+) passed, (\d+) failed \((\d+) checks\)/.exec(out);
    expect(m, out).not.toBeNull();
    const [passed, failed, checks] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(failed, out).toBe(0);
    expect(r.status, out).toBe(0);
    expect(passed).toBeGreaterThanOrEqual(30);
    expect(checks).toBeGreaterThan(200);
    // every test reported "ok", none "not ok"
    expect(out).not.toMatch(/^not ok /m);
    expect((out.match(/^ok /gm) ?? []).length).toBe(passed);
  }, 120_000);
});
