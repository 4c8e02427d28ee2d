// Where the console keeps its non-secret files: BROKER_CONSOLE_HOME, else the XDG config folder; and its cache
// of compiled code: BROKER_CONSOLE_CACHE, else inside BROKER_CONSOLE_HOME, else the XDG cache folder.
import envPaths from 'env-paths';
import { join } from 'node:path';

export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.BROKER_CONSOLE_HOME;
  if (home && home.trim() !== '') return home;
  return envPaths('broker-console', { suffix: '' }).config;
}

/** Where one version of the console keeps its compiled code (never secrets or data). */
interface CacheFolder {
  /** This version's folder: `<root>/<version>`, so an upgrade never reads or keeps another version's entries. */
  folder: string;
  root: string;
  /** Whether the console owns the root (not an operator's BROKER_CONSOLE_CACHE), so may remove what else is in it. */
  owned: boolean;
}

/**
 * The compile cache of this version, or undefined when BROKER_CONSOLE_CACHE is `off`. XDG_CACHE_HOME is honoured
 * (env-paths).
 */
export function cacheFolder(version: string, env: Readonly<Record<string, string | undefined>> = process.env): CacheFolder | undefined {
  const cache = env.BROKER_CONSOLE_CACHE;
  if (cache !== undefined && cache.trim() !== '') return cache === 'off' ? undefined : { folder: join(cache, version), root: cache, owned: false };
  const home = env.BROKER_CONSOLE_HOME;
  const root = home && home.trim() !== '' ? join(home, 'cache') : envPaths('broker-console', { suffix: '' }).cache;
  return { folder: join(root, version), root, owned: true };
}
