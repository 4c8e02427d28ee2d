// The signed client and the three operations against the real embedded sandbox, over real sockets.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerApi, ClientConfig, ExchangeInfo } from '../../src/api/contract';
import { BrokerError } from '../../src/api/errors';
import { poolStats } from '../../src/api/pools';
import { API_KEY_PATH, UNIVERSAL_TRANSFER_PATH, createBrokerApi } from '../../src/api/operations';
import { splitSignedQuery } from '../../src/sandbox/signature';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types';
import type { OnFinished } from '../sandbox/helpers';
import { ownSandbox } from '../sandbox/helpers';

const sandboxes: RunningSandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.splice(0).map((sb) => sb.close()));
});

async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  // A host of its own: a 60 s Retry-After met here never reaches a later server on the same port.
  const sb = await ownSandbox({ ...options });
  sandboxes.push(sb);
  return sb;
}

function closedWith<T extends BrokerApi>(onFinished: OnFinished, api: T): T {
  onFinished(() => api.close());
  return api;
}

function apiFor(onFinished: OnFinished, sb: RunningSandbox, overrides: Partial<ClientConfig> = {}): BrokerApi {
  return closedWith(onFinished, createBrokerApi({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, secretKey: sb.secretKey, retryBaseDelayMs: 5, ...overrides }));
}

async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BrokerError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Requests the sandbox received since `from`, for one path. */
function requestsSince(sb: RunningSandbox, from: number, path: string) {
  return sb
    .requests()
    .slice(from)
    .filter((r) => r.path === path);
}

const transferQuery = (sb: RunningSandbox) => ({ fromAccountType: 'SPOT', toAccountType: 'FUTURE', toAccount: sb.subAccounts[0], limit: 20 });

// One sandbox for these: they read its request log and queue faults on it, so they run one after another.
describe('the three operations against the sandbox', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await sandbox({ seed: 7 });
  });

  it('lists the keys of a sub-account, mapped to domain types', async ({ onTestFinished }) => {
    const api = apiFor(onTestFinished, sb);
    const sub = sb.subAccounts[0] ?? '';
    const keys = await api.listSubAccountKeys(sub);
    expect(Array.isArray(keys)).toBe(true);
    for (const key of keys) {
      expect(typeof key.apiKey).toBe('string');
      expect(Array.isArray(key.permissions)).toBe(true);
      expect(Array.isArray(key.ips)).toBe(true);
      expect(Number.isInteger(key.createdAt)).toBe(true);
      expect(key).not.toHaveProperty('creatTime');
    }
    const [record] = requestsSince(sb, 0, API_KEY_PATH).slice(-1);
    expect(record?.query).toMatch(new RegExp(`^subAccount=${encodeURIComponent(sub)}&recvWindow=5000&timestamp=\\d+&signature=[0-9a-f]{64}$`));
  });

  it('creates a key (JSON body in spec order, query with recvWindow, timestamp, signature only) and lists it', async ({ onTestFinished }) => {
    const api = apiFor(onTestFinished, sb);
    const sub = sb.subAccounts[1] ?? '';
    const from = sb.requests().length;
    const created = await api.createSubAccountKey({
      subAccount: sub,
      permissions: ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_WRITE'],
      ips: ['10.0.0.1', '10.0.0.2'],
      note: 'made by a test',
    });
    expect(created).toMatchObject({
      subAccount: sub,
      note: 'made by a test',
      permissions: ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_WRITE'],
      ips: ['10.0.0.1', '10.0.0.2'],
    });
    expect(created.apiKey).not.toBe('');
    expect(created.secretKey.length).toBeGreaterThan(10);
    expect(Math.abs(Number(created.createdAt) - Date.now())).toBeLessThan(60_000);
    const [post] = requestsSince(sb, from, API_KEY_PATH);
    expect(post?.method).toBe('POST');
    expect(post?.query).toMatch(/^recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);

    const listed = await api.listSubAccountKeys(sub);
    expect(listed.find((k) => k.apiKey === created.apiKey)).toMatchObject({ note: 'made by a test', ips: ['10.0.0.1', '10.0.0.2'] });
  });

  it('creates a key without IPs (the answer omits ip)', async ({ onTestFinished }) => {
    const created = await apiFor(onTestFinished, sb).createSubAccountKey({ subAccount: sb.subAccounts[1] ?? '', permissions: ['read_only'], note: 'no ip' });
    expect(created.ips).toEqual([]);
    expect(created.permissions).toEqual(['read_only']);
  });

  it('lists universal transfers with the query in the spec order; amounts stay strings', async ({ onTestFinished }) => {
    const from = sb.requests().length;
    const query = { ...transferQuery(sb), startTime: 0, endTime: Date.now() + 60_000, page: 1 };
    const transfers = await apiFor(onTestFinished, sb).listUniversalTransfers(query);
    expect(transfers.length).toBeGreaterThan(0);
    for (const t of transfers) {
      expect(t.amount).toMatch(/^\d+(\.\d+)?$/);
      expect(typeof t.timestamp).toBe('number');
      expect(t.fromAccountType).toBe('SPOT');
      expect(t.toAccountType).toBe('FUTURE');
    }
    const [record] = requestsSince(sb, from, UNIVERSAL_TRANSFER_PATH);
    const names = [...new URLSearchParams(splitSignedQuery(record?.query ?? '')?.unsigned)].map(([n]) => n);
    expect(names).toEqual(['toAccount', 'fromAccountType', 'toAccountType', 'startTime', 'endTime', 'page', 'limit', 'recvWindow', 'timestamp']);
  });

  it('calls onExchange after every try, without the query', async ({ onTestFinished }) => {
    const seen: ExchangeInfo[] = [];
    const api = apiFor(onTestFinished, sb, { onExchange: (e) => seen.push(e) });
    sb.queueFaults({ kind: 'status', status: 503 });
    await api.listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(seen.map((e) => [e.attempt, e.status, e.ok])).toEqual([
      [1, 503, false],
      [2, 200, true],
    ]);
    expect(seen.every((e) => e.path === API_KEY_PATH && e.method === 'GET' && e.operation === 'list keys')).toBe(true);
  });
});

// From here to the proxy, every test has its own sandbox (its request log, its queued faults) and its own
// clients: the three blocks run concurrently, overlapping their waits (Retry-After, timeouts, aborts).
describe.concurrent('service errors', () => {
  it('surfaces a wrong secret as 700002, without the secret or the signature in the message', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const api = apiFor(onTestFinished, sb, { secretKey: 'not-the-secret' });
    const error = await failure(api.listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'service', status: 400, code: 700002 });
    const signature = splitSignedQuery(sb.requests().at(-1)?.query ?? '')?.signature ?? 'missing';
    expect(error.message).not.toContain('not-the-secret');
    expect(error.message).not.toContain(signature);
    expect(error.message).not.toContain('timestamp=');
    expect(sb.requests()).toHaveLength(1);
  });

  it('signs a create over query + body when pinned to body, matching a sandbox started the same way', async ({ onTestFinished }) => {
    const sb = await sandbox({ postSignature: 'body' });
    const created = await apiFor(onTestFinished, sb, { postSignature: 'body' }).createSubAccountKey({
      subAccount: sb.subAccounts[0] ?? '',
      permissions: ['SPOT_ACCOUNT_READ'],
      note: 'q',
    });
    expect(created.secretKey).not.toBe('');
    const mismatch = await failure(
      apiFor(onTestFinished, sb, { postSignature: 'query' }).createSubAccountKey({
        subAccount: sb.subAccounts[0] ?? '',
        permissions: ['SPOT_ACCOUNT_READ'],
        note: 'q',
      }),
    );
    expect(mismatch.code).toBe(700002);
  });

  it('surfaces a master key without the permission as 700007', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.setPermissions(['SPOT_ACCOUNT_READ']);
    const error = await failure(apiFor(onTestFinished, sb).listUniversalTransfers(transferQuery(sb)));
    expect(error).toMatchObject({ kind: 'service', status: 403, code: 700007 });
    expect(error.message).toContain('lacks the permission');
    expect(sb.requests()).toHaveLength(1);
  });

  it('uses the configured API key header', async ({ onTestFinished }) => {
    const sb = await sandbox({ apiKeyHeader: 'X-Other-Key' });
    const keys = await apiFor(onTestFinished, sb, { apiKeyHeader: 'X-Other-Key' }).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(Array.isArray(keys)).toBe(true);
    // Under the default header the sandbox finds no key: the error table's "api key required".
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ status: 400, code: 400, serviceMessage: 'api key required' });
  });

  it('reads a non-JSON HTML error page as a service error with one short line', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'html', status: 404 });
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'service', status: 404, serviceMessage: '404 Not Found' });
    expect(error.message).not.toMatch(/[<\n]/);
  });

  it('reads the other envelope {"code":"0","message":""}', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'envelope', status: 400 });
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'service', status: 400, code: 0 });
    expect(error.message).toMatch(/^list keys failed \(HTTP 400/);
  });

  it('calls a 200 that is not JSON malformed', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'malformed' });
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'malformed', status: 200 });
    expect(sb.requests()).toHaveLength(1);
  });

  it('calls JSON of the wrong shape malformed', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'wrong-shape' });
    const error = await failure(apiFor(onTestFinished, sb).listUniversalTransfers(transferQuery(sb)));
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('unexpected answer');
  });
});

describe.concurrent('retries', () => {
  it('retries a GET on 503 with a fresh timestamp and signature: two 503s then success → 3 requests', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    const keys = await apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(Array.isArray(keys)).toBe(true);
    const records = sb.requests();
    expect(records.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(records.map((r) => splitSignedQuery(r.query)?.signature)).size).toBe(3);
  });

  it('gives up after maxTries and throws the last error', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'status', status: 502 }, { kind: 'status', status: 503 }, { kind: 'status', status: 504 });
    const error = await failure(apiFor(onTestFinished, sb, { maxTries: 2 }).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'service', status: 503 });
    expect(sb.requests()).toHaveLength(2);
  });

  it('never retries a POST: one 503 → exactly one POST, its outcome unknown (a 5xx may have been a success)', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'status', status: 503 });
    const error = await failure(
      apiFor(onTestFinished, sb).createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'x' }),
    );
    expect(error).toMatchObject({ kind: 'outcome-unknown', status: 503, stage: 'server' });
    expect(sb.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('honours Retry-After on 429, then succeeds', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'rate-limit', retryAfterSec: 1 });
    const started = performance.now();
    await apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(sb.requests().map((r) => r.status)).toEqual([429, 200]);
  });

  it('fails at once when Retry-After is beyond the cap, carrying retryAfterMs', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'rate-limit', retryAfterSec: 60 });
    const started = performance.now();
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error).toMatchObject({ kind: 'service', status: 429, retryAfterMs: 60_000 });
    expect(error.message).toContain('try again in 60 s');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(sb.requests()).toHaveLength(1);
  });

  it('a cancel while the first request waits for its connection pool sends nothing', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const controller = new AbortController();
    const pending = apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '', { signal: controller.signal });
    // Before the pool (undici, loaded at a process's first request) is in: the try has not begun to send.
    queueMicrotask(() => controller.abort());
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
    expect(sb.requests()).toHaveLength(0);
  });

  it('lets the caller abort the wait between tries', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'rate-limit', retryAfterSec: 5 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(sb.requests()).toHaveLength(1);
  });

  it('retries a GET whose connection was reset', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'reset' });
    const keys = await apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(Array.isArray(keys)).toBe(true);
    expect(sb.requests()).toHaveLength(2);
  });
});

describe.concurrent('connections and time', () => {
  it('a POST whose connection drops after handling is outcome-unknown, and the key exists', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const sub = sb.subAccounts[0] ?? '';
    const api = apiFor(onTestFinished, sb);
    sb.queueFaults({ kind: 'reset-after-handling' });
    const error = await failure(api.createSubAccountKey({ subAccount: sub, permissions: ['SPOT_ACCOUNT_READ'], note: 'maybe-made' }));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain('check before sending it again');
    expect(sb.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    const keys = await api.listSubAccountKeys(sub);
    expect(keys.some((k) => k.note === 'maybe-made')).toBe(true);
  });

  it('a POST that cannot connect is a network error: nothing was sent', async ({ onTestFinished }) => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const api = closedWith(onTestFinished, createBrokerApi({ baseUrl: `http://127.0.0.1:${closedPort}`, apiKey: 'k', secretKey: 's' }));
    const error = await failure(api.createSubAccountKey({ subAccount: 'a', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' }));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('times out when the answer comes later than timeoutMs', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'delay', ms: 2_000 });
    const started = performance.now();
    const error = await failure(apiFor(onTestFinished, sb, { timeoutMs: 200, maxTries: 1 }).listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('retries a GET that timed out', async ({ onTestFinished }) => {
    const sb = await sandbox();
    // The retry has the same deadline: long enough for a loaded machine's sandbox to answer it.
    sb.queueFaults({ kind: 'delay', ms: 5_000 });
    const keys = await apiFor(onTestFinished, sb, { timeoutMs: 1_000 }).listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(Array.isArray(keys)).toBe(true);
    expect(sb.requests()).toHaveLength(2);
  });

  it('a POST that times out is outcome-unknown', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'delay', ms: 1_000 });
    const error = await failure(
      apiFor(onTestFinished, sb, { timeoutMs: 200 }).createSubAccountKey({
        subAccount: sb.subAccounts[0] ?? '',
        permissions: ['SPOT_ACCOUNT_READ'],
        note: 'slow',
      }),
    );
    expect(error.kind).toBe('outcome-unknown');
  });

  it('an abort through the caller signal is aborted, not a timeout', async ({ onTestFinished }) => {
    const sb = await sandbox();
    sb.queueFaults({ kind: 'delay', ms: 2_000 });
    const controller = new AbortController();
    // Aborted once the sandbox has the request (a fixed delay could abort before it arrives on a busy machine).
    const abortOnArrival = setInterval(() => {
      if (sb.requests().length > 0) controller.abort();
    }, 5);
    onTestFinished(() => clearInterval(abortOnArrival));
    const error = await failure(apiFor(onTestFinished, sb, { timeoutMs: 5_000 }).listSubAccountKeys(sb.subAccounts[0] ?? '', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(sb.requests()).toHaveLength(1);
  });

  it('does not send at all when the signal is already aborted', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const error = await failure(apiFor(onTestFinished, sb).listSubAccountKeys(sb.subAccounts[0] ?? '', { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(sb.requests()).toHaveLength(0);
  });

  for (const clockOffsetMs of [30_000, -30_000]) {
    it(`recovers from a server clock ${clockOffsetMs > 0 ? 'ahead' : 'behind'} by 30 s for a GET`, async ({ onTestFinished }) => {
      const sb = await sandbox({ clockOffsetMs });
      const api = apiFor(onTestFinished, sb, { maxTries: 1 });
      const keys = await api.listSubAccountKeys(sb.subAccounts[0] ?? '');
      expect(Array.isArray(keys)).toBe(true);
      expect(Math.abs(api.clockOffsetMs() - clockOffsetMs)).toBeLessThan(1_500);
      expect(sb.requests().map((r) => r.status)).toEqual([400, 200]);
      // Once measured, the next request is right the first time, a POST included.
      await api.createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'clock' });
      expect(sb.requests().map((r) => r.status)).toEqual([400, 200, 200]);
    });
  }

  it('resends a POST rejected for its timestamp (700003) once, with the offset re-measured from that answer', async ({ onTestFinished }) => {
    const sb = await sandbox({ clockOffsetMs: 30_000 });
    const api = apiFor(onTestFinished, sb);
    const created = await api.createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'c' });
    expect(created.secretKey).not.toBe('');
    expect(sb.requests().map((r) => [r.method, r.status])).toEqual([
      ['POST', 400],
      ['POST', 200],
    ]);
    expect(api.clockOffsetMs()).toBeGreaterThan(28_000);
  });

  it('a header value or name the HTTP layer would refuse is invalid-request: nothing sent, not retried', async ({ onTestFinished }) => {
    const sb = await sandbox();
    for (const overrides of [{ apiKey: 'mx0v\r\nX-Injected: 1' }, { apiKey: '' }, { apiKeyHeader: 'X Key' }]) {
      const api = apiFor(onTestFinished, sb, overrides);
      const get = await failure(api.listSubAccountKeys(sb.subAccounts[0] ?? ''));
      const post = await failure(api.createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' }));
      for (const error of [get, post]) {
        expect(error.kind).toBe('invalid-request');
        expect(error.message).toMatch(/was not sent: .* — nothing was sent$/);
        expect(error.message).not.toContain('X-Injected');
      }
    }
    expect(sb.requests()).toHaveLength(0);
  });

  it('starts with a given clock offset (the one a previous run measured)', async ({ onTestFinished }) => {
    const sb = await sandbox({ clockOffsetMs: -30_000 });
    const api = apiFor(onTestFinished, sb, { initialClockOffsetMs: -30_000 });
    await api.createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' });
    expect(sb.requests().map((r) => r.status)).toEqual([200]);
  });

  it('an answer held 1.5 s on its way, its Date stamped before: measures nothing, and the offset learned before stays', async ({ onTestFinished }) => {
    // A run before measured an offset of 2 s. This answer is stamped as it arrives (a clock that agrees with ours),
    // then held 1.5 s (a proxy): agreeing clocks explain it, and so would one 1.5 s ahead, so it measures nothing.
    const server = createServer((req, res) => {
      req.resume();
      const stamped = new Date().toUTCString();
      setTimeout(() => {
        res.sendDate = false;
        res.writeHead(200, { 'Content-Type': 'application/json', Date: stamped });
        res.end('{"subAccount":[]}');
      }, 1500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const api = createBrokerApi({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'mx0vheldanswer',
      secretKey: 's',
      initialClockOffsetMs: 2000,
    });
    onTestFinished(() => api.close());
    await api.listSubAccountKeys('held01answer');
    expect(api.clockOffsetMs()).toBe(2000);
  });

  it('keeps the offset at 0 when the clocks agree', async ({ onTestFinished }) => {
    const sb = await sandbox();
    const api = apiFor(onTestFinished, sb);
    await api.listSubAccountKeys(sb.subAccounts[0] ?? '');
    expect(api.clockOffsetMs()).toBe(0);
  });
});

// Alone again: the socket count depends on when undici frees a socket, which other tests' work could delay.
describe('behind a proxy path, over few connections', () => {
  let sb: RunningSandbox;
  let proxy: Server;
  let proxyUrl: string;
  let connections = 0;

  beforeAll(async () => {
    sb = await sandbox();
    // A reverse proxy serving the sandbox under /proxy; it counts the client's TCP connections.
    proxy = createServer((req, res) => {
      const target = new URL(sb.baseUrl);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: (req.url ?? '').replace(/^\/proxy/, ''), headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    proxy.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/proxy/`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      proxy.closeAllConnections();
    });
  });

  it('joins a base URL with a path prefix and reuses keep-alive connections (21 calls, at most 2 sockets)', async ({ onTestFinished }) => {
    const api = closedWith(onTestFinished, createBrokerApi({ baseUrl: proxyUrl, apiKey: sb.apiKey, secretKey: sb.secretKey }));
    const before = sb.requests().length;
    for (let i = 0; i < 20; i += 1) await api.listSubAccountKeys(sb.subAccounts[0] ?? '');
    await api.createSubAccountKey({ subAccount: sb.subAccounts[0] ?? '', permissions: ['SPOT_ACCOUNT_READ'], note: 'via proxy' });
    const received = sb.requests().slice(before);
    expect(received).toHaveLength(21);
    expect(received.every((r) => r.path === API_KEY_PATH && r.status === 200)).toBe(true);
    // undici's Pool may open a second socket when the next request is dispatched before the first socket is
    // marked free again (same tick as the body's end); what matters is reuse, not one new socket per call.
    expect(connections).toBeGreaterThanOrEqual(1);
    expect(connections).toBeLessThanOrEqual(2);
  });
});

describe('pool ownership', () => {
  it('shares one pool per origin between clients and closes it with the last one', async () => {
    const sb = await sandbox();
    const config = { baseUrl: sb.baseUrl, apiKey: sb.apiKey, secretKey: sb.secretKey };
    const one = createBrokerApi(config);
    const two = createBrokerApi({ ...config, baseUrl: `${sb.baseUrl}/` });
    const [listed] = await Promise.all([one.listSubAccountKeys(sb.subAccounts[0] ?? ''), two.listSubAccountKeys(sb.subAccounts[0] ?? '')]);
    expect(poolStats(sb.baseUrl)?.connected).toBeGreaterThanOrEqual(1);
    await one.close();
    await one.close();
    expect(poolStats(sb.baseUrl)).toBeDefined();
    // The other client still answers, through the pool the first one let go of.
    expect(await two.listSubAccountKeys(sb.subAccounts[0] ?? '')).toEqual(listed);
    const closedError = await failure(one.listSubAccountKeys(sb.subAccounts[0] ?? ''));
    expect(closedError.kind).toBe('network');
    await two.close();
    expect(poolStats(sb.baseUrl)).toBeUndefined();
  });
});
