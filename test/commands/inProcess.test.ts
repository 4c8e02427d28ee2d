// runCli runs the program in this process (the workers run many files without isolation): a run must leave no
// listener, variable or folder change behind, see only the environment it is given, and answer as the bundle does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/types';
import { buildCli, runBuiltCli, runCli, sandboxEnv } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
let env: Record<string, string>;
beforeAll(async () => {
  [sandbox] = await Promise.all([ownSandbox({ seed: 8, rateLimit: { max: 100_000, windowMs: 1000 } }), buildCli()]);
  home = mkdtempSync(join(tmpdir(), 'bc-in-process-'));
  env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: home };
});
afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

const PROCESS_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection'] as const;

function processState() {
  return {
    listeners: Object.fromEntries(PROCESS_EVENTS.map((event) => [event, process.listenerCount(event)])),
    stdout: process.stdout.listenerCount('error'),
    stderr: process.stderr.listenerCount('error'),
    env: { ...process.env },
    cwd: process.cwd(),
    exitCode: process.exitCode,
  };
}

describe('--help', () => {
  it.each([
    [[]],
    [['keys', 'create']],
    [['keys', 'list']],
    [['keys', 'audit']],
    [['transfers']],
    [['profile', 'add']],
    [['sandbox']],
    [['sub-accounts']],
    [['audit']],
  ])('%j: its prose is reflowed to the width help is shown at (80 off a terminal); only the example commands are longer', async (words) => {
    const result = await runCli([...words, '--help']);
    expect(result.code).toBe(0);
    const long = result.stdout.split('\n').filter((line) => line.length > 80 && !line.startsWith('  $ broker-console '));
    expect(long).toEqual([]);
  });
});

describe('runCli, in-process', () => {
  it('leaves no process listener, variable, folder or exit code behind, whatever the command did', async () => {
    const before = processState();
    const sub = sandbox.subAccounts[0] ?? '';
    const runs: [string[], number, { input?: string }?][] = [
      [['--help'], 0],
      [['nosuch'], 2],
      [['keys', 'list', '--sub', sub, '--json'], 0],
      [['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--format', 'csv'], 0],
      // Ctrl-C handling while it scans (a SIGINT listener for the scan's length).
      [['sub-accounts', '--discover', '--days', '1', '--sub', sub], 0],
      // Reads stdin.
      [['profile', 'add', 'x', '--base-url', sandbox.baseUrl], 2, { input: 'only one line\n' }],
      // The console refuses (not a terminal).
      [[], 2],
      [['--demo'], 2],
    ];
    for (const [args, code, options] of runs) {
      const result = await runCli(args, env, options);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(code);
    }
    expect(processState()).toEqual(before);
  });

  it("sees only the environment it is given: this process's BROKER_* variables do not reach the command", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, sandboxEnv(sandbox), { BROKER_PROFILE: 'ghost', BROKER_READ_ONLY: '1' });
    try {
      const none = await runCli(['keys', 'list', '--sub', 'x'], { BROKER_CONSOLE_HOME: join(home, 'none') });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^error: no credentials: /);
      const created = await runCli(
        ['keys', 'create', '--allow-risky', '--sub', sandbox.subAccounts[0] ?? '', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'env', '--json'],
        env,
      );
      // Not read-only, no profile named: only the warning that the secret is shown once.
      expect(created.stderr).toMatch(/^warning: the secret key is shown only this once[^\n]*\n$/);
      expect(created.code).toBe(0);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('refuses what only a process of its own can honour: a TZ or HOME other than this one', async () => {
    await expect(runCli(['--help'], { TZ: 'Asia/Tokyo' })).rejects.toThrow(/use runBuiltCli/);
    await expect(runCli(['--help'], { HOME: join(home, 'elsewhere') })).rejects.toThrow(/use runBuiltCli/);
  });

  it.each([
    [['--help']],
    [['keys', 'create', '--help']],
    [['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '7', '--format', 'csv']],
    [['--recv-window', '\u001b[2J', 'keys', 'list', '--sub', 'x']],
  ])('%j: the same code, stdout and stderr as the built bundle', async (args) => {
    const [inProcess, built] = await Promise.all([runCli(args, env), runBuiltCli(args, env)]);
    expect(inProcess).toEqual(built);
  });
});
