// `broker-console sandbox`: run the embedded sandbox alone until SIGINT/SIGTERM, saying how to reach it.
import { SEEDED_TRANSFER_COUNT } from '../sandbox/seedTransfers';
import { startSandbox } from '../sandbox/server';
import type { RunningSandbox, SandboxPostSignature } from '../sandbox/types';
import { grouped, sanitize, toJson } from '../terminal/text';

export interface SandboxCommandOptions {
  host?: string;
  port?: number;
  seed?: number;
  apiKey?: string;
  secretKey?: string;
  /** Transfers in the seeded history (default 24,000): benchmarks and tests scale the data with it. */
  transfers?: number;
  /** The pinned demo's clock, Unix ms (--demo-clock): the data and created keys follow it (demoClock.ts). */
  demoClockMs?: number;
  /** --post-signature: what a signature must cover (default query, as the live service accepts). */
  postSignature?: SandboxPostSignature;
  /** --rate-limit: per endpoint and API key (default the documented 500 per 10 s); false: none. */
  rateLimit?: { max: number; windowMs: number } | false;
  /** --no-ban: false never bans a client that keeps sending while refused (load tests). */
  ban?: boolean;
  json?: boolean;
}

export interface SandboxCommandHooks {
  /** Called after a signal closed the sandbox; default process.exit. */
  exit?: (code: number) => void;
  /** Install the SIGINT/SIGTERM handlers (default true). */
  handleSignals?: boolean;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runSandboxCommand(
  opts: SandboxCommandOptions,
  out: NodeJS.WritableStream = process.stdout,
  hooks: SandboxCommandHooks = {},
): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    host: opts.host,
    port: opts.port,
    seed: opts.seed,
    apiKey: opts.apiKey,
    secretKey: opts.secretKey,
    transfers: opts.transfers,
    ...(opts.postSignature !== undefined ? { postSignature: opts.postSignature } : {}),
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.ban === false ? { ban: false as const } : {}),
    ...(opts.demoClockMs !== undefined ? { demoClockMs: opts.demoClockMs } : {}),
  });
  out.write(opts.json ? `${describeJson(sandbox)}\n` : describeText(sandbox, opts.seed ?? 1, opts.transfers ?? SEEDED_TRANSFER_COUNT, opts.demoClockMs, opts.postSignature ?? 'query'));
  if (hooks.handleSignals === false) return sandbox;

  const exit = hooks.exit ?? ((code: number) => process.exit(code));
  const onSignal = (): void => {
    void sandbox.close().then(() => exit(0));
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
  const close = sandbox.close;
  // Closing by hand (tests, the demo) leaves no handlers behind.
  return {
    ...sandbox,
    close: () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      return close();
    },
  };
}

const POST_SIGNATURE_WORDS: Record<SandboxPostSignature, string> = { query: 'the query', body: 'the query + body', either: 'the query or the query + body' };

function describeJson(sandbox: RunningSandbox): string {
  return toJson({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    secretKey: sandbox.secretKey,
    subAccounts: sandbox.subAccounts,
  });
}

/** Values the operator gave (--api-key, --secret-key, --host) are echoed sanitised. */
function describeText(sandbox: RunningSandbox, seed: number, transfers: number, demoClockMs: number | undefined, postSignature: SandboxPostSignature): string {
  const pinned = demoClockMs === undefined ? [] : [`demo clock:   ${new Date(demoClockMs).toISOString()} (data and created keys; requests are checked against the real clock)`];
  return [
    `base URL:     ${sanitize(sandbox.baseUrl)}`,
    `API key:      ${sanitize(sandbox.apiKey)}`,
    `secret key:   ${sanitize(sandbox.secretKey)}`,
    `sub-accounts: ${sanitize(sandbox.subAccounts.join(', '))}`,
    ...(sandbox.frozenSubAccounts?.length ? [`frozen:       ${sanitize(sandbox.frozenSubAccounts.join(', '))} (every operation on it answers 140002)`] : []),
    ...pinned,
    `(sandbox with seed ${seed} and ${grouped(transfers)} transfers; API key header ${sanitize(sandbox.apiKeyHeader)}; signatures over ${POST_SIGNATURE_WORDS[postSignature]}; Ctrl-C stops it)`,
    '',
  ].join('\n');
}
