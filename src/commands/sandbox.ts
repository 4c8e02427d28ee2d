// `broker-console sandbox`: run the embedded sandbox alone until SIGINT/SIGTERM, saying how to reach it.
import { type Command, InvalidArgumentError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { ENV } from '../credentials/fromEnvironment';
import { resolveDemoClock } from '../sandbox/demoClock';
import { parseRateLimit } from '../sandbox/rateLimit';
import { SEEDED_TRANSFER_COUNT } from '../sandbox/seedTransfers';
import { type RunningSandbox, SANDBOX_POST_SIGNATURES, type SandboxPostSignature } from '../sandbox/types';
import { grouped, sanitize, toJson } from '../terminal/sanitize';
import { shellQuote } from '../terminal/shell';
import { EXIT, printLines, reportUsage } from './context';
import { type CommandHost, examples, prose, oneOf, wholeNumber, type OptionsOf } from './define';

/** What `sandbox` runs with: its flags (every one optional when run from code), and the demo clock. */
type SandboxCommandOptions = Partial<SandboxFlags> & {
  /** The pinned demo's clock, Unix ms (--demo-clock): the data and created keys follow it (demoClock.ts). */
  demoClockMs?: number;
};

interface SandboxCommandHooks {
  /** Called after a signal closed the sandbox; default process.exit. */
  exit?: (code: number) => void;
  /** Install the SIGINT/SIGTERM handlers (default true). */
  handleSignals?: boolean;
  /** Where the description goes when stdout holds the `export` lines (--env); default process.stderr. */
  err?: NodeJS.WritableStream;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runSandboxCommand(
  opts: SandboxCommandOptions,
  out: NodeJS.WritableStream = process.stdout,
  hooks: SandboxCommandHooks = {},
): Promise<RunningSandbox> {
  // The server is loaded only when this command runs: the other commands do not pay for it.
  const { startSandbox } = await import('../sandbox/server');
  // Credentials of this run unless given: anyone on the machine who finds the port must not also know them
  // (the seed's own are the same on every machine).
  const random = (bytes: number) => process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');
  const sandbox = await startSandbox({
    host: opts.host,
    port: opts.port,
    seed: opts.seed,
    apiKey: opts.apiKey ?? `mx0v${random(14)}`,
    secretKey: opts.secretKey ?? random(16),
    transfers: opts.transfers,
    ...(opts.postSignature !== undefined ? { postSignature: opts.postSignature } : {}),
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.ban === false ? { ban: false as const } : {}),
    ...(opts.demoClockMs !== undefined ? { demoClockMs: opts.demoClockMs } : {}),
  });
  const text = (): string => describeText(sandbox, opts.seed ?? 1, opts.transfers ?? SEEDED_TRANSFER_COUNT, opts.demoClockMs, opts.postSignature ?? 'query');
  if (opts.env) {
    out.write(describeEnv(sandbox));
    (hooks.err ?? process.stderr).write(text());
  } else out.write(opts.json ? `${describeJson(sandbox)}\n` : text());
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

/** `export` lines a shell can eval: the variables a command reads its target and credentials from. */
function describeEnv(sandbox: RunningSandbox): string {
  return [
    [ENV.baseUrl, sandbox.baseUrl],
    [ENV.apiKey, sandbox.apiKey],
    [ENV.secret, sandbox.secretKey],
  ]
    .map(([name, value]) => `export ${name}=${shellQuote(value as string)}\n`)
    .join('');
}

/** Values the operator gave (--api-key, --secret-key, --host) are echoed sanitised. */
function describeText(sandbox: RunningSandbox, seed: number, transfers: number, demoClockMs: number | undefined, postSignature: SandboxPostSignature): string {
  const pinned =
    demoClockMs === undefined
      ? []
      : [`demo clock:   ${new Date(demoClockMs).toISOString()} (data and created keys; requests are checked against the real clock)`];
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

/** The sandbox's --rate-limit: "500/10s", "50/1s", "200/500ms" or "off". */
function rateLimitOption(raw: string): { max: number; windowMs: number } | false {
  const parsed = parseRateLimit(raw);
  if (parsed === undefined) throw new InvalidArgumentError('must be N/Ws (requests per window, e.g. 500/10s or 50/1s) or off');
  return parsed;
}

/** `sandbox`'s flags (its options' type is read from them: see OptionsOf). */
const sandboxFlags = (command: Command) =>
  command
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', wholeNumber(0, 65_535))
    .option('--seed <n>', 'seed of the demo data', wholeNumber(0, 2 ** 31 - 1))
    .option('--api-key <key>', 'master API key of the sandbox')
    // The one secret flag allowed: the sandbox's own throwaway secret.
    .option('--secret-key <secret>', 'master secret of the sandbox (a throwaway)')
    .option('--transfers <n>', 'transfers in the seeded history (default 24000; at most 4000000)', wholeNumber(0, 4_000_000))
    .option(
      '--rate-limit <N/Ws>',
      'requests per window for each API key (all endpoints together), then 429, and 418 for a client that keeps on (default 500/10s; off: none)',
      rateLimitOption,
    )
    .option('--no-ban', 'never ban a client that keeps sending while refused (load tests)')
    .option('--json', 'print one JSON line with baseUrl, apiKey, secretKey, subAccounts')
    .option('--env', 'print export lines of BROKER_BASE_URL, BROKER_API_KEY, BROKER_API_SECRET for eval (the rest on stderr)')
    .option(
      '--post-signature <rule>',
      "what a request's signature must cover: query (default, as the live service accepts), body (query + body) or either",
      oneOf(SANDBOX_POST_SIGNATURES),
    );

/** The flags as commander parses them; the demo clock comes from the global option. */
type SandboxFlags = OptionsOf<typeof sandboxFlags>;

export function defineSandbox(program: Command, host: CommandHost): CommandUnknownOpts {
  return sandboxFlags(program.command('sandbox').description('run the embedded sandbox service alone, until Ctrl-C'))
    .addHelpText(
      'after',
      prose(
        '\nTakes the global --demo-clock TIME (or BROKER_DEMO_CLOCK): the data and created keys follow that moment;\nrequests are still checked against the real clock.',
      ),
    )
    .addHelpText('after', examples('sandbox --json', 'sandbox --env > sandbox.env &  # then: . ./sandbox.env', 'sandbox --port 8080 --seed 7 --rate-limit off'))
    .action(async (options) => {
      if (options.env && options.json) return host.exit(reportUsage(host.context(), '--env and --json each say how to print the target: give one'));
      let demoClockMs: number | undefined;
      try {
        demoClockMs = resolveDemoClock(host.rootOptions().demoClock, host.io.env);
      } catch (error) {
        return host.exit(reportUsage(host.context(), (error as Error).message));
      }
      // It keeps serving after this returns; its own SIGINT/SIGTERM handler closes it and exits.
      try {
        await runSandboxCommand({ ...options, demoClockMs }, host.io.stdout, { err: host.io.stderr });
      } catch (error) {
        const said = listenFailure(error, options.host ?? '127.0.0.1', options.port);
        if (said === undefined) throw error;
        printLines(host.io.stderr, [`error: ${said}`]);
        return host.exit(EXIT.failure);
      }
      host.exit(EXIT.ok, { keepRunning: true });
    });
}

/** What an operator can do when the sandbox cannot listen where asked; undefined for any other failure. */
export function listenFailure(error: unknown, listenHost: string, port: number | undefined): string | undefined {
  const where = `${sanitize(listenHost)}:${port ?? 0}`;
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use: choose another with --port, or leave --port out for a free one`;
    case 'EACCES':
      return `cannot listen on ${where}: this user may not use that port: choose one above 1023 with --port`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${sanitize(listenHost)} is not an address of this machine: give one with --host (e.g. 127.0.0.1)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: ${sanitize(listenHost)} is not a name this machine resolves: give an address with --host (e.g. 127.0.0.1)`;
    default:
      return undefined;
  }
}
