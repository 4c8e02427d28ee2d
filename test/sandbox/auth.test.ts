import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildQuery, signPayload } from '../../src/api/signing';
import { verifySignedRequest } from '../../src/sandbox/auth';
import type { RunningSandbox } from '../../src/sandbox/types';
import { call, createKey, KEYS_PATH, listKeys, listTransfers, type OnFinished, sandboxFor, TRANSFERS_PATH, ownSandbox } from './helpers';

const OPTIONS = { seed: 7, rateLimit: { max: 10_000, windowMs: 1000 } };

// Every block runs concurrently (the rate-limit test's wait overlaps the rest): tests on `sb` only read it, and
// a test that changes a sandbox or counts on one staying unchanged has its own.
let sb: RunningSandbox;
let sub: string;
beforeAll(async () => {
  sb = await ownSandbox(OPTIONS);
  sub = sb.subAccounts[0] as string;
});
afterAll(async () => {
  await sb.close();
});

/** A sandbox like `sb` for one test, closed when it ends. */
const sandboxOfTest = (onTestFinished: OnFinished): Promise<RunningSandbox> => sandboxFor(onTestFinished, OPTIONS);

const expectError = (res: { status: number; json: unknown }, status: number, code: number): void => {
  expect(res.status).toBe(status);
  expect(res.json).toEqual({ code, msg: expect.any(String) });
};

// First: its 1.6 s wait for the window starts at once and the other tests run during it.
describe.concurrent('rate limit', () => {
  test('over the per-key limit → 429 with Retry-After; the window resets', async () => {
    const limited = await ownSandbox({ rateLimit: { max: 3, windowMs: 1500 } });
    try {
      const sub0 = limited.subAccounts[0] as string;
      for (let i = 0; i < 3; i++) expect((await listKeys(limited, sub0)).status).toBe(200);
      const over = await listKeys(limited, sub0);
      expectError(over, 429, 429);
      expect(over.headers['retry-after']).toMatch(/^[12]$/);
      await new Promise((r) => setTimeout(r, 1600));
      expect((await listKeys(limited, sub0)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe.concurrent('authentication', () => {
  test('a correctly signed request passes (GET and POST)', async () => {
    expect((await listKeys(sb, sub)).status).toBe(200);
    expect((await createKey(sb, { subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'ok' })).status).toBe(200);
  });

  test('missing or unknown API key → 400 10072, checked before the signature', async () => {
    expectError(await listKeys(sb, sub, { apiKey: null }), 400, 400);
    expectError(await listKeys(sb, sub, { apiKey: 'mx0vnotakey', secret: 'wrong' }), 400, 10072);
  });

  test('wrong secret → 400 700002', async () => {
    expectError(await listKeys(sb, sub, { secret: 'f'.repeat(64) }), 400, 700002);
  });

  test('query altered after signing → 400 700002', async () => {
    const res = await listKeys(sb, sub, { tamperQuery: (q) => q.replace(`subAccount=${sub}`, `subAccount=${sb.subAccounts[1]}`) });
    expectError(res, 400, 700002);
  });

  test('under --post-signature body, a body altered after signing → 400 700002, and nothing is created', async ({ onTestFinished }) => {
    // Its own sandbox: a key another test creates meanwhile would change the list.
    const own = await sandboxFor(onTestFinished, { ...OPTIONS, postSignature: 'body' });
    const ownSub = own.subAccounts[0] as string;
    const before = (await listKeys(own, ownSub)).text;
    const body = { subAccount: ownSub, permissions: 'SPOT_ACCOUNT_READ', note: 'signed' };
    const res = await createKey(own, body, { rule: 'body', sendBody: JSON.stringify({ ...body, permissions: 'SPOT_WITHDRAW_WRITE' }) });
    expectError(res, 400, 700002);
    expect((await listKeys(own, ownSub)).text).toBe(before);
  });

  test('missing signature or timestamp → 400 700004', async () => {
    expectError(await listKeys(sb, sub, { tamperQuery: (q) => q.replace(/&signature=.*$/, '') }), 400, 700004);
    const query = buildQuery([
      ['subAccount', sub],
      ['recvWindow', 5000],
    ]);
    const signed = `${query}&signature=${signPayload(sb.secretKey, query)}`;
    const res = await request(`${sb.baseUrl}${KEYS_PATH}?${signed}`, { headers: { [sb.apiKeyHeader]: sb.apiKey } });
    expect(res.statusCode).toBe(400);
    expect(await res.body.json()).toMatchObject({ code: 700004 });
  });

  test('stale timestamp → 400 700003; within a larger recvWindow it passes', async () => {
    expectError(await listKeys(sb, sub, { timestamp: Date.now() - 6000 }), 400, 700003);
    expect((await listKeys(sb, sub, { timestamp: Date.now() - 6000, recvWindow: 10_000 })).status).toBe(200);
  });

  test('timestamp more than 1 s ahead → 400 700003; slightly ahead passes', async () => {
    expectError(await listKeys(sb, sub, { timestamp: Date.now() + 3000 }), 400, 700003);
    expect((await listKeys(sb, sub, { timestamp: Date.now() + 500 })).status).toBe(200);
  });

  test('the timing rule as the docs write it: a timestamp 1000 ms ahead is refused, 999 ms passes', () => {
    const config = { apiKey: 'k', secretKey: 's', apiKeyHeader: 'x-mexc-apikey', postSignature: 'query' as const, maxAheadMs: 1000 };
    const now = 1_700_000_000_000;
    const signedAt = (timestamp: number) => {
      const query = buildQuery([['timestamp', timestamp]]);
      return `${query}&signature=${signPayload('s', query)}`;
    };
    expect(() => verifySignedRequest(signedAt(now + 1000), '', now, config)).toThrow(expect.objectContaining({ code: 700003 }));
    expect(verifySignedRequest(signedAt(now + 999), '', now, config).get('timestamp')).toBe(String(now + 999));
    expect(verifySignedRequest(signedAt(now - 5000), '', now, config).get('timestamp')).toBe(String(now - 5000));
    expect(() => verifySignedRequest(signedAt(now - 5001), '', now, config)).toThrow(expect.objectContaining({ code: 700003 }));
  });

  test('an uppercase signature → 400 700002 ("The signature is support lowercase only")', async () => {
    const res = await listKeys(sb, sub, { tamperQuery: (q) => q.replace(/signature=([0-9a-f]+)$/, (_, hex: string) => `signature=${hex.toUpperCase()}`) });
    expectError(res, 400, 700002);
  });

  test("a create's parameters are read from its JSON body: one also in the signed query is not used", async ({ onTestFinished }) => {
    const own = await sandboxOfTest(onTestFinished);
    const [inQuery, inBody] = own.subAccounts as [string, string];
    const res = await createKey(own, { subAccount: inBody, permissions: 'SPOT_ACCOUNT_READ', note: 'both' }, { params: [['subAccount', inQuery]] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ subAccount: inBody, note: 'both' });
    expect((await listKeys(own, inBody)).text).toContain('"note":"both"');
    expect((await listKeys(own, inQuery)).text).not.toContain('"note":"both"');
  });

  test('a create with its parameters in the signed query and no body (the shape that failed live) → 400 730600, nothing created', async ({
    onTestFinished,
  }) => {
    const own = await sandboxOfTest(onTestFinished);
    const before = (await listKeys(own, sub)).text;
    const res = await createKey(
      own,
      {},
      {
        params: [
          ['subAccount', sub],
          ['permissions', 'SPOT_ACCOUNT_READ'],
          ['note', 'query'],
        ],
        sendBody: '',
        headers: { 'content-type': 'application/json' },
      },
    );
    expectError(res, 400, 730600);
    expect((await listKeys(own, sub)).text).toBe(before);
  });

  test("the signature is found wherever it sits (MEXC's demo sends it before timestamp); two signatures → 700004", async () => {
    const before = (query: string) => query.replace(/^(.*)&(timestamp=\d+)&(signature=[0-9a-f]+)$/, '$1&$3&$2');
    const moved = await listKeys(sb, sub, { tamperQuery: before });
    expect(sb.requests().at(-1)?.query).toMatch(/&signature=[0-9a-f]{64}&timestamp=\d+$/);
    expect(moved.status).toBe(200);
    const first = await listKeys(sb, sub, { tamperQuery: (query) => query.replace(/^(.*)&(signature=[0-9a-f]+)$/, '$2&$1') });
    expect(first.status).toBe(200);
    expectError(await listKeys(sb, sub, { tamperQuery: (query) => `${query}&signature=${'0'.repeat(64)}` }), 400, 700004);
  });

  test('recvWindow 60001 → 400 700005; 60000 passes', async () => {
    expectError(await listKeys(sb, sub, { recvWindow: 60_001 }), 400, 700005);
    expect((await listKeys(sb, sub, { recvWindow: 60_000 })).status).toBe(200);
  });

  test('master key without the permission → 403 700007, live after setPermissions', async ({ onTestFinished }) => {
    // Its own sandbox: the permissions are the sandbox's, every other test on it would meet them.
    const own = await sandboxOfTest(onTestFinished);
    const ownSub = own.subAccounts[0] as string;
    own.setPermissions(['SPOT_ACCOUNT_READ']);
    try {
      expect((await listKeys(own, ownSub)).status).toBe(200);
      expectError(await createKey(own, { subAccount: ownSub, permissions: 'SPOT_ACCOUNT_READ', note: 'n' }), 403, 700007);
      expectError(
        await listTransfers(own, [
          ['fromAccountType', 'SPOT'],
          ['toAccountType', 'FUTURE'],
        ]),
        403,
        700007,
      );
      own.setPermissions([]);
      expectError(await listKeys(own, ownSub), 403, 700007);
    } finally {
      own.setPermissions(['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE', 'SPOT_TRANSFER_READ']);
    }
    expect(
      (
        await listTransfers(own, [
          ['fromAccountType', 'SPOT'],
          ['toAccountType', 'FUTURE'],
          ['limit', 1],
        ])
      ).status,
    ).toBe(200);
  });
});

describe.concurrent('options', () => {
  test('custom credentials, header, query-only signing and a skewed clock with a matching Date header', async () => {
    const skewed = await ownSandbox({
      apiKey: 'mx0vcustomkey',
      secretKey: 'custom-secret',
      apiKeyHeader: 'X-Custom-Key',
      postSignature: 'query',
      clockOffsetMs: 120_000,
    });
    try {
      expect(skewed.apiKey).toBe('mx0vcustomkey');
      expect(skewed.apiKeyHeader).toBe('X-Custom-Key');
      const body = { subAccount: skewed.subAccounts[0], permissions: 'SPOT_ACCOUNT_READ', note: 'q' };
      // Local clock: outside the window of a server two minutes ahead.
      const stale = await createKey(skewed, body, { rule: 'query' });
      expectError(stale, 400, 700003);
      const dateHeader = Date.parse(String(stale.headers.date));
      expect(dateHeader - Date.now()).toBeGreaterThan(115_000);
      expect(dateHeader - Date.now()).toBeLessThan(125_000);
      // Server clock, query-only signature: passes even though the body is not signed.
      const ok = await createKey(skewed, body, { timestamp: Date.now() + 120_000, rule: 'query' });
      expect(ok.status).toBe(200);
      // A query + body signature does not match a query-only sandbox.
      expectError(await createKey(skewed, body, { timestamp: Date.now() + 120_000, rule: 'body' }), 400, 700002);
    } finally {
      await skewed.close();
    }
  });

  test('the Date header follows the sandbox clock', async () => {
    const res = await listKeys(sb, sub);
    expect(Math.abs(Date.parse(String(res.headers.date)) - Date.now())).toBeLessThan(2000);
  });
});

describe.concurrent('routing', () => {
  test('unknown path → 404 JSON, wrong method → 405 with Allow', async () => {
    const missing = await call(sb, { path: '/api/v3/broker/sub-account/nothing' });
    expectError(missing, 404, 404);
    const wrong = await call(sb, { method: 'DELETE', path: KEYS_PATH });
    expectError(wrong, 405, 405);
    expect(wrong.headers.allow).toBe('GET, POST');
    const post = await call(sb, { method: 'POST', path: TRANSFERS_PATH });
    expectError(post, 405, 405);
    expect(post.headers.allow).toBe('GET');
  });
});
