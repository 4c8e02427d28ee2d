// Shared test helpers: capture streams, run commands in-process, build and spawn the real bundle.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { lastResortLine, main } from '../../src/cli';
import { createBrokerApi } from '../../src/api/operations';
import { signQuery } from '../../src/api/signing';
import type { Transfer } from '../../src/api/types';
import type { CommandContext, GlobalOptions } from '../../src/commands/context';
import type { RunningSandbox } from '../../src/sandbox/types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The config folder of a run that names none (no BROKER_CONSOLE_HOME, HOME or XDG_CONFIG_HOME): one of this
 * worker's own, never the operator's ~/.config/broker-console (its audit trail, recent names, signing rules).
 */
let runHome: string | undefined;
function workerHome(): string {
  if (runHome === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'bc-test-runs-'));
    runHome = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return runHome;
}
function withRunHome(env: Record<string, string>): Record<string, string> {
  if ('BROKER_CONSOLE_HOME' in env || 'HOME' in env || 'XDG_CONFIG_HOME' in env) return env;
  return { BROKER_CONSOLE_HOME: workerHome(), ...env };
}

export interface Captured {
  stream: PassThrough;
  text(): string;
}

export function capture(): Captured {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export interface TestContext {
  ctx: CommandContext;
  out: Captured;
  err: Captured;
}

export function sandboxEnv(sandbox: RunningSandbox): Record<string, string> {
  return { BROKER_BASE_URL: sandbox.baseUrl, BROKER_API_KEY: sandbox.apiKey, BROKER_API_SECRET: sandbox.secretKey };
}

/** A command context against the sandbox, with captured output; maxTries 1 keeps fault tests exact. */
export function testContext(sandbox: RunningSandbox | undefined, overrides: Partial<CommandContext> = {}, globals: GlobalOptions = {}): TestContext {
  const out = capture();
  const err = capture();
  const ctx: CommandContext = {
    stdout: out.stream,
    stderr: err.stream,
    stderrIsTTY: false,
    env: sandbox ? sandboxEnv(sandbox) : {},
    now: () => Date.now(),
    globals,
    createApi: (config) => createBrokerApi({ ...config, maxTries: 1 }),
    // Never the operator's own folder: the worker's own, with no profiles (and an audit trail of this run only).
    configFolder: workerHome(),
    ...overrides,
  };
  return { ctx, out, err };
}

const BUNDLE = join(ROOT, 'dist', 'broker-console.js');

/**
 * The bundle exactly as `npm run build` makes it (scripts/build.mjs), built once by vitest's global setup
 * (test/buildOnce.ts) before any file runs.
 */
export async function buildCli(): Promise<string> {
  if (!existsSync(BUNDLE)) throw new Error(`no ${BUNDLE}: run the tests through vitest (its global setup builds it)`);
  return BUNDLE;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the program in this process (main() of src/cli.ts, as the bin's script does) with exactly this
 * environment (plus PATH and TZ, as runBuiltCli gives them; nothing else of this process's), `input` as stdin
 * (an empty, ended stdin without it), stdout and stderr captured and not terminals. The same result as
 * runBuiltCli; what only a real process does (EPIPE, signals, exit timing, its own TZ or D-Bus) needs that one.
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}, options: { input?: string } = {}): Promise<RunResult> {
  const given = { PATH: process.env.PATH ?? '', TZ: process.env.TZ ?? 'UTC', ...withRunHome(env) };
  for (const name of PROCESS_WIDE) {
    if (name in env && env[name] !== process.env[name]) {
      throw new Error(`runCli: ${name}=${env[name]} is read from the process itself (not from the run's env): use runBuiltCli`);
    }
  }
  // Date and Intl read the process's zone, not the run's env: another zone needs a process of its own (a test
  // asking for one must say so; a machine whose own zone is not UTC gets the bundle for every run).
  if (zoneOf(given.TZ) !== zoneOf(undefined)) {
    if ('TZ' in env) throw new Error(`runCli: TZ=${env.TZ} is not this process's zone: use runBuiltCli`);
    return runBuiltCli(args, env, options);
  }
  const out = capture();
  const err = capture();
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  let ran: Awaited<ReturnType<typeof main>>;
  try {
    ran = await main(args, { stdout: out.stream, stderr: err.stream, stdin, env: given, stdoutIsTTY: false, stderrIsTTY: false });
  } catch (error) {
    // What the bin's last resort prints and exits with (src/startup/main.ts).
    err.stream.write(lastResortLine(error));
    ran = { code: 1, keepRunning: false };
  }
  if (ran.keepRunning) throw new Error('runCli: the command keeps running (a sandbox): use runBuiltCli');
  // Captured chunks arrive on 'data', which a PassThrough may emit on a later tick.
  await new Promise((resolveTick) => setImmediate(resolveTick));
  return { code: ran.code, stdout: out.text(), stderr: err.text() };
}

/** Variables the program (keytar's D-Bus, os.homedir, env-paths) reads from the process, whatever the run's env says. */
const PROCESS_WIDE = ['HOME', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME'] as const;

/** The IANA zone a TZ value means (undefined: this process's current zone). */
function zoneOf(tz: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-US', tz === undefined ? {} : { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return `unknown:${tz ?? ''}`;
  }
}

/**
 * One compile cache for the built CLI's runs (what an operator's second and later starts have): a run in a fresh
 * BROKER_CONSOLE_HOME would otherwise compile the whole program and write a cache no run reads again. The
 * cache changes only the time a start takes (test/startup checks each cache case on its own folder).
 */
export const SHARED_CACHE = join(ROOT, 'node_modules', '.cache', 'broker-console-test-runs-cache');

/**
 * Runs the built CLI with exactly this environment (plus PATH, and the shared compile cache unless `env` names a
 * cache or `ownCache` is set), no inherited BROKER_* variables; `input` is piped to stdin.
 */
export async function runBuiltCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { input?: string; ownCache?: boolean } = {},
): Promise<RunResult> {
  const bin = await buildCli();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        TZ: process.env.TZ ?? 'UTC',
        ...(options.ownCache ? {} : { BROKER_CONSOLE_CACHE: SHARED_CACHE }),
        ...withRunHome(env),
      },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      resolvePromise({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/**
 * Every transfer the sandbox holds for a query, fetched page by page with our own signed requests
 * (independent of the command under test and of the client).
 */
export async function fetchAllTransfers(sandbox: RunningSandbox, params: Record<string, string>, limit = 500): Promise<Transfer[]> {
  const all: Transfer[] = [];
  for (let page = 1; ; page += 1) {
    const query = signQuery({
      params: [...Object.entries(params), ['page', page], ['limit', limit]],
      recvWindow: 5000,
      timestamp: Date.now(),
      body: '',
      secret: sandbox.secretKey,
      rule: 'query',
    });
    const response = await fetch(`${sandbox.baseUrl}/api/v3/broker/sub-account/universalTransfer?${query}`, {
      headers: { [sandbox.apiKeyHeader]: sandbox.apiKey },
    });
    if (!response.ok) throw new Error(`sandbox answered ${response.status}: ${await response.text()}`);
    const rows = (await response.json()) as Transfer[];
    all.push(...rows);
    if (rows.length < limit) return all;
  }
}

/** The page= values of the transfer requests the sandbox received, in order. */
export function transferPagesRequested(sandbox: RunningSandbox): string[] {
  return sandbox
    .requests()
    .filter((r) => r.path.endsWith('/universalTransfer'))
    .map((r) => new URLSearchParams(r.query).get('page') ?? '');
}

export function requestCount(sandbox: RunningSandbox): number {
  return sandbox.requests().length;
}
