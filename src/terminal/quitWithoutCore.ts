// SIGQUIT (^\ at a prompt, kill -QUIT) left to its default dumps core, and a core holds whatever secret is in
// memory. The bin listens with quitWithoutCore: when no other part of the program answers the signal, the
// process ends as SIGQUIT would (131), without the core.
export function quitWithoutCore(): void {
  if (otherSignalListeners('SIGQUIT') === 0) process.exit(128 + 3);
}

/** The listeners of `signal` besides quitWithoutCore: a part of the program that answers it itself. */
export function otherSignalListeners(signal: NodeJS.Signals): number {
  return process.listeners(signal).filter((listener) => listener !== quitWithoutCore).length;
}

/** Ends the process as `signal` would (its default action), SIGQUIT without its core. */
export function endBySignal(signal: NodeJS.Signals): void {
  if (signal === 'SIGQUIT') process.exit(128 + 3);
  process.kill(process.pid, signal);
}
