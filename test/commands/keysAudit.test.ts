// keys audit, in-process against a real sandbox over 127.0.0.1: keys made with the real create operation,
// every format, exit 4 and --fail-on, bad flags (exit 2, nothing sent), an unknown sub-account among several,
// the recent and discovered stores, a failure that stops the rest, and a 429 in the middle.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import type { BrokerApi } from '../../src/api/contract';
import { DAY_MS } from '../../src/api/timeInput';
import { FLAG_KINDS } from '../../src/audit/keyAudit';
import { openDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { createAuditRecorder } from '../../src/config/auditTrail';
import { openRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { EXIT } from '../../src/commands/context';
import { AUDIT_CSV_COLUMNS, type AuditJson, parseFailOn, runKeysAudit } from '../../src/commands/keysAudit';
import type { RunningSandbox } from '../../src/sandbox/types';
import { parseCsv } from './hostile';
import { requestCount, testContext } from './helpers';
import { type OnFinished, sandboxFor, ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let api: BrokerApi;
let folder: string;
/** A sub-account seeded empty, given three keys here: one with every flag but age, its note twin, a clean one. */
let audited = '';
let worstKey = '';
let twinKey = '';
let cleanKey = '';
/** Another seeded sub-account with keys. */
let other = '';

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 7, rateLimit: { max: 100_000, windowMs: 1000 } });
  api = createBrokerApi({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
  folder = await mkdtemp(join(tmpdir(), 'bc-keys-audit-'));
  for (const name of sandbox.subAccounts) {
    const keys = await api.listSubAccountKeys(name);
    if (keys.length === 0 && audited === '') audited = name;
    else if (keys.length > 0 && other === '') other = name;
  }
  const worstRequest = {
    subAccount: audited,
    permissions: ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE', 'SPOT_WITHDRAW_WRITE', 'SPOT_TRANSFER_WRITE'],
    note: 'ops bot',
  };
  const worst = await api.createSubAccountKey(worstRequest);
  worstKey = worst.apiKey;
  // Its secret never reached the operator, as the trail of this folder says (keys create to a pipe that broke).
  const trail = createAuditRecorder(folder, { profile: 'environment', host: new URL(sandbox.baseUrl).host });
  expect(await trail(worstRequest, { created: worst, secret: 'not-delivered', reason: 'stdout: EPIPE' })).toBe(true);
  twinKey = (await api.createSubAccountKey({ subAccount: audited, permissions: ['SPOT_ACCOUNT_READ'], ips: ['10.0.0.1'], note: 'OPS  bot ' })).apiKey;
  cleanKey = (
    await api.createSubAccountKey({
      subAccount: audited,
      permissions: ['SPOT_ACCOUNT_READ', 'SPOT_WITHDRAW_READ'],
      ips: ['10.0.0.2', '2001:db8::1'],
      note: 'reporting',
    })
  ).apiKey;
});
afterAll(async () => {
  await api?.close();
  await sandbox?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/**
 * A sandbox of this test's own (the same seeded sub-accounts, none of the keys made above): the tests run at
 * the same time, so one that counts the requests sent or queues a fault must not share the sandbox.
 */
const sandboxOfTest = (onTestFinished: OnFinished): Promise<RunningSandbox> =>
  sandboxFor(onTestFinished, { seed: 7, rateLimit: { max: 100_000, windowMs: 1000 } });

/** A context whose "now" is `laterDays` after the real clock (the sandbox makes keys at its own now). */
function context(laterDays = 0, target = sandbox) {
  return testContext(target, { configFolder: folder, now: () => Date.now() + laterDays * DAY_MS });
}

async function auditJson(
  options: Parameters<typeof runKeysAudit>[0],
  laterDays = 0,
  target = sandbox,
): Promise<{ code: number; json: AuditJson; err: string }> {
  const { ctx, out, err } = context(laterDays, target);
  const code = await runKeysAudit({ ...options, format: 'json' }, ctx);
  return { code, json: JSON.parse(out.text()) as AuditJson, err: err.text() };
}

// Concurrent: the 429 test waits out a Retry-After (~1 s); the others run meanwhile.
describe.concurrent('keys audit against the sandbox', () => {
  // First: the longest wait starts at once.
  it('a 429 in the middle: the client waits it out and the pacer slows down; every sub-account is audited', async () => {
    const limited = await ownSandbox({ seed: 7, rateLimit: { max: 4, windowMs: 1000 } });
    try {
      const { ctx, out } = testContext(limited, { configFolder: folder, createApi: (config) => createBrokerApi({ ...config, retryBaseDelayMs: 5 }) });
      const names = limited.subAccounts.slice(0, 7);
      const code = await runKeysAudit({ sub: names.join(','), json: true }, ctx);
      const json = JSON.parse(out.text()) as AuditJson;
      expect(json.subAccounts.map((s) => s.status)).toEqual(names.map(() => 'audited'));
      expect([EXIT.ok, EXIT.flagged]).toContain(code);
      expect(limited.requests().some((r) => r.status === 429)).toBe(true);
    } finally {
      await limited.close();
    }
  }, 20_000);

  it('an audit with every flag: the worst key has all seven (its secret lost, as the trail says), its twin shares the note, the clean key is old only (91 days on)', async () => {
    const { code, json } = await auditJson({ sub: audited }, 91);
    expect(code).toBe(EXIT.flagged);
    const [account] = json.subAccounts;
    expect(account!.status).toBe('audited');
    const flags = (apiKey: string) => account!.keys.find((k) => k.apiKey === apiKey)!.flags.map((f) => f.kind);
    expect(flags(worstKey)).toEqual([...FLAG_KINDS]);
    expect(flags(twinKey)).toEqual(['old', 'shared-note']);
    expect(flags(cleanKey)).toEqual(['old']);
    expect(account!.summary).toEqual({
      keys: 3,
      flagged: 3,
      flags: { 'lost-secret': 1, 'no-ip': 1, write: 1, withdraw: 1, transfer: 1, old: 3, 'shared-note': 2 },
    });
    expect(account!.keys.find((k) => k.apiKey === worstKey)!.flags[0]).toEqual({
      kind: 'lost-secret',
      reason: 'secret not delivered — delete it in the web console',
    });
    const worst = account!.keys.find((k) => k.apiKey === worstKey)!;
    expect(worst.flags.find((f) => f.kind === 'withdraw')!.reason).toBe('can withdraw funds: SPOT_WITHDRAW_WRITE');
    expect(worst.flags.find((f) => f.kind === 'old')!.reason).toMatch(/^created (90|91) days ago \(older than 90d\)$/);
  });

  it('today: the clean key is clean; --max-age moves the line', async () => {
    let { json } = await auditJson({ sub: audited });
    expect(json.subAccounts[0]!.keys.find((k) => k.apiKey === cleanKey)!.flags).toEqual([]);
    expect(json.totals).toEqual({ subAccounts: 1, audited: 1, failed: 0, keys: 3, flagged: 2 });
    ({ json } = await auditJson({ sub: audited, maxAge: '12w' }, 85));
    expect(json.maxAgeMs).toBe(84 * DAY_MS);
    expect(json.subAccounts[0]!.summary!.flags.old).toBe(3);
    ({ json } = await auditJson({ sub: audited, maxAge: '2160h' }, 85));
    expect(json.subAccounts[0]!.summary!.flags.old).toBe(0);
  });

  it('the JSON shape: these fields, in this order', async () => {
    const { json } = await auditJson({ sub: `${audited},nosuch404` });
    expect(Object.keys(json)).toEqual(['auditedAt', 'maxAgeMs', 'totals', 'subAccounts']);
    expect(Object.keys(json.totals)).toEqual(['subAccounts', 'audited', 'failed', 'keys', 'flagged']);
    const [ok, failed] = json.subAccounts;
    expect(Object.keys(ok!)).toEqual(['subAccount', 'status', 'error', 'summary', 'keys']);
    expect(Object.keys(ok!.summary!)).toEqual(['keys', 'flagged', 'flags']);
    expect(Object.keys(ok!.summary!.flags)).toEqual([...FLAG_KINDS]);
    expect(Object.keys(ok!.keys[0]!)).toEqual(['note', 'apiKey', 'permissions', 'ips', 'createdAt', 'ageDays', 'flags']);
    expect(Object.keys(ok!.keys[0]!.flags[0]!)).toEqual(['kind', 'reason']);
    expect(failed).toEqual({ subAccount: 'nosuch404', status: 'failed', error: expect.stringContaining('140001') as string, summary: null, keys: [] });
  });

  it('table: a head line, a summary per sub-account, then a line per flag', async () => {
    const { ctx, out, err } = context();
    expect(await runKeysAudit({ sub: `${audited},${other}` }, ctx)).toBe(EXIT.flagged);
    const text = out.text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^2 sub-accounts · \d+ keys · \d+ flagged · old: older than 90d$/);
    expect(lines[2]).toMatch(/^subAccount\s+keys\s+flagged\s+flags$/);
    expect(text).toMatch(new RegExp(`${audited}\\s+3\\s+2\\s+lost-secret 1 · no-ip 1 · write 1 · withdraw 1 · transfer 1 · shared-note 2\\n`));
    expect(text).toMatch(/ lost-secret +secret not delivered — delete it in the web console\n/);
    expect(text).toMatch(/subAccount\s+apiKey\s+note\s+created\s+flag\s+why\n/);
    expect(text).toContain(`${worstKey}  ops bot`);
    expect(text).toMatch(/\n\s+withdraw\s+can withdraw funds: SPOT_WITHDRAW_WRITE\n/);
    expect(text).not.toContain(cleanKey);
    expect(err.text()).toBe('');
  });

  it('csv: a record per key, a failed sub-account as one record', async () => {
    const { ctx, out } = context();
    expect(await runKeysAudit({ sub: `${audited},nosuch404`, format: 'csv' }, ctx)).toBe(EXIT.failure);
    const [header, ...rows] = parseCsv(out.text());
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(rows).toHaveLength(4);
    const worst = rows.find((r) => r[2] === worstKey)!;
    expect(worst.slice(0, 6)).toEqual([
      audited,
      'audited',
      worstKey,
      'ops bot',
      'SPOT_ACCOUNT_READ,SPOT_ACCOUNT_WRITE,SPOT_WITHDRAW_WRITE,SPOT_TRANSFER_WRITE',
      '',
    ]);
    expect(worst[8]).toBe('lost-secret,no-ip,write,withdraw,transfer,shared-note');
    expect(rows.find((r) => r[2] === cleanKey)![8]).toBe('');
    const failed = rows.at(-1)!;
    expect(failed.slice(0, 3)).toEqual(['nosuch404', 'failed', '']);
    expect(failed[10]).toContain('140001');
  });

  it('--fail-on none: exit 0 with the same findings; --fail-on KINDS: 4 only for those', async () => {
    expect((await auditJson({ sub: audited, failOn: 'none' })).code).toBe(EXIT.ok);
    expect((await auditJson({ sub: audited, failOn: 'withdraw' })).code).toBe(EXIT.flagged);
    expect((await auditJson({ sub: audited, failOn: 'old' })).code).toBe(EXIT.ok);
    // A key whose secret the trail says was lost fails a CI job that asks for it.
    expect((await auditJson({ sub: audited, failOn: 'lost-secret' })).code).toBe(EXIT.flagged);
    expect((await auditJson({ sub: audited, failOn: 'old,no-ip' })).code).toBe(EXIT.flagged);
  });

  it('an unknown sub-account among several: the others are audited, exit 1 (over 4), one line on stderr', async () => {
    const { code, json, err } = await auditJson({ sub: `${other},nosuch404,${audited}` });
    expect(code).toBe(EXIT.failure);
    expect(json.subAccounts.map((s) => [s.subAccount, s.status])).toEqual([
      [other, 'audited'],
      ['nosuch404', 'failed'],
      [audited, 'audited'],
    ]);
    expect(err).toBe(
      'error: nosuch404: list keys failed (HTTP 400 code 140001): sub account does not exist (nosuch404) — check the sub-account name (exact spelling, case included)\n',
    );
  });

  it('a frozen sub-account (140002) first among several: said with its hint, and every other is still audited', async () => {
    const others = sandbox.subAccounts.slice(0, 5);
    const { code, json, err } = await auditJson({ sub: ['frozendesk01', ...others].join(',') });
    expect(code).toBe(EXIT.failure);
    expect(json.subAccounts.map((s) => [s.subAccount, s.status])).toEqual([['frozendesk01', 'failed'], ...others.map((n) => [n, 'audited'])]);
    expect(err).toBe(
      "error: frozendesk01: list keys failed (HTTP 400 code 140002): sub account is forbidden (frozendesk01) — the sub-account is frozen or disabled: check its status in the broker's sub-account list\n",
    );
  });

  it('a failure that would fail every sub-account stops the audit: the rest are reported not audited', async ({ onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    const names = own.subAccounts.slice(0, 7);
    own.queueFaults({ kind: 'status', status: 503, code: 503, msg: 'down' });
    const { code, json, err } = await auditJson({ sub: names.join(',') }, 0, own);
    expect(code).toBe(EXIT.failure);
    const statuses = json.subAccounts.map((s) => s.status);
    expect(statuses.filter((s) => s === 'failed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'not-audited').length).toBeGreaterThanOrEqual(2);
    expect(json.subAccounts.find((s) => s.status === 'not-audited')!.error).toMatch(/^not audited: stopped after \S+ failed$/);
    expect(err).toMatch(/^error: \S+: list keys failed \(HTTP 503/);
    expect(err).toMatch(/\nerror: \d+ sub-accounts not audited: the failure above would fail them too\n$/);
    // The table's head counts each apart, as the JSON's statuses do.
    const { ctx, out } = context(0, own);
    own.queueFaults({ kind: 'status', status: 503, code: 503, msg: 'down' });
    await runKeysAudit({ sub: names.join(',') }, ctx);
    const notAsked = statuses.filter((s) => s === 'not-audited').length;
    expect(out.text()).toMatch(new RegExp(`· 1 failed · ${notAsked} not audited ·`));
  });

  it('nothing audited (every sub-account failed): the table says no key was audited, never "no key flagged"', async () => {
    const { ctx, out } = context(0, sandbox);
    expect(await runKeysAudit({ sub: 'frozendesk01' }, ctx)).toBe(EXIT.failure);
    expect(out.text()).toMatch(/· 0 flagged · 1 failed ·/);
    expect(out.text()).toMatch(/\nno key audited\n$/);
    expect(out.text()).not.toContain('no key flagged');
  });

  it('--recent and --discovered read the stores of this base URL, together, each name once', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'bc-keys-audit-stores-'));
    try {
      await (await openRecentSubAccounts(empty, sandbox.baseUrl)).remember(audited);
      await (
        await openDiscoveredSubAccounts(empty, sandbox.baseUrl)
      ).note([
        { name: other, lastTransferTime: 2 },
        { name: audited, lastTransferTime: 1 },
        { name: 'bad name', lastTransferTime: 0 },
      ]);
      // Another target's names are not this one's.
      await (await openRecentSubAccounts(empty, 'demo')).remember('demoonly1');
      const run = async (options: Parameters<typeof runKeysAudit>[0]) => {
        const { ctx, out, err } = testContext(sandbox, { configFolder: empty });
        const code = await runKeysAudit({ ...options, json: true }, ctx);
        return { code, names: (JSON.parse(out.text()) as AuditJson).subAccounts.map((s) => s.subAccount), err: err.text() };
      };
      expect((await run({ recent: true })).names).toEqual([audited]);
      const discovered = await run({ discovered: true });
      expect(discovered.names).toEqual([other, audited]);
      // The store keeps only names the field accepts as typed: 'bad name' was never stored.
      expect(discovered.err).toBe('');
      expect((await run({ recent: true, discovered: true })).names).toEqual([audited, other]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('progress on stderr when it is a terminal and there are several sub-accounts; none for one', async () => {
    const several = testContext(sandbox, { configFolder: folder, stderrIsTTY: true });
    await runKeysAudit({ sub: `${audited},${other}`, json: true }, several.ctx);
    const lines = several.err.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^audited 1\/2: /);
    expect(lines[1]).toMatch(/^audited 2\/2: /);
    expect(lines.map((l) => l.replace(/^audited \d\/2: /, '')).sort()).toEqual([audited, other].sort());
    const one = testContext(sandbox, { configFolder: folder, stderrIsTTY: true });
    await runKeysAudit({ sub: audited, json: true }, one.ctx);
    expect(one.err.text()).toBe('');
  });

  it('--recent with nothing stored: a clear message, exit 2, nothing sent', async ({ onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    const empty = await mkdtemp(join(tmpdir(), 'bc-keys-audit-none-'));
    try {
      const before = requestCount(own);
      const { ctx, err, out } = testContext(own, { configFolder: empty });
      expect(await runKeysAudit({ recent: true, discovered: true }, ctx)).toBe(EXIT.usage);
      expect(err.text()).toBe(
        `error: no recent or discovered sub-accounts for ${own.baseUrl} yet (recent: keys listed in the console; discovered: a discover scan of the transfers); name them with --sub A,B\n`,
      );
      expect(out.text()).toBe('');
      expect(requestCount(own)).toBe(before);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it.for([
    [{ sub: 'a b' }, "error: --sub: must not contain spaces ('a b')"],
    [{ sub: ',' }, 'error: --sub: no name in the list (give --sub A,B)'],
    [{}, 'error: say which sub-accounts to audit: --sub A,B, --recent or --discovered'],
    [{ sub: 'x', recent: true }, 'error: --sub names the sub-accounts itself: it cannot go with --recent or --discovered'],
    [{ sub: 'x', maxAge: '5y' }, "error: --max-age: '5y' is not a span; use a number and a unit: 90d, 12w, 2160h, 30m, 45s"],
    [{ sub: 'x', maxAge: '0d' }, "error: --max-age: '0d': must be more than zero"],
    [
      { sub: 'x', failOn: 'withdraw,bogus' },
      "error: --fail-on: must be any, none or flags from lost-secret, no-ip, write, withdraw, transfer, old, shared-note (got 'bogus')",
    ],
    [{ sub: 'x', failOn: 'withdraw,no-pi' }, "error: --fail-on: 'no-pi' is not a known flag: did you mean no-ip?"],
    [{ sub: 'x', format: 'xml' }, "error: --format: must be table, json or csv (got 'xml')"],
    [{ sub: 'x', format: 'csv', json: true }, 'error: --json is short for --format json: it cannot go with --format csv'],
  ] as const)('bad flags %j: exit 2, one line, nothing sent', async ([options, line], { onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    const before = requestCount(own);
    const { ctx, err, out } = context(0, own);
    expect(await runKeysAudit(options, ctx)).toBe(EXIT.usage);
    expect(err.text()).toBe(`${line}\n`);
    expect(out.text()).toBe('');
    expect(requestCount(own)).toBe(before);
  });

  it('a hostile note reaches the table as visible marks, and JSON to a pipe as sent', async () => {
    const hostile = await api.createSubAccountKey({ subAccount: other, permissions: ['SPOT_ACCOUNT_READ'], note: 'x\u001b]52;c;cHduZWQ=\u0007y' });
    const { ctx, out } = context();
    await runKeysAudit({ sub: other }, ctx);
    expect(out.text()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out.text()).toContain('x␛]52;c;cHduZWQ=␇y');
    const { json } = await auditJson({ sub: other });
    expect(json.subAccounts[0]!.keys.find((k) => k.apiKey === hostile.apiKey)!.note).toBe('x\u001b]52;c;cHduZWQ=\u0007y');
  });
});

describe('--fail-on typos', () => {
  it('any and none are suggested only as the whole value; a list suggests flags', () => {
    expect(parseFailOn('nnoe')).toEqual({ ok: false, message: "--fail-on: 'nnoe' is not a known flag: did you mean none?" });
    expect(parseFailOn('withdrw')).toEqual({ ok: false, message: "--fail-on: 'withdrw' is not a known flag: did you mean withdraw?" });
    expect(parseFailOn('withdraw,nnoe')).toEqual({
      ok: false,
      message: "--fail-on: must be any, none or flags from lost-secret, no-ip, write, withdraw, transfer, old, shared-note (got 'nnoe')",
    });
  });
});
