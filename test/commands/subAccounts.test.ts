// `sub-accounts [--discover] [--days N] [--sub A,B]`: the remembered sub-accounts per base URL, a scan against
// the sandbox first with --discover (a 429 met once in the middle), the formats, and bad input (exit 2, nothing sent).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runSubAccounts, SUB_ACCOUNT_CSV_COLUMNS } from '../../src/commands/subAccounts';
import { openDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { spawn } from 'node:child_process';
import { rateLimitAt } from '../export/rateLimitAt';
import { buildCli, runCli, sandboxEnv, testContext } from './helpers';
import type { OnFinished } from '../sandbox/helpers';
import { FROZEN_SUB_ACCOUNT, demoSubAccountNames } from '../../src/sandbox/seedAccounts';
import { DEMO_SEED } from '../../src/commands/demoRun';
import { ownSandbox } from '../sandbox/helpers';

let root: string;
let n = 0;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'broker-sub-accounts-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/**
 * A sandbox and a config folder of this test's own: the tests run at the same time, and each counts the
 * requests its sandbox received and reads what its folder remembers.
 */
async function setup(onTestFinished: OnFinished) {
  // A 429 at the 61st request (below) teaches the pacer under 60 a second, under this limit of 120.
  const sandbox = await ownSandbox({ seed: 5, rateLimit: { max: 120, windowMs: 1000 } });
  onTestFinished(() => sandbox.close());
  const folder = join(root, String(++n));
  const run = (options: Parameters<typeof runSubAccounts>[0], stdoutIsTTY = false) => {
    const t = testContext(sandbox, { configFolder: folder, stdoutIsTTY, createApi: (config) => createBrokerApi(config) });
    return { ...t, done: runSubAccounts(options, t.ctx) };
  };
  return { sandbox, folder, run };
}

// Concurrent, and with the interrupted scan below: the 429's Retry-After and the slow sandbox's latency overlap.
describe.concurrent('sub-accounts', () => {
  it('--discover scans every known name (a 429 met once, part way), remembers them per base URL, prints JSON', async ({ onTestFinished }) => {
    const { sandbox, folder, run } = await setup(onTestFinished);
    const before = sandbox.requests().length;
    const [a, b, ...rest] = sandbox.subAccounts as [string, string, ...string[]];
    // Names known from before: a remembered one; the others are given with --sub.
    await (await openDiscoveredSubAccounts(folder, sandbox.baseUrl)).note([{ name: a, lastTransferTime: 1 }]);
    sandbox.queueFaults(...rateLimitAt(61));
    const { out, err, done } = run({ discover: true, days: '30', sub: [b, ...rest].join(','), json: true });
    expect(await done).toBe(EXIT.ok);
    expect(err.text()).toBe('');
    const listed = JSON.parse(out.text()) as Array<{ name: string; lastTransferTime: number }>;
    expect(listed.map((e) => Object.keys(e))).toEqual(listed.map(() => ['name', 'lastTransferTime']));
    expect(listed.map((e) => e.name).sort()).toEqual([...sandbox.subAccounts].sort());
    expect(listed.map((e) => e.lastTransferTime)).toEqual([...listed.map((e) => e.lastTransferTime)].sort((x, y) => y - x));
    expect(listed.every((e) => e.lastTransferTime > Date.now() - 30 * 86_400_000)).toBe(true);
    const statuses = sandbox
      .requests()
      .slice(before)
      .map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.indexOf(429)).toBe(60);
    expect(statuses.length).toBeGreaterThan(100);
    // Remembered for this base URL, with the scan's time; another target sees none of it.
    const store = await openDiscoveredSubAccounts(folder, sandbox.baseUrl);
    expect(store.list()).toEqual(listed);
    expect(store.scannedAt()).toBeGreaterThan(0);
    expect((await openDiscoveredSubAccounts(folder, 'demo')).list()).toEqual([]);

    // Without --discover: the remembered list, nothing sent; as a table and as CSV.
    const sent = sandbox.requests().length;
    const table = run({});
    expect(await table.done).toBe(EXIT.ok);
    const lines = table.out.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^name +last transfer$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(listed.map((e) => e.name));
    const csv = run({ format: 'csv' });
    expect(await csv.done).toBe(EXIT.ok);
    const records = csv.out
      .text()
      .split('\r\n')
      .filter((l) => l !== '');
    expect(records[0]).toBe(SUB_ACCOUNT_CSV_COLUMNS.join(','));
    expect(records.slice(1)).toEqual(listed.map((e) => `${e.name},${e.lastTransferTime}`));
    expect(sandbox.requests().length).toBe(sent);
    // The pace a 429 teaches follows how fast the requests before it went: on a loaded machine it is slower.
  }, 45_000);

  it("--demo --discover scans the demo's own names, as the console does", async () => {
    const ran = await runCli(['--demo', 'sub-accounts', '--discover', '--days', '7', '--json']);
    expect(ran.code).toBe(EXIT.ok);
    const found = (JSON.parse(ran.stdout) as Array<{ name: string }>).map((e) => e.name);
    expect(found.length).toBeGreaterThan(5);
    for (const name of found) expect(demoSubAccountNames(DEMO_SEED)).toContain(name);
  }, 45_000);

  it('--discover names the names the service refused, skipped, on stderr; the rest are scanned', async ({ onTestFinished }) => {
    const { sandbox, run } = await setup(onTestFinished);
    const [known] = sandbox.subAccounts as [string];
    const { out, err, done } = run({ discover: true, days: '30', sub: `${FROZEN_SUB_ACCOUNT},${known}`, json: true });
    expect(await done).toBe(EXIT.ok);
    expect(err.text()).toBe(`note: the service refused 1 name (unknown or frozen), skipped: ${FROZEN_SUB_ACCOUNT}\n`);
    expect((JSON.parse(out.text()) as Array<{ name: string }>).map((e) => e.name)).toContain(known);
  });

  it('says so when nothing is remembered, and a scan with no names finds only the master (never listed)', async ({ onTestFinished }) => {
    const { sandbox, run } = await setup(onTestFinished);
    const empty = run({});
    expect(await empty.done).toBe(EXIT.ok);
    expect(empty.out.text()).toBe('no sub-accounts remembered yet: run `broker-console sub-accounts --discover`\n');
    const before = sandbox.requests().length;
    const scanned = run({ discover: true, days: '3', json: true });
    expect(await scanned.done).toBe(EXIT.ok);
    expect(JSON.parse(scanned.out.text())).toEqual([]);
    // master→master in each of the four account-type pairs: nothing else to ask.
    expect(sandbox.requests().length - before).toBe(4);
  });

  it.for([
    [{ discover: true, days: '0' }, "error: --days: a whole number from 1 to 365 (got '0')"],
    [{ discover: true, days: '366' }, "error: --days: a whole number from 1 to 365 (got '366')"],
    [{ discover: true, days: '7d' }, "error: --days: a whole number from 1 to 365 (got '7d')"],
    [{ days: '7' }, 'error: --days goes with --discover'],
    [{ sub: 'a' }, 'error: --sub goes with --discover'],
    [{ discover: true, sub: 'ok01,bad name' }, "error: --sub: must not contain spaces ('bad name')"],
    [{ format: 'xml' }, "error: --format: must be table, json or csv (got 'xml')"],
  ] as const)('%j is refused with exit 2, nothing sent', async ([options, message], { onTestFinished }) => {
    const { sandbox, run } = await setup(onTestFinished);
    const before = sandbox.requests().length;
    const { err, out, done } = run(options);
    expect(await done).toBe(EXIT.usage);
    expect(err.text()).toContain(message);
    expect(out.text()).toBe('');
    expect(sandbox.requests().length).toBe(before);
  });

  it('a hostile remembered name is sanitised on a terminal and neutralised in CSV', async ({ onTestFinished }) => {
    const { sandbox, folder, run } = await setup(onTestFinished);
    // Controls never reach the store (a name must be one the field accepts as typed); a formula and an
    // invisible character can.
    const hostile = '=cmd|calc!A1\u200b';
    await (
      await openDiscoveredSubAccounts(folder, sandbox.baseUrl)
    ).note([
      { name: hostile, lastTransferTime: 5 },
      { name: '=cmd|\u001b]52;c;aGk=\u0007', lastTransferTime: 6 },
    ]);
    const table = run({}, true);
    expect(await table.done).toBe(EXIT.ok);
    expect(table.out.text()).toContain('=cmd|calc!A1<U+200B>');
    expect(table.out.text()).not.toMatch(/\u001b|\u0007|\u200b/);
    const csv = run({ format: 'csv' });
    expect(await csv.done).toBe(EXIT.ok);
    expect(csv.out.text()).toContain(`'${hostile},5`);
    expect(readFileSync(join(folder, 'discovered-sub-accounts.json'), 'utf8')).not.toContain('\\u001b');
  });
});

describe.concurrent('sub-accounts --discover, interrupted', () => {
  it('Ctrl-C stops the scan, remembers what was found so far, says how many, and exits 130', async () => {
    const bin = await buildCli();
    const slow = await ownSandbox({ seed: 5, rateLimit: { max: 1_000_000, windowMs: 1000 } });
    const home = mkdtempSync(join(tmpdir(), 'broker-sub-accounts-int-'));
    try {
      // Slow answers: the whole scan would take many seconds; Ctrl-C comes after a few queries.
      slow.setFaultRates({ latencyMs: 120 });
      const child = spawn(process.execPath, [bin, 'sub-accounts', '--discover', '--sub', slow.subAccounts.join(',')], {
        env: { PATH: process.env.PATH ?? '', TZ: 'UTC', BROKER_CONSOLE_HOME: home, ...sandboxEnv(slow) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // After the first name queries have answered (master→master for the four pairs comes first).
      const start = Date.now();
      while (slow.requests().filter((r) => new URLSearchParams(r.query).get('fromAccount') !== null).length < 6 && Date.now() - start < 15_000)
        await new Promise((r) => setTimeout(r, 20));
      const sentBefore = slow.requests().length;
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      const said = /interrupted: (\d+) sub-accounts? found so far (?:was|were) remembered/.exec(stderr);
      expect(said, stderr).not.toBeNull();
      // Nothing more was asked after the interrupt than the query in flight, and one an answer let go before the
      // signal reached the process (a loaded machine may run it late).
      expect(slow.requests().length - sentBefore).toBeLessThanOrEqual(2);
      const store = await openDiscoveredSubAccounts(home, slow.baseUrl);
      expect(store.list()).toHaveLength(Number(said![1]));
      expect(Number(said![1])).toBeGreaterThan(0);
      expect(store.list().length).toBeLessThan(slow.subAccounts.length);
      // A stopped scan is not a whole one: no scan time.
      expect(store.scannedAt()).toBeUndefined();
    } finally {
      await slow.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 30_000);
});
