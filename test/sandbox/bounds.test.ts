// The sandbox stays a faithful, bounded peer: what Node's parser refuses is answered in
// the service's envelope and the socket closed; a body (or headers) that never come are given up within
// ~2 s; the request log is bounded in bytes and keeps only a cut, copied query.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD, MAX_LOGGED_PATH, MAX_LOGGED_QUERY, REQUEST_LOG_BYTES, createRequestLog } from '../../src/sandbox/requestLog';
import { BODY_DEADLINE_MS } from '../../src/sandbox/server';
import type { RunningSandbox } from '../../src/sandbox/types';
import { KEYS_PATH, call, ownSandbox } from './helpers';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await ownSandbox({ seed: 5 });
});
afterAll(() => sb.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent to the socket's close. */
  closedAfterMs: number;
  closed: boolean;
}

/** Writes raw bytes to the sandbox at `at` (its base URL), reads until the server closes (or `waitMs`). */
function raw(data: string | Buffer, waitMs = 6000, at = sb.baseUrl): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const { hostname, port } = new URL(at);
    const socket = connect(Number(port), hostname, () => socket.write(data));
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closedAfterMs: Date.now() - started, closed });
      socket.destroy();
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
  });
}

/** The JSON body, de-chunked when the answer came chunked. */
function envelopeOf(answer: RawAnswer): unknown {
  const body = answer.headers['transfer-encoding'] === 'chunked' ? answer.body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '') : answer.body;
  return JSON.parse(body);
}

describe("parser-level errors get the service's envelope, then the socket closes", () => {
  it.each([
    ['garbage', 'hello there\r\n\r\n', 400, 'HPE_INVALID_METHOD'],
    ['a bad method', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'HPE_INVALID_METHOD'],
    [
      'Content-Length with Transfer-Encoding',
      `POST ${KEYS_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'HPE_',
    ],
    ['a 1 MB query', `GET ${KEYS_PATH}?${'a'.repeat(1_000_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
    ['a bad header line', 'GET / HTTP/1.1\r\nHo st: x\r\n\r\n', 400, 'HPE_'],
    ['a bad chunk', `POST ${KEYS_PATH} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`, 400, 'HPE_'],
  ])('%s: %i in the envelope, JSON content type, socket closed', async (_name, data, status, code) => {
    const before = sb.requests().length;
    const answer = await raw(data);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    const env = envelopeOf(answer) as { code: number; msg: string };
    expect(env.code).toBe(status);
    expect(env.msg).toContain(code);
    expect(answer.closed).toBe(true);
    expect(answer.closedAfterMs).toBeLessThan(1500);
    // A chunked request the parser refused midway did reach the handler: it is logged. Others never do.
    expect(sb.requests().length - before).toBeLessThanOrEqual(1);
  });
});

// Each case waits out a deadline of seconds: they run at once, each against a sandbox of its own.
describe.concurrent('deadlines', () => {
  const promisedPost = (key: string | undefined): string =>
    `POST ${KEYS_PATH}?recvWindow=5000 HTTP/1.1\r\nHost: x\r\n${key ? `X-MEXC-APIKEY: ${key}\r\n` : ''}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sub`;
  const own = async <T>(body: (sandbox: RunningSandbox, at: string) => Promise<T>): Promise<T> => {
    const sandbox = await ownSandbox({ seed: 5 });
    try {
      return await body(sandbox, sandbox.baseUrl);
    } finally {
      await sandbox.close();
    }
  };

  it('a POST whose promised body never comes: 408 in the envelope within ~2 s, socket closed, logged as 408', () =>
    own(async (sandbox, at) => {
      const answer = await raw(promisedPost(sandbox.apiKey), 6000, at);
      expect(answer.status).toBe(408);
      expect(envelopeOf(answer)).toEqual({ code: 408, msg: 'Request Timeout: the request did not arrive in time (the body did not arrive within 2 s)' });
      expect(answer.closed).toBe(true);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(BODY_DEADLINE_MS - 50);
      expect(answer.closedAfterMs).toBeLessThan(BODY_DEADLINE_MS + 1000);
      expect(sandbox.requests().map((r) => [r.method, r.status])).toEqual([['POST', 408]]);
    }));

  it('answered early (no API key) while the body is still owed: the answer closes the connection', () =>
    own(async (_sandbox, at) => {
      const answer = await raw(promisedPost(undefined), 6000, at);
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
      expect(answer.closedAfterMs).toBeLessThan(1000);
    }));

  it("a long fault delay before a body that never comes: Node's request deadline (3 s) still closes it", () =>
    own(async (sandbox, at) => {
      sandbox.queueFaults({ kind: 'delay', ms: 10_000 });
      const answer = await raw(promisedPost(sandbox.apiKey), 6000, at);
      expect(answer.status).toBe(408);
      expect(answer.closed).toBe(true);
      expect(answer.closedAfterMs).toBeLessThan(4500);
    }));

  it('headers that never end: 408 in the envelope within ~2 s', () =>
    own(async (_sandbox, at) => {
      const answer = await raw(`GET ${KEYS_PATH} HTTP/1.1\r\nHost: x\r\n`, 6000, at);
      expect(answer.status).toBe(408);
      expect((envelopeOf(answer) as { code: number }).code).toBe(408);
      expect(answer.closed).toBe(true);
      expect(answer.closedAfterMs).toBeLessThan(3500);
    }));

  it('a slow answer to a complete request is not cut (the deadlines are for receiving)', () =>
    own(async (sandbox) => {
      sandbox.queueFaults({ kind: 'delay', ms: 3500 });
      const started = Date.now();
      const result = await call(sandbox, { path: KEYS_PATH, params: [['subAccount', sandbox.subAccounts[0] ?? '']] });
      expect(result.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3500);
    }));
});

// Concurrent, like the deadlines just before it: its cases run while those wait (the long one lets their timers in).
describe.concurrent('the request log is bounded in bytes', () => {
  it('cuts a long path and query (marked), keeps the signed query of a normal request whole', async ({ expect }) => {
    const log = createRequestLog();
    const normal = log.start('GET', KEYS_PATH, 'subAccount=a&recvWindow=5000&timestamp=1&signature=' + 'f'.repeat(64));
    expect(normal.truncated).toBeUndefined();
    const long = log.start('GET', `/${'p'.repeat(5000)}`, 'q'.repeat(15_000));
    expect(long.path).toHaveLength(MAX_LOGGED_PATH);
    expect(long.query).toHaveLength(MAX_LOGGED_QUERY);
    expect(long.truncated).toBe(true);
    expect(log.bytes()).toBe(3 + KEYS_PATH.length + normal.query.length + 3 + MAX_LOGGED_PATH + MAX_LOGGED_QUERY + 2 * ENTRY_OVERHEAD);
  });

  it('evicts the oldest by bytes as well as by count', ({ expect }) => {
    const log = createRequestLog(10_000, 10 * (3 + 1 + 100 + ENTRY_OVERHEAD));
    for (let i = 0; i < 25; i++) log.start('GET', '/', `${String(i).padStart(2, '0')}${'x'.repeat(98)}`);
    const kept = log.snapshot();
    expect(kept).toHaveLength(10);
    expect(kept.map((r) => r.query.slice(0, 2))).toEqual(['15', '16', '17', '18', '19', '20', '21', '22', '23', '24']);
    expect(log.bytes()).toBeLessThanOrEqual(10 * (3 + 1 + 100 + ENTRY_OVERHEAD));
  });

  it('20,000 requests with 15 KB queries: at most REQUEST_LOG_BYTES held, every kept query cut', async ({ expect }) => {
    const log = createRequestLog();
    const query = 'a=' + 'z'.repeat(15_000);
    for (let i = 0; i < 20_000; i++) {
      log.start('GET', KEYS_PATH, query);
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(log.bytes()).toBeLessThanOrEqual(REQUEST_LOG_BYTES);
    const kept = log.snapshot();
    expect(kept.length).toBeGreaterThan(3000);
    expect(kept.every((r) => r.query.length === MAX_LOGGED_QUERY && r.truncated === true)).toBe(true);
  });

  it('what tests read stays: method, path, the signed query, status, arrival time', async ({ expect }) => {
    const before = sb.requests().length;
    const t0 = Date.now();
    await call(sb, { path: KEYS_PATH, params: [['subAccount', sb.subAccounts[0] ?? '']] });
    const [record] = sb.requests().slice(before);
    expect(record).toMatchObject({ method: 'GET', path: KEYS_PATH, status: 200 });
    expect(record?.query).toMatch(/^subAccount=.+&recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
    expect(record?.at).toBeGreaterThanOrEqual(t0 - 5);
    expect(record?.at).toBeLessThanOrEqual(Date.now());
  });
});
