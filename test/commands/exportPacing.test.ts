// Exports that pace themselves, against the sandbox's own rate limit: a long `--all`
// meets one 429 (the one that teaches the limit), not one per window; every row still comes, in order.
// The console's "all pages" export asks for pages of 500 whatever the screen shows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { EXIT } from '../../src/commands/context';
import { runTransfers } from '../../src/commands/transfers';
import { fileExporter } from '../../src/export/fileExporter';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types';
import { rateLimitAt } from '../export/rateLimitAt';
import { fetchAllTransfers, testContext } from './helpers';
import { ownSandbox } from '../sandbox/helpers';

const ANCHOR = Date.now() - 60_000;
const sandboxes: RunningSandbox[] = [];
const folder = mkdtempSync(join(tmpdir(), 'broker-export-pacing-'));
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
  // A host of its own: the pace the client learns here never reaches a later server on the same port.
  const sandbox = await ownSandbox({ seed: 1, dataAnchorMs: ANCHOR, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

const statuses = (sandbox: RunningSandbox): number[] => sandbox.requests().map((r) => r.status);

describe('transfers --all under a rate limit', () => {
  it('73 pages, a 429 at the 26th request: waited out once, then paced; every row, in order', async () => {
    // The same history twice: one sandbox to read the expected rows from, one with the limit.
    const transfers = 2400;
    const reference = await sandboxWith({ transfers, rateLimit: { max: 1_000_000, windowMs: 1000 } });
    const expected = await fetchAllTransfers(reference, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
    expect(expected.length).toBeGreaterThan(5 * 60);
    // The 429 at the 26th request whatever the machine's pace (a loaded one spreads the first requests over two
    // windows of a real limit of 25); the service's own limit of 30 is above the pace the client learns from it,
    // and below the 47 pages left.
    const limited = await sandboxWith({ transfers, rateLimit: { max: 30, windowMs: 1000 } });
    limited.queueFaults(...rateLimitAt(26));
    // The command's own client: GETs tried up to 3 times, a Retry-After up to 10 s waited out.
    const { ctx, out, err } = testContext(limited, { createApi: (config) => createBrokerApi(config) });
    const started = performance.now();
    const code = await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '5', format: 'csv' }, ctx);
    const elapsed = performance.now() - started;
    expect(err.text()).toBe('');
    expect(code).toBe(EXIT.ok);
    const pages = Math.floor(expected.length / 5) + 1;
    const seen = statuses(limited);
    // Without pacing, a page loop this fast meets the limit of 30 after the wait.
    expect(seen.filter((s) => s === 429)).toHaveLength(1);
    expect(seen.filter((s) => s === 200)).toHaveLength(pages);
    const ids = out
      .text()
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(ids).toEqual(expected.map((t) => t.tranId));
    // 25 pages at the client's 19 a second, one Retry-After (1 s) and the rest at the budget learned from them
    // (about 7 s in all), never a Retry-After per page (73 s); the room above is for a loaded machine, which
    // also learns a slower budget (its first pages went slower).
    expect(elapsed).toBeLessThan(40_000);
  }, 60_000);

  it('on a terminal, a wait for the rate limit is said on stderr (the page lines stand still meanwhile)', async () => {
    const sandbox = await sandboxWith({ rateLimit: { max: 2, windowMs: 2000 } });
    const { ctx, err } = testContext(sandbox, { createApi: (config) => createBrokerApi(config), stderrIsTTY: true });
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '500', format: 'json' }, ctx)).toBe(EXIT.ok);
    // Pages of 500 at 19 a second against 2 in 2 s: some page meets the limit, whatever window the first fell in.
    expect(err.text()).toMatch(/^page \d+: 500 rows\nwaiting for the rate limit \(\d+\.\d s\)…\npage \d+: /m);
  }, 45_000);

  it('a rate limit never met costs nothing: no wait, no 429', async () => {
    const sandbox = await sandboxWith({ rateLimit: { max: 1_000_000, windowMs: 1000 } });
    const { ctx } = testContext(sandbox, { createApi: (config) => createBrokerApi(config) });
    const started = performance.now();
    expect(await runTransfers({ fromType: 'SPOT', toType: 'FUTURE', all: true, limit: '100', format: 'json' }, ctx)).toBe(EXIT.ok);
    expect(statuses(sandbox).every((s) => s === 200)).toBe(true);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("the console's export of all pages", () => {
  it('asks for pages of 500 whatever the screen shows, and writes every row', async () => {
    const sandbox = await sandboxWith({ rateLimit: { max: 1_000_000, windowMs: 1000 } });
    const expected = await fetchAllTransfers(sandbox, { fromAccountType: 'SPOT', toAccountType: 'FUTURE' });
    const before = sandbox.requests().length;
    const api = createBrokerApi({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey });
    try {
      const progress: number[] = [];
      const result = await fileExporter(api, folder).run(
        { query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', page: 3, limit: 10 }, scope: 'all', format: 'csv' },
        (p) => progress.push(p.rows),
        new AbortController().signal,
      );
      const asked = sandbox
        .requests()
        .slice(before)
        .map((r) => new URLSearchParams(r.query));
      expect(asked.map((q) => q.get('limit'))).toEqual(asked.map(() => '500'));
      expect(asked.map((q) => q.get('page'))).toEqual(asked.map((_, i) => String(i + 1)));
      expect(result).toMatchObject({ rows: expected.length, pages: Math.floor(expected.length / 500) + 1 });
      expect(progress.at(-1)).toBe(expected.length);
      const ids = readFileSync(result.path, 'utf8')
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]);
      expect(ids).toEqual(expected.map((t) => t.tranId));
    } finally {
      await api.close();
    }
  });
});
