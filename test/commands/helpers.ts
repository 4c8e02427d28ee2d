// Shared test helpers: capture streams, run commands in-process, build and spawn the real bundle.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createBrokerApi } from '../../src/api/operations';
import { signQuery } from '../../src/api/signing';
import type { Transfer } from '../../src/api/types';
import type { CommandContext, GlobalOptions } from '../../src/commands/context';
import type { RunningSandbox } from '../../src/sandbox/types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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
    ...overrides,
  };
  return { ctx, out, err };
}

let built: Promise<string> | undefined;

/** Builds the CLI bundle once per test file, to a file of its own (test files run in parallel). */
export function buildCli(): Promise<string> {
  built ??= (async () => {
    const dir = join(ROOT, 'node_modules', '.cache', 'broker-console-test');
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, `cli-${process.pid}-${Date.now()}.js`);
    // The same options as scripts/build.mjs, to a private path.
    await build({
      entryPoints: [join(ROOT, 'src/cli.tsx')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      define: { 'process.env.NODE_ENV': '"production"' },
      external: ['keytar', 'react-devtools-core'],
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __bcCreateRequire } from 'node:module';\nconst require = __bcCreateRequire(import.meta.url);",
      },
      logLevel: 'error',
      absWorkingDir: ROOT,
    });
    return outfile;
  })();
  return built;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with exactly this environment (plus PATH), no inherited BROKER_* variables. */
export async function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  const bin = await buildCli();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', TZ: process.env.TZ ?? 'UTC', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
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
      signBody: true,
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
