// An independent client against the sandbox: ccxt's MEXC client (its broker endpoints, corrected against the live
// service) lists keys, creates a key and reads a transfer page from a default sandbox on 127.0.0.1. The sandbox
// must accept each exactly as it would ours; the key ccxt made then shows in our own `keys list`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mexc } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../src/api/signing';
import { splitSignedQuery } from '../../src/sandbox/signature';
import type { RunningSandbox } from '../../src/sandbox/types';
import { runCli, sandboxEnv } from '../commands/helpers';
import { ownSandbox } from '../sandbox/helpers';

let sandbox: RunningSandbox;
let home: string;
let client: InstanceType<typeof mexc>;

beforeAll(async () => {
  sandbox = await ownSandbox({ seed: 31 });
  home = mkdtempSync(join(tmpdir(), 'bc-ccxt-'));
  client = new mexc({ apiKey: sandbox.apiKey, secret: sandbox.secretKey, timeout: 10_000 });
  // Every ccxt URL points at the sandbox: a request that left 127.0.0.1 would fail, not reach the world.
  const api = client.urls.api as Record<string, Record<string, string>>;
  for (const section of Object.values(api)) {
    for (const access of Object.keys(section)) section[access] = `${sandbox.baseUrl}/unused`;
  }
  api.broker = { private: `${sandbox.baseUrl}/api/v3/broker` };
});

afterAll(async () => {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
});

/** The last request the sandbox received, and whether its signature covers the query alone. */
function lastRequest(): { method: string; path: string; status: number; queryOnly: boolean; query: string } {
  const record = sandbox.requests().at(-1);
  const split = splitSignedQuery(record?.query ?? '');
  return {
    method: record?.method ?? '',
    path: record?.path ?? '',
    status: record?.status ?? 0,
    query: split?.unsigned ?? '',
    queryOnly: split !== undefined && signPayload(sandbox.secretKey, split.unsigned) === split.signature,
  };
}

describe("ccxt's MEXC client against the default sandbox", () => {
  it('lists the keys of a sub-account', async () => {
    const sub = sandbox.subAccounts[0] ?? '';
    const answer = (await client.brokerPrivateGetSubAccountApiKey({ subAccount: sub })) as { subAccount?: unknown };
    expect(Array.isArray(answer.subAccount)).toBe(true);
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/api/v3/broker/sub-account/apiKey', status: 200, queryOnly: true });
  });

  it('creates a key: a POST signed over the query alone, parameters in a JSON body; it shows in our keys list', async () => {
    const sub = sandbox.subAccounts[1] ?? '';
    const created = (await client.brokerPrivatePostSubAccountApiKey({ subAccount: sub, permissions: 'SPOT_ACCOUNT_READ', note: 'made-by-ccxt' })) as Record<
      string,
      unknown
    >;
    expect(created).toMatchObject({ subAccount: sub, note: 'made-by-ccxt', permissions: 'SPOT_ACCOUNT_READ' });
    const apiKey = String(created.apiKey ?? created.apikey ?? '');
    expect(apiKey).not.toBe('');
    const sent = lastRequest();
    expect(sent).toMatchObject({ method: 'POST', path: '/api/v3/broker/sub-account/apiKey', status: 200, queryOnly: true });
    // ccxt puts timestamp before recvWindow: the sandbox verifies the query as received, in any order.
    expect(sent.query).toMatch(/^timestamp=\d+&recvWindow=5000$/);

    const listed = await runCli(['keys', 'list', '--sub', sub, '--json'], { ...sandboxEnv(sandbox), BROKER_CONSOLE_HOME: home });
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as { apiKey: string; note: string }[];
    expect(keys).toContainEqual(expect.objectContaining({ apiKey, note: 'made-by-ccxt' }));
  });

  it('reads a page of universal transfers', async () => {
    const page = (await client.brokerPrivateGetSubAccountUniversalTransfer({
      fromAccountType: 'SPOT',
      toAccountType: 'FUTURE',
      page: 1,
      limit: 10,
    })) as unknown[];
    expect(Array.isArray(page)).toBe(true);
    expect(page.length).toBeGreaterThan(0);
    expect(page.length).toBeLessThanOrEqual(10);
    expect(page[0]).toEqual(expect.objectContaining({ fromAccountType: 'SPOT', toAccountType: 'FUTURE' }));
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/api/v3/broker/sub-account/universalTransfer', status: 200 });
  });

  it('a create it signs for a sandbox started with --post-signature body is refused with 700002 (what a service checking query + body would answer it)', async () => {
    const strict = await ownSandbox({ seed: 31, postSignature: 'body' });
    try {
      const other = new mexc({ apiKey: strict.apiKey, secret: strict.secretKey, timeout: 10_000 });
      (other.urls.api as Record<string, Record<string, string>>).broker = { private: `${strict.baseUrl}/api/v3/broker` };
      await expect(
        other.brokerPrivatePostSubAccountApiKey({ subAccount: strict.subAccounts[0] ?? '', permissions: 'SPOT_ACCOUNT_READ', note: 'n' }),
      ).rejects.toThrow(/700002/);
      expect(strict.requests().map((r) => r.status)).toEqual([400]);
    } finally {
      await strict.close();
    }
  });
});
