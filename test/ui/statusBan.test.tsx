// A ban (HTTP 418) in the console: the status bar says it and its time left, and nothing more is sent to that
// service while it lasts (a refresh is held back by the client, the sandbox sees no request).
import { afterEach, describe, expect, it } from 'vitest';
import { seededSubAccountNames } from '../../src/sandbox/seedAccounts';
import { ownLoopbackHost } from '../loopbackHost';
import { startConsole, type TestConsole } from './harness';
import { openTransfers } from './flows';

let c: TestConsole | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

describe('the status bar during a ban', () => {
  it('says the service has banned this IP, for how long; a refresh sends nothing', async () => {
    // One request a minute, and the first refusal bans: the refresh after the first load meets the 418. The
    // sandbox has a host of its own, as the ban stays in this process.
    const sub = seededSubAccountNames(1)[0] as string;
    c = await startConsole({
      columns: 120,
      rows: 24,
      sandbox: { host: ownLoopbackHost(), rateLimit: { max: 1, windowMs: 60_000 }, ban: { afterRefusals: 0, durationMs: 120_000 } },
      initialRoute: { screen: 'keys', subAccount: sub },
    });
    await c.waitForText(/✓ list keys 200 · \d+ ms/, 10_000);
    await c.press('r');
    await c.waitForText(/✗ the service has banned this IP for (2 min|1[01]\d s) \(HTTP 418\) · nothing is sent until it ends/, 10_000);
    const sent = c.requests().length;
    expect(c.requests().at(-1)?.status).toBe(418);
    await c.press('r');
    await c.settle(300);
    expect(c.requests()).toHaveLength(sent);
    expect(c.frame()).toMatch(/the service has banned this IP for (2 min|1[01]\d s) \(HTTP 418\)/);
  });

  it('a list refused by a ban offers no retry while it lasts, and r again once it has ended, without a key pressed', async () => {
    const sub = seededSubAccountNames(1)[0] as string;
    c = await startConsole({
      columns: 120,
      rows: 24,
      sandbox: { host: ownLoopbackHost(), rateLimit: { max: 1, windowMs: 60_000 }, ban: { afterRefusals: 0, durationMs: 1000 } },
    });
    // The minute's one request goes before the console asks: its first load meets the ban.
    await c.api.listSubAccountKeys(sub);
    await c.type(sub);
    await c.press('enter');
    await c.waitForText(/list keys failed: the service has banned this IP for \d+ s/);
    const footer = () => c!.frame().split('\n').at(-1) ?? '';
    expect(footer()).not.toContain('r retry');
    await c.waitFor(() => footer().includes('r retry'), 'r offered once the ban ended', 4000);
    const sent = c.requests().length;
    await c.press('r');
    await c.waitFor(() => c!.requests().length > sent, 'the retry sent');
  });

  it('the transfers page during a ban: n asks for no page it would not send; the rows in hand stay, and the notice says why', async () => {
    c = await startConsole({
      columns: 120,
      rows: 30,
      sandbox: { host: ownLoopbackHost(), rateLimit: { max: 1, windowMs: 60_000 }, ban: { afterRefusals: 0, durationMs: 120_000 } },
    });
    await openTransfers(c);
    const rows = c
      .frame()
      .split('\n')
      .filter((line) => /\d{4}-\d{2}-\d{2}/.test(line));
    expect(rows.length).toBeGreaterThan(5);
    // The minute's one request went to page 1: this one meets the limit, and the refusal bans this IP.
    await expect(c.api.listSubAccountKeys(seededSubAccountNames(1)[0] as string)).rejects.toMatchObject({ status: 418 });
    const sent = c.requests().length;
    await c.press('n');
    await c.waitForText(/page 2 not asked for: list transfers failed: the service has banned this IP for/);
    expect(c.frame()).toMatch(/Page 1 · \d+ per page/);
    for (const row of rows.slice(0, 5)) expect(c.frame()).toContain(row);
    expect(c.requests()).toHaveLength(sent);
  });
});
