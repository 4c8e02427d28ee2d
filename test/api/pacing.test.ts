// The endpoint pacer every request passes: a budget under the limit it keeps to from the first request, kept
// in any span of its period; a 429 pauses the endpoint for its Retry-After and teaches a budget (the sends the
// service accepted, over the time they took plus its Retry-After) that only ever tightens.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_AFTER_MS,
  SERVICE_LIMIT,
  ServicePacer,
  PACER_SLACK_MS,
  banEnd,
  servicePacer,
  noteBan,
  pacedBudget,
  windowEstimate,
} from '../../src/api/pacing';

/** A pacer on a clock the test moves; `send` reserves a slot, moves the clock to it, and returns the slot. */
function pacerOnClock(limit = { requests: 1000, periodMs: 1000 }) {
  const clock = { now: 0 };
  const pacer = new ServicePacer(limit, () => clock.now);
  const send = (): number => {
    clock.now += pacer.reserve();
    return clock.now;
  };
  return { clock, pacer, send };
}

describe('ServicePacer', () => {
  it('keeps to 95% of 20 a second from the first request', () => {
    expect(pacedBudget(SERVICE_LIMIT)).toEqual({ requests: 19, periodMs: 1000 });
    const { clock, pacer } = pacerOnClock(pacedBudget(SERVICE_LIMIT));
    for (let i = 0; i < 19; i++) expect(pacer.reserve()).toBe(0);
    // The 20th waits until the first is a whole period old; the ones after it queue behind it.
    expect(pacer.reserve()).toBe(1000);
    clock.now = 300;
    expect(pacer.delay()).toBe(700);
    expect(pacer.stats).toMatchObject({ requests: 20, rateLimited: 0, learned: false });
  });

  it('slots are handed out in order: callers waiting together never go at once', () => {
    const { pacer } = pacerOnClock({ requests: 2, periodMs: 1000 });
    expect([pacer.reserve(), pacer.reserve(), pacer.reserve(), pacer.reserve(), pacer.reserve()]).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('a 429 pauses the endpoint for its Retry-After and teaches the budget; the sends after it keep to it', () => {
    const { clock, pacer, send } = pacerOnClock();
    // Ten sends accepted 10 ms apart, then the eleventh refused (Retry-After 1 s).
    for (let i = 0; i < 10; i++) {
      send();
      clock.now += 10;
    }
    const refused = send();
    pacer.refused(refused, 1000);
    // 10 accepted in 100 ms + 1000 ms asked to wait: a 1 s window (whole seconds), kept 2% under: 9 per 1,025 ms.
    expect(pacer.stats).toMatchObject({ requests: 11, rateLimited: 1, learned: true, budget: { requests: 9, periodMs: 1000 + PACER_SLACK_MS } });
    expect(pacer.delay()).toBe(1000);
    clock.now = 1100;
    // At 1,100 ms, 3 sends are in the last 1,025 ms (80, 90, the refused 100): 6 more may go at once.
    let allowed = 0;
    while (pacer.delay() === 0) {
      send();
      allowed += 1;
    }
    expect(allowed).toBe(6);
    expect(pacer.delay()).toBe(80 + 1025 - 1100);
  });

  it('the window: no longer than the stretch plus the wait; whole seconds when the wait is', () => {
    expect(windowEstimate(100, 1000)).toBe(1000);
    expect(windowEstimate(300, 1000)).toBe(1000);
    expect(windowEstimate(999, 1000)).toBe(1000);
    expect(windowEstimate(1000, 1000)).toBe(2000);
    expect(windowEstimate(2300, 8000)).toBe(10_000);
    expect(windowEstimate(45_000, 16_000)).toBe(61_000);
    expect(windowEstimate(300, 700)).toBe(1000);
    expect(windowEstimate(300, 1500)).toBe(1800);
    expect(windowEstimate(300, 0)).toBe(301);
  });

  it('429s of requests already in flight when a lesson came teach nothing more', () => {
    const { clock, pacer, send } = pacerOnClock();
    const sent = Array.from({ length: 20 }, () => send());
    clock.now = 50;
    pacer.refused(sent[17]!, 1000);
    const learned = pacer.stats.budget;
    pacer.refused(sent[18]!, 1000);
    pacer.refused(sent[19]!, 1000);
    expect(pacer.stats.budget).toEqual(learned);
    expect(pacer.stats.rateLimited).toBe(3);
  });

  it('a 429 after fewer than 4 accepted sends tightens by a fifth; later lessons only tighten; no Retry-After: 1 s', () => {
    const { clock, pacer, send } = pacerOnClock({ requests: 100, periodMs: 1000 });
    pacer.refused(send(), undefined);
    expect(pacer.stats.budget).toEqual({ requests: 80, periodMs: DEFAULT_RETRY_AFTER_MS + PACER_SLACK_MS });
    clock.now = 2000;
    // 50 accepted in 490 ms, then a 429 (2 s): 49 per 2,025 ms, slower than 80 per 1,025.
    for (let i = 0; i < 50; i++) {
      send();
      clock.now += 10;
    }
    pacer.refused(send(), 2000);
    expect(pacer.stats.budget).toEqual({ requests: 49, periodMs: 2000 + PACER_SLACK_MS });
    // Refused right after (someone else used the budget): a fifth fewer.
    pacer.refused(send(), 1000);
    expect(pacer.stats.budget).toEqual({ requests: 39, periodMs: 2025 });
    // A slow stretch then a 429: its slower rate is taken (10 accepted in 900 ms + 1 s: 9 per 1,025 ms).
    clock.now += 10_000;
    for (let i = 0; i < 10; i++) {
      clock.now += 100;
      send();
    }
    pacer.refused(send(), 1000);
    expect(pacer.stats.budget).toEqual({ requests: 9, periodMs: 1025 });
  });
});

describe('ServicePacer over long runs', () => {
  it('paced for longer than a period, a 429 teaches from the last period only (not the whole run)', () => {
    const { clock, pacer } = pacerOnClock({ requests: 50, periodMs: 1000 });
    // Five windows at the budget, then the service refuses one (a neighbour on the same key took some).
    for (let i = 0; i < 250; i++) clock.now += pacer.reserve();
    clock.now += 5;
    const refused = clock.now;
    clock.now += pacer.reserve();
    pacer.refused(refused, 1000);
    // The 50 sends of the last second were taken (49 kept): not 250 over 5 s + 1 s, nor a halved rate.
    expect(pacer.stats.budget).toEqual({ requests: 49, periodMs: 1000 + PACER_SLACK_MS });
  });

  it('a send counts from when its answer came: a slot taken earlier waits longer', () => {
    const { pacer } = pacerOnClock({ requests: 2, periodMs: 1000 });
    const first = pacer.take(0);
    pacer.take(0);
    const third = pacer.take(0);
    expect(third.waitMs).toBe(1000);
    // The first one's answer came at 300: the third waits for a period after that, not after 0.
    pacer.mark(first, 300);
    expect(pacer.due(third, 1000)).toBe(300);
  });
});

describe('process-wide registries', () => {
  it('one pacer per base URL, shared by every endpoint and API key', () => {
    const a = servicePacer('http://127.0.0.1:1');
    expect(servicePacer('http://127.0.0.1:1')).toBe(a);
    expect(servicePacer('http://127.0.0.1:2')).not.toBe(a);
  });

  it('a ban holds until its end; a later end wins; an ended ban is gone', () => {
    noteBan('http://127.0.0.1:9', 5000);
    noteBan('http://127.0.0.1:9', 3000);
    expect(banEnd('http://127.0.0.1:9', 4000)).toBe(5000);
    expect(banEnd('http://127.0.0.1:8', 4000)).toBeUndefined();
    expect(banEnd('http://127.0.0.1:9', 5000)).toBeUndefined();
  });
});
