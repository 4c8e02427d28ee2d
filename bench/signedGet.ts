// A signed GET through the console's client against raw undici sending a precomputed signed URL: both to one
// local server with a canned answer, so the figure is the client's own cost (sign, send, read, validate).
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createBrokerApi } from '../src/api/operations';
import { signQuery } from '../src/api/signing';
import { ROOT, median, row } from './util';

const SUB = 'gridbot2901';
// Six keys, the shape of the service's documented example answer.
const ANSWER = JSON.stringify({
  subAccount: Array.from({ length: 6 }, (_, i) => ({
    note: `bot ${i}`,
    apiKey: `mx0v${'a'.repeat(27)}${i}`,
    permissions: 'SPOT_ACCOUNT_READ,SPOT_DEAL_READ',
    ip: '203.0.113.7,198.51.100.24',
    creatTime: 1_700_000_000_000 + i,
  })),
});

/** Microseconds per request, the median of `rounds` rounds of `n` sequential requests. */
async function perRequest(send: () => Promise<unknown>, n: number, rounds: number): Promise<number> {
  for (let i = 0; i < 500; i++) await send();
  const results: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await send();
    results.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  return median(results);
}

export async function signedGet(): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = 'f'.repeat(64);
  const apiKey = 'mx0vbench';
  const api = createBrokerApi({ baseUrl, apiKey, secretKey: secret });
  const agent = new Agent({ connections: 1 });
  const query = signQuery({ params: [['subAccount', SUB]], recvWindow: 5000, timestamp: Date.now(), body: '', secret, rule: 'query' });
  const url = `${baseUrl}/api/v3/broker/sub-account/apiKey?${query}`;
  try {
    const n = 2000;
    // Alternated rounds, so a drift of the machine falls on both sides.
    const ours: number[] = [];
    const raw: number[] = [];
    const viaCcxt: number[] = [];
    const exchange = ccxtMexc(baseUrl, apiKey, secret);
    for (let round = 0; round < 5; round++) {
      ours.push(await perRequest(() => api.listSubAccountKeys(SUB), n, 1));
      raw.push(
        await perRequest(
          async () => {
            const res = await request(url, { headers: { 'X-MEXC-APIKEY': apiKey }, dispatcher: agent });
            return JSON.parse(await res.body.text()) as unknown;
          },
          n,
          1,
        ),
      );
      if (exchange) viaCcxt.push(await perRequest(() => exchange.brokerPrivateGetSubAccountApiKey({ subAccount: SUB }), n / 4, 1));
    }
    const a = median(ours);
    const b = median(raw);
    row('signed GET through the client (list keys)', `${(a / 1000).toFixed(3)} ms`, `raw undici ${(b / 1000).toFixed(3)} ms`, a / b);
    console.log(
      '  raw undici: the same URL signed once beforehand, JSON.parse of the answer; ours signs, sends, reads with a byte limit and validates each time',
    );
    if (exchange) row('same, against ccxt 4.5 (MEXC)', `${(a / 1000).toFixed(3)} ms`, `ccxt ${(median(viaCcxt) / 1000).toFixed(3)} ms`, a / median(viaCcxt));
    else console.log("  ccxt's MEXC client: not measured (not installed: run npm install)");
  } finally {
    await api.close();
    await agent.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface CcxtMexc {
  brokerPrivateGetSubAccountApiKey(params: { subAccount: string }): Promise<unknown>;
}

/** ccxt's MEXC exchange aimed at the local server, or undefined when ccxt is not installed. */
function ccxtMexc(baseUrl: string, apiKey: string, secret: string): CcxtMexc | undefined {
  try {
    // ccxt is a dev dependency (test/api/ccxt.test.ts drives it too); required, not bundled into the bench.
    const ccxt = createRequire(join(ROOT, 'package.json'))('ccxt') as {
      mexc: new (options: object) => CcxtMexc & { urls: { api: { broker: { private: string } } } };
    };
    const exchange = new ccxt.mexc({ apiKey, secret, enableRateLimit: false });
    exchange.urls.api.broker.private = `${baseUrl}/api/v3/broker`;
    return exchange;
  } catch {
    return undefined;
  }
}
