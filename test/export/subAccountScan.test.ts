// The discover scan against the sandbox over real sockets: many pages, the sandbox's own rate limit met in the
// middle (once: then the scan paces itself), every sub-account with its last master↔sub transfer, cancel and
// failure keeping what was found. The expected answer is read from the sandbox's seeded table directly.
import { describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import {
  checkScanDays,
  discoverSubAccounts,
  MAX_SCAN_DAYS,
  ScanFailed,
  scanQueries,
  scanSubAccounts,
  type ScanProgress,
} from '../../src/export/subAccountScan';
import { createState } from '../../src/sandbox/state';
import type { RunningSandbox } from '../../src/sandbox/types';
import { rateLimitAt } from './rateLimitAt';
import type { OnFinished } from '../sandbox/helpers';
import { ownSandbox } from '../sandbox/helpers';

const DAY = 86_400_000;
const ANCHOR = Date.now() - 60_000;
const SEED = 3;
const TRANSFERS = 8000;

async function sandboxWith(onTestFinished: OnFinished, rateLimit: { max: number; windowMs: number }): Promise<RunningSandbox> {
  const sandbox = await ownSandbox({ seed: SEED, dataAnchorMs: ANCHOR, transfers: TRANSFERS, rateLimit });
  onTestFinished(() => sandbox.close());
  return sandbox;
}

function clientOf(onTestFinished: OnFinished, sandbox: RunningSandbox, maxTries?: number) {
  const api = createBrokerApi({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secretKey: sandbox.secretKey, ...(maxTries ? { maxTries } : {}) });
  // Finished hooks run last-registered first: the client closes before its sandbox.
  onTestFinished(() => api.close());
  return api;
}

/** Each sub-account's latest transfer with the master in [start, end], from the seeded table itself. */
function expectedLastTimes(start: number, end: number): Map<string, number> {
  const table = createState(SEED, ANCHOR, TRANSFERS).transfers;
  const last = new Map<string, number>();
  for (let i = 0; i < table.count; i++) {
    const at = table.timestamps[i] as number;
    if (at < start || at > end) continue;
    const from = table.from[i] as number;
    const to = table.to[i] as number;
    // id 0 is the master; transfers between two sub-accounts are not asked for.
    const sub = from === 0 && to !== 0 ? to : to === 0 && from !== 0 ? from : undefined;
    if (sub === undefined) continue;
    const name = table.accounts[sub] as string;
    last.set(name, Math.max(at, last.get(name) ?? 0));
  }
  return last;
}

// Concurrent: each test has its own sandbox and client; the rate-limited scan's waits (~2.5 s) overlap the others.
describe.concurrent('the discover scan', () => {
  it('finds every sub-account with its last transfer over many pages, meeting the rate limit once in the middle', async ({ onTestFinished }) => {
    // The service's own limit (120 a second) stands throughout; the 429 that teaches the pacer comes at the 61st
    // request, whatever the machine's speed (a loaded machine may never reach 120 a second on its own). What it
    // teaches (60 over the time they took and the 1 s Retry-After: under 60 a second) is under the service's limit.
    const sandbox = await sandboxWith(onTestFinished, { max: 120, windowMs: 1000 });
    sandbox.queueFaults(...rateLimitAt(61));
    const api = clientOf(onTestFinished, sandbox);
    const now = Date.now();
    const names = [...sandbox.subAccounts, 'ghost0001'];
    const seen: ScanProgress[] = [];
    const result = await scanSubAccounts(api, { days: 30, now, names, pageSize: 20, onProgress: (p) => seen.push(p) });

    const expected = expectedLastTimes(now - 30 * DAY, now);
    expect(expected.size).toBeGreaterThan(5);
    expect(result.cancelled).toBe(false);
    expect(new Map(result.found.map((f) => [f.name, f.lastTransferTime]))).toEqual(expected);
    // Most recently active first; the master and a name without transfers are not listed.
    expect(result.found.map((f) => f.lastTransferTime)).toEqual([...result.found.map((f) => f.lastTransferTime)].sort((a, b) => b - a));
    expect(result.found.map((f) => f.name)).not.toContain(sandbox.masterAccount);
    expect(result.found.map((f) => f.name)).not.toContain('ghost0001');

    const statuses = sandbox.requests().map((r) => r.status);
    expect(result.progress.queries).toBe(4 * (1 + 2 * names.length));
    expect(statuses.filter((s) => s === 200)).toHaveLength(result.progress.pages);
    expect(result.progress.pages).toBeGreaterThan(result.progress.queries + 20);
    // Met once, part way through (it teaches the limit); paced after that, under the service's own limit.
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const at = statuses.indexOf(429);
    expect(at).toBe(60);
    expect(at).toBeLessThan(statuses.length - 20);
    expect(result.progress.rateLimited).toBe(1);
    expect(seen.some((p) => p.waitingMs > 0)).toBe(true);
    // Progress only grows, and ends whole.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.pages).toBeGreaterThanOrEqual(seen[i - 1]!.pages);
    expect(seen.at(-1)).toMatchObject({ done: result.progress.queries, found: expected.size });

    // Every request named both account types, the fixed range and the page size.
    for (const r of sandbox.requests()) {
      const q = new URLSearchParams(r.query);
      expect(q.get('fromAccountType')).toMatch(/^(SPOT|FUTURES)$/);
      expect(q.get('toAccountType')).toMatch(/^(SPOT|FUTURES)$/);
      expect(q.get('startTime')).toBe(String(now - 30 * DAY));
      expect(q.get('endTime')).toBe(String(now));
      expect(q.get('limit')).toBe('20');
    }
    // The pace the 429 teaches follows how fast the requests before it went: on a loaded machine it is slower.
  }, 45_000);

  it('a name the service refuses (the frozen sub-account: 140002) is passed over, and the scan goes on', async ({ onTestFinished }) => {
    const sandbox = await sandboxWith(onTestFinished, { max: 1_000_000, windowMs: 1000 });
    const now = Date.now();
    const asked = sandbox.subAccounts.slice(0, 3);
    const result = await scanSubAccounts(clientOf(onTestFinished, sandbox, 1), { days: 30, now, names: ['frozendesk01', ...asked] });
    expect(result.cancelled).toBe(false);
    const expected = [...expectedLastTimes(now - 30 * DAY, now)].filter(([name]) => asked.includes(name));
    expect(expected.length).toBeGreaterThan(0);
    expect(new Map(result.found.map((f) => [f.name, f.lastTransferTime]))).toEqual(new Map(expected));
    expect(result.progress.done).toBe(result.progress.queries);
    // Asked once per type pair and direction, refused each time, never asked again.
    expect(sandbox.requests().filter((r) => r.status === 400)).toHaveLength(4 * 2);
    // And named, so the command and the console can say it was skipped.
    expect(result.refused).toEqual(['frozendesk01']);
  });

  it('a cancel keeps what was found so far, remembered without a scan time, and sends nothing more', async ({ onTestFinished }) => {
    const sandbox = await sandboxWith(onTestFinished, { max: 1_000_000, windowMs: 1000 });
    const api = clientOf(onTestFinished, sandbox);
    const store = memoryDiscoveredSubAccounts();
    const now = Date.now();
    const abort = new AbortController();
    const result = await discoverSubAccounts(api, store, {
      days: 30,
      now,
      names: sandbox.subAccounts,
      pageSize: 20,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.found >= 3) abort.abort();
      },
    });
    expect(result.cancelled).toBe(true);
    expect(result.remembered).toBe(true);
    const expected = expectedLastTimes(now - 30 * DAY, now);
    expect(result.found.length).toBeGreaterThanOrEqual(3);
    expect(result.found.length).toBeLessThan(expected.size);
    // A partial scan may not have seen a name's latest transfer yet, never a later one.
    for (const { name, lastTransferTime } of result.found) expect(lastTransferTime).toBeLessThanOrEqual(expected.get(name)!);
    expect(store.list()).toEqual(result.found);
    expect(store.scannedAt()).toBeUndefined();
    const sent = sandbox.requests().length;
    await new Promise((r) => setTimeout(r, 150));
    expect(sandbox.requests().length).toBe(sent);
  });

  it('a failure part way keeps the partial findings in the store and says what failed', async ({ onTestFinished }) => {
    const sandbox = await sandboxWith(onTestFinished, { max: 1_000_000, windowMs: 1000 });
    const api = clientOf(onTestFinished, sandbox, 1);
    const store = memoryDiscoveredSubAccounts();
    let queued = false;
    const failed = await discoverSubAccounts(api, store, {
      days: 30,
      now: Date.now(),
      names: sandbox.subAccounts,
      pageSize: 20,
      onProgress: (p) => {
        if (!queued && p.found >= 2) {
          queued = true;
          sandbox.queueFaults({ kind: 'status', status: 503 });
        }
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ScanFailed);
    const { partial, cause } = failed as ScanFailed;
    expect(cause.message).toMatch(/503/);
    expect(partial.found.length).toBeGreaterThanOrEqual(2);
    expect(store.list()).toEqual(partial.found);
    expect(store.scannedAt()).toBeUndefined();
  });

  it('a whole scan is remembered with its time, merged with what was known', async ({ onTestFinished }) => {
    const sandbox = await sandboxWith(onTestFinished, { max: 1_000_000, windowMs: 1000 });
    const api = clientOf(onTestFinished, sandbox);
    const store = memoryDiscoveredSubAccounts([{ name: 'oldname01', lastTransferTime: 5 }]);
    const now = Date.now();
    const result = await discoverSubAccounts(api, store, { days: 7, now, names: sandbox.subAccounts });
    expect(result.cancelled).toBe(false);
    expect(store.scannedAt()).toBe(now);
    expect(store.list().map((e) => e.name)).toEqual([...result.found.map((f) => f.name), 'oldname01']);
    expect(new Map(result.found.map((f) => [f.name, f.lastTransferTime]))).toEqual(expectedLastTimes(now - 7 * DAY, now));
  });
});

describe('what a scan asks', () => {
  it('every account-type pair, master→master, then both directions of each name once', () => {
    const queries = scanQueries(['a', ' b ', 'a', ''], 2, 1_000_000_000_000);
    expect(queries).toHaveLength(4 * 5);
    expect(queries.slice(0, 5)).toEqual([
      { fromAccountType: 'SPOT', toAccountType: 'SPOT', startTime: 1_000_000_000_000 - 2 * DAY, endTime: 1_000_000_000_000, limit: 500 },
      expect.objectContaining({ toAccount: 'a' }),
      expect.objectContaining({ fromAccount: 'a' }),
      expect.objectContaining({ toAccount: 'b' }),
      expect.objectContaining({ fromAccount: 'b' }),
    ]);
    expect(new Set(queries.map((q) => `${q.fromAccountType}>${q.toAccountType}`))).toEqual(
      new Set(['SPOT>SPOT', 'SPOT>FUTURES', 'FUTURES>SPOT', 'FUTURES>FUTURES']),
    );
  });

  it.each([['0'], ['-3'], ['1.5'], ['abc'], [''], [String(MAX_SCAN_DAYS + 1)]])('days %j is refused, naming the field', (raw) => {
    const checked = checkScanDays(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(/^days: a whole number from 1 to 365/);
  });

  it('days within range are taken', () => {
    expect(checkScanDays(' 30 ')).toEqual({ ok: true, value: 30 });
    expect(checkScanDays(String(MAX_SCAN_DAYS))).toEqual({ ok: true, value: MAX_SCAN_DAYS });
  });
});
