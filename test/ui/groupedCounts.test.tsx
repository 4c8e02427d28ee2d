// The console's counts are grouped (1,234 rows) as the commands' are: an export of every page says how many it wrote.
import { afterEach, describe, expect, test } from 'vitest';
import { startConsole, type TestConsole } from './harness';
import { openTransfers } from './flows';

let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

describe('grouped counts on screen', () => {
  test('export of all pages: progress and the result group their row counts', async () => {
    c = await startConsole({ sandbox: { seed: 5, transfers: 12_000, rateLimit: { max: 1_000_000, windowMs: 1000 } } });
    await openTransfers(c, { startTime: '90d' });
    await c.press('x');
    await c.press('a');
    await c.press('enter');
    await c.waitForText(/✓ Wrote [\d,]+ rows \(\d+ pages\) to/, 20_000);
    const wrote = /✓ Wrote ([\d,]+) rows/.exec(c.frame())![1]!;
    expect(Number(wrote.replace(/,/g, ''))).toBeGreaterThanOrEqual(1000);
    expect(wrote).toMatch(/^\d{1,3}(,\d{3})+$/);
  }, 40_000);

  test('export of all pages under a service limit it meets: the panel says it waits for the rate limit, then finishes', async () => {
    // 1 request in 3 s: the export's 3 pages, sent 50 ms apart, fall in at most two windows, so one meets a 429.
    c = await startConsole({ sandbox: { seed: 5, transfers: 12_000, rateLimit: { max: 1, windowMs: 3000 } } });
    await openTransfers(c, { startTime: '90d' });
    await c.press('x');
    await c.press('a');
    await c.press('enter');
    await c.waitForText(/waiting for the rate limit \(\d+\.\d s\)…/, 20_000);
    expect(c.frame()).toMatch(/Exporting/);
    await c.waitForText(/✓ Wrote [\d,]+ rows \(\d+ pages\) to/, 30_000);
  }, 60_000);
});
