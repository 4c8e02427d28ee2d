import { defineConfig } from 'vitest/config';

// Files run in a process of their own: a ban (HTTP 418) met in-process is kept per base URL for the whole
// process, and a later file's server may get the banned one's port; inProcess checks what main() leaves behind.
const OWN_PROCESS = [
  'test/api/faultMatrix.test.ts',
  'test/api/limits.test.ts',
  'test/commands/bans.test.ts',
  'test/commands/consoleBans.test.ts',
  'test/commands/inProcess.test.ts',
  'test/sandbox/faults.test.ts',
  'test/sandbox/rateLimit.test.ts',
  'test/ui/statusBan.test.tsx',
];

export default defineConfig({
  // React's production build and JSX runtime, as the console's bundle has them.
  oxc: { jsx: { development: false } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker more than the 2 cores: some files mostly wait (tmux, deadlines, rate limits) while others
    // compute; a fourth only added contention, and every worker loads the modules once more.
    maxWorkers: 3,
    env: { NODE_ENV: 'production' },
    // The tests that run the bin get it built once, before any file starts.
    globalSetup: ['test/buildOnce.ts'],
    // Before every file's imports: Node's compile cache, then colours on and CI off in every worker.
    setupFiles: ['test/compileCache.ts', 'test/ui/forceColor.ts'],
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    projects: [
      // Loading Ink, React, undici and the commands again for every file cost about as much as the tests themselves:
      // the files of a worker share what it loaded.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.{ts,tsx}'], exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
    ],
  },
});
