import { defineConfig } from 'vitest/config';

// Two groups (STYLE.md §3.9): fast in-process unit tests, and end-to-end tests that
// spawn the built bins. `npm test` builds first, so e2e always runs what a user runs.
// Files run in parallel on max(cores - 1, 1) workers (one on a 2-core machine), so no test
// may use a fixed path, port or state directory: each gets a private $XDG_STATE_HOME.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/helpers/private-state-home.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
