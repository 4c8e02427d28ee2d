// Where the console keeps its non-secret files: BROKER_CONSOLE_HOME, else the XDG config folder; and its cache
// of compiled code: BROKER_CONSOLE_CACHE, else inside BROKER_CONSOLE_HOME, else the XDG cache folder.
import envPaths from 'env-paths';
import { join } from 'node:path';

export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.BROKER_CONSOLE_HOME;
  if (home && home.trim() !== '') return home;
  return envPaths('broker-console', { suffix: '' }).config;
}

/**
 * The folder of the compile cache (compiled code of the console, never secrets or data), or undefined when
 * BROKER_CONSOLE_CACHE is `off`. XDG_CACHE_HOME is honoured (env-paths).
 */
export function cacheFolder(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const cache = env.BROKER_CONSOLE_CACHE;
  if (cache !== undefined && cache.trim() !== '') return cache === 'off' ? undefined : cache;
  const home = env.BROKER_CONSOLE_HOME;
  if (home && home.trim() !== '') return join(home, 'cache');
  return envPaths('broker-console', { suffix: '' }).cache;
}
