// The pinned demo (--demo-clock): the same seed and clock give the same data, keys and secrets that
// spell "demo", the same "now" and latency in the console, while requests are still checked against the
// real clock (the one the client signs with). A sandbox that is not pinned keeps random keys.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { createConsoleTargets, type ConsoleTargets } from '../../src/commands/consoleTargets';
import { runSandboxCommand } from '../../src/commands/sandbox';
import { DEMO_CLOCK_ENV, DEMO_LATENCY_MS, demoKey, parseDemoClock, resolveDemoClock } from '../../src/sandbox/demoClock';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types';
import { listKeys, ownSandbox } from '../sandbox/helpers';

const PIN = Date.UTC(2026, 10, 21, 9, 30, 0);
const DAY = 86_400_000;
const NEW_KEY = { subAccount: '', permissions: ['SPOT_ACCOUNT_READ'], ip: ['203.0.113.7'], note: 'demo key' };

const open: RunningSandbox[] = [];
const folders: string[] = [];
let targets: ConsoleTargets | undefined;

afterEach(async () => {
  await targets?.close();
  targets = undefined;
  await Promise.all(open.splice(0).map((s) => s.close()));
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

async function sandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const s = await ownSandbox(options);
  open.push(s);
  return s;
}

const client = (s: RunningSandbox) => createBrokerApi({ baseUrl: s.baseUrl, apiKey: s.apiKey, secretKey: s.secretKey });

describe('--demo-clock', () => {
  it('takes an ISO time with its zone, and says what is wrong with anything else', () => {
    expect(parseDemoClock('2026-11-21T09:30:00Z')).toEqual({ ok: true, ms: PIN });
    expect(parseDemoClock('2026-11-21T11:30+02:00')).toEqual({ ok: true, ms: PIN });
    expect(parseDemoClock(' 2026-11-21t09:30:00.000z ')).toEqual({ ok: true, ms: PIN });
    for (const bad of [
      '2026-11-21',
      '2026-11-21T09:30:00',
      'now',
      '7d',
      '1763717400000',
      '2026-02-30T00:00:00Z',
      '2026-11-21T24:00:00Z',
      '1999-01-01T00:00:00Z',
    ]) {
      const parsed = parseDemoClock(bad);
      expect(parsed.ok, bad).toBe(false);
    }
    expect(resolveDemoClock(undefined, {})).toBeUndefined();
    expect(resolveDemoClock(undefined, { [DEMO_CLOCK_ENV]: '2026-11-21T09:30:00Z' })).toBe(PIN);
    // The flag wins over the environment; each names itself when wrong.
    expect(resolveDemoClock('2026-11-21T09:30:00Z', { [DEMO_CLOCK_ENV]: 'garbage' })).toBe(PIN);
    expect(() => resolveDemoClock('garbage', {})).toThrow(/^--demo-clock: 'garbage' is not an ISO time/);
    expect(() => resolveDemoClock(undefined, { [DEMO_CLOCK_ENV]: 'garbage' })).toThrow(/^BROKER_DEMO_CLOCK: /);
  });

  it('the same seed and clock give the same sub-accounts, keys and transfers, laid out back from the pin', async () => {
    const [a, b] = await Promise.all([sandbox({ seed: 1, demoClockMs: PIN }), sandbox({ seed: 1, demoClockMs: PIN })]);
    const [apiA, apiB] = [client(a), client(b)];
    try {
      expect(a.subAccounts).toEqual(b.subAccounts);
      const sub = a.subAccounts[4] as string;
      const [keysA, keysB] = await Promise.all([apiA.listSubAccountKeys(sub), apiB.listSubAccountKeys(sub)]);
      expect(keysA).toEqual(keysB);
      for (const key of keysA) expect(key.createdAt).toBeLessThan(PIN);
      const query = { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 500 };
      const [pageA, pageB] = await Promise.all([apiA.listUniversalTransfers(query), apiB.listUniversalTransfers(query)]);
      expect(pageA.length).toBeGreaterThan(0);
      expect(pageA).toEqual(pageB);
      for (const t of pageA) {
        expect(t.timestamp).toBeLessThan(PIN);
        expect(t.timestamp).toBeGreaterThan(PIN - 121 * DAY);
      }
    } finally {
      await Promise.all([apiA.close(), apiB.close()]);
    }
  });

  it('created keys are made at the pin, with an API key and secret from a counter that spell demo', async () => {
    const s = await sandbox({ seed: 1, demoClockMs: PIN });
    const api = client(s);
    try {
      const sub = s.subAccounts[0] as string;
      const first = await api.createSubAccountKey({ ...NEW_KEY, subAccount: sub });
      const second = await api.createSubAccountKey({ ...NEW_KEY, subAccount: s.subAccounts[1] as string });
      expect(first.apiKey).toBe('mx0vdemo000000000000000000000001');
      expect(first.secretKey).toBe(`demo${'0'.repeat(59)}1`);
      expect(first.apiKey).toHaveLength(32);
      expect(first.secretKey).toHaveLength(64);
      expect(first.createdAt).toBe(PIN);
      expect(second).toMatchObject(demoKey(2));
      // The list shows the created key as it was made.
      const listed = (await api.listSubAccountKeys(sub)).at(-1);
      expect(listed).toMatchObject({ apiKey: first.apiKey, createdAt: PIN });
      // A second pinned sandbox counts again from 1: every take makes the same keys.
      const again = await sandbox({ seed: 1, demoClockMs: PIN });
      const api2 = client(again);
      try {
        expect(await api2.createSubAccountKey({ ...NEW_KEY, subAccount: sub })).toMatchObject({ ...demoKey(1), createdAt: PIN });
      } finally {
        await api2.close();
      }
    } finally {
      await api.close();
    }
  });

  it('requests are still checked against the real clock: a pin years away, and the client signs and verifies as usual', async () => {
    const far = Date.UTC(2031, 0, 1);
    const s = await sandbox({ seed: 1, demoClockMs: far });
    const sub = s.subAccounts[0] as string;
    expect((await listKeys(s, sub, { timestamp: Date.now() })).status).toBe(200);
    // Signed with the pinned time instead, the request is outside recvWindow of the real clock: 700003.
    const pinned = await listKeys(s, sub, { timestamp: far });
    expect(pinned.status).toBe(400);
    expect((pinned.json as { code: number }).code).toBe(700003);
    expect((await listKeys(s, sub, { timestamp: Date.now() - 60_000 })).status).toBe(400);
    const api = client(s);
    try {
      await expect(api.listSubAccountKeys(sub)).resolves.toBeInstanceOf(Array);
      expect(Math.abs(api.clockOffsetMs())).toBeLessThan(1000);
    } finally {
      await api.close();
    }
  });

  it('a sandbox that is not pinned keeps random keys and secrets, made at the server clock', async () => {
    const s = await sandbox({ seed: 1 });
    const api = client(s);
    try {
      const before = Date.now();
      const a = await api.createSubAccountKey({ ...NEW_KEY, subAccount: s.subAccounts[0] as string });
      const b = await api.createSubAccountKey({ ...NEW_KEY, subAccount: s.subAccounts[0] as string });
      for (const key of [a, b]) {
        expect(key.apiKey).toMatch(/^mx0v[0-9a-f]{28}$/);
        expect(key.apiKey.startsWith('mx0vdemo')).toBe(false);
        expect(key.secretKey).toMatch(/^[0-9a-f]{64}$/);
        expect(key.createdAt).toBeGreaterThanOrEqual(before - 1000);
      }
      expect(a.apiKey).not.toBe(b.apiKey);
      expect(a.secretKey).not.toBe(b.secretKey);
    } finally {
      await api.close();
    }
  });

  it('the console pinned: its now, the latency its status bar is told and the export file name follow the pin', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bc-demo-clock-'));
    folders.push(folder);
    targets = createConsoleTargets({ folder, exportFolder: folder, demoClockMs: PIN });
    await targets.openDemo();
    const target = targets.current();
    expect(target?.mode).toBe('demo');
    expect(target?.now?.()).toBe(PIN);
    const sub = target?.suggestions[4] as string;
    await target?.api.listSubAccountKeys(sub);
    expect(target?.exchanges.last()).toMatchObject({ ok: true, latencyMs: DEMO_LATENCY_MS });
    const created = await target?.api.createSubAccountKey({ ...NEW_KEY, subAccount: sub });
    expect(created).toMatchObject({ ...demoKey(1), createdAt: PIN });
    expect(target?.exchanges.last()?.latencyMs).toBe(DEMO_LATENCY_MS);
    const result = await target?.exporter.run(
      { scope: 'page', format: 'csv', query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 5 } },
      () => undefined,
      new AbortController().signal,
    );
    expect(result?.path).toBe(join(folder, 'transfers-2026-11-21T09-30-00Z-page1.csv'));
  });

  it('the console not pinned: the real clock and the measured latency', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bc-demo-clock-'));
    folders.push(folder);
    targets = createConsoleTargets({ folder, exportFolder: folder });
    await targets.openDemo();
    const target = targets.current();
    expect(target?.now).toBeUndefined();
    const created = await target?.api.createSubAccountKey({ ...NEW_KEY, subAccount: target.suggestions[0] as string });
    expect(created?.apiKey.startsWith('mx0vdemo')).toBe(false);
    expect(Math.abs(Number(created?.createdAt ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('sandbox --demo-clock says the pin in its first lines', async () => {
    let text = '';
    const out = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream;
    const s = await runSandboxCommand({ seed: 1, demoClockMs: PIN }, out, { handleSignals: false });
    open.push(s);
    expect(text).toContain('demo clock:   2026-11-21T09:30:00.000Z');
  });
});
