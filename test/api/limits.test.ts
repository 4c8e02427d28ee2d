// The service's limits, met by the signed client over real sockets (node:http on loopback): every request is
// paced per endpoint from the first one, every client of the process shares that budget, a 429 holds the
// endpoint back for its Retry-After, and a 418 stops every request to that base URL until the ban ends.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { BrokerApi } from '../../src/api/contract';
import { BrokerError } from '../../src/api/errors';
import { createBrokerApi } from '../../src/api/operations';
import { ownLoopbackHost } from '../loopbackHost';
import { type OnFinished, sandboxFor } from '../sandbox/helpers';

const KEYS = { subAccount: [{ note: 'n', apiKey: 'mx0vlisted', permissions: 'SPOT_ACCOUNT_READ', ip: '', creatTime: 1_763_726_400_000 }] };

interface Arrival {
  at: number;
  path: string;
}

/** A server answering with `answer` (a keys list by default), keeping when each request arrived. */
async function server(onFinished: OnFinished, answer?: (req: IncomingMessage, res: ServerResponse, n: number) => boolean) {
  const arrivals: Arrival[] = [];
  const http = createServer((req, res) => {
    arrivals.push({ at: performance.now(), path: (req.url ?? '').split('?')[0] ?? '' });
    req.resume();
    if (answer?.(req, res, arrivals.length)) return;
    const body = req.url?.includes('universalTransfer') ? '[]' : JSON.stringify(KEYS);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  // Its own host: a ban or a 429's pause met here stays with this server, not a later one on the same port.
  const host = ownLoopbackHost();
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  const baseUrl = `http://${host}:${(http.address() as AddressInfo).port}`;
  onFinished(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { baseUrl, arrivals };
}

function client(onFinished: OnFinished, baseUrl: string, extra: Partial<Parameters<typeof createBrokerApi>[0]> = {}): BrokerApi {
  const api = createBrokerApi({ baseUrl, apiKey: 'mx0vLIMITS', secretKey: 's', retryBaseDelayMs: 5, ...extra });
  onFinished(() => api.close());
  return api;
}

/** The most arrivals in any span of `spanMs`. */
function busiest(arrivals: readonly Arrival[], spanMs: number): number {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[i] as number) - (times[j] as number) >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Each case has its own server and clients, so their waits overlap. The burst runs before the case whose
// arrivals must keep to the budget in any span, not beside it.
describe.concurrent('pacing from the first request', () => {
  it(
    'at 20 a second: a burst of 25 sends 19 at once and holds the rest until the first is a second old',
    { concurrent: false, timeout: 10_000 },
    async ({ onTestFinished }) => {
      const { baseUrl, arrivals } = await server(onTestFinished);
      const api = client(onTestFinished, baseUrl);
      const started = performance.now();
      const calls = Array.from({ length: 25 }, () =>
        api.listSubAccountKeys('desk').then(
          () => 'ok',
          (e: unknown) => (e instanceof BrokerError ? e.kind : 'other'),
        ),
      );
      for (const deadline = Date.now() + 5000; arrivals.length < 19 && Date.now() < deadline;) await sleep(10);
      await sleep(300);
      // The burst's 19 came, and nothing more while the first of them is under a second old.
      if (performance.now() - started < 1000) expect(arrivals).toHaveLength(19);
      const outcomes = await Promise.all(calls);
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(25);
      expect(arrivals).toHaveLength(25);
      expect((arrivals[19]?.at ?? 0) - started).toBeGreaterThanOrEqual(1000);
      // Arrival stamps may bunch under load: the service's own limit, 20, is what no second may pass.
      expect(busiest(arrivals, 1000)).toBeLessThanOrEqual(20);
    },
  );

  it("a sandbox that allows 20 a second, in fixed windows (the pace the service's support is quoted as asking for): a burst of 60 key lists meets no 429", async ({
    onTestFinished,
  }) => {
    const sb = await sandboxFor(onTestFinished, { seed: 3, rateLimit: { max: 20, windowMs: 1000 } });
    const api = createBrokerApi({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, secretKey: sb.secretKey });
    onTestFinished(() => api.close());
    const sub = sb.subAccounts[0] as string;
    await Promise.all(Array.from({ length: 60 }, () => api.listSubAccountKeys(sub)));
    expect(sb.requests().map((r) => r.status)).toEqual(Array.from({ length: 60 }, () => 200));
  });

  it("a burst of 36 from two clients never has more than the service's limit in any span; every request gets its answer", async ({
    expect,
    onTestFinished,
  }) => {
    const { baseUrl, arrivals } = await server(onTestFinished);
    // A limit of 10 a second: the clients keep to 9 (95%) in any second, together. Bursts a second apart: a
    // worker's event loop held up for a few hundred ms (stamping arrivals late) does not merge two of them.
    const limit = { serviceLimit: { requests: 10, periodMs: 1000 } };
    const a = client(onTestFinished, baseUrl, limit);
    const b = client(onTestFinished, baseUrl, limit);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 36 }, (_, i) => (i % 2 === 0 ? a : b).listSubAccountKeys('desk')));
    expect(answers).toHaveLength(36);
    expect(arrivals).toHaveLength(36);
    // 36 at 9 a second: four bursts, each a period after the answers of the one before.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2990);
    // Never over the service's limit. The clients aim at 9 (pacing.test.ts checks that on a clock of its own); the
    // one request of slack is for timing that moves arrivals, here a loaded event loop stamping them late.
    expect(busiest(arrivals, 1000)).toBeLessThanOrEqual(10);
    // Another endpoint shares the budget: a burst to it right after waits its turn, kept to 9 in any span with
    // the requests before it.
    await Promise.all(Array.from({ length: 9 }, () => b.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' })));
    expect(arrivals).toHaveLength(45);
    expect(busiest(arrivals, 1000)).toBeLessThanOrEqual(10);
  }, 15_000);

  it("a 429 holds the service back for its Retry-After: another client's request to another endpoint waits too", async ({ expect, onTestFinished }) => {
    const { baseUrl, arrivals } = await server(onTestFinished, (_req, res, n) => {
      if (n !== 1) return false;
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      res.end('{"code":429,"msg":"slow down"}');
      return true;
    });
    const a = client(onTestFinished, baseUrl);
    const b = client(onTestFinished, baseUrl);
    const first = a.listSubAccountKeys('desk');
    while (arrivals.length === 0) await sleep(5);
    await sleep(50);
    await b.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
    await first;
    expect(arrivals).toHaveLength(3);
    // Nothing arrived within the second the 429 asked for.
    expect((arrivals[1] as Arrival).at - (arrivals[0] as Arrival).at).toBeGreaterThanOrEqual(990);
  }, 10_000);
});

describe.concurrent('a long Retry-After', () => {
  it('beyond what a request waits on its own: the next request fails at once without sending, saying when', async ({ expect, onTestFinished }) => {
    const { baseUrl, arrivals } = await server(onTestFinished, (_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '60' });
      res.end('{"code":429,"msg":"slow down"}');
      return true;
    });
    const a = client(onTestFinished, baseUrl);
    const met = await a.listSubAccountKeys('desk').catch((e: unknown) => e);
    expect(met).toBeInstanceOf(BrokerError);
    expect((met as BrokerError).message).toBe('list keys failed (HTTP 429 code 429): slow down — rate limited: try again in 60 s');
    // Said again as the wait runs down (the console's count), and once it is over.
    expect((met as BrokerError).withRetryAfter(23_000).toLine()).toBe('list keys failed (HTTP 429 code 429): slow down — rate limited: try again in 23 s');
    expect((met as BrokerError).withRetryAfter(0).toLine()).toBe(
      'list keys failed (HTTP 429 code 429): slow down — the wait the service asked for is over: try again',
    );
    const b = client(onTestFinished, baseUrl);
    await expect(b.listSubAccountKeys('desk')).rejects.toThrow(
      /^list keys failed \(HTTP 429\): not sent: the service asked to wait — rate limited: try again in (60|59) s$/,
    );
    expect(arrivals).toHaveLength(1);
    // Nor is another endpoint's: the service's budget is one.
    await expect(b.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' })).rejects.toMatchObject({ status: 429, sent: false });
    expect(arrivals).toHaveLength(1);
  });
});

describe.concurrent('a ban (HTTP 418)', () => {
  it('stops every request to that base URL at once, from every client, without a socket; after it ends they go again', async ({ expect, onTestFinished }) => {
    const { baseUrl, arrivals } = await server(onTestFinished, (_req, res, n) => {
      if (n !== 1) return false;
      res.writeHead(418, { 'Content-Type': 'application/json', 'Retry-After': '2' });
      res.end('{"code":-1003,"msg":"banned"}');
      return true;
    });
    const bans: number[] = [];
    const seen: { banEndsAt?: number; notSent?: boolean; status?: number }[] = [];
    const a = client(onTestFinished, baseUrl, { onBan: (endsAt) => bans.push(endsAt), onExchange: (e) => seen.push(e) });
    const before = Date.now();
    const met = await a.listSubAccountKeys('desk').catch((e: unknown) => e);
    expect(met).toBeInstanceOf(BrokerError);
    expect((met as BrokerError).kind).toBe('banned');
    expect((met as BrokerError).toLine()).toBe(
      'list keys failed: the service has banned this IP for 2 s (HTTP 418) — nothing more goes to this service until the ban ends',
    );
    expect(bans).toHaveLength(1);
    expect(bans[0]).toBeGreaterThanOrEqual(before + 2000);
    expect(seen.at(-1)).toMatchObject({ status: 418, banEndsAt: bans[0] });

    // The same client, another endpoint, a new client: none sends.
    const again = await a.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' }).catch((e: unknown) => e);
    expect((again as BrokerError).toLine()).toMatch(
      /^list transfers failed: the service has banned this IP for [12] s \(HTTP 418\) — not sent: nothing goes to this service until the ban ends$/,
    );
    expect(seen.at(-1)).toMatchObject({ notSent: true, banEndsAt: bans[0] });
    const b = client(onTestFinished, baseUrl);
    await expect(b.createSubAccountKey({ subAccount: 'desk', permissions: ['SPOT_ACCOUNT_READ'], note: 'n' })).rejects.toMatchObject({ kind: 'banned' });
    expect(arrivals).toHaveLength(1);

    await sleep(Math.max(0, (bans[0] as number) - Date.now() + 50));
    expect(await b.listSubAccountKeys('desk')).toHaveLength(1);
    expect(arrivals).toHaveLength(2);
  }, 10_000);

  it('a ban remembered from an earlier run (banEndsAt) holds the first request back', async ({ expect, onTestFinished }) => {
    const { baseUrl, arrivals } = await server(onTestFinished);
    const api = client(onTestFinished, baseUrl, { banEndsAt: Date.now() + 90_000 });
    await expect(api.listSubAccountKeys('desk')).rejects.toThrow(/banned this IP for (90|89) s \(HTTP 418\) — not sent/);
    expect(arrivals).toHaveLength(0);
  });
});
