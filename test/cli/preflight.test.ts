// The test preflight: on a machine without the Debian packages the suite stops
// at once with one message naming what is missing and the apt-get line.
import { describe, expect, it } from 'vitest';
import { NEEDS, preflightProblem } from '../setup/preflight.ts';

describe('test preflight', () => {
  it('names every missing tool and the exact apt-get line', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    let problem: string | null;
    try {
      problem = preflightProblem(NEEDS.filter((n) => ['make', 'a host C++ compiler (g++)', 'avr-g++ (AVR compiler)'].includes(n.what)));
    } finally {
      process.env.PATH = path;
    }
    expect(problem).toBe(
      'The tests need system tools this machine lacks: make, a host C++ compiler (g++), avr-g++ (AVR compiler).\n' +
        'Install them with:\n  sudo apt-get install -y --no-install-recommends make g++ gcc-avr\n' +
        '(or run "bash .ci/run", which installs them and the npm packages, then runs the tests).',
    );
  });
});
