// What every scriptable command gets from cli.tsx (or a test), and the shared exit-code rules (DESIGN §4).
import type { BrokerApi, ClientConfig } from '../api/contract';
import { BrokerError } from '../api/errors';
import { type FieldError, formatFieldErrors } from '../api/validation';
import { openExchangeLog } from '../config/logFile';
import { configFolder } from '../config/paths';
import type { Environment } from '../credentials/fromEnvironment';
import type { Keychain } from '../credentials/keychain';
import { resolveTarget } from '../credentials/resolve';
import { OutputClosedError } from './output';

export const EXIT = {
  ok: 0,
  /** The service or the network failed. */
  failure: 1,
  /** Usage or validation error: nothing was sent. */
  usage: 2,
  /** The outcome is unknown: a create whose response never came. */
  outcomeUnknown: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  recvWindow?: number;
  timeoutMs?: number;
  /** --log-file: one line per HTTP exchange, no secrets (DESIGN §5). */
  logFile?: string;
}

export interface CommandContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Progress lines go to stderr only when it is a terminal. */
  stderrIsTTY: boolean;
  env: Environment;
  now: () => number;
  globals: GlobalOptions;
  createApi: (config: ClientConfig) => BrokerApi;
  /** Where profiles.json lives; default configFolder(env) (BROKER_CONSOLE_HOME or the XDG config folder). */
  configFolder?: string;
  /** Opens the keychain; default openKeychain (keytar, loaded only when a profile's secret is needed). */
  keychain?: () => Promise<Keychain>;
  /** Where `profile add` reads the API key and secret; default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown; isRaw?: boolean };
}

export function contextFolder(ctx: CommandContext): string {
  return ctx.configFolder ?? configFolder(ctx.env);
}

export function printLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
}

/** Prints "error: <field>: <reason>" lines; the caller returns EXIT.usage without sending anything. */
export function reportInvalid(ctx: CommandContext, errors: readonly FieldError[]): ExitCode {
  printLines(ctx.stderr, formatFieldErrors(errors));
  return EXIT.usage;
}

export function reportUsage(ctx: CommandContext, message: string): ExitCode {
  printLines(ctx.stderr, [`error: ${message}`]);
  return EXIT.usage;
}

/**
 * Resolves the target (environment, else a profile with its secret from the keychain) and builds the
 * client; undefined (after printing why, in one or two lines) when that cannot be done: nothing was sent.
 * With --log-file, the client's exchanges are appended to it and close() closes it.
 */
export async function connect(ctx: CommandContext): Promise<BrokerApi | undefined> {
  const resolved = await resolveTarget({
    flags: { baseUrl: ctx.globals.baseUrl, profile: ctx.globals.profile },
    env: ctx.env,
    folder: contextFolder(ctx),
    ...(ctx.keychain ? { keychain: ctx.keychain } : {}),
  });
  if (!resolved.ok) {
    const [first = '', ...rest] = resolved.message.split('\n');
    const named = resolved.profile && resolved.reason === 'keychain' && resolved.problem?.kind !== 'missing-entry';
    printLines(ctx.stderr, [`error: ${named ? `profile '${resolved.profile?.name ?? ''}': ` : ''}${first}`, ...rest]);
    return undefined;
  }
  const target = resolved.target;
  const config: ClientConfig = { baseUrl: target.baseUrl, apiKey: target.apiKey, secretKey: target.secretKey };
  if (target.apiKeyHeader !== undefined) config.apiKeyHeader = target.apiKeyHeader;
  if (target.signBody !== undefined) config.signBody = target.signBody;
  const recvWindow = ctx.globals.recvWindow ?? target.recvWindow;
  if (recvWindow !== undefined) config.recvWindow = recvWindow;
  if (ctx.globals.timeoutMs !== undefined) config.timeoutMs = ctx.globals.timeoutMs;
  if (ctx.globals.logFile === undefined) return ctx.createApi(config);

  let log;
  try {
    log = await openExchangeLog(ctx.globals.logFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    printLines(ctx.stderr, [`error: --log-file: cannot open ${ctx.globals.logFile} (${code})`]);
    return undefined;
  }
  const apiKey = target.apiKey;
  config.onExchange = (exchange) => log.record(exchange, apiKey);
  const api = ctx.createApi(config);
  return {
    listSubAccountKeys: (subAccount, options) => api.listSubAccountKeys(subAccount, options),
    createSubAccountKey: (request, options) => api.createSubAccountKey(request, options),
    listUniversalTransfers: (query, options) => api.listUniversalTransfers(query, options),
    clockOffsetMs: () => api.clockOffsetMs(),
    close: async () => {
      try {
        await api.close();
      } finally {
        await log.close();
      }
    },
  };
}

/** One line on stderr, never a stack; the exit code that fits the failure. */
export function reportFailure(ctx: CommandContext, error: unknown, context = ''): ExitCode {
  if (error instanceof OutputClosedError) {
    if (error.readerGone) return EXIT.ok;
    printLines(ctx.stderr, [`error: could not write the output (${error.code ?? error.message})`]);
    return EXIT.failure;
  }
  if (error instanceof BrokerError) {
    printLines(ctx.stderr, [`error: ${error.toLine()}${context}`]);
    return error.kind === 'outcome-unknown' ? EXIT.outcomeUnknown : EXIT.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  printLines(ctx.stderr, [`error: ${message.split('\n')[0] ?? ''}${context}`]);
  return EXIT.failure;
}

/** Closes the client without letting a close failure mask the command's result. */
export async function closeQuietly(api: BrokerApi): Promise<void> {
  try {
    await api.close();
  } catch {
    // nothing useful to tell the operator
  }
}
