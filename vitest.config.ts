import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two tiers. `npm test` runs both (as CI does); `npm run test:quick` runs only
// "quick" for everyday work: everything but the soaks — whole games played
// end to end: every corpus game on the simulated board (minutes on 2 cores),
// corpus games with injected mistakes, the whole game through the emulated
// firmware, the service SIGKILLed again and again through long games, and
// `crownhead doctor` on the emulated firmware with each build fault.
const SOAKS = [
  'test/tracking/games-*.test.ts',
  'test/tracking/injected.test.ts',
  'test/sensors/emulator-game.test.ts',
  'test/server/crash.test.ts',
  'test/doctor/emulator.test.ts',
  'test/club/journal.test.ts',
  'test/server/tournament-crash.test.ts',
];

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
      { extends: true, test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: SOAKS } },
      { extends: true, test: { name: 'soak', include: SOAKS } },
    ],
  },
});
