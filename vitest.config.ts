import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
