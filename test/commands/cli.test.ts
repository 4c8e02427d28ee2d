// The command line against a sandbox in this test process: run in-process (runCli), and a smoke set through the
// built bundle as a child process (runBuiltCli), so the shipped bin stays covered end to end.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli';
import type { Transfer } from '../../src/api/types';
import type { CommandContext } from '../../src/commands/context';
import type { RunningSandbox } from '../../src/sandbox/types';
import { pagingEnv, startPagingServer } from '../export/pagingServers';
import { buildCli, fetchAllTransfers, runBuiltCli, runCli, sandboxEnv, transferPagesRequested } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  [sandbox] = await Promise.all([ownSandbox({ seed: 11, rateLimit: { max: 100_000, windowMs: 1000 } }), buildCli()]);
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

const noStack = (text: string): void => {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toContain('node:internal');
};

describe('validation happens before anything is sent', () => {
  it('sandbox --env with --json exits 2 naming both, and starts nothing', async () => {
    const result = await runCli(['sandbox', '--env', '--json', '--port', '0'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --env and --json each say how to print the target: give one\n');
    expect(result.stdout).toBe('');
  });

  it('keys create with five IPs exits 2, names ip, and the sandbox received nothing', async () => {
    const fresh = await ownSandbox({ seed: 2 });
    try {
      // Smoke: a usage error from the shipped bundle.
      const result = await runBuiltCli(
        [
          'keys',
          'create',
          '--sub',
          fresh.subAccounts[0] ?? 'x',
          '--permissions',
          'SPOT_ACCOUNT_READ',
          '--note',
          'n',
          '--ip',
          '1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4,5.5.5.5',
        ],
        sandboxEnv(fresh),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('error: --ip: at most 4 addresses (got 5)\n');
      expect(result.stdout).toBe('');
      expect(fresh.requests()).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });

  const cases: [string, string[], RegExp][] = [
    ['keys list without --sub', ['keys', 'list'], /^error: --sub: required\n$/],
    ['keys list, spaces in --sub', ['keys', 'list', '--sub', 'a b'], /^error: --sub: must not contain spaces/],
    ['keys create without anything', ['keys', 'create'], /^error: --sub: required\nerror: --permissions: .*\nerror: --note: required/],
    [
      'keys create, bad permission',
      ['keys', 'create', '--allow-risky', '--sub', 'd', '--permissions', 'A-B', '--note', 'n'],
      /^error: --permissions: 'A-B' is not a permission name/,
    ],
    [
      'keys create, CIDR',
      ['keys', 'create', '--sub', 'd', '--permissions', 'A', '--note', 'n', '--ip', '10.0.0.0/24'],
      /^error: --ip: '10\.0\.0\.0\/24' is a range \(CIDR\); give single addresses\n$/,
    ],
    [
      'keys create, empty ip entry',
      ['keys', 'create', '--sub', 'd', '--permissions', 'A', '--note', 'n', '--ip', '1.1.1.1,,2.2.2.2'],
      /^error: --ip: empty address between commas\n$/,
    ],
    [
      'keys create, duplicate ip',
      ['keys', 'create', '--sub', 'd', '--permissions', 'A', '--note', 'n', '--ip', '1.1.1.1,1.1.1.1'],
      /^error: --ip: '1\.1\.1\.1' is listed twice\n$/,
    ],
    [
      'keys create, long note',
      ['keys', 'create', '--allow-risky', '--sub', 'd', '--permissions', 'A', '--note', 'x'.repeat(101)],
      /^error: --note: at most 100 characters \(got 101\)\n$/,
    ],
    ['transfers without types', ['transfers'], /^error: --from-type: required.*\nerror: --to-type: required/],
    ['transfers, bad start', ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--start', 'soon'], /^error: --start: 'soon' is not a time/],
    [
      'transfers, epoch seconds',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--end', '1763726400'],
      /^error: --end: '1763726400' looks like epoch seconds; give milliseconds \(1763726400000\)\n$/,
    ],
    [
      'transfers, start after end',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--start', 'now', '--end', '7d'],
      /^error: --end: must not be before --start/,
    ],
    [
      'transfers, short clientTranId',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--client-tran-id', 'abc'],
      /^error: --client-tran-id: must be exactly 32 letters and digits \(got 3\)\n$/,
    ],
    [
      'transfers, page 0',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--page', '0'],
      /^error: --page: must be a whole number of 1 or more \(got 0\)\n$/,
    ],
    [
      'transfers, limit 501',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '501'],
      /^error: --limit: must be a whole number from 1 to 500 \(got 501\)\n$/,
    ],
    [
      'transfers, limit 1.5',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '1.5'],
      /^error: --limit: must be a whole number from 1 to 500 \(got '1\.5'\)\n$/,
    ],
    [
      'transfers, bad account',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--to-account', 'a b'],
      /^error: --to-account: must not contain spaces/,
    ],
    ['transfers, bad type', ['transfers', '--from-type', 'SP-OT', '--to-type', 'FUTURE'], /^error: --from-type: 'SP-OT' is not an account type/],
    [
      'transfers, bad format',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--format', 'xml'],
      /^error: --format: must be table, json or csv \(got 'xml'\)\n$/,
    ],
  ];
  it.each(cases)('%s → exit 2, field named, nothing sent', async (_name, args, stderr) => {
    const before = sandbox.requests().length;
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
    expect(result.stdout).toBe('');
    expect(sandbox.requests().length).toBe(before);
  });
});

describe('keys', () => {
  it('keys list prints a table, --json an array of domain records', async () => {
    let sub = '';
    let listed: unknown[] = [];
    // Smoke: the shipped bundle.
    for (const candidate of sandbox.subAccounts) {
      const json = await runBuiltCli(['keys', 'list', '--sub', candidate, '--json'], env);
      expect(json.code).toBe(0);
      listed = JSON.parse(json.stdout) as unknown[];
      if (listed.length > 0) {
        sub = candidate;
        break;
      }
    }
    expect(sub).not.toBe('');
    expect(listed[0]).toMatchObject({ apiKey: expect.stringMatching(/^mx0v/), createdAt: expect.any(Number) });
    const table = await runBuiltCli(['keys', 'list', '--sub', sub], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^note\s+apiKey\s+permissions\s+ips\s+created$/);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(listed.length + 1);
  });

  it('keys create prints the secret once and warns on stderr; --json is one object', async () => {
    const sub = sandbox.subAccounts[1] ?? 'x';
    // Smoke: the shipped bundle.
    const text = await runBuiltCli(['keys', 'create', '--sub', sub, '--permissions', 'SPOT_ACCOUNT_READ', '--ip', '10.1.1.1', '--note', 'from cli'], env);
    expect(text.code).toBe(0);
    const secret = /^secretKey\s+(\S+)$/m.exec(text.stdout)?.[1] ?? '';
    expect(secret).not.toBe('');
    expect(text.stdout.split(secret).length).toBe(2);
    expect(text.stderr).toMatch(/^warning: the secret key is shown only this once/);
    expect(text.stderr).not.toContain(secret);

    const json = await runBuiltCli(['keys', 'create', '--allow-risky', '--sub', sub, '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'json', '--json'], env);
    expect(json.code).toBe(0);
    const created = JSON.parse(json.stdout) as { secretKey: string; subAccount: string };
    expect(created.subAccount).toBe(sub);
    expect(created.secretKey.length).toBeGreaterThan(0);
  });

  it('a create whose answer never came exits 3 and says to check with keys list', async () => {
    sandbox.queueFaults({ kind: 'reset-after-handling' });
    const sub = sandbox.subAccounts[2] ?? 'x';
    const result = await runCli(['keys', 'create', '--allow-risky', '--sub', sub, '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'lost'], env);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('may have taken effect');
    expect(result.stderr).toContain(`keys list --base-url ${sandbox.baseUrl} --sub ${sub}`);
    noStack(result.stderr);
  });

  it('a service error is one line and exit 1, no stack', async () => {
    sandbox.queueFaults({ kind: 'status', status: 400, code: 700004, msg: 'Mandatory parameter missing' });
    const result = await runCli(['keys', 'list', '--sub', sandbox.subAccounts[0] ?? 'x'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*700004.*\n$/);
    noStack(result.stderr);
  });

  it('an unreachable service is exit 1, one line', async () => {
    const result = await runCli(['--timeout', '2000', 'keys', 'list', '--sub', 'x'], { ...env, BROKER_BASE_URL: 'http://127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    noStack(result.stderr);
  });
});

describe('transfers', () => {
  let expected: Transfer[];
  beforeAll(async () => {
    expected = await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
  });

  it('--all --format csv writes every matching transfer, pages 1..n in order', async () => {
    const before = transferPagesRequested(sandbox).length;
    // Smoke: the shipped bundle streaming every page to a real pipe.
    const result = await runBuiltCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--limit', '100', '--format', 'csv'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe('tranId,fromAccount,toAccount,clientTranId,asset,amount,fromAccountType,toAccountType,fromSymbol,toSymbol,status,timestamp');
    expect(lines.length - 1).toBe(expected.length);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((t) => t.tranId));
    const pages = transferPagesRequested(sandbox).slice(before);
    expect(pages).toEqual(Array.from({ length: Math.floor(expected.length / 100) + 1 }, (_, i) => String(i + 1)));
  });

  it('--all --format json parses to every matching transfer', async () => {
    const result = await runCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--format', 'json'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('one page as a table ends with totals', async () => {
    const result = await runCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '20'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/totals of page 1, SUCCESS only, \d+ of 20 rows:/);
  });

  it('a closed pipe (| head) ends quietly', async () => {
    const bin = await buildCli();
    const child = spawn(process.execPath, [bin, 'transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--limit', '50', '--format', 'csv'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s while --all streams JSON: exit %i, one line saying how far it got, and the array closed', async (signal, exit) => {
    const endless = await startPagingServer('endless');
    try {
      const child = spawn(
        process.execPath,
        [await buildCli(), 'transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--all', '--limit', '5', '-o', 'json'],
        {
          env: { PATH: process.env.PATH ?? '', ...pagingEnv(endless) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const out: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stdout.once('data', () => child.kill(signal));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(exit);
      expect(stderr).toMatch(new RegExp(`^error: ${signal}: stopped`));
      expect(stderr).toMatch(/: stopped \(after [\d,]+ pages?, [\d,]+ rows written\); the output is incomplete\n$/);
      // What was written is still a JSON document: the array is closed, whole transfers only.
      const rows = JSON.parse(Buffer.concat(out).toString('utf8')) as Array<{ tranId: string }>;
      expect(rows.length).toBeGreaterThanOrEqual(Number(/([\d,]+) rows written/.exec(stderr)![1]!.replace(/,/g, '')));
      expect(new Set(rows.map((r) => r.tranId)).size).toBe(rows.length);
    } finally {
      await endless.close();
    }
  });

  // --version is answered by the bin's own file, without the program: it says it the same way.
  it.each([['completion', 'bash'], ['--version']])('stdout on /dev/full (%s): exit 1, stdout named and the reason in words', async (...args) => {
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [await buildCli(), ...args], {
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', full, 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 1, stderr: 'error: could not write the output to stdout: no space left on device\n' });
    } finally {
      closeSync(full);
    }
  });
});

describe('command line', () => {
  it('no credentials: a clear message, exit 2', async () => {
    // No profiles (a config folder that does not exist) and no environment credentials.
    const result = await runCli(['keys', 'list', '--sub', 'x'], { BROKER_CONSOLE_HOME: join(tmpdir(), `bc-no-such-config-${process.pid}`) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: no credentials: add a profile with `broker-console profile add NAME --base-url URL`, set BROKER_API_KEY, BROKER_API_SECRET and BROKER_BASE_URL, or try the demo with `broker-console --demo`\n',
    );
  });

  it('a bad base URL is named, exit 2', async () => {
    const result = await runCli(['--base-url', 'ftp://x', 'keys', 'list', '--sub', 'x'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --base-url: must start with http:// or https:// (got ftp:)\n');
  });

  it('--base-url overrides BROKER_BASE_URL', async () => {
    const result = await runCli(['--base-url', sandbox.baseUrl, 'keys', 'list', '--sub', sandbox.subAccounts[0] ?? 'x', '--json'], {
      ...env,
      BROKER_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(result.code).toBe(0);
  });

  it.each([
    [['--read-only=', 'keys', 'list', '--sub', 'x'], '--read-only'],
    [['--verbose=yes', 'keys', 'list', '--sub', 'x'], '--verbose'],
    [['keys', 'list', '--sub', 'x', '--json=1'], '--json'],
  ])('a switch given a value (%j): it takes none, said as such, exit 2', async (args, flag) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${flag} takes no value: give ${flag} alone\n`);
  });

  it('a switch of another command given a value is unknown here, not "takes no value"', async () => {
    const result = await runCli(['keys', 'list', '--sub', 'x', '--discover=1'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown option '--discover'\n");
  });

  it('a secret is never accepted as a flag', async () => {
    for (const flag of ['--api-secret', '--secret', '--secret-key', '--api-key']) {
      const result = await runCli(['keys', 'list', '--sub', 'x', flag, 's3cr3t'], env);
      expect(result.code, flag).toBe(2);
      expect(result.stderr, flag).toMatch(/^error: unknown option/);
    }
    const global = await runCli(['--api-secret', 's3cr3t', 'keys', 'list', '--sub', 'x'], env);
    expect(global.code).toBe(2);
    // Written as --flag=value, the value is not echoed in the error either.
    for (const args of [
      ['keys', 'list', '--sub', 'x', '--secret-key=s3cr3t'],
      ['--api-secret=s3cr3t', 'keys', 'list', '--sub', 'x'],
      ['transfers', '-x=s3cr3t'],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^error: unknown option '-{1,2}[a-z-]+'/);
      expect(result.stderr, args.join(' ')).not.toContain('s3cr3t');
    }
  });

  it.each([
    [
      ['keys', 'audit', '--sub', 'delta043', '--sub', 'otcdesk82', '--fail-on', 'withdraw'],
      /--sub is given more than once: give one comma-separated list \(--sub A,B\)/,
    ],
    [['keys', 'audit', '--sub', 'delta043', '--fail-on', 'withdraw', '--fail-on', 'none'], /--fail-on is given more than once: give it once/],
    [
      ['keys', 'create', '--sub', 'mmbot5143', '--permissions', 'SPOT_ACCOUNT_READ', '--ip', '1.2.3.4', '--ip', '1.2.3.5', '--note', 'x'],
      /--ip is given more than once/,
    ],
    [
      ['keys', 'create', '--sub', 'mmbot5143', '--permissions', 'SPOT_WITHDRAW_WRITE', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'x'],
      /--permissions is given more than once/,
    ],
    [['--timeout', '5000', '--timeout', '6000', 'keys', 'list', '--sub', 'x'], /--timeout is given more than once/],
  ])('%j: an option given twice is refused (exit 2, nothing sent), not the last one silently taken', async (args, message) => {
    const before = sandbox.requests().length;
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sandbox.requests().length).toBe(before);
  });

  it('the program declares no secret-taking option outside the sandbox command', () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, stdoutIsTTY: false, stderrIsTTY: false };
    const program = buildProgram(
      io,
      () => ({}) as CommandContext,
      () => undefined,
    );
    const secretish: string[] = [];
    const visit = (command: CommandUnknownOpts, path: string): void => {
      for (const o of command.options) if (/secret|password|token/i.test(o.flags)) secretish.push(`${path} ${o.flags}`);
      for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`.trim());
    };
    visit(program, '');
    expect(secretish).toEqual(['sandbox --secret-key <secret>']);
  });

  // The shipped bundle for --version (the bin answers it itself) and --help; the rest in-process.
  it.each([
    [['--version'], 0, /^0\.\d+\.\d+/, runBuiltCli],
    [['--help'], 0, /Usage: broker-console/, runBuiltCli],
    [['keys', 'create', '--help'], 0, /--permissions <list>/],
    [['nosuch'], 2, /unknown command 'nosuch'/],
    [['transfers', '--bogus'], 2, /unknown option '--bogus'/],
    [['--recv-window', 'abc', 'keys', 'list', '--sub', 'x'], 2, /--recv-window.*must be a whole number from 1 to 60000/],
    [['--recv-window', '60001', 'keys', 'list', '--sub', 'x'], 2, /must be a whole number from 1 to 60000/],
    [['--timeout', '1e3', 'keys', 'list', '--sub', 'x'], 2, /--timeout/],
    [['sandbox', '--port', '70000'], 2, /--port/],
    [['profile', 'add'], 2, /missing required argument 'name'/],
    [['profile', 'add', 'x'], 2, /--base-url URL is required/],
    // Not a terminal here: the console refuses with a readable message instead of Ink's raw-mode crash.
    [[], 2, /^error: /],
    [['--demo'], 2, /^error: /],
  ])('%j → exit %i', async (args, code, pattern, run = runCli) => {
    const result = await run(args, env);
    expect(result.code).toBe(code);
    expect(result.stdout + result.stderr).toMatch(pattern);
    noStack(result.stderr);
  });

  it.each([
    [['trnasfers'], /^error: unknown command 'trnasfers'\n\(Did you mean transfers\?\)\n$/],
    [['trnasfers', '--from-type', 'SPOT', '--to-type', 'FUTURE'], /^error: unknown command 'trnasfers'\n\(Did you mean transfers\?\)\n$/],
    [['key', 'list', '--sub', 'x'], /^error: unknown command 'key'\n\(Did you mean keys list\?\)\n$/],
    [['kyes', 'craete'], /\(Did you mean keys create\?\)/],
    [['profiles', 'list'], /\(Did you mean profile list\?\)/],
    [['keys', 'lst'], /^error: unknown command 'lst'\n\(Did you mean list\?\)\n$/],
    [['transfers', '--form', 'json'], /^error: unknown option '--form'\n\(Did you mean --format\?\)\n$/],
    [['--prfile', 'x', 'keys', 'list'], /^error: unknown option '--prfile'\n\(Did you mean --profile\?\)\n$/],
    [['xyzzy'], /^error: unknown command 'xyzzy' \(see broker-console --help\)\n$/],
  ])('%j → exit 2 with a suggestion, nothing sent', async (args, stderr) => {
    const before = sandbox.requests().length;
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
    expect(result.stdout).toBe('');
    expect(sandbox.requests().length).toBe(before);
  });

  it("help [command] prints that command's help", async () => {
    const root = await runCli(['help'], env);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Usage: broker-console \[options\] \[command\]/);
    const create = await runCli(['help', 'keys', 'create'], env);
    expect(create.code).toBe(0);
    expect(create.stdout).toMatch(/^Usage: broker-console keys create/);
  });

  it('--profile without environment credentials and no such profile: exit 2, naming it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bc-cli-profile-'));
    try {
      const result = await runCli(['--profile', 'prod', 'keys', 'list', '--sub', 'x'], { BROKER_CONSOLE_HOME: home });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: no profile named 'prod' \(--profile\); there are no profiles yet/);
      noStack(result.stderr);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
