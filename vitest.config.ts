import { defineConfig } from 'vitest/config';

export default defineConfig({
  // React's production build and JSX runtime, as the console's bundle has them.
  oxc: { jsx: { development: false } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // More workers than the 2 cores: many files mostly wait (tmux, deadlines, rate limits) while others compute.
    maxWorkers: 4,
    env: { NODE_ENV: 'production' },
    // The tests that run the bin get it built once, before any file starts.
    globalSetup: ['test/buildOnce.ts'],
    // Before every file's imports load chalk or Ink: colours on and CI off in every worker.
    setupFiles: ['test/ui/forceColor.ts'],
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
