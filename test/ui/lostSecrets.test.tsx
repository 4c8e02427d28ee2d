// Keys whose secret never reached the operator are marked in the key list, from the audit trail; after an
// unknown outcome the new-key form first says whether a matching key now exists.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  AUDIT_FILE,
  type AuditEntry,
  NOT_CREATED_REASON,
  NO_OUTCOME_REASON,
  appendAudit,
  createAuditRecorder,
  readAuditTrail,
} from '../../src/config/auditTrail';
import type { SubAccountKey } from '../../src/api/types';
import { apiKeyDigest } from '../../src/api/redact';
import { consoleFor } from './harness';
import { UNRECORDED_SHORT, leftUnconfirmed } from '../../src/ui/screens/SecretReveal';
import { reachReview } from './flows';
import { ownSandbox } from '../sandbox/helpers';

/** A trail line of an attempt of unknown outcome on the demo, now, with `more` (its reason, its sender). */
const unknownAttempt = (subAccount: string, note: string, more: Partial<AuditEntry>): AuditEntry => ({
  time: new Date().toISOString(),
  profile: 'demo',
  host: 'sandbox',
  subAccount,
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: [],
  note,
  outcome: 'unknown',
  ...more,
});

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});
const folder = (): string => {
  const f = mkdtempSync(join(tmpdir(), 'bc-lost-secrets-'));
  folders.push(f);
  return f;
};

/** The trail's line for a key created by keys create whose secret never reached stdout (its pipe broke). */
function markNotDelivered(trail: string, subAccount: string, key: SubAccountKey): Promise<void> {
  return appendAudit(trail, {
    time: new Date().toISOString(),
    profile: 'demo',
    host: 'sandbox',
    subAccount,
    apiKey: `${key.apiKey.slice(0, 4)}…${key.apiKey.slice(-4)}`,
    permissions: key.permissions,
    ips: key.ips,
    note: key.note,
    outcome: 'created',
    secret: 'not-delivered',
    reason: 'created, secret not delivered: stdout: EPIPE',
  });
}

describe('lost secrets in the console', () => {
  test('a create whose answer was lost: the new key is marked "secret never received", and n says a matching key exists', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], note: 'lost answer' });
    // The service makes the key, then the connection drops before its answer.
    c.sandbox.queueFaults({ kind: 'reset-after-handling' });
    await c.press('enter');
    await c.waitForText('the key may exist');
    await c.press('r');
    await c.waitForScreen('keys');
    await c.waitForText('⚠ lost answer');
    // The cursor on the marked key: the status line says what the mark means.
    for (let i = 0; i < 20 && !/› ⚠ lost answer/.test(c.frame()); i++) await c.press('down');
    await c.waitForText('secret never received — delete it in the web console');
    await c.press('n');
    await c.waitForText('had an unknown outcome, and a matching key');
    expect(c.frame().replace(/\n/g, ' ')).toMatch(/a matching key exists now \(mx0v…\w{4}\): its secret was never received — delete it in the web console/);
    expect(c.frame()).toContain('New API key for');
    // The trail now says which key the attempt made, as the same attempt, at the attempt's time.
    const made = (await c.api.listSubAccountKeys(name)).find((k) => k.note === 'lost answer')!;
    await expect
      .poll(async () => (await readAuditTrail(trail)).entries.map((e) => [e.outcome, e.secret, e.keyDigest]))
      .toEqual([['created', 'not-delivered', apiKeyDigest(made.apiKey)]]);
    // At the time the audit showed for it before: the unknown outcome's line, the one before the close.
    const lines = readFileSync(join(trail, AUDIT_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(lines.at(-2)!.outcome).toBe('unknown');
    expect(lines.at(-1)!.time).toBe(lines.at(-2)!.time);
  });

  test('the key audit screen flags such a key lost-secret, read from the trail', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit, columns: 120, rows: 30 });
    const name = c.sandbox.subAccounts[0]!;
    const victim = (await c.api.listSubAccountKeys(name))[0]!;
    await markNotDelivered(trail, name, victim);
    const { openKeys } = await import('./flows');
    await openKeys(c, name);
    await c.press('a');
    await c.waitForScreen('keyAudit');
    await c.waitForText(/lost-secret 1/);
    expect(c.frame()).toMatch(/lost-secret/);
  });

  test('a key the trail records as "created, secret not delivered" is marked so; other keys are not', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    const keys = await c.api.listSubAccountKeys(name);
    const victim = keys[0]!;
    await markNotDelivered(trail, name, victim);
    await c.press('esc').catch(() => undefined);
    const { openKeys } = await import('./flows');
    await openKeys(c, name);
    await c.waitForText(`⚠ ${victim.note.slice(0, 8)}`);
    // One row of the table is marked (the recent attempts under it name the same key, with the same warning).
    const table = c.frame().split('\n');
    const rows = table.slice(
      0,
      table.findIndex((l) => l.startsWith('Recent create attempts')),
    );
    expect(rows.filter((l) => l.includes('⚠ ') && l.includes('mx0v')).length).toBe(1);
    await c.waitForText('secret not delivered — delete it in the web console');
  });

  test('a key the form finds for an unknown outcome is in the key list below it on the way back, without r', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    const { openKeys } = await import('./flows');
    await openKeys(c, name);
    // The service made the key of an attempt whose answer never came, after the list above was read.
    await appendAudit(trail, unknownAttempt(name, 'made behind', { reason: 'no answer', time: new Date(Date.now() - 120_000).toISOString() }));
    await c.api.createSubAccountKey({ subAccount: name, permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'made behind' });
    expect(c.frame()).not.toContain('made behind');
    await c.press('n');
    await c.waitFor(() => c.frame().replace(/\s+/g, ' ').includes('a matching key exists now'), 'the matching key found');
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.waitForText('made behind');
  });

  test('a key already on record as delivered is not taken for an unknown attempt with the same note', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    const request = { subAccount: name, permissions: ['SPOT_ACCOUNT_READ'], ips: [], note: 'trader' };
    const delivered = await c.api.createSubAccountKey(request);
    await audit(request, { created: delivered });
    await appendAudit(
      trail,
      unknownAttempt(name, 'trader', { reason: 'no answer', attempt: 'a1b2c3d4e5f60718', time: new Date(Date.now() - 120_000).toISOString() }),
    );
    const { openCreateForm } = await import('./flows');
    await openCreateForm(c, name);
    await c.waitFor(() => c.frame().replace(/\s+/g, ' ').includes('no matching key exists now, so it was not created'), 'the check');
    // The delivered key keeps its line as it was: nothing says its secret was not delivered.
    await expect
      .poll(async () => (await readAuditTrail(trail)).entries.map((e) => [e.outcome, e.secret ?? null]))
      .toEqual([
        ['created', null],
        ['not-created', null],
      ]);
  });

  test('an unknown outcome that made no key: the form says none exists', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    // Long enough ago that it can no longer reach the service (its recvWindow, at most 60 s, is over).
    await appendAudit(
      trail,
      unknownAttempt(name, 'never made', { reason: 'no answer', attempt: 'a1b2c3d4e5f60718', time: new Date(Date.now() - 120_000).toISOString() }),
    );
    const { openCreateForm } = await import('./flows');
    await openCreateForm(c, name);
    await c.waitForText('no matching key');
    expect(c.frame().replace(/\n/g, ' ')).toContain('no matching key exists now, so it was not created');
    // The trail says so, as the same attempt: read back, it is no longer unknown, and the next form asks nothing.
    await expect
      .poll(async () => (await readAuditTrail(trail)).entries.map((e) => [e.outcome, e.attempt, e.reason]))
      .toEqual([['not-created', 'a1b2c3d4e5f60718', NOT_CREATED_REASON]]);
    await c.press('esc');
    await c.waitForScreen('keys');
    await c.press('n');
    await c.waitForText('Permissions');
    await c.settle(200);
    expect(c.frame()).not.toContain('unknown outcome');
  });

  test('an unknown outcome so recent that it may still arrive: not "not created" until its recvWindow is over, then checked again', async ({
    onTestFinished,
  }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    // Recorded 52 s ago: it may reach the service for about 10 s more (60 s of recvWindow and 2 s of slack), room
    // for a loaded machine to open the form first.
    await appendAudit(trail, unknownAttempt(name, 'in transit', { reason: 'no answer', time: new Date(Date.now() - 52_000).toISOString() }));
    const { openCreateForm } = await import('./flows');
    await openCreateForm(c, name);
    const said = () => c.frame().replace(/\s+/g, ' ');
    await c.waitFor(() => said().includes('it may still reach the service until'), 'the notice that it may still arrive');
    expect(said()).toContain('Creating again before that may make a second key.');
    expect(said()).not.toContain('so it was not created');
    await c.waitFor(() => said().includes('no matching key exists now, so it was not created'), 'the check once it can no longer arrive', 20_000);
  }, 40_000);

  test('an attempt another process still waits on: the form says so (its pid), not "not created"; the block says sending', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    const name = c.sandbox.subAccounts[0]!;
    // The other terminal's keys create, here a process that waits as long as the test needs it.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    onTestFinished(() => void other.kill('SIGKILL'));
    await appendAudit(
      trail,
      unknownAttempt(name, 'being made', { reason: NO_OUTCOME_REASON, attempt: 'a1b2c3d4e5f60718', pid: other.pid!, machine: hostname() }),
    );
    const { openKeys, openCreateForm } = await import('./flows');
    await openKeys(c, name);
    await c.waitForText(/sending +-/);
    await c.press('esc');
    await openCreateForm(c, name);
    await c.waitForText('still waiting for its answer');
    const said = c.frame().replace(/\s+/g, ' ');
    expect(said).toContain(
      `is still waiting for its answer in another broker-console (pid ${other.pid}): let it finish, then check the key list, before creating again.`,
    );
    expect(said).not.toContain('so it was not created');
  });

  test('a secret on screen is on record as not confirmed stored until y; y writes "created" over it, as the same attempt', async ({ onTestFinished }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit });
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'kept safe' });
    await c.press('enter');
    await c.waitForScreen('secret');
    const shown = async () => (await readAuditTrail(trail)).entries.filter((e) => e.note === 'kept safe');
    await expect.poll(async () => (await shown()).map((e) => [e.outcome, e.secret])).toEqual([['created', 'unconfirmed']]);
    const [answered] = await shown();
    // Stored a moment later: the line still says when the key was made.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await c.press('enter');
    await c.waitForText('Have you stored the secret key?');
    await c.press('y');
    await c.waitForScreen('keys');
    await expect.poll(async () => (await shown()).map((e) => [e.outcome, e.secret])).toEqual([['created', undefined]]);
    const [entry] = await shown();
    expect(entry!.apiKey).toMatch(/^mx0v…\w{4}$/);
    expect(entry!.time).toBe(answered!.time);
    await c.cleanup();
    // Confirmed: nothing to say once the console has closed.
    expect(c.said).toEqual([]);
  });

  test('a console ended on the secret screen before y: the parting line names the key, and the list marks it "never confirmed stored"', async ({
    onTestFinished,
  }) => {
    const trail = folder();
    const audit = createAuditRecorder(trail, { profile: 'demo', host: 'sandbox' });
    // One service for both consoles: the first one's cleanup must not close it.
    const sandbox = await ownSandbox({ seed: 1 });
    onTestFinished(() => sandbox.close());
    const first = await consoleFor(onTestFinished, { audit, sharedSandbox: sandbox });
    const name = sandbox.subAccounts[0]!;
    await reachReview(first, name, { toggle: [0], note: 'left unstored' });
    await first.press('enter');
    await first.waitForScreen('secret');
    const apiKey = /API key\s+(mx0v\S+)/.exec(first.frame())![1]!;
    await expect
      .poll(async () => (await readAuditTrail(trail)).entries.filter((e) => e.note === 'left unstored').map((e) => e.secret))
      .toEqual(['unconfirmed']);
    // What a signal or a closed terminal does: the console is unmounted with the secret on screen.
    await first.cleanup();
    expect(first.said).toEqual([
      `key ${apiKey} for ${name}: the console closed before you confirmed its secret was stored: if you do not have the secret, delete this key in the service's web console and create another (on record as not confirmed)`,
    ]);
    // The next console on the same service and trail marks that key.
    const next = await consoleFor(onTestFinished, { audit, sharedSandbox: sandbox });
    const { openKeys } = await import('./flows');
    await openKeys(next, name);
    await next.waitForText('⚠ left unstored');
    for (let i = 0; i < 20 && !/› ⚠ left unstored/.test(next.frame()); i++) await next.press('down');
    await next.waitForText('secret never confirmed stored — delete it if you do not have it');
  });

  test('a trail that cannot be written: the secret screen says the key is not on record, and so does the parting line', async ({ onTestFinished }) => {
    // A trail folder under a regular file: every write fails (ENOTDIR), as on a read-only or full disk.
    const blocker = join(folder(), 'a-file');
    writeFileSync(blocker, '');
    const audit = createAuditRecorder(join(blocker, 'trail'), { profile: 'demo', host: 'sandbox' });
    const c = await consoleFor(onTestFinished, { audit, columns: 100, rows: 30 });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], note: 'not on record' });
    await c.press('enter');
    await c.waitForScreen('secret');
    await c.waitForText(UNRECORDED_SHORT);
    // At the smallest window too.
    await c.resize(40, 12);
    await c.waitForText('⚠ Not on record: trail not written');
    await c.resize(100, 30);
    const apiKey = /API key\s+(mx0v\S+)/.exec(c.frame())![1]!;
    await c.cleanup();
    expect(c.said).toEqual([
      `key ${apiKey} for ${name}: the console closed before you confirmed its secret was stored: if you do not have the secret, delete this key in the service's web console and create another (not on record: the audit trail could not be written)`,
    ]);
  });

  test('the parting line says "on record" only when the trail has the attempt', () => {
    const created = { subAccount: 'desk', note: 'n', apiKey: 'mx0vkey', secretKey: 's', permissions: [], ips: [], createdAt: 1 };
    expect(leftUnconfirmed(created, true)).toMatch(/create another \(on record as not confirmed\)$/);
    expect(leftUnconfirmed(created, false)).toMatch(/create another$/);
  });
});
