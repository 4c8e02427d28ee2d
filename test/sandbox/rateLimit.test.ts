// The sandbox's model of the service's limits: per endpoint and API key (default the documented 500 per 10 s),
// 429 + Retry-After past it, and a ban (418 + Retry-After, 2 minutes) of a client that keeps sending while
// refused. Raw signed requests over 127.0.0.1, so nothing paces them.
import { describe, expect, test } from 'vitest';
import { runSandboxCommand } from '../../src/commands/sandbox';
import { DEFAULT_BAN_MS, DEFAULT_RATE_LIMIT, MIN_BAN_REFUSALS, parseRateLimit } from '../../src/sandbox/rateLimit';
import { runCli } from '../commands/helpers';
import { listKeys, listTransfers, sandboxFor } from './helpers';

const TYPES = [
  ['fromAccountType', 'SPOT'],
  ['toAccountType', 'FUTURE'],
] as const;

describe.concurrent('the sandbox rate limit', () => {
  test('the default is the documented 500 per 10 s; --rate-limit reads N/Ws', () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ max: 500, windowMs: 10_000 });
    expect(parseRateLimit('500/10s')).toEqual({ max: 500, windowMs: 10_000 });
    expect(parseRateLimit('50/1s')).toEqual({ max: 50, windowMs: 1000 });
    expect(parseRateLimit('100/500ms')).toEqual({ max: 100, windowMs: 500 });
    expect(parseRateLimit('20/s')).toEqual({ max: 20, windowMs: 1000 });
    expect(parseRateLimit('off')).toBe(false);
    for (const bad of ['', '500', '0/1s', '500/0s', 'ten/1s', '5/1h']) expect(parseRateLimit(bad), bad).toBeUndefined();
  });

  test('a --rate-limit that is not N/Ws is refused, naming the flag; nothing starts', async () => {
    const ran = await runCli(['sandbox', '--rate-limit', 'fast']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/--rate-limit <N\/Ws>' argument 'fast' is invalid\. must be N\/Ws \(requests per window, e\.g\. 500\/10s or 50\/1s\) or off/);
  });

  test('counted per API key over every endpoint together; 429 says when to come back', async ({ onTestFinished }) => {
    const sb = await sandboxFor(onTestFinished, { seed: 7, rateLimit: { max: 3, windowMs: 5000 } });
    const sub = sb.subAccounts[0] as string;
    for (let i = 0; i < 2; i++) expect((await listKeys(sb, sub)).status).toBe(200);
    expect((await listTransfers(sb, TYPES)).status).toBe(200);
    const over = await listKeys(sb, sub);
    expect(over.status).toBe(429);
    expect(over.json).toEqual({ code: 429, msg: expect.stringContaining('every endpoint together') });
    expect(over.headers['retry-after']).toMatch(/^[45]$/);
    // The transfers endpoint shares the window.
    expect((await listTransfers(sb, TYPES)).status).toBe(429);
  });

  test('a client that keeps sending while refused is banned: 418 + Retry-After, on every endpoint, until it ends', async ({ onTestFinished }) => {
    const sb = await sandboxFor(onTestFinished, { seed: 7, rateLimit: { max: 2, windowMs: 60_000 } });
    const sub = sb.subAccounts[0] as string;
    const statuses: number[] = [];
    for (let i = 0; i < 2 + MIN_BAN_REFUSALS + 1; i++) statuses.push((await listKeys(sb, sub)).status);
    // Two accepted, then as many 429s as the rule allows (at least 10), then the ban.
    expect(statuses).toEqual([200, 200, ...Array.from({ length: MIN_BAN_REFUSALS }, () => 429), 418]);
    const banned = await listTransfers(sb, TYPES);
    expect(banned.status).toBe(418);
    expect(banned.json).toEqual({ code: 418, msg: expect.stringContaining('banned') });
    expect(Number(banned.headers['retry-after'])).toBeGreaterThan(DEFAULT_BAN_MS / 1000 - 5);
    expect(Number(banned.headers['retry-after'])).toBeLessThanOrEqual(DEFAULT_BAN_MS / 1000);
  });

  test('a ban ends after its time; a client that waited its 429 out is never banned', async ({ onTestFinished }) => {
    const sb = await sandboxFor(onTestFinished, { seed: 7, rateLimit: { max: 1, windowMs: 1500 }, ban: { afterRefusals: 2, durationMs: 1000 } });
    const sub = sb.subAccounts[0] as string;
    expect((await listKeys(sb, sub)).status).toBe(200);
    expect((await listKeys(sb, sub)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1550));
    expect((await listKeys(sb, sub)).status).toBe(200);
    expect([(await listKeys(sb, sub)).status, (await listKeys(sb, sub)).status, (await listKeys(sb, sub)).status]).toEqual([429, 429, 418]);
    expect(await listKeys(sb, sub)).toMatchObject({ status: 418, headers: { 'retry-after': '1' } });
    // Past the ban and the window it began in.
    await new Promise((r) => setTimeout(r, 1600));
    expect((await listKeys(sb, sub)).status).toBe(200);
  });

  test('off: no limit; the command passes --rate-limit and --no-ban on', async ({ onTestFinished }) => {
    const sb = await sandboxFor(onTestFinished, { seed: 7, rateLimit: false });
    const sub = sb.subAccounts[0] as string;
    const many = await Promise.all(Array.from({ length: 40 }, () => listKeys(sb, sub)));
    expect(many.every((r) => r.status === 200)).toBe(true);
    const out = { write: () => true } as unknown as NodeJS.WritableStream;
    const limited = await runSandboxCommand({ seed: 7, rateLimit: { max: 1, windowMs: 60_000 }, ban: false }, out, { handleSignals: false });
    onTestFinished(() => limited.close());
    const seen: number[] = [];
    for (let i = 0; i < 2 + MIN_BAN_REFUSALS + 2; i++) seen.push((await listKeys(limited, sub)).status);
    expect(seen[0]).toBe(200);
    expect(seen.slice(1).every((s) => s === 429)).toBe(true);
  });
});
