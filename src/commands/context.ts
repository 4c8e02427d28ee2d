// What every scriptable command gets from cli.ts (or a test), and the shared exit-code rules (docs/design.md, exit codes).
import { CLOCK_SKEW_THRESHOLD_MS, describeSkew } from '../api/clock';
import type { BrokerApi, ClientConfig } from '../api/contract';
import { BrokerError } from '../api/errors';
import { apiKeyProblem, headerNameProblem } from '../api/headers';
import { type ProxyChoice, cleartextWarning, proxyInOrder } from '../api/proxy';
import { readOnlyApi, readOnlyReason, readOnlySource } from '../api/readOnly';
import { type FieldError, type FieldName, sayFieldError } from '../api/validation';
import { learnedFor } from '../config/learned';
import { exchangeLine, openExchangeLog } from '../config/logFile';
import { configFolder } from '../config/paths';
import { ENV, type Environment, envValue } from '../credentials/fromEnvironment';
import type { Keychain } from '../credentials/keychain';
import { resolveTarget } from '../credentials/resolve';
import { LINE_LIMIT, plural, sanitize } from '../terminal/sanitize';
import { signalExitCode } from '../terminal/signals';
import { OutputClosedError, outputFailureLine } from './output';

export const EXIT = {
  ok: 0,
  /** The service or the network failed. */
  failure: 1,
  /** Usage or validation error: nothing was sent. */
  usage: 2,
  /** The outcome is unknown: a create whose response never came, or came and cannot be read. */
  outcomeUnknown: 3,
  /** `keys audit` flagged a key (`--fail-on none`: 0 instead); 1 wins when a sub-account could not be audited. */
  flagged: 4,
  /** `keys create`: the key was created but its secret did not reach the operator (not written, or not valid text). */
  secretNotDelivered: 5,
  /** Stopped by a signal (or ctrl+c at a prompt) where that leaves nothing unknown: 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  recvWindow?: number;
  timeoutMs?: number;
  /** --log-file: one line per HTTP exchange, no secrets (docs/design.md, secrets). */
  logFile?: string;
  /** --read-only: nothing that changes something is sent this run (with `profile add`: the profile is saved read-only). */
  readOnly?: boolean;
  /** --proxy URL: the proxy for this run, before the profile's and the environment's (with `profile add`: saved in it). */
  proxy?: string;
  /** --verbose (or BROKER_DEBUG=1): each request's --log-file line on stderr too. */
  verbose?: boolean;
}

export interface CommandContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Progress lines go to stderr only when it is a terminal. */
  stderrIsTTY: boolean;
  /** JSON and CSV are sanitised like the table when stdout is a terminal; default: stdout's own isTTY. */
  stdoutIsTTY?: boolean;
  env: Environment;
  now: () => number;
  globals: GlobalOptions;
  createApi: (config: ClientConfig) => BrokerApi;
  /** Where profiles.json lives; default configFolder(env) (BROKER_CONSOLE_HOME or the XDG config folder). */
  configFolder?: string;
  /** --demo: the run's target is an embedded demo sandbox (not LIVE; its files are kept under "demo"). */
  demo?: boolean;
  /** Opens the keychain; default openKeychain (keytar, loaded only when a profile's secret is needed). */
  keychain?: () => Promise<Keychain>;
  /**
   * While a create is in flight or an export streams: `onSignal` runs on SIGINT, SIGTERM, SIGHUP or SIGQUIT, and the
   * process exits with the code it returns (once it settles). A second signal before then exits at once, with what
   * `onAnother` says and returns (default: exit 130, silent). Call the result to stop; give it the command's exit
   * code once the outcome is settled, and a signal from then on exits with that code. Absent in-process (the
   * tests' runs get no signals).
   */
  onInterrupt?: (
    onSignal: (signal: NodeJS.Signals) => number | Promise<number>,
    onAnother?: (signal: NodeJS.Signals) => number,
  ) => (settledCode?: number) => void;
  /** Where `profile add` reads the API key and secret; default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown; isRaw?: boolean };
}

export function contextFolder(ctx: CommandContext): string {
  return ctx.configFolder ?? configFolder(ctx.env);
}

/** Whether stdout is a terminal (then JSON and CSV are sanitised as the table is). */
export function stdoutIsTerminal(ctx: CommandContext): boolean {
  return ctx.stdoutIsTTY ?? (ctx.stdout as { isTTY?: boolean }).isTTY === true;
}

/**
 * Lines for the operator (stderr messages, the commands' text answers). Each line is sanitised (docs/design.md, the sanitiser):
 * a control, an escape sequence or a line break that came from outside (a service message, an argv value
 * echoed back, a file) becomes a visible mark, so it can neither drive the terminal nor start a line.
 */
export function printLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  if (lines.length > 0) stream.write(`${lines.map((line) => sanitize(line, LINE_LIMIT)).join('\n')}\n`);
}

/** The flag the operator typed for each field of the shared validation (which names wire fields). */
export const FLAG_OF_FIELD: Readonly<Record<FieldName, string>> = {
  subAccount: '--sub',
  permissions: '--permissions',
  ip: '--ip',
  note: '--note',
  clientTranId: '--client-tran-id',
  startTime: '--start',
  endTime: '--end',
  page: '--page',
  limit: '--limit',
  fromAccountType: '--from-type',
  toAccountType: '--to-type',
  fromAccount: '--from-account',
  toAccount: '--to-account',
};

/**
 * A validation message as a command says it: "--to-type: required" rather than "toAccountType: required".
 * Wire names mentioned in the reason ("must not be before startTime") become flags too, but never inside
 * a quoted value the operator typed ('…').
 */
export function flagMessage(error: FieldError): string {
  return sayFieldError(error, FLAG_OF_FIELD);
}

/** Prints "error: <flag>: <reason>" lines; the caller returns EXIT.usage without sending anything. */
export function reportInvalid(ctx: CommandContext, errors: readonly FieldError[]): ExitCode {
  printLines(
    ctx.stderr,
    errors.map((e) => `error: ${flagMessage(e)}`),
  );
  return EXIT.usage;
}

export function reportUsage(ctx: CommandContext, message: string): ExitCode {
  printLines(ctx.stderr, [`error: ${message}`]);
  return EXIT.usage;
}

/** A connected client: what its config files are kept by, and a way to cut what is under way short (a signal). */
interface ConnectedApi extends BrokerApi {
  readonly baseUrl: string;
  /** Set when creating is refused (a read-only run or profile): why, in one line. */
  readonly readOnly?: string;
  /** Logs each request under way that has left as cut short, then writes and closes the log: the process is ending. */
  cutShort(): Promise<void>;
}

/** What is said when lines of --log-file could not be written (a full disk, a reader gone). */
export function logLossLine(lost: number, path: string): string {
  return `warning: --log-file: ${plural(lost, 'line')} could not be written to ${path} (left out whole)`;
}

/**
 * Resolves the target (environment, else a profile with its secret from the keychain) and builds the
 * client; undefined (after printing why, in one or two lines) when that cannot be done: nothing was sent.
 * A key or header the HTTP layer would refuse is named here, where it came from (BROKER_API_KEY, or the
 * profile's keychain entry or field). The client starts with the clock offset last measured against the
 * base URL, and close() remembers the one it ends with. With --log-file, the client's exchanges are
 * appended to it and close() closes it; a signal meeting a request logs it, cut short. A read-only run or
 * profile gets a client that refuses to create.
 */
export async function connect(ctx: CommandContext): Promise<ConnectedApi | undefined> {
  return (await connectTarget(ctx))?.api;
}
/** connect(), also saying which base URL it resolved (what per-target files, such as the discovered sub-accounts, are kept by). */
export async function connectTarget(ctx: CommandContext): Promise<{ api: ConnectedApi; baseUrl: string } | undefined> {
  const resolved = await resolveTarget({
    flags: { baseUrl: ctx.globals.baseUrl, profile: ctx.globals.profile },
    env: ctx.env,
    folder: contextFolder(ctx),
    ...(ctx.keychain ? { keychain: ctx.keychain } : {}),
  });
  if (!resolved.ok) {
    // Only keychain problems are several lines (what failed, then what to do); any other message may echo
    // an argv value (--profile), whose line breaks must not start lines of their own.
    const [first = '', ...rest] = resolved.reason === 'keychain' ? resolved.message.split('\n') : [resolved.message];
    const named = resolved.profile && resolved.reason === 'keychain' && resolved.problem?.kind !== 'missing-entry';
    printLines(ctx.stderr, [`error: ${named ? `profile '${resolved.profile?.name ?? ''}': ` : ''}${first}`, ...rest]);
    return undefined;
  }
  const target = resolved.target;
  const profileName = target.profile?.name ?? '';
  const keyProblem = apiKeyProblem(target.apiKey);
  if (keyProblem !== undefined) {
    printLines(ctx.stderr, [
      target.source === 'environment'
        ? `error: ${ENV.apiKey}: ${keyProblem} — nothing was sent`
        : `error: profile '${profileName}': ${keyProblem} (in its keychain entry) — nothing was sent; add the profile again`,
    ]);
    return undefined;
  }
  const headerProblem = target.apiKeyHeader === undefined ? undefined : headerNameProblem(target.apiKeyHeader);
  if (headerProblem !== undefined) {
    printLines(ctx.stderr, [`error: profile '${profileName}' apiKeyHeader: ${headerProblem} — nothing was sent`]);
    return undefined;
  }
  const proxied = proxyFor(ctx, target.baseUrl, target.profile);
  if (!proxied.ok) return undefined;
  // The environment standing over a profile is never silent: the requests may go elsewhere, signed by other keys.
  for (const note of target.overrides ?? []) printLines(ctx.stderr, [`note: ${sanitize(note, 300)}`]);
  const folder = contextFolder(ctx);
  const config: ClientConfig = { baseUrl: target.baseUrl, apiKey: target.apiKey, secretKey: target.secretKey };
  if (target.apiKeyHeader !== undefined) config.apiKeyHeader = target.apiKeyHeader;
  if (target.postSignature !== undefined) config.postSignature = target.postSignature;
  // What the folder remembers of this base URL (clock offset, signing rule, a ban) starts the client, and what it
  // learns is kept. The demo's sandbox is new every run, on a port of its own: nothing of it is remembered or kept.
  const learned = ctx.demo === true ? undefined : await learnedFor(folder, target.baseUrl, config.postSignature);
  Object.assign(config, learned?.config);
  const recvWindow = ctx.globals.recvWindow ?? target.recvWindow;
  if (recvWindow !== undefined) config.recvWindow = recvWindow;
  if (ctx.globals.timeoutMs !== undefined) config.timeoutMs = ctx.globals.timeoutMs;
  if (proxied.proxy !== undefined) config.proxy = proxied.proxy;
  warnCleartext(ctx, target.baseUrl);

  let log: Awaited<ReturnType<typeof openExchangeLog>> | undefined;
  if (ctx.globals.logFile !== undefined) {
    try {
      log = await openExchangeLog(ctx.globals.logFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      printLines(ctx.stderr, [`error: --log-file: cannot open ${ctx.globals.logFile} (${code})`]);
      return undefined;
    }
  }
  const debug = debugRequests(ctx);
  if (log !== undefined || debug) {
    const opened = log;
    const apiKey = target.apiKey;
    // One line format for both: the file's line, on stderr prefixed (no query, no signature, key shortened).
    config.onExchange = (exchange) => {
      opened?.record(exchange, apiKey);
      if (debug) printLines(ctx.stderr, [`debug: ${exchangeLine(exchange, apiKey, new Date(ctx.now())).trimEnd()}`]);
    };
  }
  let api: BrokerApi;
  try {
    api = ctx.createApi(config);
  } catch (error) {
    // A base URL the client cannot use (resolveTarget checked it; this is the last guard): nothing was sent.
    const from =
      ctx.globals.baseUrl !== undefined
        ? '--base-url'
        : envValue(ctx.env, ENV.baseUrl) !== undefined || !target.profile
          ? ENV.baseUrl
          : `profile '${profileName}' baseUrl`;
    printLines(ctx.stderr, [`error: ${from}: ${error instanceof Error ? error.message : String(error)} — nothing was sent`]);
    await log?.close();
    return undefined;
  }
  // Read-only (--read-only, BROKER_READ_ONLY, or the profile's setting): a create is refused here, nothing sent.
  const readOnly = readOnlySource(ctx.globals.readOnly, ctx.env, target.profile);
  const calls = readOnly ? readOnlyApi(api, readOnlyReason(readOnly)) : api;
  // The demo's port changes every run: its names are kept under "demo", as the console keeps them.
  const storeKey = ctx.demo === true ? 'demo' : target.baseUrl;
  let stopLogging = (): void => undefined;
  let logClosed = false;
  const closeLog = async (): Promise<void> => {
    stopLogging();
    // Once: a signal's cutShort() and the command's close() may both get here.
    if (logClosed) return;
    logClosed = true;
    const lost = await log?.close();
    if (lost) printLines(ctx.stderr, [logLossLine(lost, ctx.globals.logFile ?? '')]);
  };
  const connected: ConnectedApi = {
    // What the config files are kept by (recent and discovered sub-accounts, clock offsets).
    baseUrl: storeKey,
    ...(readOnly ? { readOnly: readOnlyReason(readOnly) } : {}),
    listSubAccountKeys: (subAccount, options) => calls.listSubAccountKeys(subAccount, options),
    createSubAccountKey: (request, options) => calls.createSubAccountKey(request, options),
    listUniversalTransfers: (query, options) => calls.listUniversalTransfers(query, options),
    clockOffsetMs: () => api.clockOffsetMs(),
    reportCutShort: () => api.reportCutShort(),
    heldBack: (operation) => api.heldBack(operation),
    async cutShort() {
      // Not aborted: the command goes on as it was (saying nothing of a failure) until the process ends.
      api.reportCutShort();
      await closeLog();
    },
    close: async () => {
      try {
        if (learned) {
          await learned.keep(api.clockOffsetMs());
          noteSkew(ctx, learned.offsetBefore, api.clockOffsetMs());
        }
        await api.close();
      } finally {
        await closeLog();
      }
    },
  };
  // With a log (or --verbose), a signal that meets a request still logs it, cut short; a command that answers
  // signals itself (a create, a stream) calls cutShort() from its own handler, which stands over this one.
  if (log !== undefined || debug) {
    const stop = ctx.onInterrupt?.(async (signal) => {
      await connected.cutShort();
      return signalExitCode(signal);
    });
    if (stop) stopLogging = stop;
  }
  return { api: connected, baseUrl: storeKey };
}

/** Whether each request is described on stderr: --verbose, or BROKER_DEBUG set to anything but empty, 0 or false. */
function debugRequests(ctx: CommandContext): boolean {
  if (ctx.globals.verbose === true) return true;
  const value = ctx.env.BROKER_DEBUG?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * The proxy for a base URL: --proxy, else the profile's, else the environment's (NO_PROXY applying to all).
 * Not ok (after saying why, naming where the URL came from) when the chosen URL cannot be used: nothing is sent.
 */
export function proxyFor(ctx: CommandContext, baseUrl: string, profile?: { name: string; proxy?: string }): { ok: true; proxy?: ProxyChoice } | { ok: false } {
  const chosen = proxyInOrder(baseUrl, { flag: ctx.globals.proxy, profile }, ctx.env);
  if (chosen.problem !== undefined) {
    printLines(ctx.stderr, [`error: ${chosen.problem} — nothing was sent`]);
    return { ok: false };
  }
  return { ok: true, ...(chosen.proxy ? { proxy: chosen.proxy } : {}) };
}

/** One warning line on stderr when the base URL is plain http:// to a host other than this machine. */
function warnCleartext(ctx: CommandContext, baseUrl: string): void {
  const warning = cleartextWarning(baseUrl);
  if (warning !== undefined) printLines(ctx.stderr, [`warning: ${warning}`]);
}

/** A new skew beyond a second, found in this run: said once on stderr with what to do about it (it is kept). */
function noteSkew(ctx: CommandContext, before: number, after: number): void {
  const off = describeSkew(after);
  if (off !== undefined && after !== before && Math.abs(after - before) > CLOCK_SKEW_THRESHOLD_MS) {
    printLines(ctx.stderr, [`note: ${off}; timestamps are corrected for it (kept for the next run) — set the clock right (e.g. turn on network time sync)`]);
  }
}

/** One line on stderr, never a stack; the exit code that fits the failure. */
export function reportFailure(ctx: CommandContext, error: unknown, context = ''): ExitCode {
  if (error instanceof OutputClosedError) {
    if (error.readerGone) return EXIT.ok;
    printLines(ctx.stderr, [outputFailureLine(error.cause instanceof Error ? error.cause : error)]);
    return EXIT.failure;
  }
  if (error instanceof BrokerError) {
    printLines(ctx.stderr, [`error: ${error.toLine()}${context}`]);
    if (error.kind === 'invalid-request') return EXIT.usage;
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

/** The host the audit trail keeps a target's attempts under: the base URL's host and port, or "demo". */
export function trailHost(ctx: CommandContext, baseUrl: string | undefined): string {
  if (ctx.demo === true) return 'demo';
  try {
    return baseUrl === undefined ? 'unknown' : new URL(baseUrl).host;
  } catch {
    return 'unknown';
  }
}
