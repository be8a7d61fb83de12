import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two tiers, told apart by the file's name. `npm test` runs both (as CI does);
// `npm run test:quick` runs only "quick" for everyday work: every
// `*.test.ts` but the soaks. A soak is a `*.soak.test.ts` — whole games
// played end to end: every corpus game on the simulated board (minutes on 2
// cores), corpus games with injected mistakes, the whole game through the
// emulated firmware, the service SIGKILLed again and again through long
// games, `crownhead doctor` on the emulated firmware with each build fault,
// perft to depth 10 — so a slow test is a soak by its name, wherever it lives.
const SOAK = 'test/**/*.soak.test.ts';
// Paths still listed the old way (a branch made before the suffix may add one
// here): they run as soaks too, and test/architecture/tiers.test.ts fails
// until the file is renamed `*.soak.test.ts` and its line removed.
export const SOAKS: string[] = [];

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle (2 cores → 1 worker, every file in
    // turn); the soaks are split in parts of about a minute so all cores share them.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Checks the system tools the firmware/browser tests need (one clear
    // message if any is missing) and rebuilds dist/ when a source is newer.
    globalSetup: ['test/setup/preflight.ts'],
    projects: [
      { extends: true, test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: [SOAK, ...SOAKS] } },
      { extends: true, test: { name: 'soak', include: [SOAK, ...SOAKS] } },
    ],
  },
});
