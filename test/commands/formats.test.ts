// One output flag: `--format table|json|csv` on every command that prints data, `--json` short for json.
// The JSON shapes are a contract scripts rely on (docs/commands.md, "Output formats"): each is pinned here, field by
// field, in order, with its types; the CSV headers too. Run in-process against a real sandbox.
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { runKeysList } from '../../src/commands/keysList';
import { runProfileList } from '../../src/commands/profile';
import { runTransfers } from '../../src/commands/transfers';
import { saveProfile } from '../../src/credentials/profiles';
import type { RunningSandbox } from '../../src/sandbox/types';
import { requestCount, runCli, sandboxEnv, testContext } from './helpers';
import { parseCsv } from './hostile';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 31, rateLimit: { max: 100_000, windowMs: 1000 } });
  home = mkdtempSync(join(tmpdir(), 'bc-formats-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

/** Every field's type, in the object's own key order: the shape a script sees. */
function shape(value: Record<string, unknown>): [string, string][] {
  return Object.entries(value).map(([k, v]) => [
    k,
    Array.isArray(v) ? `${v.every((x) => typeof x === 'string') ? 'string' : 'mixed'}[]` : v === null ? 'null' : typeof v,
  ]);
}

async function subWithKeys(): Promise<string> {
  for (const sub of sandbox.subAccounts) {
    const { ctx, out } = testContext(sandbox);
    await runKeysList({ sub, format: 'json' }, ctx);
    if ((JSON.parse(out.text()) as unknown[]).length > 1) return sub;
  }
  throw new Error('no seeded sub-account has two keys');
}

const KEY_SHAPE = [
  ['note', 'string'],
  ['apiKey', 'string'],
  ['permissions', 'string[]'],
  ['ips', 'string[]'],
  ['createdAt', 'number'],
];

describe('keys list', () => {
  it('--format json: an array of {note, apiKey, permissions[], ips[], createdAt (ms)}; --json is the same bytes', async () => {
    const sub = await subWithKeys();
    const long = testContext(sandbox);
    expect(await runKeysList({ sub, format: 'json' }, long.ctx)).toBe(EXIT.ok);
    const keys = JSON.parse(long.out.text()) as Record<string, unknown>[];
    expect(keys.length).toBeGreaterThan(1);
    for (const key of keys) expect(shape(key)).toEqual(KEY_SHAPE);
    const short = testContext(sandbox);
    expect(await runKeysList({ sub, json: true }, short.ctx)).toBe(EXIT.ok);
    expect(short.out.text()).toBe(long.out.text());
    const upper = testContext(sandbox);
    expect(await runKeysList({ sub, format: ' JSON ' }, upper.ctx)).toBe(EXIT.ok);
    expect(upper.out.text()).toBe(long.out.text());
  });

  it('--format csv: header note,apiKey,permissions,ips,createdAt; one record a key, lists comma-joined in one cell', async () => {
    const sub = await subWithKeys();
    const json = testContext(sandbox);
    await runKeysList({ sub, format: 'json' }, json.ctx);
    const keys = JSON.parse(json.out.text()) as { note: string; apiKey: string; permissions: string[]; ips: string[]; createdAt: number }[];
    const csv = testContext(sandbox);
    expect(await runKeysList({ sub, format: 'csv' }, csv.ctx)).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(csv.out.text());
    expect(header).toEqual(['note', 'apiKey', 'permissions', 'ips', 'createdAt']);
    expect(rows).toEqual(keys.map((k) => [k.note, k.apiKey, k.permissions.join(','), k.ips.join(','), String(k.createdAt)]));
  });

  it('an unknown format, or --json with another --format: exit 2, nothing sent', async () => {
    const sub = await subWithKeys();
    const before = requestCount(sandbox);
    let t = testContext(sandbox);
    expect(await runKeysList({ sub, format: 'xml' }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toBe("error: --format: must be table, json or csv (got 'xml')\n");
    t = testContext(sandbox);
    expect(await runKeysList({ sub, format: 'csv', json: true }, t.ctx)).toBe(EXIT.usage);
    expect(t.err.text()).toBe('error: --json is short for --format json: it cannot go with --format csv\n');
    expect(requestCount(sandbox)).toBe(before);
  });
});

describe('keys create', () => {
  const CREATED_SHAPE = [
    ['subAccount', 'string'],
    ['note', 'string'],
    ['apiKey', 'string'],
    ['secretKey', 'string'],
    ['permissions', 'string[]'],
    ['ips', 'string[]'],
    ['createdAt', 'number'],
  ];

  it('--format json (and --json): one line, one object {subAccount, note, apiKey, secretKey, permissions[], ips[], createdAt}', async () => {
    const sub = sandbox.subAccounts[1] ?? '';
    for (const options of [{ format: 'json' }, { json: true }] as const) {
      const t = testContext(sandbox);
      expect(await runKeysCreate({ sub, permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_READ', ip: '10.0.0.1,10.0.0.2', note: 'shape', ...options }, t.ctx)).toBe(
        EXIT.ok,
      );
      const lines = t.out.text().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe('');
      const key = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
      expect(shape(key)).toEqual(CREATED_SHAPE);
      expect(key).toMatchObject({ subAccount: sub, note: 'shape', permissions: ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_READ'], ips: ['10.0.0.1', '10.0.0.2'] });
    }
  });

  it('--format csv: the header and one record, the secret whole', async () => {
    const sub = sandbox.subAccounts[1] ?? '';
    const t = testContext(sandbox);
    expect(await runKeysCreate({ sub, permissions: 'SPOT_ACCOUNT_READ', ip: '10.0.0.3', note: '=csv, "quoted"', format: 'csv' }, t.ctx)).toBe(EXIT.ok);
    const records = parseCsv(t.out.text());
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(['subAccount', 'note', 'apiKey', 'secretKey', 'permissions', 'ips', 'createdAt']);
    const [subAccount, note, apiKey, secretKey, permissions, ips, createdAt] = records[1] ?? [];
    expect([subAccount, note, permissions, ips]).toEqual([sub, `'=csv, "quoted"`, 'SPOT_ACCOUNT_READ', '10.0.0.3']);
    expect(apiKey).toMatch(/^mx0v\w+$/);
    expect((secretKey ?? '').length).toBeGreaterThanOrEqual(16);
    expect(createdAt).toMatch(/^\d{13}$/);
  });

  it('a bad --format is refused before the key is created (exit 2, nothing sent)', async () => {
    const before = requestCount(sandbox);
    const t = testContext(sandbox);
    expect(await runKeysCreate({ allowRisky: true, sub: sandbox.subAccounts[1], permissions: 'SPOT_ACCOUNT_READ', note: 'n', format: 'yaml' }, t.ctx)).toBe(
      EXIT.usage,
    );
    expect(requestCount(sandbox)).toBe(before);
  });
});

describe('profile list', () => {
  const PROFILE_SHAPE = [
    ['name', 'string'],
    ['default', 'boolean'],
    ['baseUrl', 'string'],
    ['apiKeyHeader', 'string'],
    ['recvWindow', 'number'],
    ['postSignature', 'string'],
    ['readOnly', 'boolean'],
    ['apiKey', 'string'],
    ['secret', 'string'],
    ['secretNote', 'string'],
    // Added after the shape was documented: at the end, as the stability rule says.
    ['proxy', 'string'],
    ['color', 'string'],
  ];

  it('--format json: an array of {name, default, baseUrl, apiKeyHeader, recvWindow, postSignature, readOnly, apiKey, secret, secretNote, proxy, color}; csv has the same columns', async () => {
    const config = join(home, 'profiles-config');
    await saveProfile(config, { name: 'prod', baseUrl: 'https://api.example.com', apiKeyHeader: 'X-MEXC-APIKEY', recvWindow: 5000, postSignature: 'auto' });
    await saveProfile(config, {
      name: 'lab',
      baseUrl: 'http://127.0.0.1:9',
      apiKeyHeader: 'X-Other',
      recvWindow: 9000,
      postSignature: 'query',
      readOnly: true,
      color: 'cyan',
    });
    // Environment credentials: the list says so and never opens the keychain.
    const env = { BROKER_API_KEY: 'mx0venvironmentkey', BROKER_API_SECRET: 'x' };
    const noKeychain = () => Promise.reject(new Error('the keychain was opened'));
    const json = testContext(undefined, { env, configFolder: config, keychain: noKeychain });
    expect(await runProfileList({ format: 'json' }, json.ctx)).toBe(EXIT.ok);
    const listed = JSON.parse(json.out.text()) as Record<string, unknown>[];
    expect(listed.map(shape)).toEqual([PROFILE_SHAPE, PROFILE_SHAPE]);
    expect(listed[0]?.readOnly).toBe(false);
    expect(listed[1]).toEqual({
      name: 'lab',
      default: false,
      baseUrl: 'http://127.0.0.1:9',
      apiKeyHeader: 'X-Other',
      recvWindow: 9000,
      postSignature: 'query',
      readOnly: true,
      proxy: '',
      apiKey: 'mx0v…tkey',
      secret: 'environment',
      secretNote: 'environment (BROKER_API_KEY/SECRET set)',
      color: 'cyan',
    });
    const short = testContext(undefined, { env, configFolder: config, keychain: noKeychain });
    expect(await runProfileList({ json: true }, short.ctx)).toBe(EXIT.ok);
    expect(short.out.text()).toBe(json.out.text());

    const csv = testContext(undefined, { env, configFolder: config, keychain: noKeychain });
    expect(await runProfileList({ format: 'csv' }, csv.ctx)).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(csv.out.text());
    expect(header).toEqual(PROFILE_SHAPE.map(([k]) => k));
    expect(rows).toEqual(listed.map((p) => Object.values(p).map(String)));
  });
});

describe('transfers', () => {
  const TRANSFER_SHAPE = [
    ['tranId', 'string'],
    ['fromAccount', 'string'],
    ['toAccount', 'string'],
    ['clientTranId', 'string'],
    ['asset', 'string'],
    ['amount', 'string'],
    ['fromAccountType', 'string'],
    ['toAccountType', 'string'],
    ['fromSymbol', 'string'],
    ['toSymbol', 'string'],
    ['status', 'string'],
    ['timestamp', 'number'],
  ];
  const query = { fromType: 'SPOT', toType: 'FUTURE', limit: '20' };

  it('--format json: an array of transfers, each these twelve fields in order (amount a string, timestamp ms); --json the same bytes', async () => {
    const long = testContext(sandbox);
    expect(await runTransfers({ ...query, format: 'json' }, long.ctx)).toBe(EXIT.ok);
    const rows = JSON.parse(long.out.text()) as Record<string, unknown>[];
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(shape(row)).toEqual(TRANSFER_SHAPE);
    // Through the command line: --json is short for --format json.
    const env = sandboxEnv(sandbox);
    const [viaFormat, viaJson] = await Promise.all([
      runCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '20', '--format', 'json'], env),
      runCli(['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '20', '--json'], env),
    ]);
    expect(viaFormat.code).toBe(0);
    expect(viaJson.code).toBe(0);
    expect(viaJson.stdout).toBe(viaFormat.stdout);
    expect(JSON.parse(viaJson.stdout)).toEqual(rows);
  });

  it('-o is short for --format on every command that has --format: the same bytes', async () => {
    const env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: join(home, 'dash-o') };
    const base = ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--limit', '5'];
    const [long, short, joined] = await Promise.all([
      runCli([...base, '--format', 'csv'], env),
      runCli([...base, '-o', 'csv'], env),
      runCli([...base, '-ocsv'], env),
    ]);
    expect(long.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
    expect(joined.stdout).toBe(long.stdout);
    for (const args of [
      ['keys', 'list', '--sub', 'x'],
      ['keys', 'create', '--allow-risky', '--sub', 'x', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'n'],
      ['keys', 'audit', '--sub', 'x'],
      ['profile', 'list'],
      ['audit'],
      ['sub-accounts'],
    ]) {
      // A bad value through -o is refused as --format's is: proof that -o is that flag, nothing sent.
      const before = requestCount(sandbox);
      const r = await runCli([...args, '-o', 'xml'], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/--format/);
      expect(requestCount(sandbox)).toBe(before);
    }
  });

  it('--format csv: the header is the same twelve fields', async () => {
    const t = testContext(sandbox);
    expect(await runTransfers({ ...query, format: 'csv' }, t.ctx)).toBe(EXIT.ok);
    const [header, ...rows] = parseCsv(t.out.text());
    expect(header).toEqual(TRANSFER_SHAPE.map(([k]) => k));
    expect(rows).toHaveLength(20);
  });

  it('the command line: --json with --format csv is a usage error on every command (exit 2, nothing sent)', async () => {
    const before = requestCount(sandbox);
    const env = { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: join(home, 'none') };
    for (const args of [
      ['transfers', '--from-type', 'SPOT', '--to-type', 'FUTURE', '--json', '--format', 'csv'],
      ['keys', 'list', '--sub', 'x', '--json', '--format', 'csv'],
      ['keys', 'create', '--allow-risky', '--sub', 'x', '--permissions', 'SPOT_ACCOUNT_READ', '--note', 'n', '--format', 'csv', '--json'],
      ['profile', 'list', '--format', 'table', '--json'],
    ]) {
      const r = await runCli(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^error: --json is short for --format json: it cannot go with --format (csv|table)\n$/);
    }
    expect(requestCount(sandbox)).toBe(before);
  });
});
