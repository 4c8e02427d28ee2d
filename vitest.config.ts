import { globSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The console's screens in-process (Ink, React, the in-process sandbox): their files share a worker's loaded
// modules, but a ban (HTTP 418) is kept per base URL for the whole process, so its file gets a process of its own.
const OWN_PROCESS = ['test/ui/statusBan.test.tsx'];
const SCREENS = globSync('test/{ui,demo}/**/*.test.{ts,tsx}').filter((file) => !OWN_PROCESS.includes(file));

export default defineConfig({
  // React's production build and JSX runtime, as the console's bundle has them.
  oxc: { jsx: { development: false } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // More workers than the 2 cores: many files mostly wait (tmux, deadlines, rate limits) while others compute.
    maxWorkers: 4,
    env: { NODE_ENV: 'production' },
    // The tests that run the bin get it built once, before any file starts.
    globalSetup: ['test/buildOnce.ts'],
    // Before every file's imports: Node's compile cache, then colours on and CI off in every worker.
    setupFiles: ['test/compileCache.ts', 'test/ui/forceColor.ts'],
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    projects: [
      // Loading Ink, React and the screens again for each of these files cost about as much as their tests.
      { extends: true, test: { name: 'screens', include: SCREENS, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.{ts,tsx}'], exclude: SCREENS } },
    ],
  },
});
