import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createRequestLog, REQUEST_LOG_LIMIT } from '../../src/sandbox/requestLog';
import type { RunningSandbox } from '../../src/sandbox/types';
import { createKey, KEYS_PATH, listKeys, listTransfers, TRANSFERS_PATH, ownSandbox } from './helpers';

let sb: RunningSandbox;
let sub: string;
beforeAll(async () => {
  sb = await ownSandbox({ seed: 3, rateLimit: { max: 10_000, windowMs: 1000 } });
  sub = sb.subAccounts[0] as string;
});
afterEach(() => {
  sb.setFaultRates({});
});
afterAll(async () => {
  await sb.close();
});

const keyCount = async (): Promise<number> => ((await listKeys(sb, sub)).json as { subAccount: unknown[] }).subAccount.length;

describe('queued faults', () => {
  test('status: JSON envelope with the given status, code and message, then back to normal', async () => {
    sb.queueFaults({ kind: 'status', status: 503, code: 503, msg: 'maintenance' }, { kind: 'status', status: 500 });
    const first = await listKeys(sb, sub);
    expect(first.status).toBe(503);
    expect(first.json).toEqual({ code: 503, msg: 'maintenance' });
    const second = await listKeys(sb, sub);
    expect(second.status).toBe(500);
    expect(second.json).toEqual({ code: 500, msg: 'Internal Server Error' });
    expect((await listKeys(sb, sub)).status).toBe(200);
  });

  test('html: a non-JSON error page', async () => {
    sb.queueFaults({ kind: 'html', status: 502 });
    const res = await listKeys(sb, sub);
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>502 Bad Gateway</title>');
    expect(res.json).toBeUndefined();
  });

  test('envelope: the other envelope {"code":"0","message":""...}', async () => {
    sb.queueFaults({ kind: 'envelope', status: 400 });
    const res = await listTransfers(sb, [
      ['fromAccountType', 'SPOT'],
      ['toAccountType', 'FUTURE'],
    ]);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: '0', message: '', data: null });
  });

  test('malformed: 200 with a body that is not JSON', async () => {
    sb.queueFaults({ kind: 'malformed' }, { kind: 'malformed' });
    for (const res of [
      await listKeys(sb, sub),
      await listTransfers(sb, [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURE'],
      ]),
    ]) {
      expect(res.status).toBe(200);
      expect(res.text.length).toBeGreaterThan(0);
      expect(() => JSON.parse(res.text)).toThrow();
    }
  });

  test('wrong-shape: 200 with valid JSON of the wrong shape', async () => {
    sb.queueFaults({ kind: 'wrong-shape' }, { kind: 'wrong-shape' });
    const keys = await listKeys(sb, sub);
    expect(keys.status).toBe(200);
    expect(Array.isArray((keys.json as { subAccount?: unknown }).subAccount)).toBe(false);
    const transfers = await listTransfers(sb, [
      ['fromAccountType', 'SPOT'],
      ['toAccountType', 'FUTURE'],
    ]);
    expect(transfers.status).toBe(200);
    expect(transfers.json).toBeTypeOf('object');
    expect(Array.isArray(transfers.json)).toBe(false);
  });

  test('rate-limit: 429 with the given Retry-After', async () => {
    sb.queueFaults({ kind: 'rate-limit', retryAfterSec: 7 });
    const res = await listKeys(sb, sub);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.json).toMatchObject({ code: 429 });
  });

  test('delay: answers normally, later', async () => {
    sb.queueFaults({ kind: 'delay', ms: 300 });
    const started = Date.now();
    const res = await listKeys(sb, sub);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.status).toBe(200);
    expect((res.json as { subAccount: unknown[] }).subAccount).toBeInstanceOf(Array);
  });

  test('hold: answers normally once released, not before', async () => {
    sb.queueFaults({ kind: 'hold' });
    let answered = false;
    const pending = listKeys(sb, sub).then((res) => {
      answered = true;
      return res;
    });
    while (sb.held() === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    expect(sb.releaseHeld()).toBe(1);
    expect(sb.held()).toBe(0);
    const res = await pending;
    expect(res.status).toBe(200);
    expect((res.json as { subAccount: unknown[] }).subAccount).toBeInstanceOf(Array);
    expect(sb.releaseHeld()).toBe(0);
  });

  test('reset: the connection drops and nothing happens', async () => {
    const before = await keyCount();
    sb.queueFaults({ kind: 'reset' });
    await expect(createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'lost' })).rejects.toThrow();
    expect(await keyCount()).toBe(before);
  });

  test('reset-after-handling: the key is really created, but no answer comes', async () => {
    const before = await keyCount();
    sb.queueFaults({ kind: 'reset-after-handling' });
    await expect(createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'ghost' })).rejects.toThrow();
    const after = (await listKeys(sb, sub)).json as { subAccount: { note: string }[] };
    expect(after.subAccount).toHaveLength(before + 1);
    expect(after.subAccount.at(-1)?.note).toBe('ghost');
  });

  test('faults apply one per request, in order, to any path', async () => {
    sb.queueFaults({ kind: 'status', status: 418 }, { kind: 'html', status: 504 });
    expect(
      (
        await listTransfers(sb, [
          ['fromAccountType', 'SPOT'],
          ['toAccountType', 'FUTURE'],
        ])
      ).status,
    ).toBe(418);
    expect((await listKeys(sb, sub)).status).toBe(504);
    expect((await listKeys(sb, sub)).status).toBe(200);
  });
});

describe('fault rates', () => {
  test('errorRate 1 → every answer is a 5xx', async () => {
    sb.setFaultRates({ errorRate: 1 });
    for (let i = 0; i < 3; i++) expect((await listKeys(sb, sub)).status).toBeGreaterThanOrEqual(500);
    sb.setFaultRates({});
    expect((await listKeys(sb, sub)).status).toBe(200);
  });

  test('resetRate 1 → every connection drops', async () => {
    sb.setFaultRates({ resetRate: 1 });
    await expect(listKeys(sb, sub)).rejects.toThrow();
  });

  test('malformedRate 1 → 200 with broken JSON', async () => {
    sb.setFaultRates({ malformedRate: 1 });
    const res = await listKeys(sb, sub);
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
  });

  test('latencyMs delays every answer', async () => {
    sb.setFaultRates({ latencyMs: 200 });
    const started = Date.now();
    expect((await listKeys(sb, sub)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test('a half error rate gives both outcomes', async () => {
    sb.setFaultRates({ errorRate: 0.5 });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await listKeys(sb, sub)).status);
    expect(statuses.has(200)).toBe(true);
    expect(statuses.has(503)).toBe(true);
  });
});

describe('request log', () => {
  test('records method, path, raw query (signature included) and status, in order', async () => {
    const log = await ownSandbox({ seed: 4 });
    try {
      const s = log.subAccounts[0] as string;
      await listKeys(log, s);
      await listKeys(log, s, { secret: 'bad' });
      log.queueFaults({ kind: 'reset' });
      await expect(listKeys(log, s)).rejects.toThrow();
      await createKey(log, { subAccount: s, permissions: 'SPOT_ACCOUNT_READ', note: 'n' });
      await listTransfers(log, [
        ['fromAccountType', 'SPOT'],
        ['toAccountType', 'FUTURE'],
        ['limit', 1],
      ]);
      const records = log.requests();
      expect(records.map((r) => [r.method, r.path, r.status])).toEqual([
        ['GET', KEYS_PATH, 200],
        ['GET', KEYS_PATH, 400],
        ['GET', KEYS_PATH, 0],
        ['POST', KEYS_PATH, 200],
        ['GET', TRANSFERS_PATH, 200],
      ]);
      expect(records[0]?.query).toMatch(new RegExp(`^subAccount=${s}&recvWindow=5000&timestamp=\\d+&signature=[0-9a-f]{64}$`));
      expect(records[3]?.query).toMatch(/^recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
      // A snapshot: changing it does not change the log.
      const first = records[0] as { status: number };
      first.status = 999;
      expect(log.requests()[0]?.status).toBe(200);
    } finally {
      await log.close();
    }
  });

  test('keeps only the most recent 10,000 entries', () => {
    expect(REQUEST_LOG_LIMIT).toBe(10_000);
    const small = createRequestLog(3);
    for (let i = 0; i < 5; i++) small.start('GET', `/p${i}`, '').status = 200;
    expect(small.snapshot().map((r) => r.path)).toEqual(['/p2', '/p3', '/p4']);
  });
});

describe('lifecycle', () => {
  test('close() returns promptly with keep-alive connections, pending delays and held requests, and the port stops answering', async () => {
    const s = await ownSandbox();
    await listKeys(s, s.subAccounts[0] as string); // leaves a keep-alive socket open
    s.queueFaults({ kind: 'delay', ms: 10_000 }, { kind: 'hold' });
    const pending = listKeys(s, s.subAccounts[0] as string).catch((e: unknown) => e);
    const held = listKeys(s, s.subAccounts[0] as string).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
    expect(await held).toBeInstanceOf(Error);
    await expect(listKeys(s, s.subAccounts[0] as string)).rejects.toThrow();
    await s.close(); // idempotent
  });
});
