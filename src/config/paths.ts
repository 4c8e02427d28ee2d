// Where the console keeps its non-secret files: BROKER_CONSOLE_HOME, else the XDG config folder.
import envPaths from 'env-paths';

export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.BROKER_CONSOLE_HOME;
  if (home && home.trim() !== '') return home;
  return envPaths('broker-console', { suffix: '' }).config;
}
