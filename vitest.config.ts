import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The package's public entry points, as examples and docs import them (sources, not dist/).
    alias: [
      { find: /^harnesseval$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      {
        find: /^harnesseval\/plugin$/,
        replacement: fileURLToPath(new URL('./src/plugin.ts', import.meta.url)),
      },
      {
        find: /^harnesseval\/testing$/,
        replacement: fileURLToPath(new URL('./src/testing.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time on the 2-core CI machine: most files wait on subprocesses (the built
    // CLI, real agents, PostgreSQL, Chromium), so two overlap well (whole suite 12.5 min, against
    // ~18 min one at a time, 2026-12-01). Every test is written to be safe beside any other.
    maxWorkers: 2,
    // Starts nothing by itself: the first test that asks for PostgreSQL starts the run's cluster.
    globalSetup: ['test/setup/postgres.ts'],
  },
});
