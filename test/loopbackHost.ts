// A loopback host for a test server. The client keeps a pace, a wait and a ban per base URL for the whole
// process (src/api/pacing.ts) and the files of a worker share that process, so a server listens on a host no
// other server of the process is given: what it taught the client never reaches a later server on its port.
// Linux answers on all of 127.0.0.0/8. Every sandbox of the tests uses it (ownSandbox, sandboxFor, the harness;
// a lint rule keeps startSandbox out of test files), and so does any other server that may answer 429 or 418; one
// that only ever answers plainly may stay on 127.0.0.1.

/** Hosts handed out: this module is loaded once per worker, as pacing.ts is, so the count lives as long as its bans. */
let handedOut = 0;

/** A loopback address (127.1.1.2 on) that no other call in this process returns. */
export function ownLoopbackHost(): string {
  // macOS answers on 127.0.0.1 alone unless more are configured: there every server shares it.
  if (process.platform === 'darwin') return '127.0.0.1';
  handedOut += 1;
  const n = handedOut;
  return `127.${1 + Math.floor(n / 254 / 254)}.${1 + (Math.floor(n / 254) % 254)}.${1 + (n % 254)}`;
}
