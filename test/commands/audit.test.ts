// The audit trail from `keys create` (created, refused, unknown: one line each, 0600, no secret) and the
// `audit` command that lists it (table, JSON, CSV), against the embedded sandbox.
import { mkdtempSync, readFileSync, rmSync, statSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, runAudit } from '../../src/commands/audit';
import { EXIT } from '../../src/commands/context';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { AUDIT_FILE, parseAuditLine, settleAttempts } from '../../src/config/auditTrail';
import type { RunningSandbox } from '../../src/sandbox/types';
import { formatLocalTime } from '../../src/api/timeInput';
import { runBuiltCli, runCli, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let folder: string;
let createdSecret = '';
let createdKey = '';
const file = () => join(folder, AUDIT_FILE);
const lines = () =>
  readFileSync(file(), 'utf8')
    .split('\n')
    .filter((l) => l !== '');

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 11, rateLimit: { max: 100_000, windowMs: 1000 } });
  folder = join(mkdtempSync(join(tmpdir(), 'broker-audit-')), 'not-yet-made');
  const [a, b] = sandbox.subAccounts;
  // created
  {
    const { ctx, out, err } = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ sub: a, permissions: 'SPOT_ACCOUNT_READ', ip: '203.0.113.7', note: 'bot one', json: true }, ctx)).toBe(EXIT.ok);
    const key = JSON.parse(out.text()) as { apiKey: string; secretKey: string };
    createdSecret = key.secretKey;
    createdKey = key.apiKey;
    expect(err.text()).not.toContain('audit');
  }
  // refused by the service
  {
    sandbox.queueFaults({ kind: 'status', status: 400, code: 10072, msg: 'invalid permission' });
    const { ctx } = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ allowRisky: true, sub: b, permissions: 'SPOT_DEAL_READ', note: 'refused one' }, ctx)).toBe(EXIT.failure);
  }
  // outcome unknown
  {
    sandbox.queueFaults({ kind: 'reset-after-handling' });
    const { ctx } = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ allowRisky: true, sub: a, permissions: 'SPOT_ACCOUNT_READ', note: 'lost answer' }, ctx)).toBe(EXIT.outcomeUnknown);
  }
  // refused before sending: not recorded
  {
    const { ctx } = testContext(sandbox, { configFolder: folder });
    expect(await runKeysCreate({ allowRisky: true, sub: a, permissions: '', note: 'never sent' }, ctx)).toBe(EXIT.usage);
  }
});
afterAll(async () => {
  await sandbox.close();
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

describe('keys create writes the audit trail', () => {
  it('one line per attempt sent, with the right outcome', () => {
    // An attempt's lines (recorded before it was sent, then its outcome) read as one: its last.
    const entries = settleAttempts(lines().map((l) => parseAuditLine(l)!)) as unknown as Record<string, unknown>[];
    expect(entries.map((e) => e.outcome)).toEqual(['created', 'refused', 'unknown']);
    const [created, refused, unknown] = entries;
    const host = new URL(sandbox.baseUrl).host;
    expect(created).toMatchObject({
      profile: 'environment',
      host,
      subAccount: sandbox.subAccounts[0],
      permissions: ['SPOT_ACCOUNT_READ'],
      ips: ['203.0.113.7'],
      note: 'bot one',
    });
    expect(created!.apiKey).toBe(`${createdKey.slice(0, 4)}…${createdKey.slice(-4)}`);
    expect(Date.parse(created!.time as string)).not.toBeNaN();
    expect(refused).toMatchObject({ subAccount: sandbox.subAccounts[1], outcome: 'refused', code: 10072, message: 'invalid permission', note: 'refused one' });
    expect(refused!.apiKey).toBeUndefined();
    expect(unknown).toMatchObject({ outcome: 'unknown', note: 'lost answer' });
    expect(typeof unknown!.reason).toBe('string');
    expect(unknown!.apiKey).toBeUndefined();
  });

  it('the file is 0600', () => {
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('no secret anywhere in the bytes: neither the created secret nor the master secret, nor the whole key', () => {
    const bytes = readFileSync(file());
    expect(createdSecret.length).toBeGreaterThan(8);
    for (const secret of [createdSecret, sandbox.secretKey, createdKey]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('a failed audit write does not fail the create, and says so once on stderr', async () => {
    const notAFolder = join(folder, AUDIT_FILE, 'inside');
    const { ctx, out, err } = testContext(sandbox, { configFolder: notAFolder });
    expect(await runKeysCreate({ allowRisky: true, sub: sandbox.subAccounts[0], permissions: 'SPOT_ACCOUNT_READ', note: 'no trail', json: true }, ctx)).toBe(
      EXIT.ok,
    );
    expect(JSON.parse(out.text())).toHaveProperty('secretKey');
    expect(err.text().match(/audit trail/g)).toHaveLength(1);
  });
});

describe('audit command', () => {
  it('json: newest first, a stable shape', async () => {
    const { ctx, out, err } = testContext(undefined, { configFolder: folder });
    expect(await runAudit({ format: 'json' }, ctx)).toBe(EXIT.ok);
    const rows = JSON.parse(out.text()) as Record<string, unknown>[];
    expect(rows.map((r) => r.outcome)).toEqual(['unknown', 'refused', 'created']);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual([
        'time',
        'profile',
        'host',
        'subAccount',
        'apiKey',
        'permissions',
        'ips',
        'note',
        'outcome',
        'code',
        'message',
        'reason',
      ]);
    }
    expect(rows[1]).toMatchObject({ apiKey: null, code: 10072, message: 'invalid permission', reason: null });
    expect(rows[2]).toMatchObject({ code: null, message: null, reason: null, ips: ['203.0.113.7'] });
    expect(err.text()).toBe('');
  });

  it('table: a header and one row each, newest first', async () => {
    const { ctx, out } = testContext(undefined, { configFolder: folder });
    expect(await runAudit({}, ctx)).toBe(EXIT.ok);
    const text = out.text().trimEnd().split('\n');
    expect(text[0]).toMatch(/^time\s+profile\s+host\s+subAccount\s+apiKey\s+permissions\s+ips\s+note\s+outcome\s+detail$/);
    expect(text).toHaveLength(4);
    expect(text[1]).toContain('unknown');
    expect(text[2]).toContain('10072 invalid permission');
    expect(text[3]).toContain(`${createdKey.slice(0, 4)}…${createdKey.slice(-4)}`);
  });

  it('table: times are local, as in every other table; json keeps UTC ISO', async () => {
    const json = testContext(undefined, { configFolder: folder });
    expect(await runAudit({ json: true }, json.ctx)).toBe(EXIT.ok);
    const times = (JSON.parse(json.out.text()) as { time: string }[]).map((r) => r.time);
    for (const t of times) expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const table = testContext(undefined, { configFolder: folder });
    expect(await runAudit({}, table.ctx)).toBe(EXIT.ok);
    const rows = table.out.text().trimEnd().split('\n').slice(1);
    rows.forEach((row, i) => expect(row.startsWith(formatLocalTime(Date.parse(times[i]!), true))).toBe(true));
  });

  it("the built binary: the table is in the process's TZ", async () => {
    const json = testContext(undefined, { configFolder: folder });
    expect(await runAudit({ json: true, limit: '1' }, json.ctx)).toBe(EXIT.ok);
    const [newest] = JSON.parse(json.out.text()) as { time: string }[];
    const run = await runBuiltCli(['audit', '--limit', '1'], { BROKER_CONSOLE_HOME: folder, TZ: 'Asia/Tokyo' });
    expect(run.code, run.stderr).toBe(0);
    const inTokyo = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    expect(run.stdout.split('\n')[1]).toContain(inTokyo.format(Date.parse(newest!.time)));
  }, 60_000);

  it('csv: the columns, --sub and --limit', async () => {
    const { ctx, out } = testContext(undefined, { configFolder: folder });
    expect(await runAudit({ format: 'csv', sub: sandbox.subAccounts[0], limit: '1' }, ctx)).toBe(EXIT.ok);
    const records = out
      .text()
      .split('\r\n')
      .filter((l) => l !== '');
    expect(records[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(records).toHaveLength(2);
    expect(records[1]).toContain('lost answer');
  });

  it('a bad --limit or --format is a usage error', async () => {
    for (const options of [{ limit: '0' }, { limit: 'x' }, { format: 'xml' }]) {
      const { ctx, err } = testContext(undefined, { configFolder: folder });
      expect(await runAudit(options, ctx)).toBe(EXIT.usage);
      expect(err.text()).toMatch(/^error: /);
    }
  });

  it('a damaged line is skipped (and counted on stderr); control characters are sanitised in the table', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'broker-audit-damaged-'));
    try {
      const good = lines();
      const hostile = JSON.stringify({ ...JSON.parse(good[0]!), attempt: 'another', note: 'evil\u001b[2Jnote\nsecond line' });
      appendFileSync(join(copy, AUDIT_FILE), `${good[0]}\n{"time":"2026-01-01T00:00:00Z",broken\n${hostile}\n[1,2]\n`);
      const { ctx, out, err } = testContext(undefined, { configFolder: copy });
      expect(await runAudit({}, ctx)).toBe(EXIT.ok);
      expect(out.text().trimEnd().split('\n')).toHaveLength(3);
      expect(out.text()).not.toContain('\u001b');
      expect(err.text()).toContain('2 damaged lines');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('no file yet: says so, exit 0', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'broker-audit-empty-'));
    try {
      const { ctx, out } = testContext(undefined, { configFolder: empty });
      expect(await runAudit({}, ctx)).toBe(EXIT.ok);
      expect(out.text()).toBe('no create attempts recorded yet\n');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('is registered in the cli, and so in the completion scripts (which walk its tree)', async () => {
    const listed = await runCli(['audit', '--json', '--limit', '2'], { BROKER_CONSOLE_HOME: folder });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { outcome: string }[]).map((r) => r.outcome)).toEqual(['unknown', 'refused']);
    const completion = await runCli(['completion', 'bash']);
    expect(completion.code).toBe(0);
    expect(completion.stdout).toMatch(/\baudit\b/);
    expect(completion.stdout).toContain('--limit');
  }, 120_000);
});
