import { configDefaults, defineConfig } from 'vitest/config';
import { WaitsBesideWork } from './test/sequencer';
import { GROUPED } from './test/ui/groups';
import { PATCHED_MODULES, PATCHED_PACKAGES, patchedEntry } from './test/patchedInk.mjs';

// npm test (scripts/test.mjs) runs the files that render the console in two groups, each one file to vitest
// (test/ui/groups.ts); `vitest run FILE…` runs the files as they are.
const grouped = process.env.BROKER_TEST_GROUPS === '1';

export default defineConfig({
  // React's production build and JSX runtime: the tests check what the console shows, not React's dev warnings,
  // and the development build costs a fifth of the suite's CPU.
  oxc: { jsx: { development: false } },
  // Ink as the console's bundle has it: the patched copies (test/patchedInk.mjs, made by the global setup). A bare
  // import of one of these packages, and lineCaches' import of Ink's Output by path, load the copies.
  resolve: {
    alias: [
      ...PATCHED_PACKAGES.map((name) => ({ find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`), replacement: patchedEntry(name) })),
      { find: /^(?:\.\.\/)+node_modules\/ink\/build\//, replacement: `${PATCHED_MODULES}/ink/build/` },
    ],
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}', ...(grouped ? ['test/ui/*.group.ts'] : [])],
    exclude: [...configDefaults.exclude, ...(grouped ? GROUPED : [])],
    // Transformed test and source files kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by content): a second run does not transform them again.
    experimental: { fsModuleCache: true },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'production' },
    globalSetup: ['test/patchedInkSetup.ts'],
    // Loaded by Node as Ink's renderer loads it, not by vitest: a test that imports it meets the renderer's instance.
    server: { deps: { external: [/\/src\/ui\/ink\/widestLine\.mjs$/] } },
    // Before every file, so before any file's imports load chalk or Ink: colours on and CI off in every worker,
    // whichever file a worker happens to run first (an import in the harness was too late for some orders).
    setupFiles: ['test/ui/forceColor.ts'],
    // Twice the 2 cores: files that mostly wait (tmux, deadlines, rate limits) run beside files that compute, all
    // along the run (test/sequencer.ts); four was the fastest of three to five workers.
    maxWorkers: 4,
    // A worker runs several files without reloading Ink, React and the sandbox for each one.
    isolate: false,
    sequence: { sequencer: WaitsBesideWork },
    // The JSON report is what .ci/run counts its closing "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
