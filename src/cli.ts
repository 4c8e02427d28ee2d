// The program: parse argv with commander, pick interactive or command mode, wire dependencies, give the exit code.
// Ink and React are not imported here: commands must start fast (the console is loaded lazily).
// Importing this does nothing: the bin's script (src/startup/main.ts) runs main() on the process's own
// streams and environment, and the tests run it in-process on theirs.
import { Command, CommanderError, type CommandUnknownOpts, Help, InvalidArgumentError } from '@commander-js/extra-typings';
import { version } from '../package.json';
import { createBrokerApi } from './api/operations';
import { defineAudit } from './commands/audit';
import { defineCompleteValues, defineCompletion } from './commands/completion';
import { type CommandContext, EXIT, type GlobalOptions } from './commands/context';
import { type CliIo, type CommandDefinition, type CommandHost, type DefineCommand, type ExitRequest, prose } from './commands/define';
import { DEMO_COMMANDS, type DemoRun, startDemoRun } from './commands/demoRun';
import { openConsole } from './commands/interactive';
import { type ProgramOptions, rootFlags } from './commands/rootFlags';
import { resolveDemoClock } from './sandbox/demoClock';
import { defineKeys } from './commands/keys';
import { defineProfile } from './commands/profile';
import { ALL_COMMAND_NAMES, type CommandName, isHiddenCommand } from './commands/registry';
import { defineSandbox } from './commands/sandbox';
import { similar, suggestCommand, suggestionText } from './commands/suggest';
import { defineSubAccounts } from './commands/subAccounts';
import { defineTransfers } from './commands/transfers';
import type { Environment } from './credentials/fromEnvironment';
import { LINE_LIMIT, sanitize } from './terminal/sanitize';

export type { CliIo, ExitRequest } from './commands/define';

/** Each registry name's definition, from the module that holds its run function. */
const DEFINITIONS: { readonly [N in CommandName]: DefineCommand } = {
  keys: defineKeys,
  transfers: defineTransfers,
  sandbox: defineSandbox,
  profile: defineProfile,
  audit: defineAudit,
  'sub-accounts': defineSubAccounts,
  completion: defineCompletion,
  __complete: defineCompleteValues,
};

/** Root options that mean nothing to a command: not shown among a command's global options. */
const CONSOLE_ONLY = new Set(['--version']);

/** What closes a program's demo sandbox (a command given --demo), whatever way its action ended. */
const demoClosers = new WeakMap<Command, () => Promise<void>>();

/** The registry's commands, in its order. */
export const COMMANDS: readonly CommandDefinition[] = ALL_COMMAND_NAMES.map((name) => ({ name, define: DEFINITIONS[name] }));

export function buildProgram(io: CliIo, context: (globals: GlobalOptions) => CommandContext, setExit: (code: number, request?: ExitRequest) => void): Command {
  const program = rootFlags(
    new Command('broker-console')
      .description('Broker sub-account API keys and universal transfer history, from the terminal.')
      .usage('[options] [command]')
      .version(version, '--version', 'print the version')
      .helpOption('-h, --help', 'show help'),
  );
  program
    .exitOverride()
    .showSuggestionAfterError(true)
    // A command's help lists the global options it takes too (those that only open the console left out).
    .configureHelp({
      showGlobalOptions: true,
      visibleGlobalOptions(this: Help, command: Command) {
        return Help.prototype.visibleGlobalOptions.call(this, command).filter((o) => !CONSOLE_ONLY.has(o.long ?? ''));
      },
    })
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // commander's errors echo argv (an unknown option, a bad value): each line is sanitised.
      outputError: (text, write) => write(sanitizeLines(valueOnSwitch(program, text) ?? withoutUnknownValues(text))),
      // commander's own defaults, read from io instead of process.stdout/stderr and process.env.
      getOutHelpWidth: () => helpWidth(io.stdout, io.stdoutIsTTY),
      getErrHelpWidth: () => helpWidth(io.stderr, io.stderrIsTTY),
      getOutHasColors: () => hasColors(io.env, io.stdout, io.stdoutIsTTY),
      getErrHasColors: () => hasColors(io.env, io.stderr, io.stderrIsTTY),
    })
    .addHelpText(
      'after',
      prose(
        '\nCredentials: BROKER_API_KEY, BROKER_API_SECRET (and BROKER_BASE_URL) from the environment first; else the profile\n' +
          'named by --profile or BROKER_PROFILE, else the default profile, with its secret in the keychain. A secret is never a flag.\n' +
          'Exit codes: 0 ok, 1 service or network failure, 2 usage or validation error (nothing sent), 3 outcome unknown,\n' +
          '4 `keys audit` flagged a key (see its --fail-on), 5 `keys create` made a key whose secret did not reach you.\n' +
          "Network: --proxy, else the profile's proxy, else HTTPS_PROXY/HTTP_PROXY (NO_PROXY honoured); a private CA:\n" +
          'NODE_EXTRA_CA_CERTS=/path/ca.pem.',
      ),
    );

  const rootOptions = (): ProgramOptions => program.opts();
  const globals = (): GlobalOptions => {
    const o = rootOptions();
    return {
      profile: o.profile,
      baseUrl: o.baseUrl,
      recvWindow: o.recvWindow,
      timeoutMs: o.timeout,
      logFile: o.logFile,
      readOnly: o.readOnly,
      proxy: o.proxy,
      verbose: o.verbose,
    };
  };
  let demoRun: DemoRun | undefined;
  const commandContext = (): CommandContext => {
    const ctx = context(globals());
    if (demoRun === undefined) return ctx;
    const pinned = demoRun.nowMs;
    return { ...ctx, env: demoRun.env, demo: true, ...(pinned !== undefined ? { now: () => pinned } : {}) };
  };
  const host: CommandHost = { io, rootOptions, context: commandContext, exit: setExit };

  // A command given --demo runs against the console's demo, started here on 127.0.0.1 for this run alone.
  program.hook('preAction', async (_, action) => {
    const o = rootOptions();
    if (action === program || o.demo !== true) return;
    const path = commandPath(action);
    const usage = (message: string): never => program.error(`error: --demo: ${message}`, { exitCode: EXIT.usage, code: 'broker.demo' });
    // The trail is this machine's, the demo's attempts in it too: there is nothing of the demo to start for it.
    if (path === 'audit') usage("audit reads the trail on this machine, the demo's attempts included: run `broker-console audit` (profile demo)");
    if (!DEMO_COMMANDS.includes(path)) usage(`only the console and ${DEMO_COMMANDS.join(', ')} reach the demo (not ${path})`);
    for (const [flag, given] of [
      ['--base-url', o.baseUrl],
      ['--profile', o.profile],
      ['--proxy', o.proxy],
    ] as const) {
      if (given !== undefined) usage(`the demo is the target: it cannot go with ${flag}`);
    }
    let clock: number | undefined;
    try {
      clock = resolveDemoClock(o.demoClock, io.env);
    } catch (error) {
      usage((error as Error).message);
    }
    demoRun = await startDemoRun(io.env, clock);
    const started = demoRun;
    demoClosers.set(program, async () => {
      demoRun = undefined;
      await started.close();
    });
  });
  program.hook('postAction', async () => {
    await demoClosers.get(program)?.();
    demoClosers.delete(program);
  });

  // No command opens the console. The root has an action for that, so commander hands it any unknown word
  // (and the flags after it) instead of saying "unknown command": the suggestion is made here.
  program.argument('[words...]').allowUnknownOption();
  program.action(async () => {
    const [first] = program.args;
    if (first !== undefined) unknownWords(program, program.args);
    // The console draws on the terminal stderr shares: its requests go to --log-file and its status bar instead.
    if (rootOptions().verbose)
      program.error('error: --verbose is for the commands: the console shows its last request in the status bar (every one with --log-file)', {
        exitCode: EXIT.usage,
        code: 'broker.verboseConsole',
      });
    await openConsole(host);
  });

  for (const { name, define } of COMMANDS) {
    const command = define(program, host);
    if (command.name() !== name) throw new Error(`the definition of ${name} added ${command.name()}`);
  }
  checkGivenValues(program);
  return program;
}

/** What an option given an empty or blank value is told, after its name. */
const EMPTY_VALUE = 'empty value: give one, or leave the flag out';

/**
 * The one rule for every option that takes a value: given once, and not empty. Twice was the last one silently
 * winning (`keys audit --sub a --sub b` audited b alone); empty was "not given" (`--base-url ""` sent to the
 * environment's or the default profile's service, `--start ""` exported the whole history, `--ip ""` made a
 * key any address can use). Both are usage errors, exit 2, before anything is sent.
 */
function checkGivenValues(command: CommandUnknownOpts): void {
  for (const option of command.options) {
    if (!option.required && !option.optional) continue;
    const parse = option.parseArg;
    const flag = option.long ?? option.short ?? option.flags;
    let given = false;
    option.argParser(<T>(value: string, previous: T): T => {
      if (given) {
        const list = /<list>/.test(option.flags) ? `: give one comma-separated list (${flag} A,B)` : ': give it once';
        throw new InvalidArgumentError(`${flag} is given more than once${list}`);
      }
      // An unset shell variable (`--base-url "$STAGING"`) must not turn into "use whatever else is configured".
      if (value.trim() === '') command.error(`error: ${flag}: ${EMPTY_VALUE}`, { exitCode: EXIT.usage, code: 'broker.emptyValue' });
      given = true;
      return parse ? parse(value, previous) : (value as T);
    });
  }
  for (const sub of command.commands) checkGivenValues(sub);
}

/** "keys list", "transfers": a command's words under the program. */
function commandPath(command: CommandUnknownOpts): string {
  const words: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ');
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

/**
 * `--read-only=x`: commander calls a known switch given a value an unknown option, then suggests the switch
 * itself. Said as what it is, without the value, when the name is a switch of any command.
 */
function valueOnSwitch(program: Command, text: string): string | undefined {
  const flag = /unknown option '(--[^'=\s]+)=/.exec(text)?.[1];
  if (flag === undefined) return undefined;
  // The command it was given to knows it: commander suggests exactly it (from that command's options and the root's).
  const known = text.includes(`(Did you mean ${flag}?)`) || program.options.some((o) => o.long === flag);
  const switches = (command: CommandUnknownOpts): boolean =>
    command.options.some((o) => o.long === flag && !o.required && !o.optional) || command.commands.some(switches);
  return known && switches(program) ? `error: ${flag} takes no value: give ${flag} alone\n` : undefined;
}

/** An unknown option's name without what followed its `=`: a secret typed as `--secret-key=…` is never echoed. */
function withoutUnknownValues(text: string): string {
  return text.replace(/(unknown option '-{1,2}[^'=\s]*)=[^']*'/g, "$1'");
}

/** Commander's text for stderr, each line sanitised; the line breaks commander put in are kept. */
function sanitizeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => sanitize(line, LINE_LIMIT))
    .join('\n');
}

/** An unknown first word (or an unknown root option): an error naming it, with a suggestion; exit 2. */
function unknownWords(program: Command, words: readonly string[]): never {
  const first = words[0] ?? '';
  if (first.startsWith('-')) {
    const flag = first.split('=')[0] ?? first;
    const switched = first.includes('=') ? valueOnSwitch(program, `unknown option '${flag}='`) : undefined;
    if (switched !== undefined) program.error(switched.trimEnd(), { exitCode: EXIT.usage, code: 'commander.unknownOption' });
    const longs = program.options.flatMap((o) => (o.long ? [o.long] : []));
    const near = flag.startsWith('--')
      ? similar(
          flag.slice(2),
          longs.map((l) => l.slice(2)),
        ).map((l) => `--${l}`)
      : [];
    program.error(`error: unknown option '${flag}'${suggestionText(near)}`, { exitCode: EXIT.usage, code: 'commander.unknownOption' });
  }
  // The root has an action, so commander adds no `help` command of its own: `help [command]` is answered here.
  if (first === 'help') {
    const [, name, sub] = words;
    const command = program.commands.find((c) => c.name() === name);
    (command?.commands.find((c) => c.name() === sub) ?? command ?? program).help();
  }
  // (a hidden command, asked by the completion scripts, is never suggested)
  const commands = program.commands.filter((c) => !isHiddenCommand(c.name())).map((c) => ({ name: c.name(), subcommands: c.commands.map((s) => s.name()) }));
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
  } finally {
    // A demo sandbox whose command threw: closed all the same.
    await demoClosers.get(program)?.();
  }
  return { code: exitCode, keepRunning };
}

/** What the process prints for an error nothing else caught (then it exits 1): one line, never a stack. */
export function lastResortLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${sanitize(message.split('\n')[0] ?? '')}\n`;
}
