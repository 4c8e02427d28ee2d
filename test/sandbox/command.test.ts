import { spawn, spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createServer } from 'node:net';
import { listenFailure, runSandboxCommand } from '../../src/commands/sandbox';
import { DEFAULT_API_KEY_HEADER } from '../../src/api/signing';
import { buildCli, runBuiltCli, SHARED_CACHE } from '../commands/helpers';
import { listKeys } from './helpers';
import type { RunningSandbox } from '../../src/sandbox/types';

const SIGNAL_NAMES: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

const capture = (): { out: PassThrough; text: () => string } => {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { out, text: () => chunks.join('') };
};

describe('sandbox command', () => {
  test('prints base URL, master credentials and sub-accounts first, and serves them', async () => {
    const { out, text } = capture();
    const sb = await runSandboxCommand({ seed: 1 }, out, { handleSignals: false });
    try {
      const lines = text().split('\n');
      expect(lines[0]).toBe(`base URL:     ${sb.baseUrl}`);
      expect(lines[1]).toBe(`API key:      ${sb.apiKey}`);
      expect(lines[2]).toBe(`secret key:   ${sb.secretKey}`);
      expect(lines[3]).toBe(`sub-accounts: ${sb.subAccounts.join(', ')}`);
      expect(lines[4]).toBe('frozen:       frozendesk01 (every operation on it answers 140002)');
      expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  test('credentials not given are new each run (the seed gives the data, not the keys), and they sign', async () => {
    const runs = await Promise.all([1, 2].map(() => runSandboxCommand({ seed: 1 }, capture().out, { handleSignals: false })));
    try {
      const [a, b] = runs as [RunningSandbox, RunningSandbox];
      expect(a.apiKey).not.toBe(b.apiKey);
      expect(a.secretKey).not.toBe(b.secretKey);
      expect(a.apiKey).toMatch(/^mx0v[0-9a-f]{28}$/);
      expect(a.secretKey).toMatch(/^[0-9a-f]{32}$/);
      expect(a.subAccounts).toEqual(b.subAccounts);
      expect((await listKeys(a, a.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await Promise.all(runs.map((sb) => sb.close()));
    }
  });

  test('--json prints exactly one JSON line; given credentials are used', async () => {
    const { out, text } = capture();
    const sb = await runSandboxCommand({ json: true, seed: 2, apiKey: 'mx0vdemo', secretKey: 'throwaway' }, out, { handleSignals: false });
    try {
      const printed = text();
      expect(printed.endsWith('\n')).toBe(true);
      expect(printed.trimEnd().split('\n')).toHaveLength(1);
      const parsed = JSON.parse(printed) as Record<string, unknown>;
      expect(parsed).toEqual({ baseUrl: sb.baseUrl, apiKey: 'mx0vdemo', secretKey: 'throwaway', subAccounts: sb.subAccounts });
      expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  test('--env prints only export lines that a shell evals to the target; the description goes to stderr', async () => {
    const { out, text } = capture();
    const err = capture();
    // Quotes, spaces and a $ in the credentials: the lines must survive eval unexpanded.
    const sb = await runSandboxCommand({ env: true, seed: 3, apiKey: "mx0v'demo key", secretKey: 'throw$away `x` \\n' }, out, {
      handleSignals: false,
      err: err.out,
    });
    try {
      const printed = text();
      expect(
        printed
          .split('\n')
          .filter((l) => l !== '')
          .every((l) => l.startsWith('export BROKER_')),
      ).toBe(true);
      const shell = spawnSync('sh', ['-c', `eval "$(cat)"; printf '%s\\n' "$BROKER_BASE_URL" "$BROKER_API_KEY" "$BROKER_API_SECRET"`], {
        input: printed,
        encoding: 'utf8',
      });
      expect(shell.status, shell.stderr).toBe(0);
      expect(shell.stdout).toBe(`${sb.baseUrl}\nmx0v'demo key\nthrow$away \`x\` \\n\n`);
      expect(err.text()).toContain(`base URL:     ${sb.baseUrl}`);
      expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  test('SIGTERM closes the sandbox and exits 0 (real binary)', async ({ onTestFinished }) => {
    // A signal of this worker's own would reach every handler other files left in it: the bin gets it instead.
    const child = spawn(process.execPath, [await buildCli(), 'sandbox', '--json'], {
      env: { PATH: process.env.PATH ?? '', BROKER_CONSOLE_CACHE: SHARED_CACHE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let printed = '';
    child.stdout.on('data', (c: Buffer) => (printed += c.toString('utf8')));
    for (let i = 0; i < 300 && !printed.includes('\n') && child.exitCode === null; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const sb = { ...(JSON.parse(printed.split('\n')[0] ?? '') as RunningSandbox), apiKeyHeader: DEFAULT_API_KEY_HEADER };
    expect((await listKeys(sb, sb.subAccounts[0] as string)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    await expect(listKeys(sb, sb.subAccounts[0] as string)).rejects.toThrow(/ECONNREFUSED/);
  });

  test('closing by hand removes the signal handlers', async () => {
    const before = SIGNAL_NAMES.map((signal) => process.listenerCount(signal));
    const sb = await runSandboxCommand({}, capture().out);
    expect(SIGNAL_NAMES.map((signal) => process.listenerCount(signal))).toEqual(before.map((n) => n + 1));
    await sb.close();
    expect(SIGNAL_NAMES.map((signal) => process.listenerCount(signal))).toEqual(before);
  });

  test('a port already in use: exit 1 and what to do, never a bare EADDRINUSE (real binary)', async ({ onTestFinished }) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const run = await runBuiltCli(['sandbox', '--port', String(port)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `error: cannot listen on 127.0.0.1:${port}: the port is already in use: choose another with --port, or leave --port out for a free one\n`,
    );
  });

  test('the other ways a listen fails are said by what to change; any other error is left to the caller', () => {
    const failure = (code: string) => Object.assign(new Error(code), { code });
    expect(listenFailure(failure('EACCES'), '127.0.0.1', 80)).toBe(
      'cannot listen on 127.0.0.1:80: this user may not use that port: choose one above 1023 with --port',
    );
    expect(listenFailure(failure('EADDRNOTAVAIL'), '127.0.0.9\u001b[2J', 1)).toBe(
      'cannot listen on 127.0.0.9\u241b[2J:1: 127.0.0.9\u241b[2J is not an address of this machine: give one with --host (e.g. 127.0.0.1)',
    );
    expect(listenFailure(failure('ENOTFOUND'), 'nowhere', undefined)).toMatch(/^cannot listen on nowhere:0: nowhere is not a name this machine resolves/);
    expect(listenFailure(failure('EMFILE'), '127.0.0.1', 1)).toBeUndefined();
    expect(listenFailure(undefined, '127.0.0.1', 1)).toBeUndefined();
  });
});
