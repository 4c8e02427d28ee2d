// The status bar's line for the last request, from what the client reported: a 2xx whose body never came
// whole is no success, and a request given up by the console reads "cancelled", whatever came before.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ExchangeInfo } from '../../src/api/contract';
import { createBrokerApi } from '../../src/api/operations';
import { lastRequestLine } from '../../src/ui/components/StatusBar';
import type { OnFinished } from '../sandbox/helpers';

const base: ExchangeInfo = { operation: 'list keys', method: 'GET', path: '/k', ok: true, status: 200, latencyMs: 3, attempt: 1 };

describe('the last request, in words', () => {
  it.each([
    ['a success', base, '✓ list keys 200 · 3 ms'],
    ['a refusal', { ...base, ok: false, status: 503, attempt: 2 }, '✗ list keys 503 · 3 ms · try 2'],
    ['no answer', { ...base, ok: false, status: undefined }, '✗ list keys no answer · 3 ms'],
    ['a 200 whose body never came whole', { ...base, ok: false }, '✗ list keys 200, answer incomplete · 3 ms'],
    ['given up before the answer', { ...base, ok: false, status: undefined, cancelled: true }, '– list keys cancelled · 3 ms'],
    ['given up during the body', { ...base, ok: false, cancelled: true }, '– list keys cancelled · 3 ms'],
  ] as const)('%s', (_name, exchange, line) => {
    expect(lastRequestLine(exchange, 0)).toBe(line);
  });
});

describe('what the client reports for a body cut short', () => {
  /** A service that sends a 200's headers and the start of its body, then nothing more. */
  async function stallingBody(onTestFinished: OnFinished): Promise<string> {
    const open: ServerResponse[] = [];
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"subAccount":[');
      open.push(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          for (const res of open) res.destroy();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A client of the stalling server, one try, its exchanges collected. */
  async function stallingClient(onTestFinished: OnFinished, extra: { timeoutMs?: number } = {}) {
    const seen: ExchangeInfo[] = [];
    const api = createBrokerApi({
      baseUrl: await stallingBody(onTestFinished),
      apiKey: 'mx0vstallstall',
      secretKey: 's',
      maxTries: 1,
      ...extra,
      onExchange: (e) => void seen.push(e),
    });
    onTestFinished(() => api.close());
    return { api, seen };
  }

  it('given up by the caller once the 200 is in: reported cancelled, with its status', async ({ onTestFinished }) => {
    const { api, seen } = await stallingClient(onTestFinished);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(api.listSubAccountKeys('desk1', { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen).toEqual([expect.objectContaining({ status: 200, ok: false, cancelled: true })]);
    expect(lastRequestLine(seen[0], 0)).toMatch(/^– list keys cancelled · \d+ ms$/);
  });

  it('timed out with the 200 in: not cancelled, "200, answer incomplete"', async ({ onTestFinished }) => {
    const { api, seen } = await stallingClient(onTestFinished, { timeoutMs: 300 });
    await expect(api.listSubAccountKeys('desk1')).rejects.toMatchObject({ kind: 'timeout' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.cancelled).toBeUndefined();
    expect(lastRequestLine(seen[0], 0)).toMatch(/^✗ list keys 200, answer incomplete · \d+ ms$/);
  });
});
