// The program: parse argv with commander, pick interactive or command mode, wire dependencies, give the exit code.
// Ink and React are not imported here: commands must start fast (the console is loaded lazily).
// Importing this does nothing: the bin's script (src/startup/appScript.ts) runs main() on the process's own
// streams and environment, and the tests run it in-process on theirs.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { version } from '../package.json';
import { createBrokerApi } from './api/operations';
import { MAX_RECV_WINDOW, POST_SIGNATURES, type PostSignature } from './api/signing';
import { runAudit } from './commands/audit';
import { runCompleteValues, runCompletion } from './commands/completion';
import { type CommandContext, EXIT, type GlobalOptions, reportUsage } from './commands/context';
import { runInteractive } from './commands/interactive';
import { runKeysAudit } from './commands/keysAudit';
import { runKeysCreate } from './commands/keysCreate';
import { runKeysList } from './commands/keysList';
import { chooseFormat } from './commands/output';
import { runProfileAdd, runProfileList, runProfileRemove, runProfileUse } from './commands/profile';
import { similar, suggestCommand, suggestionText } from './commands/suggest';
import { runSubAccounts } from './commands/subAccounts';
import { runTransfers } from './commands/transfers';
import type { Environment } from './credentials/fromEnvironment';
import { MAX_TRANSFERS, defaultMaxPages } from './export/transferPages';
import { resolveDemoClock } from './sandbox/demoClock';
import { parseRateLimit } from './sandbox/rateLimit';
import { firstFrameDrawn } from './startup/host';
import { grouped, sanitize } from './terminal/text';

/** A strict whole-number option parser: digits only, within [min, max]. */
function wholeNumber(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const text = raw.trim();
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
}

/** An option whose value is one of a few words. */
function oneOf<T extends string>(words: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = raw.trim().toLowerCase();
    if (!(words as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${words.join(', ')}`);
    return value as T;
  };
}

/** The sandbox's --rate-limit: "500/10s", "50/1s", "200/500ms" or "off". */
function rateLimitOption(raw: string): { max: number; windowMs: number } | false {
  const parsed = parseRateLimit(raw);
  if (parsed === undefined) throw new InvalidArgumentError('must be N/Ws (requests per window, e.g. 500/10s or 50/1s) or off');
  return parsed;
}

interface ProgramOptions {
  profile?: string;
  baseUrl?: string;
  recvWindow?: number;
  timeout?: number;
  logFile?: string;
  demo?: boolean;
  demoClock?: string;
  readOnly?: boolean;
  proxy?: string;
}

/** Where one run of the program reads and writes. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where `profile add` reads the key and secret, and the console its keys; default process.stdin (touched only then). */
  stdin?: NonNullable<CommandContext['stdin']>;
  /** Everything the program reads from the environment comes from here. */
  env: Environment;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The process's signals, for a command that must answer them itself (a create in flight). */
  onInterrupt?: CommandContext['onInterrupt'];
}

export interface ExitRequest {
  /** A server was started (sandbox): do not end the process when the action returns. */
  keepRunning?: boolean;
}

export function buildProgram(
  io: CliIo,
  context: (globals: GlobalOptions) => CommandContext,
  setExit: (code: number, request?: ExitRequest) => void,
): Command {
  const program = new Command('broker-console');
  program
    .description('Broker sub-account API keys and universal transfer history, from the terminal.')
    .usage('[options] [command]')
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'use a saved profile (env BROKER_PROFILE)')
    .option('--base-url <url>', 'service base URL (overrides BROKER_BASE_URL)')
    .option('--recv-window <ms>', `signature validity window, 1..${MAX_RECV_WINDOW} ms`, wholeNumber(1, MAX_RECV_WINDOW))
    .option('--timeout <ms>', 'per-request timeout, ms', wholeNumber(1, 600_000))
    .option('--log-file <path>', 'append one line per HTTP request (no secrets, no signatures) to this file')
    .option('--proxy <url>', 'send requests through this proxy, http://host:port (before the profile\'s and HTTPS_PROXY/HTTP_PROXY; NO_PROXY applies)')
    .option('--demo', 'open the console against an embedded sandbox')
    .option('--read-only', 'send nothing that changes something: creating keys is refused (env BROKER_READ_ONLY=1; with profile add: saves the profile read-only)')
    .option('--demo-clock <time>', "pin the demo's clock to an ISO time, e.g. 2026-11-21T09:30:00Z (env BROKER_DEMO_CLOCK): same data, times and keys every run")
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // commander's errors echo argv (an unknown option, a bad value): each line is sanitised (DESIGN §5b).
      outputError: (text, write) => write(sanitizeLines(text)),
      // commander's own defaults, read from io instead of process.stdout/stderr and process.env.
      getOutHelpWidth: () => helpWidth(io.stdout, io.stdoutIsTTY),
      getErrHelpWidth: () => helpWidth(io.stderr, io.stderrIsTTY),
      getOutHasColors: () => hasColors(io.env, io.stdout, io.stdoutIsTTY),
      getErrHasColors: () => hasColors(io.env, io.stderr, io.stderrIsTTY),
    })
    .addHelpText(
      'after',
      '\nCredentials: BROKER_API_KEY, BROKER_API_SECRET (and BROKER_BASE_URL) from the environment first; else the profile\n' +
        'named by --profile or BROKER_PROFILE, else the default profile, with its secret in the keychain. A secret is never a flag.\n' +
        'Exit codes: 0 ok, 1 service or network failure, 2 usage or validation error (nothing sent), 3 outcome unknown,\n' +
        '4 `keys audit` flagged a key (see its --fail-on), 5 `keys create` made a key whose secret did not reach you.\n' +
        'Network: --proxy, else the profile\'s proxy, else HTTPS_PROXY/HTTP_PROXY (NO_PROXY honoured); a private CA:\n' +
        'NODE_EXTRA_CA_CERTS=/path/ca.pem.',
    );

  const globals = (): GlobalOptions => {
    const o = program.opts<ProgramOptions>();
    return { profile: o.profile, baseUrl: o.baseUrl, recvWindow: o.recvWindow, timeoutMs: o.timeout, logFile: o.logFile, readOnly: o.readOnly, proxy: o.proxy };
  };

  // No command opens the console. The root has an action for that, so commander hands it any unknown word
  // (and the flags after it) instead of saying "unknown command": the suggestion is made here.
  program.argument('[words...]').allowUnknownOption();
  program.action(async () => {
    const [first] = program.args;
    if (first !== undefined) unknownWords(program, program.args);
    const o = program.opts<ProgramOptions>();
    let demoClockMs: number | undefined;
    try {
      demoClockMs = resolveDemoClock(o.demoClock, io.env);
    } catch (error) {
      return setExit(reportUsage(context(globals()), (error as Error).message));
    }
    // Once the first frame is drawn, what the start compiled goes to the compile cache.
    const onDrawn = firstFrameDrawn;
    setExit(await runInteractive({ demo: o.demo === true, demoClockMs, onDrawn, stdout: { isTTY: io.stdoutIsTTY }, ...(io.stdin ? { stdin: io.stdin } : {}) }, context(globals())));
  });

  const keys = program.command('keys').description('API keys of a sub-account');
  keys
    .command('list')
    .description('list the API keys of a sub-account')
    .option('--sub <name>', 'sub-account name')
    .option('--format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json')
    .action(async (options: { sub?: string; format?: string; json?: boolean }) => {
      setExit(await runKeysList(options, context(globals())));
    });
  keys
    .command('create')
    .description('create an API key for a sub-account (its secret is shown once)')
    .option('--sub <name>', 'sub-account name')
    .option('--permissions <list>', 'comma-separated, e.g. SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE')
    .option('--ip <list>', 'up to 4 comma-separated IPv4/IPv6 addresses')
    .option('--note <text>', 'note for the key (required)')
    .option('--format <format>', 'table, json (one object, secretKey included) or csv (default: table)')
    .option('--json', 'short for --format json')
    .addHelpText(
      'after',
      '\nThe key, its secret included, goes to stdout once; the reminder that the secret cannot be shown again\n' +
        'goes to stderr, so stdout can be piped straight into a password manager. Exit 3: the request was sent but\n' +
        'its answer did not come or could not be read, so the key may exist; check with `keys list` before creating\n' +
        'it again (also on Ctrl-C, SIGTERM or SIGHUP while the request is in flight). Exit 5: the key was created but\n' +
        'its secret could not be written (reader gone, disk full, stdout closed) or is not valid text; delete that key\n' +
        "in the service's web console. The command exits only once the key and secret are written. Its signature\n" +
        'covers the query alone (or what this base URL last accepted); refused for its signature (700002), it is sent\n' +
        'once more signed by the other rule (query + body), and the rule that worked is kept for the next run. Pin one\n' +
        'rule with profile add --post-signature or BROKER_POST_SIGNATURE (auto, query or body).',
    )
    .action(async (options: { sub?: string; permissions?: string; ip?: string; note?: string; format?: string; json?: boolean }) => {
      setExit(await runKeysCreate(options, context(globals())));
    });
  keys
    .command('audit')
    .description('flag keys an operator must look at: no linked IP, write/withdraw/transfer permissions, old, a shared note')
    .option('--sub <list>', 'comma-separated sub-account names')
    .option('--recent', "the sub-accounts recently opened in the console (for this base URL)")
    .option('--discovered', 'the sub-accounts found in transfer history (for this base URL)')
    .option('--max-age <span>', 'a key older than this is flagged old: 90d, 12w, 2160h… (default 90d)')
    .option('--fail-on <which>', 'any (default), none, or flags, e.g. withdraw,no-ip: which flags make the exit code 4')
    .option('--format <format>', 'table, json (one object) or csv (default: table)')
    .option('--json', 'short for --format json')
    .addHelpText(
      'after',
      '\nFlags: no-ip (any address can use the key), write (a *_WRITE permission other than withdraw/transfer),\n' +
        'withdraw (SPOT_WITHDRAW_WRITE), transfer (SPOT_TRANSFER_WRITE), old (created longer ago than --max-age),\n' +
        'shared-note (the same note, case and spaces aside, on several keys of the sub-account).\n' +
        '--recent and --discovered can go together. Exit 4 when a key is flagged (--fail-on none: 0), so a CI job\n' +
        'fails; exit 1 when a sub-account could not be audited (the rest is still printed; 1 wins over 4).',
    )
    .action(async (options: { sub?: string; recent?: boolean; discovered?: boolean; maxAge?: string; failOn?: string; format?: string; json?: boolean }) => {
      setExit(await runKeysAudit(options, context(globals())));
    });

  program
    .command('transfers')
    .description('universal transfer history')
    .option('--from-type <type>', 'source account type, e.g. SPOT')
    .option('--to-type <type>', 'destination account type, e.g. FUTURES')
    .option('--from-account <account>', 'source account (default: the master account)')
    .option('--to-account <account>', 'destination account (default: the master account)')
    .option('--start <time>', 'from: 2026-11-01, 2026-11-01T12:00, epoch ms, now, 7d (ago)…')
    .option('--end <time>', 'until (same forms as --start)')
    .option('--client-tran-id <id>', '32 letters and digits')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'rows per page, 1..500 (default 500)')
    .option('--all', 'every page from --page on, streamed as each arrives')
    .option('--summary', 'every page from --page on (--limit a page), summed per asset, status and day')
    .option('--max-pages <n>', `with --all or --summary: fetch at most N pages (default ${defaultMaxPages()} at 500 a page: room for ${grouped(MAX_TRANSFERS)} transfers)`)
    .option('--format <format>', 'table, json or csv (default: table)')
    .option('--json', 'short for --format json')
    .addHelpText(
      'after',
      '\nTimes: 2026-11-01 (local midnight), 2026-11-01T12:00 or "2026-11-01 12:00[:ss]" (local unless Z/+hh:mm),\n' +
        'epoch milliseconds, now, or 30m / 24h / 7d / 2w before now.\n' +
        'Rows are streamed page by page: csv (RFC 4180, header once, amounts exactly as sent), json (one array),\n' +
        'table (with per-asset totals). Progress goes to stderr when it is a terminal.\n' +
        '--all ends at the first page shorter than --limit. It stops with exit 1 when a page repeats transfers of any\n' +
        `earlier page, or after --max-pages full pages (default ${grouped(MAX_TRANSFERS)} / limit: ${defaultMaxPages()} pages of 500,\n` +
        `${defaultMaxPages(100)} of 100); rows already written stay written and the error says how many.\n` +
        '--summary prints, once the last page came, per asset (transfers, SUCCESS volume), per status and per local day\n' +
        '(days without transfers included); it fails with nothing on stdout when a page fails.',
    )
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const text = (name: string): string | undefined => {
        const value = options[name];
        return typeof value === 'string' ? value : undefined;
      };
      // --json is short for --format json (the same rule as the other commands: not with another --format).
      const chosen = options.json === true ? chooseFormat({ format: text('format'), json: true }) : undefined;
      if (chosen && !chosen.ok) return setExit(reportUsage(context(globals()), chosen.message));
      setExit(
        await runTransfers(
          {
            fromType: text('fromType'),
            toType: text('toType'),
            fromAccount: text('fromAccount'),
            toAccount: text('toAccount'),
            start: text('start'),
            end: text('end'),
            clientTranId: text('clientTranId'),
            page: text('page'),
            limit: text('limit'),
            all: options.all === true,
            summary: options.summary === true,
            maxPages: text('maxPages'),
            format: chosen?.ok ? chosen.format : text('format'),
          },
          context(globals()),
        ),
      );
    });

  program
    .command('sandbox')
    .description('run the embedded sandbox service alone, until Ctrl-C')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', wholeNumber(0, 65_535))
    .option('--seed <n>', 'seed of the demo data', wholeNumber(0, 2 ** 31 - 1))
    .option('--api-key <key>', 'master API key of the sandbox')
    // The one secret flag allowed (DESIGN §4): the sandbox's own throwaway secret.
    .option('--secret-key <secret>', 'master secret of the sandbox (a throwaway)')
    .option('--transfers <n>', 'transfers in the seeded history (default 24000; at most 4000000)', wholeNumber(0, 4_000_000))
    .option('--rate-limit <N/Ws>', 'requests per window for each endpoint and API key, then 429, and 418 for a client that keeps on (default 500/10s; off: none)', rateLimitOption)
    .option('--no-ban', 'never ban a client that keeps sending while refused (load tests)')
    .option('--json', 'print one JSON line with baseUrl, apiKey, secretKey, subAccounts')
    .option('--post-signature <rule>', "what a request's signature must cover: query (default, as the live service accepts), body (query + body) or either", oneOf(['query', 'body', 'either'] as const))
    .addHelpText('after', '\nTakes the global --demo-clock TIME (or BROKER_DEMO_CLOCK): the data and created keys follow that moment;\nrequests are still checked against the real clock.')
    .action(async (options: { host?: string; port?: number; seed?: number; apiKey?: string; secretKey?: string; transfers?: number; json?: boolean; postSignature?: 'query' | 'body' | 'either'; rateLimit?: { max: number; windowMs: number } | false; ban?: boolean }) => {
      let demoClockMs: number | undefined;
      try {
        demoClockMs = resolveDemoClock(program.opts<ProgramOptions>().demoClock, io.env);
      } catch (error) {
        return setExit(reportUsage(context(globals()), (error as Error).message));
      }
      // It keeps serving after this returns; its own SIGINT/SIGTERM handler closes it and exits.
      const { runSandboxCommand } = await import('./commands/sandbox');
      await runSandboxCommand({ ...options, demoClockMs }, io.stdout);
      setExit(EXIT.ok, { keepRunning: true });
    });

  const profile = program
    .command('profile')
    .description('saved profiles: settings in the config folder, the API key and secret in the keychain');
  profile
    .command('add')
    .description('save a profile; asks for the API key and secret (not shown), or reads them from two stdin lines')
    .argument('<name>', '1-64 letters, digits, ".", "_" or "-"')
    .option('--api-key-header <header>', 'header carrying the API key (default X-MEXC-APIKEY)')
    .option('--post-signature <rule>', "what a create's signature covers: auto (default: query only, then query + body once on a 700002), query or body", oneOf(POST_SIGNATURES))
    // The older spelling of --post-signature query, kept working for scripts.
    .addOption(new Option('--no-sign-body').hideHelp())
    .option('--default', 'make it the default profile (the first profile always is)')
    .option('--no-check', 'save without first checking the credentials against the service (offline setup)')
    .addHelpText(
      'after',
      '\nTakes the global --base-url URL (required), --recv-window MS and --proxy URL (saved in the profile; no password).\n' +
        'On a terminal the API key and secret are asked for without echo; otherwise stdin gives the API key on its\n' +
        'first line and the secret on its second.\n' +
        'They are checked first with one signed request (as the console\'s form does): if the service rejects them or\n' +
        'cannot be reached, nothing is saved (exit 1). Then the secret goes to the keychain (service broker-console,\n' +
        'account NAME), then the settings. With the global --read-only the profile is saved read-only: nothing that\n' +
        'changes something (creating a key) is ever sent through it, in the console or by a command.',
    )
    .action(async (name: string, options: { apiKeyHeader?: string; postSignature?: PostSignature; signBody?: boolean; default?: boolean; check?: boolean }) => {
      setExit(await runProfileAdd(name, options, context(globals())));
    });
  profile
    .command('list')
    .description('the saved profiles and where each secret comes from (never the secret)')
    .option('--format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json')
    .action(async (options: { format?: string; json?: boolean }) => {
      setExit(await runProfileList(options, context(globals())));
    });
  profile
    .command('remove')
    .description('remove a profile: its settings and its keychain entry')
    .argument('<name>')
    .action(async (name: string) => {
      setExit(await runProfileRemove(name, context(globals())));
    });
  profile
    .command('use')
    .description('make a profile the default')
    .argument('<name>')
    .action(async (name: string) => {
      setExit(await runProfileUse(name, context(globals())));
    });

  program
    .command('audit')
    .description('the audit trail: every create-key attempt sent (created, refused, unknown), newest first; never a secret')
    .option('--sub <name>', 'only this sub-account')
    .option('--limit <n>', 'at most this many entries (default 50)')
    .option('--format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json')
    .action(async (options: { sub?: string; limit?: string; format?: string; json?: boolean }) => {
      setExit(await runAudit(options, context(globals())));
    });

  program
    .command('sub-accounts')
    .description('sub-accounts found in transfer history (remembered per base URL); --discover scans for them first')
    .option('--discover', 'scan the transfer history of the last days first (paced by the rate limit)')
    .option('--days <n>', 'with --discover: days back, 1..365 (default 30)')
    .option('--sub <names>', 'with --discover: comma-separated names to ask for, besides the recent and remembered ones')
    .option('--format <format>', 'table, json (an array) or csv (default: table)')
    .option('--json', 'short for --format json')
    .addHelpText(
      'after',
      '\nThe service has no list of sub-accounts and lists transfers only of the accounts a query names (blank: the\n' +
        'master). A scan asks, in each account-type pair, for master→master and for master↔each known name; names\n' +
        'in the answers are remembered with their last transfer. Progress goes to stderr when it is a terminal.',
    )
    .action(async (options: { discover?: boolean; days?: string; sub?: string; format?: string; json?: boolean }) => {
      setExit(await runSubAccounts(options, context(globals())));
    });

  program
    .command('completion')
    .description('print a completion script: bash, zsh or fish (see docs/commands.md, "Shell completion")')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      setExit(runCompletion(shell, program, context(globals())));
    });
  // Asked by the completion scripts at completion time (profile names from profiles.json; never the keychain).
  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action(async (what: string) => {
      setExit(await runCompleteValues(what, context(globals())));
    });

  return program;
}

type Stream = NodeJS.WritableStream & { columns?: number; hasColors?: () => boolean };

function helpWidth(stream: Stream, isTTY: boolean): number {
  return (isTTY ? stream.columns : undefined) ?? 80;
}

/** commander's useColor() and default, on the run's environment and streams. */
function hasColors(env: Environment, stream: Stream, isTTY: boolean): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return isTTY && stream.hasColors?.() === true;
}

/** Commander's text for stderr, each line sanitised; the line breaks commander put in are kept. */
function sanitizeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => sanitize(line, 4000))
    .join('\n');
}

/** An unknown first word (or an unknown root option): an error naming it, with a suggestion; exit 2. */
function unknownWords(program: Command, words: readonly string[]): never {
  const first = words[0] ?? '';
  if (first.startsWith('-')) {
    const flag = first.split('=')[0] ?? first;
    const longs = program.options.flatMap((o) => (o.long ? [o.long] : []));
    const near = flag.startsWith('--') ? similar(flag.slice(2), longs.map((l) => l.slice(2))).map((l) => `--${l}`) : [];
    program.error(`error: unknown option '${flag}'${suggestionText(near)}`, { exitCode: EXIT.usage, code: 'commander.unknownOption' });
  }
  // The root has an action, so commander adds no `help` command of its own: `help [command]` is answered here.
  if (first === 'help') {
    const [, name, sub] = words;
    const command = program.commands.find((c) => c.name() === name);
    (command?.commands.find((c) => c.name() === sub) ?? command ?? program).help();
  }
  // (the hidden __complete, asked by the completion scripts, is never suggested)
  const commands = program.commands.filter((c) => !c.name().startsWith('_')).map((c) => ({ name: c.name(), subcommands: c.commands.map((s) => s.name()) }));
  const suggestion = suggestionText(suggestCommand(words, [...commands, { name: 'help', subcommands: [] }]));
  const seeHelp = suggestion === '' ? ' (see broker-console --help)' : '';
  program.error(`error: unknown command '${first}'${seeHelp}${suggestion}`, { exitCode: EXIT.usage, code: 'commander.unknownCommand' });
}

export async function main(argv: readonly string[], io: CliIo): Promise<{ code: number; keepRunning: boolean }> {
  let exitCode: number = EXIT.ok;
  let keepRunning = false;
  const context = (globals: GlobalOptions): CommandContext => ({
    stdout: io.stdout,
    stderr: io.stderr,
    stderrIsTTY: io.stderrIsTTY,
    stdoutIsTTY: io.stdoutIsTTY,
    env: io.env,
    now: () => Date.now(),
    globals,
    createApi: createBrokerApi,
    ...(io.stdin ? { stdin: io.stdin } : {}),
    ...(io.onInterrupt ? { onInterrupt: io.onInterrupt } : {}),
  });
  const program = buildProgram(io, context, (code, request) => {
    exitCode = code;
    keepRunning = request?.keepRunning === true;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // commander has already printed its own message (or the help / version).
    if (error instanceof CommanderError) return { code: error.exitCode === 0 ? EXIT.ok : EXIT.usage, keepRunning: false };
    throw error;
  }
  return { code: exitCode, keepRunning };
}

/** What the process prints for an error nothing else caught (then it exits 1): one line, never a stack. */
export function lastResortLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${sanitize(message.split('\n')[0] ?? '')}\n`;
}
