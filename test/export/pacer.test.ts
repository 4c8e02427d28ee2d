// The export pacer (issue 9, point 3): nothing is delayed until a 429; a 429 teaches a budget (the sends the
// service accepted, over the time they took plus its Retry-After); later sends keep to it; more 429s tighten it.
import { describe, expect, it } from 'vitest';
import type { ExchangeInfo } from '../../src/api/contract';
import { BrokerError } from '../../src/api/errors';
import { DEFAULT_RETRY_AFTER_MS, PACER_SLACK_MS, RequestPacer, windowEstimate } from '../../src/export/pacer';

/** A pacer on a clock the test moves, and a send whose exchanges the test scripts. */
function pacerOnClock() {
  const clock = { now: 0 };
  const pacer = new RequestPacer({ now: () => clock.now });
  const exchange = (status: number, attempt = 1, retryAfterMs?: number): ExchangeInfo => ({
    operation: 'list transfers',
    method: 'GET',
    path: '/api/v3/broker/sub-account/universalTransfer',
    status,
    ok: status === 200,
    latencyMs: 0,
    attempt,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
  /** One paced call whose tries are answered with these statuses (a 429's Retry-After given), `gap` ms apart. */
  const send = (tries: { status: number; retryAfterMs?: number; after?: number }[]) =>
    pacer.call(async (onExchange) => {
      tries.forEach((t, i) => {
        clock.now += t.after ?? 0;
        onExchange(exchange(t.status, i + 1, t.retryAfterMs));
      });
      return 'page';
    });
  return { clock, pacer, send };
}

describe('RequestPacer', () => {
  it('delays nothing before the service refuses a request', async () => {
    const { clock, pacer, send } = pacerOnClock();
    for (let i = 0; i < 50; i++) {
      expect(pacer.delay()).toBe(0);
      await send([{ status: 200 }]);
      clock.now += 1;
    }
    expect(pacer.stats).toEqual({ requests: 50, rateLimited: 0, waitedMs: 0 });
  });

  it('a 429 inside the client retries teaches the budget; the sends after it keep to it', async () => {
    const { clock, pacer, send } = pacerOnClock();
    // Ten pages accepted 10 ms apart, then the eleventh refused (Retry-After 1 s) and retried by the client.
    for (let i = 0; i < 10; i++) {
      await send([{ status: 200 }]);
      clock.now += 10;
    }
    await send([{ status: 429, retryAfterMs: 1000 }, { status: 200, after: 1000 }]);
    // 10 accepted in 100 ms + 1000 ms asked to wait: a 1 s window (whole seconds), kept 2% under: 9 per 1,025 ms.
    expect(pacer.stats).toMatchObject({ requests: 12, rateLimited: 1, budget: { requests: 9, periodMs: 1000 + PACER_SLACK_MS } });
    // At 1,100 ms (just after the retry), 4 sends are in the last 1,025 ms (80, 90, the refused 100, the
    // retry): 5 more may go at once, then the next waits until the send at 80 is 1,025 ms old.
    expect(clock.now).toBe(1100);
    let allowed = 0;
    while (pacer.delay() === 0) {
      await send([{ status: 200 }]);
      allowed += 1;
    }
    expect(allowed).toBe(5);
    expect(pacer.delay()).toBe(80 + 1025 - 1100);
    clock.now = 80 + 1025;
    expect(pacer.delay()).toBe(0);
  });

  it('the window: no longer than the stretch plus the wait; whole seconds when the wait is', () => {
    expect(windowEstimate(100, 1000)).toBe(1000);
    expect(windowEstimate(300, 1000)).toBe(1000);
    expect(windowEstimate(999, 1000)).toBe(1000);
    expect(windowEstimate(1000, 1000)).toBe(2000);
    expect(windowEstimate(2300, 8000)).toBe(10_000);
    expect(windowEstimate(45_000, 16_000)).toBe(61_000);
    // A wait that is not whole seconds (or none) is taken as it is.
    expect(windowEstimate(300, 700)).toBe(1000);
    expect(windowEstimate(300, 1500)).toBe(1800);
    expect(windowEstimate(300, 0)).toBe(301);
  });

  it('keeps to the budget in any span: at most `requests` sends in any `periodMs`, waiting for real', async () => {
    const pacer = new RequestPacer();
    // Teach 3 per ~(elapsed + 100 ms) with a refused fourth.
    let n = 0;
    const sends: number[] = [];
    const call = (status: number, retryAfterMs?: number) =>
      pacer.call(async (onExchange) => {
        sends.push(performance.now());
        n += 1;
        onExchange({ operation: 'x', method: 'GET', path: '/', status, ok: status === 200, latencyMs: 0, attempt: 1, ...(retryAfterMs ? { retryAfterMs } : {}) });
      });
    for (let i = 0; i < 4; i++) await call(200);
    await call(429, 100);
    const budget = pacer.stats.budget!;
    expect(budget.requests).toBe(3);
    sends.length = 0;
    for (let i = 0; i < 7; i++) await call(200);
    expect(n).toBe(12);
    // Any `requests + 1` consecutive sends span at least the period (timer granularity aside).
    for (let i = budget.requests; i < sends.length; i++) expect(sends[i]! - sends[i - budget.requests]!).toBeGreaterThanOrEqual(budget.periodMs - 2);
    expect(pacer.stats.waitedMs).toBeGreaterThan(0);
  });

  it('learns from a 429 the call fails with (the client gave up), and assumes 1 s without Retry-After', async () => {
    const { clock, pacer, send } = pacerOnClock();
    for (let i = 0; i < 5; i++) {
      await send([{ status: 200 }]);
      clock.now += 20;
    }
    const refused = pacer.call(async () => {
      throw new BrokerError({ kind: 'service', operation: 'list transfers', status: 429 });
    });
    await expect(refused).rejects.toMatchObject({ status: 429 });
    expect(pacer.stats).toMatchObject({ rateLimited: 1, budget: { requests: 4, periodMs: DEFAULT_RETRY_AFTER_MS + PACER_SLACK_MS } });
    // Other failures teach nothing.
    const other = new RequestPacer();
    await expect(other.call(async () => Promise.reject(new BrokerError({ kind: 'service', operation: 'x', status: 500 })))).rejects.toBeInstanceOf(BrokerError);
    expect(other.stats.rateLimited).toBe(0);
  });

  it('a 429 after fewer than 4 accepted sends measures nothing; later lessons only tighten the budget', async () => {
    const { clock, pacer, send } = pacerOnClock();
    await send([{ status: 429, retryAfterMs: 1000 }, { status: 200, after: 1000 }]);
    expect(pacer.stats.rateLimited).toBe(1);
    expect(pacer.stats.budget).toBeUndefined();
    // The retry began a stretch: 50 accepted in 490 ms, then a 429 (2 s).
    for (let i = 0; i < 49; i++) {
      clock.now += 10;
      await send([{ status: 200 }]);
    }
    clock.now += 10;
    await send([{ status: 429, retryAfterMs: 2000 }, { status: 200, after: 2000 }]);
    expect(pacer.stats.budget).toEqual({ requests: 49, periodMs: 2000 + PACER_SLACK_MS });
    // Refused right after the retry (someone else used the budget): a fifth fewer.
    await send([{ status: 429, retryAfterMs: 1000 }]);
    expect(pacer.stats.budget).toEqual({ requests: 39, periodMs: 2025 });
    // A long stretch at a slower rate, then a 429: its rate is taken, with the smaller burst.
    clock.now += 10_000;
    for (let i = 0; i < 100; i++) {
      clock.now += 100;
      expect(pacer.delay()).toBe(0);
      await send([{ status: 200 }]);
    }
    clock.now += 100;
    await send([{ status: 429, retryAfterMs: 1000 }]);
    expect(pacer.stats.budget).toEqual({ requests: 39, periodMs: (11_025 * 39) / 98 });
    expect(pacer.stats.rateLimited).toBe(4);
    expect(pacer.stats.waitedMs).toBe(0);
  });

  it('a wait for the budget is cancelled with the export', async () => {
    const { clock, pacer, send } = pacerOnClock();
    for (let i = 0; i < 5; i++) await send([{ status: 200 }]);
    await send([{ status: 429, retryAfterMs: 60_000 }]);
    expect(pacer.delay()).toBeGreaterThan(50_000);
    const abort = new AbortController();
    const waiting = pacer.call(async () => 'never', abort.signal);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    expect(clock.now).toBe(0);
  });
});
