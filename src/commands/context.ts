// What every scriptable command gets from cli.tsx (or a test), and the shared exit-code rules (DESIGN §4).
import type { BrokerApi, ClientConfig } from '../api/contract';
import { BrokerError } from '../api/errors';
import { type FieldError, formatFieldErrors } from '../api/validation';
import { type Environment, resolveCredentials } from '../credentials/fromEnvironment';
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

/** Resolves credentials and builds the client; undefined (after printing why) when that cannot be done. */
export function connect(ctx: CommandContext): BrokerApi | undefined {
  const resolved = resolveCredentials({ flags: { baseUrl: ctx.globals.baseUrl, profile: ctx.globals.profile }, env: ctx.env });
  if (!resolved.ok) {
    printLines(ctx.stderr, [`error: ${resolved.message}`]);
    return undefined;
  }
  const { baseUrl, apiKey, secretKey } = resolved.credentials;
  const config: ClientConfig = { baseUrl, apiKey, secretKey };
  if (ctx.globals.recvWindow !== undefined) config.recvWindow = ctx.globals.recvWindow;
  if (ctx.globals.timeoutMs !== undefined) config.timeoutMs = ctx.globals.timeoutMs;
  return ctx.createApi(config);
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
