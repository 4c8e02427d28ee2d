// A command given --demo: the console's embedded demo sandbox (same seed, same clock), started in-process on
// 127.0.0.1 for this one run, and the environment the command then reads pointing at it and nothing else.
import type { Environment } from '../credentials/fromEnvironment';
import { ENV } from '../credentials/fromEnvironment';

/** The demo's seed: its sub-accounts, keys and transfers (the console's demo and a command's are the same data). */
export const DEMO_SEED = 1;

/** The commands that reach the service, the ones --demo can point at the demo. */
export const DEMO_COMMANDS: readonly string[] = ['keys list', 'keys create', 'keys audit', 'transfers', 'sub-accounts'];

export interface DemoRun {
  /** The run's environment with the demo's credentials; no profile, no proxy (the demo is on this machine). */
  env: Environment;
  /** The pinned demo clock (--demo-clock), Unix ms. */
  nowMs?: number;
  close(): Promise<void>;
}

/** Variables that would send the run elsewhere or sign it otherwise: the demo is reached directly, as the console reaches it. */
const LEFT_OUT = [ENV.profile, ENV.postSignature, 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

export async function startDemoRun(env: Environment, demoClockMs: number | undefined): Promise<DemoRun> {
  // Loaded only for a demo run: the other commands do not pay for the server.
  const { startSandbox } = await import('../sandbox/server');
  const sandbox = await startSandbox({ host: '127.0.0.1', seed: DEMO_SEED, ...(demoClockMs !== undefined ? { demoClockMs } : {}) });
  const demoEnv: Record<string, string | undefined> = { ...env };
  for (const name of LEFT_OUT) delete demoEnv[name];
  Object.assign(demoEnv, { [ENV.baseUrl]: sandbox.baseUrl, [ENV.apiKey]: sandbox.apiKey, [ENV.secret]: sandbox.secretKey });
  return { env: demoEnv, ...(demoClockMs !== undefined ? { nowMs: demoClockMs } : {}), close: () => sandbox.close() };
}
