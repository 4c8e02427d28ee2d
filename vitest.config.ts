import { defineConfig } from 'vitest/config';

export default defineConfig({
  // React's production build and JSX runtime: the tests check what the console shows, not React's dev warnings,
  // and the development build costs a fifth of the suite's CPU.
  oxc: { jsx: { development: false } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'production' },
    // Before every file, so before any file's imports load chalk or Ink: colours on and CI off in every worker,
    // whichever file a worker happens to run first (an import in the harness was too late for some orders).
    setupFiles: ['test/ui/forceColor.ts'],
    // One file more than the 2 cores, so a file waiting on sockets, timers or tmux leaves both cores busy; a
    // fourth worker only added CPU (each worker loads Ink, React and fast-check's tables again): 77 s -> 70-72 s.
    maxWorkers: 3,
    // A worker runs several files without reloading Ink, React and the sandbox for each one.
    isolate: false,
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
