// vitest's global setup: dist/ is built once, before any test file runs the bin (buildCli in test/commands/helpers.ts),
// and not at all when it is newer than everything the build reads.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What scripts/build.mjs reads: the sources, the build scripts, tsconfig, the package and the installed dependencies. */
const INPUTS = ['src', 'scripts/build.mjs', 'scripts/notices.mjs', 'tsconfig.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'];
/** Written last by the build: present only after a build that finished. */
const LAST_OUTPUT = 'dist/THIRD-PARTY-NOTICES.txt';

function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NaN;
  }
}

function newestInput(root: string): number {
  let newest = 0;
  for (const input of INPUTS) {
    const path = join(root, input);
    newest = Math.max(newest, modified(path) || 0);
    if (input !== 'src') continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true }))
      newest = Math.max(newest, modified(join(entry.parentPath, entry.name)) || 0);
  }
  return newest;
}

export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  // NaN (no finished build) compares false: built.
  if (modified(join(root, LAST_OUTPUT)) > newestInput(root)) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
