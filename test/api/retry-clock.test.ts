import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BrokerError, formatDuration } from '../../src/api/errors';
import { CLOCK_SKEW_THRESHOLD_MS, offsetFromSkew, skewFromDateHeader } from '../../src/api/clock';
import { MAX_BACKOFF_MS, backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from '../../src/api/retry';

describe('skewFromDateHeader', () => {
  const local = Date.UTC(2024, 0, 1, 12, 0, 0, 250);

  it('compares Date + 500 ms with the moment the answer arrived', () => {
    const date = new Date(Date.UTC(2024, 0, 1, 12, 0, 30)).toUTCString();
    // arrived at local + 200 = 12:00:00.450; server ≈ 12:00:30.500 → skew = 30 500 − 450
    expect(skewFromDateHeader(date, local + 200)).toBe(30_050);
  });

  it('is negative when the server is behind', () => {
    const date = new Date(Date.UTC(2024, 0, 1, 11, 59, 30)).toUTCString();
    expect(skewFromDateHeader(date, local)).toBe(-29_750);
  });

  it('is undefined without a readable header', () => {
    expect(skewFromDateHeader(undefined, 0)).toBeUndefined();
    expect(skewFromDateHeader('yesterday-ish', 0)).toBeUndefined();
  });

  it('a request held on the way (7 s out, the answer at once): the clocks still agree, not 3.5 s apart', () => {
    const arrivedAt = local + 7000;
    // The service's clock agrees with ours: it stamps its answer as it sends it, at arrival.
    const date = new Date(Math.floor(arrivedAt / 1000) * 1000).toUTCString();
    expect(Math.abs(skewFromDateHeader(date, arrivedAt)!)).toBeLessThanOrEqual(CLOCK_SKEW_THRESHOLD_MS);
  });

  it('an answer held 5 s on its way back, its Date stamped as it left the service: agreeing clocks are no skew', () => {
    const sentAt = local;
    const date = new Date(Math.floor((sentAt + 100) / 1000) * 1000).toUTCString();
    // Without the sending time the wait reads as a clock 4.5 s ahead; with it, nothing is measured.
    expect(skewFromDateHeader(date, sentAt + 5100)).toBeLessThan(-4000);
    expect(skewFromDateHeader(date, sentAt + 5100, sentAt)).toBe(0);
    // A clock 30 s behind is still measured, however slow the exchange.
    const ahead = new Date(Math.floor((sentAt + 100 + 30_000) / 1000) * 1000).toUTCString();
    expect(skewFromDateHeader(ahead, sentAt + 5100, sentAt)).toBeGreaterThan(24_000);
  });

  it('never runs ahead of the true skew by more than 500 ms, however the time out and back split; lags by at most the round trip', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (trueSkew, rtt, outShare) => {
          const sentAt = 1_700_000_000_000;
          // The service answers after the way out, whatever share of the round trip it took.
          const serverAtAnswer = sentAt + rtt * outShare + trueSkew;
          const date = new Date(Math.floor(serverAtAnswer / 1000) * 1000).toUTCString();
          const skew = skewFromDateHeader(date, sentAt + rtt);
          expect(skew).toBeDefined();
          expect(skew! - trueSkew).toBeLessThanOrEqual(501);
          expect(trueSkew - skew!).toBeLessThanOrEqual(rtt + 501);
          // Told when it was sent too: agreeing clocks could explain the stamp only within the round trip and
          // the header's second; then no skew, else the same estimate.
          const bounded = skewFromDateHeader(date, sentAt + rtt, sentAt)!;
          if (bounded === 0) expect(Math.abs(trueSkew)).toBeLessThanOrEqual(rtt + 1001);
          else expect(bounded).toBe(skew);
        },
      ),
    );
  });
});

describe('offsetFromSkew', () => {
  it('applies a skew only beyond the threshold', () => {
    expect(offsetFromSkew(CLOCK_SKEW_THRESHOLD_MS)).toBe(0);
    expect(offsetFromSkew(-999)).toBe(0);
    expect(offsetFromSkew(1001)).toBe(1001);
    expect(offsetFromSkew(-30_000)).toBe(-30_000);
  });
});

describe('backoffDelay', () => {
  it('doubles from the base with jitter between half and all of it', () => {
    expect(backoffDelay(1, 100, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, () => 1)).toBe(400);
    expect(backoffDelay(3, 100, () => 0)).toBe(200);
  });

  it('is capped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, base, r) => {
        const delay = backoffDelay(n, base, () => r);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(MAX_BACKOFF_MS);
      }),
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
  });

  it('a fraction is rounded up, an exponent read, and of a list the longest counts: a wait is never cut short', () => {
    expect(parseRetryAfter('10.9', 0)).toBe(10_900);
    expect(parseRetryAfter('0.0001', 0)).toBe(1);
    expect(parseRetryAfter('1e3', 0)).toBe(1_000_000);
    expect(parseRetryAfter('5, 7', 0)).toBe(7000);
    expect(parseRetryAfter('1e999', 0)).toBeUndefined();
  });

  it('reads an HTTP-date against the reference time', () => {
    const ref = Date.UTC(2024, 0, 1, 0, 0, 0);
    expect(parseRetryAfter(new Date(ref + 5000).toUTCString(), ref)).toBe(5000);
    expect(parseRetryAfter(new Date(ref - 5000).toUTCString(), ref)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it('retries 429 and 5xx only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404].some(isRetryableStatus)).toBe(false);
  });
});

describe('sleep', () => {
  it('waits', async () => {
    const start = performance.now();
    await sleep(30, undefined, 'op');
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it('is cut short by the caller signal with an aborted BrokerError', async () => {
    const controller = new AbortController();
    const start = performance.now();
    setTimeout(() => controller.abort(), 20);
    const error = await sleep(5_000, controller.signal, 'op').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerError);
    expect((error as BrokerError).kind).toBe('aborted');
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it('rejects at once when already aborted', async () => {
    await expect(sleep(5_000, AbortSignal.abort(), 'op')).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('formatDuration', () => {
  it('says a duration under a tenth of a second in milliseconds, never "0 s"', () => {
    expect([25, 99, 99.7, 100, 400, 9_940, 61_000].map(formatDuration)).toEqual(['25 ms', '99 ms', '0.1 s', '0.1 s', '0.4 s', '9.9 s', '61 s']);
    const timeout = new BrokerError({ kind: 'outcome-unknown', operation: 'create key', stage: 'sent', timeoutMs: 25 });
    expect(timeout.message).toContain('25 ms');
  });
});
