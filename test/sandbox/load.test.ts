// The sandbox under concurrent load, the correctness half of `npm run bench`'s load section: 50 clients on
// 127.0.0.1 against the built binary's `sandbox` in a child process get nothing but 200 and the sandbox's own
// 429s, with plain queries and with 15 KB ones. Throughput and resident memory over many thousands of requests
// are the bench's to measure (its load section); the request log's bounds are tested in bounds.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxChild, runLoad, spawnSandbox } from '../../bench/load';
import { buildCli } from '../commands/helpers';

describe('the sandbox under load', () => {
  let sandbox: SandboxChild;
  beforeAll(async () => {
    sandbox = await spawnSandbox(await buildCli());
  });
  afterAll(() => sandbox?.stop());

  // More requests than the sandbox's 100 a second let through, sent at once: both answers come.
  it('50 clients, 1,500 requests: no errors but 429s', async () => {
    const result = await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 1_500 });
    expect(result.requests).toBe(1_500);
    expect(result.errors).toEqual({});
    expect(result.ok).toBeGreaterThan(0);
    expect(result.rateLimited).toBeGreaterThan(0);
    expect(result.ok + result.rateLimited).toBe(result.requests);
  });

  it('50 clients sending 1,000 queries of 15 KB: still nothing but 200 and 429', async () => {
    const result = await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 1_000, queryPadBytes: 15_000 });
    expect(result.requests).toBe(1_000);
    expect(result.errors).toEqual({});
    expect(result.rateLimited).toBeGreaterThan(0);
    expect(result.ok + result.rateLimited).toBe(result.requests);
  });
});
