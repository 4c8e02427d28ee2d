// The interactive console (no arguments, or --demo). Ink and React are loaded here, lazily, so the
// scriptable commands never pay for them.
import { createBrokerApi } from '../api/operations';
import { configFolder } from '../config/paths';
import { memoryRecentSubAccounts, openRecentSubAccounts, type RecentSubAccounts } from '../config/recentSubAccounts';
import { resolveCredentials } from '../credentials/fromEnvironment';
import type { CommandContext, ExitCode } from './context';
import { EXIT, printLines } from './context';

export interface InteractiveOptions {
  demo: boolean;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

export async function runInteractive(options: InteractiveOptions, ctx: CommandContext): Promise<ExitCode | 130 | 143 | 129> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // chalk reads the colour level when Ink loads; NO_COLOR must be mapped before that.
  const noColor = ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '';
  if (noColor) process.env.FORCE_COLOR = '0';
  const { runConsole, terminalProblem } = await import('../ui/run');
  const problem = terminalProblem(stdin, stdout);
  if (problem) {
    printLines(ctx.stderr, [
      `error: the console needs a terminal, and ${problem}.`,
      'For scripts and pipes use the commands: broker-console keys list|create, transfers (see --help).',
    ]);
    return EXIT.usage;
  }

  const credentials = options.demo ? undefined : resolveCredentials({ flags: { baseUrl: ctx.globals.baseUrl, profile: ctx.globals.profile }, env: ctx.env });
  const live = credentials?.ok ? credentials.credentials : undefined;
  if (!options.demo && credentials && !credentials.ok && (ctx.env.BROKER_API_KEY || ctx.env.BROKER_API_SECRET || ctx.globals.profile)) {
    // The operator meant a live target and it is incomplete: say so rather than quietly opening the demo.
    printLines(ctx.stderr, [`error: ${credentials.message}`, 'or start the demo: broker-console --demo']);
    return EXIT.usage;
  }

  const { createExchangeLog } = await import('../ui/exchangeLog');
  const exchanges = createExchangeLog();
  const { startSandbox } = await import('../sandbox/server');
  const sandbox = live ? undefined : await startSandbox({ seed: 1 });
  const baseUrl = live?.baseUrl ?? sandbox!.baseUrl;
  const api = createBrokerApi({
    baseUrl,
    apiKey: live?.apiKey ?? sandbox!.apiKey,
    secretKey: live?.secretKey ?? sandbox!.secretKey,
    ...(ctx.globals.recvWindow !== undefined ? { recvWindow: ctx.globals.recvWindow } : {}),
    ...(ctx.globals.timeoutMs !== undefined ? { timeoutMs: ctx.globals.timeoutMs } : {}),
    onExchange: exchanges.record,
  });
  let recent: RecentSubAccounts;
  try {
    recent = await openRecentSubAccounts(configFolder(ctx.env), live ? baseUrl : 'demo');
  } catch {
    recent = memoryRecentSubAccounts();
  }
  try {
    return (await runConsole({
      api,
      exchanges,
      mode: live ? 'live' : 'demo',
      target: new URL(baseUrl).host,
      profile: live ? (ctx.globals.profile ?? 'environment') : 'demo',
      credentialSource: live ? live.source : 'sandbox',
      recent,
      suggestions: sandbox?.subAccounts ?? [],
      noColor,
      exportFolder: process.cwd(),
    })) as ExitCode | 130;
  } finally {
    await api.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
  }
}
