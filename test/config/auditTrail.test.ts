// src/config/auditTrail.ts: entries for each outcome, the 0600 append-only file, a bounded read that skips
// damaged lines, and the console's path (services.audit from useCreateKey; consoleTargets wires it).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerError } from '../../src/api/errors';
import type { NewKeyRequest } from '../../src/api/types';
import { createConsoleTargets } from '../../src/commands/consoleTargets';
import { AUDIT_FILE, appendAudit, auditEntry, createAuditRecorder, readAuditTrail } from '../../src/config/auditTrail';
import { apiKeyDigest } from '../../src/api/redact';
import { startConsole, type TestConsole } from '../ui/harness';
import { fillCreateForm, reachReview } from '../ui/flows';
import { runKeysCreate } from '../../src/commands/keysCreate';
import { testContext } from '../commands/helpers';

const request: NewKeyRequest = { subAccount: 'desk1', permissions: ['SPOT_ACCOUNT_READ'], ips: ['192.0.2.1'], note: 'n' };
const target = { profile: 'ops', host: 'api.example.com' };
const at = new Date('2026-03-01T10:00:00Z');
const created = {
  subAccount: 'desk1',
  note: 'n',
  apiKey: 'mx0vglabcdefa1b2',
  secretKey: 'SECRETSECRETSECRET',
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: ['192.0.2.1'],
  createdAt: 1,
};

const folders: string[] = [];
const tempFolder = () => {
  const f = mkdtempSync(join(tmpdir(), 'broker-audit-unit-'));
  folders.push(f);
  return f;
};
let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

describe('auditEntry', () => {
  it('created: the shortened key and its digest, never the secret or the whole key', () => {
    const entry = auditEntry(target, request, { created }, at)!;
    expect(entry).toEqual({
      time: '2026-03-01T10:00:00.000Z',
      profile: 'ops',
      host: 'api.example.com',
      subAccount: 'desk1',
      apiKey: 'mx0v…a1b2',
      keyDigest: apiKeyDigest(created.apiKey),
      permissions: ['SPOT_ACCOUNT_READ'],
      ips: ['192.0.2.1'],
      note: 'n',
      outcome: 'created',
    });
    expect(JSON.stringify(entry)).not.toContain('SECRET');
    expect(JSON.stringify(entry)).not.toContain(created.apiKey);
  });

  it('refused: the service code and message; unknown: the reason', () => {
    const refused = auditEntry(
      target,
      request,
      { error: new BrokerError({ kind: 'service', operation: 'create key', status: 400, code: 10072, serviceMessage: 'bad' }) },
      at,
    )!;
    expect(refused).toMatchObject({ outcome: 'refused', code: 10072, message: 'bad' });
    const unknown = auditEntry(target, request, { error: new BrokerError({ kind: 'outcome-unknown', operation: 'create key', stage: 'sent' }) }, at)!;
    expect(unknown.outcome).toBe('unknown');
    expect(unknown.reason).toBeTruthy();
  });

  it('not sent: no entry (connection refused, a request that could not be built, a non-client error)', () => {
    expect(auditEntry(target, request, { error: new BrokerError({ kind: 'network', operation: 'create key', stage: 'connect' }) }, at)).toBeUndefined();
    expect(auditEntry(target, request, { error: new BrokerError({ kind: 'invalid-request', operation: 'create key' }) }, at)).toBeUndefined();
    // A 429 the client kept to itself (the service had asked to wait): nothing went out.
    const heldBack = new BrokerError({
      kind: 'service',
      operation: 'create key',
      status: 429,
      serviceMessage: 'not sent: the service asked to wait',
      sent: false,
    });
    expect(auditEntry(target, request, { error: heldBack }, at)).toBeUndefined();
    expect(auditEntry(target, request, { error: new Error('validation') }, at)).toBeUndefined();
  });
});

describe('the file', () => {
  it('created 0600 (with its folder), appended, one JSON object per line; a note with a line break stays one line', async () => {
    const folder = join(tempFolder(), 'new');
    await appendAudit(folder, auditEntry(target, { ...request, note: 'two\nlines' }, { created }, at)!);
    await appendAudit(folder, auditEntry(target, request, { created }, at)!);
    const path = join(folder, AUDIT_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect((await readAuditTrail(folder)).entries.map((e) => e.note)).toEqual(['two\nlines', 'n']);
  });

  it('an existing file of wider mode is made 0600', async () => {
    const folder = tempFolder();
    writeFileSync(join(folder, AUDIT_FILE), '', { mode: 0o644 });
    await appendAudit(folder, auditEntry(target, request, { created }, at)!);
    expect(statSync(join(folder, AUDIT_FILE)).mode & 0o777).toBe(0o600);
  });

  it('a damaged line is skipped and counted; the read is bounded (the cut first line is dropped)', async () => {
    const folder = tempFolder();
    await appendAudit(folder, auditEntry(target, request, { created }, at)!);
    appendFileSync(join(folder, AUDIT_FILE), 'not json\n{"time":1}\n');
    await appendAudit(folder, auditEntry({ ...target, profile: 'last' }, request, { created }, at)!);
    const read = await readAuditTrail(folder);
    expect(read.entries.map((e) => e.profile)).toEqual(['ops', 'last']);
    expect(read.skipped).toBe(2);
    const size = statSync(join(folder, AUDIT_FILE)).size;
    const lastLine = readFileSync(join(folder, AUDIT_FILE), 'utf8').trimEnd().split('\n').at(-1)!;
    const bounded = await readAuditTrail(folder, Buffer.byteLength(lastLine) + 5);
    expect(bounded).toEqual({ entries: [read.entries[1]], skipped: 0, truncated: true });
    expect(size).toBeGreaterThan(Buffer.byteLength(lastLine) + 5);
    // A bound that cuts exactly at a line's end drops nothing: that last line is whole, and read.
    expect(await readAuditTrail(folder, Buffer.byteLength(lastLine) + 1)).toEqual({ entries: [read.entries[1]], skipped: 0, truncated: true });
  });

  it('no file: no entries', async () => {
    expect(await readAuditTrail(tempFolder())).toEqual({ entries: [], skipped: 0, truncated: false });
  });

  it('the recorder never rejects: false when the line could not be written', async () => {
    const folder = tempFolder();
    writeFileSync(join(folder, 'file'), '');
    expect(await createAuditRecorder(join(folder, 'file', 'below'), target)(request, { created })).toBe(false);
    expect(await createAuditRecorder(folder, target)(request, { created })).toBe(true);
  });
});

describe('an attempt written ahead, then its outcomes', () => {
  it('again() writes a later outcome as the same attempt, in the order asked even unawaited; the last one counts', async () => {
    const folder = tempFolder();
    const recorder = createAuditRecorder(folder, target);
    const outcome = (await recorder.ahead(request))!;
    expect(outcome.attempt).toMatch(/^[0-9a-f]{16}$/);
    // The screen shows the secret, and the operator confirms at once: neither write is waited for before the next.
    const shown = outcome({ created, secret: 'unconfirmed' });
    const stored = recorder.again(outcome.attempt, { created });
    expect(await Promise.all([shown, stored])).toEqual([true, true]);
    const lines = readFileSync(join(folder, AUDIT_FILE), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.outcome, l.secret, l.attempt])).toEqual([
      ['unknown', undefined, outcome.attempt],
      ['created', 'unconfirmed', outcome.attempt],
      ['created', undefined, outcome.attempt],
    ]);
    expect(lines[1]!.reason).toBe('created, secret shown but not confirmed stored');
    const { entries } = await readAuditTrail(folder);
    expect(entries.map((e) => [e.outcome, e.secret])).toEqual([['created', undefined]]);
    // An attempt this recorder never wrote ahead: nothing is written.
    expect(await recorder.again('0123456789abcdef', { created })).toBe(false);
    expect(readFileSync(join(folder, AUDIT_FILE), 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });
});

describe('reading back for the keys screen', () => {
  it('reads its own writes: an outcome given a moment ago is what the attempt reads as, not its line ahead', async () => {
    const folder = tempFolder();
    const here = createAuditRecorder(folder, target);
    const outcome = await here.ahead(request);
    // Not awaited, as the console does not wait: a form opened right after reads the trail at once.
    void outcome!({ created, secret: 'unconfirmed' });
    void here.again(outcome!.attempt, { created });
    expect((await here.recentFor(request.subAccount, 1)).map((e) => [e.outcome, e.secret ?? null])).toEqual([['created', null]]);
  });

  it('recentFor: the last entries of that sub-account on this host, newest first; subscribers hear of each line', async () => {
    const folder = tempFolder();
    const here = createAuditRecorder(folder, target);
    const elsewhere = createAuditRecorder(folder, { profile: 'ops', host: 'other.example.com' });
    let heard = 0;
    const stop = here.subscribe(() => (heard += 1));
    for (const note of ['one', 'two', 'three', 'four']) await here({ ...request, note }, { created });
    await here({ ...request, subAccount: 'desk2', note: 'other sub' }, { created });
    await elsewhere({ ...request, note: 'other host' }, { created });
    // Not sent: no line, so nothing to hear.
    await here(request, { error: new BrokerError({ kind: 'network', operation: 'create key', stage: 'connect' }) });
    expect(heard).toBe(5);
    stop();
    await here({ ...request, note: 'five' }, { created });
    expect(heard).toBe(5);
    expect((await here.recentFor('desk1', 3)).map((e) => e.note)).toEqual(['five', 'four', 'three']);
    expect((await here.recentFor('desk1', 10)).map((e) => e.note)).toEqual(['five', 'four', 'three', 'two', 'one']);
    expect(await here.recentFor('desk1', 0)).toEqual([]);
    expect((await elsewhere.recentFor('desk1', 3)).map((e) => e.note)).toEqual(['other host']);
    expect(await here.recentFor('nobody', 3)).toEqual([]);
  });

  it('recentFor: no file or an unreadable one is no entries, never an error', async () => {
    const folder = tempFolder();
    expect(await createAuditRecorder(folder, target).recentFor('desk1', 3)).toEqual([]);
    writeFileSync(join(folder, 'file'), '');
    expect(await createAuditRecorder(join(folder, 'file'), target).recentFor('desk1', 3)).toEqual([]);
  });

  it('the pinned demo (--demo-clock) writes its entries at the pinned moment', async () => {
    const folder = tempFolder();
    const pinned = Date.parse('2026-11-21T09:30:00Z');
    const targets = createConsoleTargets({ folder, exportFolder: folder, demoClockMs: pinned });
    try {
      await targets.openDemo();
      await targets.current()!.audit!(request, { created });
      expect((await readAuditTrail(folder)).entries.map((e) => e.time)).toEqual(['2026-11-21T09:30:00.000Z']);
    } finally {
      await targets.close();
    }
  });
});

describe('the console records too', () => {
  it('a key created from the console leaves a created line (shortened key, no secret)', async () => {
    const folder = tempFolder();
    c = await startConsole({ audit: createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' }) });
    const name = c.sandbox.subAccounts[0]!;
    await reachReview(c, name, { toggle: [0], ip: '203.0.113.7', note: 'console key' });
    await c.press('enter');
    await c.waitForScreen('secret');
    const top = c.navState()!.stack.at(-1)!.route;
    if (top.screen !== 'secret') throw new Error('expected the secret screen');
    await c.waitFor(() => {
      try {
        // The attempt's line written before it was sent, then its outcome's.
        return readFileSync(join(folder, AUDIT_FILE), 'utf8').trimEnd().split('\n').length >= 2;
      } catch {
        return false;
      }
    }, 'the audit line');
    const { entries } = await readAuditTrail(folder);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ profile: 'demo', subAccount: name, outcome: 'created', note: 'console key', ips: ['203.0.113.7'] });
    expect(entries[0]!.apiKey).toBe(`${top.created.apiKey.slice(0, 4)}…${top.created.apiKey.slice(-4)}`);
    const bytes = readFileSync(join(folder, AUDIT_FILE));
    for (const secret of [top.created.secretKey, c.sandbox.secretKey]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('a refused create from the console leaves a refused line', async () => {
    const folder = tempFolder();
    c = await startConsole({ audit: createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' }) });
    await reachReview(c, c.sandbox.subAccounts[0]!, { toggle: [0], note: 'refused key' });
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 10072, msg: 'no such permission' });
    await c.press('enter');
    await c.waitFor(() => {
      try {
        // The attempt's line written before it was sent, then its outcome's.
        return readFileSync(join(folder, AUDIT_FILE), 'utf8').trimEnd().split('\n').length >= 2;
      } catch {
        return false;
      }
    }, 'the audit line');
    expect((await readAuditTrail(folder)).entries).toMatchObject([{ outcome: 'refused', code: 10072, message: 'no such permission', note: 'refused key' }]);
  });

  it('consoleTargets gives the demo target a recorder marked "demo", writing into the config folder', async () => {
    const folder = tempFolder();
    const targets = createConsoleTargets({ folder, exportFolder: folder });
    try {
      await targets.openDemo();
      const current = targets.current()!;
      expect(current.audit).toBeDefined();
      expect(await current.audit!(request, { created })).toBe(true);
      // The trail records the demo as the target, not the port its sandbox listens on this run.
      expect(current.host).toBe('sandbox');
      const [entry] = (await readAuditTrail(folder)).entries;
      expect(entry).toMatchObject({ profile: 'demo', host: 'demo', outcome: 'created' });
      expect(JSON.stringify(entry)).not.toContain('127.0.0.1');
      expect(await current.audit!.recentFor(request.subAccount, 5)).toEqual([entry]);
    } finally {
      await targets.close();
    }
  });
});

describe('never a secret', () => {
  it('after keys created in the console and by `keys create`, no created secret, no whole key and not the master secret is in audit.jsonl', async () => {
    const folder = tempFolder();
    c = await startConsole({ audit: createAuditRecorder(folder, { profile: 'demo', host: 'sandbox' }) });
    const name = c.sandbox.subAccounts[0]!;
    const made: { apiKey: string; secretKey: string }[] = [];
    for (let i = 0; i < 3; i++) {
      if (i === 0) await reachReview(c, name, { toggle: [0], note: `console ${i}` });
      else {
        await c.press('n');
        await c.waitForText(`New API key for ${name}`);
        await fillCreateForm(c, { toggle: [0], note: `console ${i}` });
        await c.press('enter');
        await c.waitForText('Review: this is exactly what will be sent');
      }
      await c.press('enter');
      await c.waitForScreen('secret');
      const top = c.navState()!.stack.at(-1)!.route;
      if (top.screen !== 'secret') throw new Error('expected the secret screen');
      made.push(top.created);
      await c.press('enter');
      await c.press('y');
      await c.waitForScreen('keys');
    }
    for (let i = 0; i < 3; i++) {
      const t = testContext(c.sandbox, { configFolder: folder });
      expect(await runKeysCreate({ allowRisky: true, sub: name, permissions: 'SPOT_ACCOUNT_READ', note: `command ${i}`, json: true }, t.ctx)).toBe(0);
      made.push(JSON.parse(t.out.text()) as { apiKey: string; secretKey: string });
    }
    // Recorded before it was sent, then its outcome; the secret shown (the console) or being written (the command),
    // then confirmed stored or written.
    await c.waitFor(() => readFileSync(join(folder, AUDIT_FILE), 'utf8').trimEnd().split('\n').length === 3 * 3 + 3 * 3, 'eighteen audit lines');
    const { entries } = await readAuditTrail(folder);
    expect(entries.map((e) => [e.note, e.outcome, e.apiKey])).toEqual(
      made.map((k, i) => [i < 3 ? `console ${i}` : `command ${i - 3}`, 'created', `${k.apiKey.slice(0, 4)}…${k.apiKey.slice(-4)}`]),
    );
    const bytes = readFileSync(join(folder, AUDIT_FILE));
    expect(new Set(made.map((k) => k.secretKey)).size).toBe(6);
    for (const secret of [...made.map((k) => k.secretKey), ...made.map((k) => k.apiKey), c.sandbox.secretKey]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
    }
  });
});
