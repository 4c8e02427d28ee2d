// Signals and the exit codes they give. SIGQUIT (^\ at a prompt, kill -QUIT) left to its default dumps core, and
// a core holds whatever secret is in memory: the bin listens with quitWithoutCore, and when no other part of the
// program answers the signal, the process ends as SIGQUIT would, without the core.

/** The code a signal's default action gives (128 + its number), kept when the program answers it itself. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (process.getBuiltinModule('node:os').constants.signals[signal] ?? 2);
}
export function quitWithoutCore(): void {
  if (otherSignalListeners('SIGQUIT') === 0) process.exit(signalExitCode('SIGQUIT'));
}

/** The listeners of `signal` besides quitWithoutCore: a part of the program that answers it itself. */
export function otherSignalListeners(signal: NodeJS.Signals): number {
  return process.listeners(signal).filter((listener) => listener !== quitWithoutCore).length;
}

/** Ends the process as `signal` would (its default action), SIGQUIT without its core. */
export function endBySignal(signal: NodeJS.Signals): void {
  if (signal === 'SIGQUIT') process.exit(signalExitCode('SIGQUIT'));
  process.kill(process.pid, signal);
}
