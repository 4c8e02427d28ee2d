// --verbose and BROKER_DEBUG=1: each request a command sends is one `debug:` line on stderr, in the --log-file
// line's format (method, path without the query, status, latency, attempt, pacing), never a secret, a
// signature or the whole API key; stdout is unchanged. Against a real sandbox, in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, runCli, sandboxEnv } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 17, rateLimit: { max: 100_000, windowMs: 1000 } });
  home = mkdtempSync(join(tmpdir(), 'bc-verbose-'));
  env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: home };
});
afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

const debugLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('debug: '));

/** Nothing secret on stderr: the master secret, the whole API key, a signature or a query. */
function expectNoSecret(stderr: string): void {
  expect(stderr).not.toContain(sandbox.secretKey);
  expect(stderr).not.toContain(sandbox.apiKey);
  expect(stderr).not.toMatch(/signature|\?/i);
}

describe('--verbose', () => {
  const sub = () => sandbox.subAccounts[0] ?? 'x';

  it('one line per request: method, path, status, latency, attempt, shortened key; stdout the same as without', async () => {
    const before = requestCount(sandbox);
    const quiet = await runCli(['keys', 'list', '--sub', sub()], env);
    const loud = await runCli(['--verbose', 'keys', 'list', '--sub', sub()], env);
    expect(loud.code).toBe(0);
    expect(loud.stdout).toBe(quiet.stdout);
    expect(debugLines(quiet.stderr)).toEqual([]);
    const lines = debugLines(loud.stderr);
    expect(lines).toHaveLength(requestCount(sandbox) - before - 1);
    expect(lines[0]).toMatch(/^debug: \S+Z op=\S+ GET \/\S+ status=200 ok=true latency=\d+ms attempt=1 key=\S+…\S+$/);
    expectNoSecret(loud.stderr);
  });

  it('BROKER_DEBUG=1 does the same; 0 does not', async () => {
    const on = await runCli(['keys', 'list', '--sub', sub()], { ...env, BROKER_DEBUG: '1' });
    expect(debugLines(on.stderr)).toHaveLength(1);
    const off = await runCli(['keys', 'list', '--sub', sub()], { ...env, BROKER_DEBUG: '0' });
    expect(debugLines(off.stderr)).toHaveLength(0);
  });

  it('a retry is a line of its own with its attempt; a failed try says its status', async () => {
    sandbox.queueFaults({ kind: 'status', status: 503 });
    const run = await runCli(['--verbose', 'keys', 'list', '--sub', sub()], env);
    expect(run.code).toBe(0);
    const lines = debugLines(run.stderr);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ status=503 ok=false .* attempt=1 /);
    expect(lines[1]).toMatch(/ status=200 ok=true .* attempt=2 /);
  });

  it('a 429: the line says the wait the service asked for, then the retry that waited it', async () => {
    sandbox.queueFaults({ kind: 'rate-limit', retryAfterSec: 1 });
    const run = await runCli(['--verbose', 'keys', 'list', '--sub', sub()], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = debugLines(run.stderr);
    expect(lines[0]).toMatch(/ status=429 ok=false .* attempt=1 .*retry-after=\d+ms /);
    expect(lines.at(-1)).toMatch(/ status=200 ok=true .* attempt=2 /);
  });

  it('a create: the POST line, never the created secret', async () => {
    const run = await runCli(
      ['--verbose', 'keys', 'create', '--sub', sub(), '--permissions', 'SPOT_ACCOUNT_READ', '--ip', '203.0.113.9', '--note', 'verbose', '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout) as { secretKey: string; apiKey: string };
    const lines = debugLines(run.stderr);
    expect(lines.some((l) => / POST \/\S+ status=200 /.test(l))).toBe(true);
    expect(run.stderr).not.toContain(created.secretKey);
    expectNoSecret(run.stderr);
  });

  it('is refused for the console, which draws on the terminal stderr shares (exit 2, nothing sent)', async () => {
    const before = requestCount(sandbox);
    const run = await runCli(['--verbose'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: --verbose is for the commands: .*--log-file\)\n$/);
    expect(requestCount(sandbox)).toBe(before);
  });
});
