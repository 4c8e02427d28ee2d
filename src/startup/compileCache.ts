// Node's compile cache for this version of the console, in a folder of its own; the first start of a version
// removes the folders earlier versions left, so upgrades do not pile up compiled code. Only folders the console
// made (each holds its marker file) are removed: the root may be a folder the operator keeps other things in.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { cacheFolder } from '../config/paths';

/** The file that marks a folder as one of the console's version caches. */
const MARKER = '.broker-console-cache';

export function openCompileCache(version: string, env: NodeJS.ProcessEnv): void {
  const cache = cacheFolder(version, env);
  if (cache === undefined) return;
  if (!existsSync(join(cache.folder, MARKER))) {
    if (cache.owned) removeOtherVersions(cache.root, version);
    try {
      mkdirSync(cache.folder, { recursive: true });
      writeFileSync(join(cache.folder, MARKER), '');
    } catch {
      // A folder that cannot be made: Node's cache is then off, and a start costs a compile, never a failure.
    }
  }
  // Only ever a speed-up: a cache Node cannot read or write costs a compile, never a failure.
  module.enableCompileCache?.(cache.folder);
}

function removeOtherVersions(root: string, version: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === version || !existsSync(join(root, name, MARKER))) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // Left for the next version's first start: a cache never stops the console.
    }
  }
}
