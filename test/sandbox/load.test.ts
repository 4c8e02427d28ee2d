// The sandbox under load, the short version of `npm run bench`'s: 50 concurrent clients
// on 127.0.0.1 against the built binary's `sandbox` in a child process. Nothing but 200 and the sandbox's own
// 429s, and its resident memory stays flat (the request log is bounded in count and in bytes).
// Counted in requests, not seconds: a busy machine then sends as many as an idle one, enough to fill the log
// (10,000 entries, 4 MiB) many times over, which a fixed time on a loaded machine does not.
import { describe, expect, it } from 'vitest';
import { rssSampler, runLoad, spawnSandbox } from '../../bench/load';
import { buildCli } from '../commands/helpers';

describe('the sandbox under load', () => {
  it('50 clients, 17,000 requests: no errors but 429s, bounded RSS growth', async () => {
    const sandbox = await spawnSandbox(await buildCli());
    try {
      const rss = rssSampler(sandbox.pid);
      // Warm up (JIT, pools, the first log entries), then measure from there.
      await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 2_000 });
      rss.sample();
      // With the warm-up, 1.7 times the log's 10,000 entries: the ring has wrapped and evicted.
      const result = await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 15_000, onSample: rss.sample });
      rss.sample();
      console.log(
        `load (50 clients): ${result.requests} requests, ${result.perSecond.toFixed(0)}/s, 200: ${result.ok}, 429: ${result.rateLimited}, ` +
          `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; sandbox RSS ${(rss.first / 1024).toFixed(1)} → peak ${(rss.peak / 1024).toFixed(1)} → ${(rss.last / 1024).toFixed(1)} MiB`,
      );
      expect(result.requests).toBe(15_000);
      expect(result.errors).toEqual({});
      expect(result.ok).toBeGreaterThan(0);
      expect(result.rateLimited).toBeGreaterThan(0);
      expect(result.ok + result.rateLimited).toBe(result.requests);
      if (rss.first > 0) expect(rss.peak - rss.first).toBeLessThan(64 * 1024);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it('50 clients sending 10,000 queries of 15 KB: still nothing but 200 and 429, and the log does not keep them', async () => {
    const sandbox = await spawnSandbox(await buildCli());
    try {
      const rss = rssSampler(sandbox.pid);
      await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 1_000, queryPadBytes: 15_000 });
      rss.sample();
      const result = await runLoad(sandbox.target, { clients: 50, durationMs: 30_000, maxRequests: 10_000, queryPadBytes: 15_000, onSample: rss.sample });
      rss.sample();
      console.log(
        `load with 15 KB queries: ${result.requests} requests (${(result.requests * 15_000 / 2 ** 20).toFixed(0)} MiB of queries), 429: ${result.rateLimited}; ` +
          `sandbox RSS ${(rss.first / 1024).toFixed(1)} → peak ${(rss.peak / 1024).toFixed(1)} MiB`,
      );
      expect(result.requests).toBe(10_000);
      expect(result.errors).toEqual({});
      expect(result.ok + result.rateLimited).toBe(result.requests);
      // Kept whole, 10,000 of them would be 143 MiB.
      if (rss.first > 0) expect(rss.peak - rss.first).toBeLessThan(64 * 1024);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);
});
