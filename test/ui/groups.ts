// npm test runs the test files that render the console in groups (scripts/test.mjs, vitest.config.ts): a group is
// one file to vitest, so its files share one worker, which loads Ink, React and the screens once. Spread over the
// four workers, each worker that ran such a file paid that loading (~1.3 s of CPU) again. `vitest run FILE` runs a
// file alone, as before.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const UI_GROUPS = 2;
const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** The test files outside test/ui that render the console. */
const ELSEWHERE = ['test/config/auditTrail.test.ts', 'test/demo/demoConsole.test.tsx'];

/** Every file the groups run, as globs from the repository's root (vitest.config.ts leaves them out alone). */
export const GROUPED = ['test/ui/*.test.{ts,tsx}', ...ELSEWHERE];

/** The files of group `group` (1 to UI_GROUPS), as paths: every UI_GROUPS-th by name. */
export function uiGroupFiles(group: number): string[] {
  const ui = readdirSync(join(root, 'test/ui')).filter((name) => /\.test\.tsx?$/.test(name)).map((name) => `test/ui/${name}`);
  return [...ui, ...ELSEWHERE]
    .sort()
    .filter((_, i) => i % UI_GROUPS === group - 1)
    .map((file) => join(root, file));
}
