// The bad-input matrix: what the operator gives (environment, flags, profiles, keychain entries) that
// cannot make a valid request. Every row exits 2 with one line naming the variable, flag or profile field,
// and the server sees nothing: a request that fails before a byte is sent is a usage error, never "sent".
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { buildProgram } from '../../src/cli';
import { type CommandContext, EXIT, type GlobalOptions } from '../../src/commands/context';
import { runSubAccounts } from '../../src/commands/subAccounts';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileAdd } from '../../src/commands/profile';
import { runTransfers } from '../../src/commands/transfers';
import { credentialsFromEnvironment } from '../../src/credentials/fromEnvironment';
import { type Keychain, type StoredCredentials, keychainAccount } from '../../src/credentials/keychain';
import { saveProfile } from '../../src/credentials/profiles';
import { runBuiltCli, runCli, testContext } from './helpers';

let server: Server;
let baseUrl: string;
let seen = 0;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'bc-bad-input-'));
  server = createServer((req, res) => {
    seen += 1;
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"subAccount":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(home, { recursive: true, force: true });
});

/** An in-memory keychain that records what was stored. */
function memoryKeychain(entries: Record<string, StoredCredentials> = {}): Keychain & { sets: number } {
  const store = new Map(Object.entries(entries));
  const keychain = {
    sets: 0,
    get: async (profile: string) => store.get(profile),
    set: async (profile: string, credentials: StoredCredentials) => {
      keychain.sets += 1;
      store.set(profile, credentials);
    },
    remove: async (profile: string) => store.delete(profile),
  };
  return keychain;
}

function context(env: Record<string, string>, globals: GlobalOptions = {}, overrides: Partial<CommandContext> = {}) {
  return testContext(
    undefined,
    { env, now: () => Date.UTC(2026, 0, 1), createApi: (config) => createBrokerApi(config), configFolder: join(home, 'empty'), ...overrides },
    globals,
  );
}

type Run = (ctx: CommandContext) => Promise<number>;
const LIST: Run = (ctx) => runKeysList({ sub: 'desk' }, ctx);
const CREATE: Run = (ctx) => runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }, ctx);
const TRANSFERS =
  (extra: Record<string, string> = {}): Run =>
  (ctx) =>
    runTransfers({ fromType: 'SPOT', toType: 'FUTURES', ...extra }, ctx);

/** The rows are written before the server has a port: BROKER_BASE_URL is filled in when a row runs. */
const env = (over: Record<string, string>): Record<string, string> => ({ BROKER_API_KEY: 'mx0vgoodkey', BROKER_API_SECRET: 's', ...over });
const withBase = (vars: Record<string, string>): Record<string, string> => ({ BROKER_BASE_URL: baseUrl, ...vars });

interface Row {
  name: string;
  run: Run;
  env: Record<string, string>;
  globals?: GlobalOptions;
  line: RegExp;
}

const CRLF = /^error: BROKER_API_KEY: the API key contains a line break \(CR or LF\); it travels in an HTTP header — nothing was sent$/;

const ROWS: Row[] = [
  { name: 'CR-LF in BROKER_API_KEY (keys list)', run: LIST, env: env({ BROKER_API_KEY: 'mx0vabc\r\nX-Injected: 1' }), line: CRLF },
  { name: 'CR-LF in BROKER_API_KEY (keys create: not counted as sent)', run: CREATE, env: env({ BROKER_API_KEY: 'mx0vabc\r\nX-Injected: 1' }), line: CRLF },
  { name: 'CR-LF in BROKER_API_KEY (transfers)', run: TRANSFERS(), env: env({ BROKER_API_KEY: 'mx0vabc\r\nX-Injected: 1' }), line: CRLF },
  { name: 'a lone LF in BROKER_API_KEY', run: CREATE, env: env({ BROKER_API_KEY: 'mx0v\nabc' }), line: CRLF },
  {
    name: 'a tab in BROKER_API_KEY',
    run: LIST,
    env: env({ BROKER_API_KEY: 'mx0v\tabc' }),
    line: /^error: BROKER_API_KEY: the API key contains a control character; it travels in an HTTP header — nothing was sent$/,
  },
  {
    name: 'a space in BROKER_API_KEY',
    run: CREATE,
    env: env({ BROKER_API_KEY: 'mx0v abc' }),
    line: /^error: BROKER_API_KEY: the API key contains a space — nothing was sent$/,
  },
  {
    name: 'non-ASCII in BROKER_API_KEY',
    run: LIST,
    env: env({ BROKER_API_KEY: 'mx0vé' }),
    line: /^error: BROKER_API_KEY: the API key must be printable ASCII \(it travels in an HTTP header\) — nothing was sent$/,
  },
  { name: 'BROKER_BASE_URL not a URL', run: CREATE, env: env({ BROKER_BASE_URL: 'not a url' }), line: /^error: BROKER_BASE_URL: 'not a url' is not a URL/ },
  {
    name: 'BROKER_BASE_URL not http(s)',
    run: LIST,
    env: env({ BROKER_BASE_URL: 'ftp://127.0.0.1' }),
    line: /^error: BROKER_BASE_URL: must start with http:\/\/ or https:\/\//,
  },
  {
    name: 'BROKER_BASE_URL with a password',
    run: CREATE,
    env: env({ BROKER_BASE_URL: 'http://u:p@127.0.0.1' }),
    line: /^error: BROKER_BASE_URL: must not contain a user name or password$/,
  },
  {
    name: 'BROKER_BASE_URL with a query',
    run: LIST,
    env: env({ BROKER_BASE_URL: 'http://127.0.0.1/?x=1' }),
    line: /^error: BROKER_BASE_URL: must not contain a query/,
  },
  {
    name: '--base-url not a URL',
    run: CREATE,
    env: env({}),
    globals: { baseUrl: 'http://exa mple.com' },
    line: /^error: --base-url: 'http:\/\/exa mple\.com' is not a URL/,
  },
  {
    name: '--start before the epoch (a zone east of UTC)',
    run: TRANSFERS({ start: '1970-01-01T00:00+14:00' }),
    env: env({}),
    line: /^error: --start: '1970-01-01T00:00\+14:00' is before 1970-01-01 00:00 UTC/,
  },
  {
    name: '--end before the epoch',
    run: TRANSFERS({ end: '1969-12-31T23:59:59Z' }),
    env: env({}),
    line: /^error: --end: '1969-12-31T23:59:59Z': year before 1970$/,
  },
  { name: '--end before --start', run: TRANSFERS({ start: '2025-12-30', end: '2025-12-29' }), env: env({}), line: /^error: --end: must not be before --start/ },
  {
    name: '--start in the future',
    run: TRANSFERS({ start: '2026-01-02' }),
    env: env({}),
    line: /^error: --start: is in the future \(2026-01-02 00:00:00; now .*\): no transfer can match$/,
  },
  {
    name: '--limit above the page size',
    run: TRANSFERS({ limit: '501' }),
    env: env({}),
    line: /^error: --limit: must be a whole number from 1 to 500 \(got 501\)$/,
  },
  { name: '--limit 0', run: TRANSFERS({ limit: '0' }), env: env({}), line: /^error: --limit: must be a whole number from 1 to 500/ },
  { name: '--page 0', run: TRANSFERS({ page: '0' }), env: env({}), line: /^error: --page: must be a whole number of 1 or more/ },
  { name: '--from-type blank', run: TRANSFERS({ fromType: '  ' }), env: env({}), line: /^error: --from-type: required \(e\.g\. SPOT, FUTURES\)$/ },
  {
    name: '--to-type with a digit',
    run: TRANSFERS({ toType: 'FUTURES1' }),
    env: env({}),
    line: /^error: --to-type: 'FUTURES1' is not an account type \(letters and _ only, e\.g\. SPOT, FUTURES\)$/,
  },
  {
    name: '--to-type two edits from FUTURES',
    run: TRANSFERS({ toType: 'FUTUR' }),
    env: env({}),
    line: /^error: --to-type: 'FUTUR' is not a known account type: did you mean FUTURES\?$/,
  },
  {
    name: '--from-type a swap from SPOT',
    run: TRANSFERS({ fromType: 'SOPT' }),
    env: env({}),
    line: /^error: --from-type: 'SOPT' is not a known account type: did you mean SPOT\?$/,
  },
  {
    name: '--permissions one edit from a known one (keys create: nothing sent, nothing audited)',
    run: (ctx) => runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACOUNT_READ', note: 'n' }, ctx),
    env: env({}),
    line: /^error: --permissions: 'SPOT_ACOUNT_READ' is not a known permission: did you mean SPOT_ACCOUNT_READ\?$/,
  },
  {
    name: '--note with a right-to-left override (keys create: nothing sent, nothing audited)',
    run: (ctx) => runKeysCreate({ allowRisky: true, sub: 'desk', permissions: 'SPOT_ACCOUNT_READ', note: 'tax\u202etxt.exe' }, ctx),
    env: env({}),
    line: /^error: --note: must not contain invisible or text-direction characters \(found U\+202E\): the note would read differently than it is$/,
  },
  {
    name: 'sub-accounts --discover --sub with commas and no name (an optional list, so not "required")',
    run: (ctx) => runSubAccounts({ discover: true, sub: ' , ,' }, ctx),
    env: env({}),
    line: /^error: --sub: no name in the list \(give --sub A,B\)$/,
  },
  {
    name: 'an epoch in seconds',
    run: TRANSFERS({ start: '1700000000' }),
    env: env({}),
    line: /^error: --start: '1700000000' looks like epoch seconds; give milliseconds \(1700000000000\)$/,
  },
];

describe('bad input: exit 2, one line naming what is wrong, nothing sent', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const before = seen;
    const { ctx, out, err } = context(withBase(row.env), row.globals);
    expect(await row.run(ctx), err.text()).toBe(EXIT.usage);
    const lines = err.text().trimEnd().split('\n');
    expect(lines, err.text()).toHaveLength(1);
    expect(lines[0]).toMatch(row.line);
    expect(out.text()).toBe('');
    expect(seen - before).toBe(0);
    // The key given is never echoed (it may be a real one with a pasted line break).
    expect(err.text()).not.toContain('X-Injected');
  });

  it('the environment check names the variable for every caller of credentialsFromEnvironment', () => {
    const result = credentialsFromEnvironment({ BROKER_API_KEY: 'a\r\nb', BROKER_API_SECRET: 's', BROKER_BASE_URL: baseUrl });
    expect(result).toEqual({ ok: false, message: 'BROKER_API_KEY: the API key contains a line break (CR or LF); it travels in an HTTP header' });
  });
});

describe('bad input from profiles and the keychain', () => {
  it('a keychain entry whose API key holds CR-LF: exit 2, the profile named, nothing sent', async () => {
    const folder = mkdtempSync(join(home, 'profiles-'));
    await saveProfile(folder, { name: 'desk', baseUrl, apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' }, { makeDefault: true });
    const keychain = memoryKeychain({ [keychainAccount('desk', folder)]: { apiKey: 'mx0v\r\nabc', secretKey: 's' } });
    for (const run of [LIST, CREATE]) {
      const before = seen;
      const { ctx, err } = context({}, {}, { configFolder: folder, keychain: async () => keychain });
      expect(await run(ctx)).toBe(EXIT.usage);
      expect(err.text()).toBe(
        "error: profile 'desk': the API key contains a line break (CR or LF); it travels in an HTTP header (in its keychain entry) — nothing was sent; add the profile again\n",
      );
      expect(seen - before).toBe(0);
    }
  });

  it.each([
    [
      'a CR inside the API key',
      'mx0v\rabc\nsecret\n',
      /^error: the API key contains a line break \(CR or LF\); it travels in an HTTP header; nothing was saved$/,
    ],
    ['a space inside the API key', 'mx0v abc\nsecret\n', /^error: the API key contains a space; nothing was saved$/],
    ['a non-ASCII API key', 'mx0vé\nsecret\n', /^error: the API key must be printable ASCII/],
  ])('profile add with %s: exit 2, nothing stored', async (_name, stdin, line) => {
    const folder = mkdtempSync(join(home, 'add-'));
    const keychain = memoryKeychain();
    const input = new PassThrough();
    input.end(stdin);
    const { ctx, err } = context({}, { baseUrl }, { configFolder: folder, keychain: async () => keychain, stdin: input });
    expect(await runProfileAdd('desk', {}, ctx)).toBe(EXIT.usage);
    expect(err.text().trimEnd().split('\n')).toHaveLength(1);
    expect(err.text().trimEnd()).toMatch(line);
    expect(keychain.sets).toBe(0);
  });

  it('profile add with a header name that cannot be one: exit 2 before anything is read', async () => {
    const keychain = memoryKeychain();
    const { ctx, err } = context({}, { baseUrl }, { configFolder: mkdtempSync(join(home, 'hdr-')), keychain: async () => keychain });
    expect(await runProfileAdd('desk', { apiKeyHeader: 'X-Key\r\nInjected: 1' }, ctx)).toBe(EXIT.usage);
    expect(err.text()).toMatch(/^error: --api-key-header: 'X-Key\?\?Injected: 1' is not an HTTP header name/);
    expect(keychain.sets).toBe(0);
  });
});

describe('bad input through the command line', () => {
  it.each([
    [
      'CR-LF in BROKER_API_KEY, keys create',
      ['keys', 'create', '--allow-risky', '--sub', 'desk', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'n'],
      { BROKER_API_KEY: 'mx0v\r\nabc' },
      CRLF,
    ],
    ['CR-LF in BROKER_API_KEY, keys list', ['keys', 'list', '--sub', 'desk'], { BROKER_API_KEY: 'mx0v\r\nabc' }, CRLF],
    [
      '--start before the epoch',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--start', '1970-01-01T00:00+14:00'],
      {},
      /^error: --start: .* is before 1970-01-01 00:00 UTC/,
    ],
    [
      'a local date before the epoch east of UTC',
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--start', '1970-01-01'],
      { TZ: 'Asia/Tokyo' },
      /^error: --start: '1970-01-01' is before 1970-01-01 00:00 UTC/,
    ],
    ['--recv-window above 60000', ['--recv-window', '60001', 'keys', 'list', '--sub', 'desk'], {}, /--recv-window/],
    ['--timeout 0', ['--timeout', '0', 'keys', 'list', '--sub', 'desk'], {}, /--timeout/],
  ] as const)('%s', async (_name, args, extra, line) => {
    const before = seen;
    // A zone other than this process's needs a process of its own (Date and Intl read the process's TZ).
    const run = 'TZ' in extra ? runBuiltCli : runCli;
    const result = await run([...args], { ...withBase(env({})), BROKER_CONSOLE_HOME: join(home, 'bin-home'), ...extra });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')[0]).toMatch(line);
    expect(seen - before).toBe(0);
  });
});

/** Each option that takes a value, of the program and of every command, with the command line it goes on. */
function valueFlags(): { flag: string; args: string[] }[] {
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, stdoutIsTTY: false, stderrIsTTY: false };
  const program = buildProgram(
    io,
    () => ({}) as CommandContext,
    () => undefined,
  );
  // Words a command needs before its flags are read (commander reads the flags first all the same).
  const before: Record<string, string[]> = { 'profile add': ['desk'] };
  const rows: { flag: string; args: string[] }[] = [];
  const visit = (command: CommandUnknownOpts, path: string[]): void => {
    for (const option of command.options) {
      if (!option.required && !option.optional) continue;
      const flag = option.long ?? option.flags;
      rows.push({ flag, args: path.length === 0 ? [flag, '', 'keys', 'list', '--sub', 'desk'] : [...path, ...(before[path.join(' ')] ?? []), flag, ''] });
    }
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return rows;
}

describe('an empty flag value is a usage error, never "not given"', () => {
  const rows = valueFlags();

  it('the walk reaches the flags that choose where requests go and what is sent', () => {
    const names = rows.map((r) => `${r.args.slice(0, r.args.indexOf(r.flag)).join(' ')} ${r.flag}`.trim());
    for (const expected of ['--base-url', '--profile', '--proxy', '--log-file', '--recv-window', '--timeout', '--demo-clock'])
      expect(names).toContain(expected);
    for (const expected of [
      'keys create --ip',
      'transfers --start',
      'transfers --end',
      'transfers --limit',
      'transfers --client-tran-id',
      'transfers --from-account',
      'sandbox --host',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(rows.flatMap((r) => ['', '  '].map((value) => [`${r.args.join(' ')} (value ${JSON.stringify(value)})`, r.flag, r.args, value] as const)))(
    '%s: exit 2, one line naming the flag, nothing sent',
    async (_name, flag, args, value) => {
      const before = seen;
      const given = args.map((a, i) => (i === args.indexOf(flag) + 1 ? value : a));
      const result = await runCli(given, { ...withBase(env({})), BROKER_CONSOLE_HOME: join(home, 'empty-flags') });
      expect(result.code, result.stderr).toBe(EXIT.usage);
      expect(result.stderr).toBe(`error: ${flag}: empty value: give one, or leave the flag out\n`);
      expect(result.stdout).toBe('');
      expect(seen - before).toBe(0);
    },
  );

  it.each([
    ['--base-url', ['--base-url=', 'keys', 'list', '--sub', 'desk']],
    ['--format', ['keys', 'list', '--sub', 'desk', '-o', '']],
    ['--ip', ['keys', 'create', '--allow-risky', '--sub', 'desk', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'n', '--ip= ']],
  ] as const)('%s written as --flag= or by its short name (%j): the same line, nothing sent', async (flag, args) => {
    const before = seen;
    const result = await runCli([...args], { ...withBase(env({})), BROKER_CONSOLE_HOME: join(home, 'empty-flags') });
    expect(result.code, result.stderr).toBe(EXIT.usage);
    expect(result.stderr).toBe(`error: ${flag}: empty value: give one, or leave the flag out\n`);
    expect(seen - before).toBe(0);
  });

  it('the built binary: --base-url "" with BROKER_BASE_URL set sends nothing there (keys create)', async () => {
    const before = seen;
    const result = await runBuiltCli(
      ['--base-url', '', 'keys', 'create', '--sub', 'desk', '--permissions', 'SPOT_ACCOUNT_READ', '--ip', '127.0.0.1', '--note', 'n'],
      {
        ...withBase(env({})),
        BROKER_CONSOLE_HOME: join(home, 'empty-base-url'),
      },
    );
    expect(result.code, result.stderr).toBe(EXIT.usage);
    expect(result.stderr).toBe('error: --base-url: empty value: give one, or leave the flag out\n');
    expect(result.stdout).toBe('');
    expect(seen - before).toBe(0);
  });
});
