// The keys screen's last create attempts: read back from the audit trail through services.audit,
// newest first, at most 3, this sub-account on this host only, updated after a create or a refusal, giving
// way to the table on small windows, and every value from the file sanitised.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AuditEntry, appendAudit, createAuditRecorder } from '../../src/config/auditTrail';
import type { RunningSandbox } from '../../src/sandbox/types';
import { openKeys, reachReview, seededAccounts } from './flows';
import { startConsole, type TestConsole, expectFits } from './harness';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let host = '';
let busy = '';
let empty = '';
/** A sub-account with a few keys, where the tests create more (empty stays empty). */
let few = '';
const folders: string[] = [];
let c: TestConsole | undefined;

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 1 });
  host = new URL(sandbox.baseUrl).host;
  const probe = await startConsole({ sharedSandbox: sandbox });
  ({ busy, empty } = await seededAccounts(probe));
  for (const name of sandbox.subAccounts) {
    const count = (await probe.api.listSubAccountKeys(name)).length;
    if (count > 0 && count <= 3 && few === '') few = name;
  }
  await probe.cleanup();
  expect(few).not.toBe('');
});
afterAll(async () => sandbox?.close());
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const entry = (subAccount: string, note: string, minute: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  time: new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString(),
  profile: 'demo',
  host,
  subAccount,
  apiKey: `mx0v…${String(minute).padStart(4, '0')}`,
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: [],
  note,
  outcome: 'created',
  ...extra,
});

/** A trail in a fresh folder with these entries, and the console's recorder on it. */
async function trail(entries: AuditEntry[]) {
  const folder = mkdtempSync(join(tmpdir(), 'bc-recent-ui-'));
  folders.push(folder);
  for (const e of entries) await appendAudit(folder, e);
  return createAuditRecorder(folder, { profile: 'demo', host });
}

describe('recent create attempts on the keys screen', () => {
  it('the last 3 for this sub-account on this host, newest first; other sub-accounts and hosts are left out; hostile notes are sanitised', async () => {
    const audit = await trail([
      entry(busy, 'oldest', 1),
      entry(busy, 'second', 2),
      entry(busy, 'evil\u001b]0;pwned\u0007 密钥🔑', 3, { outcome: 'refused', apiKey: undefined, code: 10072, message: 'no' }),
      entry(busy, 'newest', 4),
      entry(empty, 'another sub-account', 5),
      entry(busy, 'another host', 6, { host: 'api.example.com' }),
    ]);
    c = await startConsole({ sharedSandbox: sandbox, audit, columns: 80, rows: 24 });
    await openKeys(c, busy);
    await c.waitForText('Recent create attempts');
    const lines = c.frame().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Recent create attempts'));
    // A blank line sets it apart from the table when there is room.
    expect(lines[at - 1]?.trim()).toBe('');
    const shown = lines.slice(at + 1, at + 4);
    expect(shown[0]).toMatch(/created mx0v…0004\s+newest$/);
    expect(shown[1]).toMatch(/refused code 10072\s+evil/);
    expect(shown[2]).toMatch(/created mx0v…0002\s+second$/);
    expect(c.frame()).not.toContain('oldest');
    expect(c.frame()).not.toContain('another');
    expect(c.rawFrame()).not.toContain('\u001b]0;');
    expect(c.rawFrame()).not.toContain('\u0007');
    expectFits(c.frame(), 80, 24);
  });

  it('a created key whose secret the operator may not have says so before its note', async () => {
    const audit = await trail([
      entry(busy, 'piped away', 1, { secret: 'not-delivered', reason: 'created, secret not delivered: stdout: EPIPE' }),
      entry(busy, 'left on screen', 2, { secret: 'unconfirmed' }),
      entry(busy, 'kept', 3),
    ]);
    c = await startConsole({ sharedSandbox: sandbox, audit, columns: 100, rows: 30 });
    await openKeys(c, busy);
    await c.waitForText('Recent create attempts');
    const lines = c.frame().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Recent create attempts'));
    const shown = lines.slice(at + 1, at + 4);
    expect(shown[0]).toMatch(/created mx0v…0003\s+kept$/);
    expect(shown[1]).toMatch(/created mx0v…0002\s+⚠ secret shown but not confirmed stored · left on screen$/);
    expect(shown[2]).toMatch(/created mx0v…0001\s+⚠ secret not delivered · piped away$/);
    expectFits(c.frame(), 100, 30);
  });

  it('is updated after a create (the new key first) and after a refusal (back from the review)', async () => {
    const audit = await trail([entry(few, 'before', 1)]);
    c = await startConsole({ sharedSandbox: sandbox, audit, columns: 80, rows: 24 });
    await reachReview(c, few, { toggle: [0], note: 'made just now' });
    await c.press('enter');
    await c.waitForScreen('secret');
    const top = c.navState()!.stack.at(-1)!.route;
    if (top.screen !== 'secret') throw new Error('expected the secret screen');
    await c.press('enter');
    await c.press('y');
    await c.waitForScreen('keys');
    await c.waitForText(/created mx0v…\w{4}\s+made just now/);
    const key = top.created.apiKey;
    expect(c.frame()).toContain(`${key.slice(0, 4)}…${key.slice(-4)}   made just now`);
    expect(c.frame()).not.toContain(top.created.secretKey);

    await c.press('n');
    await c.waitForText(`New API key for ${few}`);
    await c.press('space');
    await c.press('tab');
    await c.press('tab');
    await c.press('tab');
    await c.type('refused here');
    await c.press('enter');
    await c.waitForText('Review: this is exactly what will be sent');
    sandbox.queueFaults({ kind: 'status', status: 400, code: 10072, msg: 'no such permission' });
    await c.press('enter');
    await c.waitForText('no such permission');
    await c.press('esc');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.waitForText(/refused code 10072\s+refused here/);
    const lines = c.frame().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Recent create attempts'));
    expect(lines.slice(at + 1, at + 4).map((l) => /(created|refused)/.exec(l)?.[1])).toEqual(['refused', 'created', 'created']);
  });

  it('at 40x12 it gives way to a full table (6 keys: no block), and shows beside a short one; nothing overflows', async () => {
    const audit = await trail([entry(busy, 'busy one', 1), entry(empty, 'empty one', 2), entry(empty, 'empty two', 3)]);
    c = await startConsole({ sharedSandbox: sandbox, audit, columns: 40, rows: 12, everyCommit: true });
    await openKeys(c, busy);
    await c.settle(50);
    expect(c.frame()).not.toContain('Recent create');
    expect(
      c
        .frame()
        .split('\n')
        .filter((l) => l.includes('mx0v')).length,
    ).toBeGreaterThanOrEqual(5);
    expectFits(c.frame(), 40, 12);
    await c.press('esc');
    await c.waitForScreen('picker');
    await openKeys(c, empty);
    await c.waitForText('Recent create attempts');
    // The year goes on a narrow window; the newest first.
    expect(c.frame()).toMatch(/03-01 \d\d:03 created mx0v…0003\s+empty/);
    expect(c.frame().indexOf('…0003')).toBeLessThan(c.frame().indexOf('…0002'));
    expect(c.frame()).toContain('No API keys for');
    expectFits(c.frame(), 40, 12);
    for (const frame of c.frames().slice(-5)) expect(frame.split('\n').length).toBeLessThan(12);
  });

  it('with no recorder (or nothing recorded) there is no block', async () => {
    c = await startConsole({ sharedSandbox: sandbox, columns: 80, rows: 24 });
    await openKeys(c, busy);
    await c.settle(30);
    expect(c.frame()).not.toContain('Recent create');
  });
});
