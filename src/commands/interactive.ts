// The interactive console (no arguments, or --demo). Decides where it starts: the environment's or a
// profile's credentials (LIVE), the demo, or the welcome screen when there is no profile or the keychain
// cannot be used. Ink and React are loaded here, lazily, so the scriptable commands never pay for them.
import type { ExchangeInfo } from '../api/contract';
import { openExchangeLog } from '../config/logFile';
import { configFolder } from '../config/paths';
import { readOnlySource } from '../api/readOnly';
import { type ResolveResult, resolveTarget } from '../credentials/resolve';
import type { StartupProblem } from '../ui/targets';
import { loadProfiles } from '../credentials/profiles';
import type { CommandContext } from './context';
import { EXIT, logLossLine, printLines, reportUsage } from './context';
import { sanitize } from '../terminal/sanitize';
import { createConsoleTargets } from './consoleTargets';
import { resolveDemoClock } from '../sandbox/demoClock';
import type { CommandHost } from './define';

interface InteractiveOptions {
  demo: boolean;
  /** The pinned demo's clock, Unix ms (--demo-clock / BROKER_DEMO_CLOCK). */
  demoClockMs?: number;
  /** Only checked to be terminals here: the console itself draws on process.stdout and reads process.stdin. */
  stdin?: TerminalStream;
  stdout?: TerminalStream;
  /** Called once the first frame is drawn (the compile cache is then written). */
  onDrawn?: () => void;
}

type TerminalStream = { isTTY?: boolean; setRawMode?: unknown };

/** Why the console cannot run here, or undefined when stdin and stdout are terminals with raw mode. */
function terminalProblem(stdin: TerminalStream, stdout: TerminalStream): string | undefined {
  if (!stdin.isTTY && !stdout.isTTY) return 'stdin and stdout are not terminals';
  if (!stdin.isTTY) return 'stdin is not a terminal';
  if (!stdout.isTTY) return 'stdout is not a terminal';
  if (typeof stdin.setRawMode !== 'function') return 'this terminal does not support raw mode';
  return undefined;
}

/** The exit code: an ExitCode, or the console's own (130 interrupted, 128 + a signal's number). */
async function runInteractive(options: InteractiveOptions, ctx: CommandContext): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // NO_COLOR takes colours away through the theme only: inverse, bold and markers still show the
  // selection, the focus and the text cursor (FORCE_COLOR=0 would remove those too).
  const noColor = ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '';
  // With CI set Ink draws only the last frame, a blank screen on a real terminal: a terminal means live.
  if (stdout.isTTY) for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) if (name in process.env) process.env[name] = 'false';
  const problem = terminalProblem(stdin, stdout);
  if (problem) {
    printLines(ctx.stderr, [
      `error: the console needs a terminal, and ${problem}.`,
      'For scripts and pipes use the commands: broker-console keys list|create, transfers (see --help).',
    ]);
    return EXIT.usage;
  }
  // Ink and React load (and Yoga compiles its WebAssembly, off the main thread) while the target opens.
  const ui = import('../ui/run');
  // Settled by the await below; a return before it (a bad --log-file, profile…) leaves no rejection unhandled.
  ui.catch(() => undefined);

  const folder = configFolder(ctx.env);
  let log: Awaited<ReturnType<typeof openExchangeLog>> | undefined;
  if (ctx.globals.logFile !== undefined) {
    try {
      log = await openExchangeLog(ctx.globals.logFile);
    } catch (error) {
      printLines(ctx.stderr, [`error: --log-file: cannot open ${ctx.globals.logFile} (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
      return EXIT.usage;
    }
  }
  let drawn = (): void => undefined;
  const firstFrame = new Promise<void>((resolve) => (drawn = resolve));
  const targets = createConsoleTargets({
    folder,
    drawn: firstFrame,
    exportFolder: process.cwd(),
    recvWindow: ctx.globals.recvWindow,
    timeoutMs: ctx.globals.timeoutMs,
    demoClockMs: options.demoClockMs,
    // --read-only / BROKER_READ_ONLY hold for every target of the run; a read-only profile for itself.
    readOnly: readOnlySource(ctx.globals.readOnly, ctx.env),
    env: ctx.env,
    ...(ctx.globals.proxy !== undefined ? { proxy: ctx.globals.proxy } : {}),
    ...(log ? { onExchange: (exchange: ExchangeInfo, apiKey: string) => log.record(exchange, apiKey) } : {}),
  });
  if (options.demo) {
    await targets.openDemo();
  } else {
    const resolved = await resolveTarget({ flags: { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl }, env: ctx.env, folder });
    if (resolved.ok) {
      // Said before the console takes the screen (it stays there after it), and in the status bar.
      for (const note of resolved.target.overrides ?? []) printLines(ctx.stderr, [`note: ${sanitize(note, 300)}`]);
      await targets.openResolved(resolved.target);
    } else {
      const startup = await startupProblem(resolved, folder, ctx.globals.baseUrl !== undefined);
      if (startup !== undefined) targets.setStartupProblem(startup);
      else {
        // The operator named something that does not work (a partial environment, an unknown profile): say so.
        printLines(ctx.stderr, [`error: ${resolved.message}`, 'or start the demo: broker-console --demo']);
        return EXIT.usage;
      }
    }
  }
  let runConsole: Awaited<typeof ui>['runConsole'];
  try {
    ({ runConsole } = await ui);
  } catch (error) {
    await targets.close();
    await log?.close();
    throw error;
  }
  try {
    const onDrawn = (): void => {
      drawn();
      options.onDrawn?.();
    };
    return await runConsole(targets, { noColor, onDrawn });
  } finally {
    await targets.close();
    // Said after the console has left the screen, as a command says it.
    const lost = await log?.close();
    if (lost) printLines(ctx.stderr, [logLossLine(lost, ctx.globals.logFile ?? '')]);
  }
}

/** The root's action when no command is given: the console, against --demo or the resolved target. */
export async function openConsole(host: CommandHost): Promise<void> {
  const { demo, demoClock } = host.rootOptions();
  let demoClockMs: number | undefined;
  try {
    demoClockMs = resolveDemoClock(demoClock, host.io.env);
  } catch (error) {
    return host.exit(reportUsage(host.context(), (error as Error).message));
  }
  const { io } = host;
  host.exit(
    await runInteractive(
      {
        demo: demo === true,
        demoClockMs,
        ...(io.onFirstFrame ? { onDrawn: io.onFirstFrame } : {}),
        stdout: { isTTY: io.stdoutIsTTY },
        ...(io.stdin ? { stdin: io.stdin } : {}),
      },
      host.context(),
    ),
  );
}

/**
 * What the welcome screen says when no target could be opened, or undefined when the console should not open
 * (the operator named something that does not work: said on stderr instead). A base URL given names a target.
 */
export async function startupProblem(resolved: ResolveResult & { ok: false }, folder: string, baseUrlGiven: boolean): Promise<StartupProblem | undefined> {
  if (resolved.reason === 'keychain' && resolved.profile) {
    const { name, baseUrl } = resolved.profile;
    return { kind: 'keychain', message: resolved.message, profile: { name, baseUrl, isDefault: false } };
  }
  if (baseUrlGiven) return undefined;
  // First run: nothing configured. The welcome screen offers a profile, session credentials, or the demo.
  if (resolved.reason === 'no-profile') return { kind: 'no-profile', message: 'No profile is set up yet.' };
  if (resolved.reason === 'no-default') {
    const names = (await loadProfiles(folder).catch(() => undefined))?.profiles.map((p) => p.name) ?? [];
    return {
      kind: 'no-profile',
      message: `No profile is the default (${sanitize(names.join(', '), 200)}): ctrl+p opens one; \`broker-console profile use NAME\` makes it the default.`,
    };
  }
  // The file is the operator's: it is named, never replaced; this run's credentials or the demo still work.
  if (resolved.reason === 'profiles-unreadable') return { kind: 'profiles', message: sanitize(resolved.message, 600) };
  return undefined;
}
