// The root's options: every command takes them (the console too); the program's options type is read from them.
import type { Command } from '@commander-js/extra-typings';
import { MAX_RECV_WINDOW } from '../api/signing';
import { DEMO_COMMANDS } from './demoRun';
import { type OptionsOf, wholeNumber } from './define';

export const rootFlags = (command: Command) =>
  command
    .option('--profile <name>', 'use a saved profile (env BROKER_PROFILE)')
    .option('--base-url <url>', 'service base URL (overrides BROKER_BASE_URL)')
    .option('--recv-window <ms>', `signature validity window, 1..${MAX_RECV_WINDOW} ms`, wholeNumber(1, MAX_RECV_WINDOW))
    .option('--timeout <ms>', 'per-request timeout, ms', wholeNumber(1, 600_000))
    .option('--log-file <path>', 'append one line per HTTP request (no secrets, no signatures) to this file')
    .option('--proxy <url>', "send requests through this proxy, http://host:port (before the profile's and HTTPS_PROXY/HTTP_PROXY; NO_PROXY applies)")
    .option('--verbose', 'print each request (method, path, status, latency, retry and pacing) to stderr; never a secret (env BROKER_DEBUG=1)')
    .option('--demo', `the console, or a command (${DEMO_COMMANDS.join(', ')}), against an embedded demo sandbox`)
    .option(
      '--read-only',
      'send nothing that changes something: creating keys is refused (env BROKER_READ_ONLY=1; with profile add: saves the profile read-only)',
    )
    .option(
      '--demo-clock <time>',
      "pin the demo's clock to an ISO time, e.g. 2026-11-21T09:30:00Z (env BROKER_DEMO_CLOCK): same data, times and keys every run",
    );

/** The root's options as parsed. */
export type ProgramOptions = OptionsOf<typeof rootFlags>;
