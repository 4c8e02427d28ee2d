import { defineConfig } from 'vitest/config';

export default defineConfig({
  // React's production build and JSX runtime, as the console's bundle has them.
  oxc: { jsx: { development: false } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Four workers a core on the 2-core machine: the files mostly wait (tmux, deadlines, the client's pace of
    // 19 requests a second, rate limits), so more of them overlap (docs/performance.md, Tests, compares counts).
    maxWorkers: 8,
    env: { NODE_ENV: 'production' },
    // The tests that run the bin get it built once, before any file starts.
    globalSetup: ['test/buildOnce.ts'],
    // Before every file's imports: Node's compile cache, then colours on and CI off in every worker.
    setupFiles: ['test/compileCache.ts', 'test/ui/forceColor.ts'],
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    projects: [
      // Loading Ink, React, undici and the commands again for every file costs about what the tests do
      // (docs/performance.md): the files of a worker share what it loaded. A server that may answer 429 or 418 (the client keeps a pace,
      // a wait and a ban per base URL for the whole process) listens on a loopback host of its own
      // (test/loopbackHost.ts), so none of them reaches another file's server on the same port.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.{ts,tsx}'], isolate: false } },
    ],
  },
});
