// Node's compile cache for this version of the console, in a folder of its own; the first start of a version
// removes what earlier versions left in a root the console owns, so upgrades do not pile up compiled code.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { cacheFolder } from '../config/paths';

export function openCompileCache(version: string, env: NodeJS.ProcessEnv): void {
  const cache = cacheFolder(version, env);
  if (cache === undefined) return;
  if (cache.owned && !existsSync(cache.folder)) removeOtherVersions(cache.root, version);
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
    if (name === version) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // Left for the next version's first start: a cache never stops the console.
    }
  }
}
