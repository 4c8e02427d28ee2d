// The program as the bin runs it (src/startup/bin.ts imports this once the compile cache is on): the process's own
// streams and environment. The process wiring lives here, not in cli.ts, so the tests can run main() in-process.
import { lastResortLine, main } from '../cli';
import { EXIT } from '../commands/context';
import { outputFailureLine } from '../commands/output';
import { outputOwnsErrors } from '../terminal/outputOwner';
import { quitWithoutCore } from '../terminal/signals';
import { firstFrameDrawn } from './host';

function lastResort(error: unknown): void {
  process.stderr.write(lastResortLine(error));
  process.exit(EXIT.failure);
}

// The reader of stdout went away (e.g. `| head`): stop quietly, as other command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // A command awaiting its own write (a created key's secret) says what was lost and picks the exit code.
  if (outputOwnsErrors(process.stdout)) return;
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  process.stderr.write(`${outputFailureLine(error)}\n`);
  process.exit(EXIT.failure);
});
// stderr on a full disk or to a reader that quit: what it would have said is lost, but the exit code stays the
// command's (a created key whose secret reached stdout is still exit 0, not "nothing was created").
process.stderr.on('error', () => undefined);
process.on('uncaughtException', lastResort);
process.on('unhandledRejection', lastResort);

// SIGQUIT too: left to its default it dumps core, and a core holds whatever secret is in memory.
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
interface SignalHandler {
  onSignal: (signal: NodeJS.Signals) => number | Promise<number>;
  onAnother?: (signal: NodeJS.Signals) => number;
}
/** The handlers commands gave onInterrupt, oldest first. */
const handlers: SignalHandler[] = [];
let stopping: SignalHandler | undefined;
/** The command's exit code once its outcome is settled: a late signal changes nothing about it. */
let settled: number | undefined;
process.on('SIGQUIT', quitWithoutCore);
function listen(): void {
  for (const signal of SIGNALS) if (!process.listeners(signal).includes(onProcessSignal)) process.on(signal, onProcessSignal);
}
function onProcessSignal(signal: NodeJS.Signals): void {
  if (settled !== undefined) process.exit(settled);
  // A second signal while the first is being settled (an audit line written): out at once, said as the command says it.
  if (stopping) process.exit(stopping.onAnother?.(signal) ?? EXIT.interrupted);
  const handler = handlers.at(-1);
  if (handler === undefined) return;
  stopping = handler;
  void Promise.resolve(handler.onSignal(signal)).then(
    (code) => process.exit(code),
    () => process.exit(EXIT.interrupted),
  );
}

// stdin is left out: process.stdin is created only when a command reads it (profile add, the console).
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  // Once the console's first frame is drawn, what the start compiled goes to the compile cache.
  onFirstFrame: firstFrameDrawn,
  onInterrupt: (onSignal, onAnother) => {
    // Only the newest handler answers (a command's own, over the one its connection set for the log file);
    // stopping it gives the signal back to the one before.
    const handler: SignalHandler = { onSignal, ...(onAnother ? { onAnother } : {}) };
    listen();
    handlers.push(handler);
    return (settledCode) => {
      const at = handlers.lastIndexOf(handler);
      if (at >= 0) handlers.splice(at, 1);
      if (settledCode !== undefined) settled ??= settledCode;
      if (handlers.length === 0 && !stopping && settled === undefined) for (const signal of SIGNALS) process.off(signal, onProcessSignal);
    };
  },
}).then(({ code, keepRunning }) => {
  process.exitCode = code;
  // Normally the loop is empty by now; if something still holds it open, do not hang a script.
  if (!keepRunning) setTimeout(() => process.exit(code), 1000).unref();
}, lastResort);
