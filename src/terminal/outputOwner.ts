// Which output streams have an owner for their write errors: a command awaiting its own write (a created key's
// secret), or the console drawing on its terminal. The process-wide handler (src/startup/main.ts) leaves those
// streams' errors to their owner, who says what was lost and picks the exit code.
const owned = new WeakSet<object>();

export function ownOutputErrors(stream: object): void {
  owned.add(stream);
}

export function releaseOutputErrors(stream: object): void {
  owned.delete(stream);
}

export function outputOwnsErrors(stream: object): boolean {
  return owned.has(stream);
}
