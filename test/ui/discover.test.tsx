// Sub-accounts discovered in transfer history, in the console: the picker offers them marked with
// their last transfer; ctrl+d scans (progress, a 429 met and waited out, cancel keeping what was found, the
// result list, enter opening a sub-account's keys); names from the service are sanitised; 80x24 and 40x12.
import React from 'react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { memoryRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { formatLocalTime } from '../../src/api/timeInput';
import { App } from '../../src/ui/App';
import { createExchangeLog } from '../../src/ui/exchangeLog';
import type { ConsoleServices } from '../../src/ui/services';
import { makeTheme } from '../../src/ui/theme';
import { consoleFor, sleep, type TestConsole, expectFits } from './harness';
import { lineWith, openTransfers } from './flows';
import { renderInTerminal } from './terminal';
import { rateLimitAt } from '../export/rateLimitAt';
import { FROZEN_SUB_ACCOUNT } from '../../src/sandbox/seedAccounts';

const CTRL_D = '\u0004';
const SIZES = [
  [80, 24],
  [40, 12],
] as const;
const T = Date.UTC(2026, 10, 20, 14, 2);

const transferRequests = (console: TestConsole, from = 0) =>
  console
    .requests()
    .slice(from)
    .filter((r) => r.path.endsWith('/universalTransfer'));

// Concurrent: each test has its own sandbox; the scan tests mostly wait (latency, a 429's Retry-After).
describe.concurrent('the picker offers discovered sub-accounts', () => {
  test.for(SIZES)('marked as discovered, after the recent ones and before the demo ones, at %ix%i', async ([columns, rows], { onTestFinished }) => {
    const c = await consoleFor(onTestFinished, {
      columns,
      rows,
      recent: ['recent01'],
      discovered: [
        { name: 'found02', lastTransferTime: T },
        { name: 'found01', lastTransferTime: T + 60_000 },
      ],
      suggestions: ['demo01'],
    });
    const frame = c.frame();
    // At 40x12 the heading is cut and three names fit: the list scrolls.
    expect(frame).toContain(columns >= 80 ? 'Recent, then discovered, then the demo sub-accounts (4)' : 'Recent, then discovered, then the');
    const visible = columns >= 80 ? ['recent01', 'found01', 'found02', 'demo01'] : ['recent01', 'found01', 'found02'];
    const order = visible.map((name) => frame.indexOf(`  ${name}`));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lineWith(frame, 'found02')).toContain('discovered');
    expect(lineWith(frame, 'recent01')).not.toContain('discovered');
    // The last transfer shows, shorter where the width asks for it.
    expect(lineWith(frame, 'found02')).toContain(columns >= 80 ? `discovered · last transfer ${formatLocalTime(T)}` : `discovered · ${formatLocalTime(T)}`);
    if (columns < 80) {
      await c.press('down', 4);
      expect(lineWith(c.frame(), '› demo01')).toMatch(/^› demo01 +\(demo\)/);
      await c.press('up', 4);
    } else expect(lineWith(frame, 'demo01')).toContain('(demo)');
    expectFits(c.rawFrame(), columns, rows);
    if (columns >= 80) expect(c.frame()).toMatch(/\^d discover/);
    // Picking a discovered name opens its keys.
    await c.press('down');
    await c.press('down');
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: 'found01' });
  });

  test('names seen in transfer pages fetched in this run join the discovered ones', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { suggestions: [] });
    const [sub] = c.sandbox.subAccounts as [string];
    await openTransfers(c, { toAccount: sub });
    await c.waitFor(() => c.discovered.list().some((d) => d.name === sub), 'the name noted');
    // Only the named sub-account: the master (a blank side) is never listed.
    expect(c.discovered.list().map((d) => d.name)).toEqual([sub]);
    await c.press('esc');
    await c.press('esc');
    await c.waitForScreen('picker');
    expect(lineWith(c.frame(), sub)).toContain('discovered');
  });
});

// Scans send their queries at the client's pace (20 a second): on a loaded 2-core machine one can take 15 s.
describe('ctrl+d: the discover scan', { timeout: 45_000 }, () => {
  // Alone (not concurrent), first: esc must land while the first page is in. At 40x12 "Cancelled: 1 sub-account
  // found before it" just fits; with two found (a loaded machine) the line wraps, so the words are matched across it.
  test.for(SIZES)('esc cancels part way, keeping what was found, at %ix%i', { timeout: 45_000 }, async ([columns, rows], { onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns, rows, sandbox: { faults: { latencyMs: 40 } } });
    await c.press(CTRL_D);
    await c.waitForScreen('discover');
    await c.press('enter');
    await c.waitForText(/[1-9]\d* sub-accounts? found so far/, 10_000);
    expectFits(c.rawFrame(), columns, rows);
    await c.press('esc');
    await c.waitForText(/Cancelled: \d+ sub-accounts?\s+found\s+before\s+it/);
    const kept = c.discovered.list();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(c.sandbox.subAccounts.length);
    expect(c.discovered.scannedAt()).toBeUndefined();
    expect(c.frame()).toMatch(new RegExp(`Cancelled: ${kept.length} sub-accounts?\\s+found`));
    expectFits(c.rawFrame(), columns, rows);
    const sent = transferRequests(c).length;
    await c.settle(150);
    expect(transferRequests(c)).toHaveLength(sent);
    // Still on the result: esc goes back to the picker, which offers what was kept.
    await c.press('esc');
    await c.waitForScreen('picker');
    expect(lineWith(c.frame(), kept[0]!.name)).toContain('discovered');
  });

  test.concurrent(
    'progress with a 429 met and waited out, then every sub-account with its last transfer; enter opens its keys',
    async ({ onTestFinished }) => {
      // A 429 at the 61st request teaches the pacer under 60 a second, under the service's own 120.
      const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, everyCommit: true, sandbox: { rateLimit: { max: 120, windowMs: 1000 } } });
      c.sandbox.queueFaults(...rateLimitAt(61));
      await c.press(CTRL_D);
      await c.waitForScreen('discover');
      expect(c.frame()).toContain('Days back: 30');
      expect(c.frame()).toMatch(/enter scan/);
      expectFits(c.rawFrame(), 80, 24);
      await c.press('enter');
      await c.waitForText(/✓ \d+ sub-accounts in 30 days of transfers/, 30_000);
      const seen = c.frames().map((f) => stripVTControlCharacters(f));
      expect(seen.some((f) => /query \d+ of \d+ · \d+ pages · [\d,]+ transfers/.test(f) && /\d+ sub-accounts? found so far/.test(f))).toBe(true);
      expect(seen.some((f) => f.includes('waiting for the rate limit'))).toBe(true);
      expect(c.requests().filter((r) => r.status === 429)).toHaveLength(1);

      const names = c.sandbox.subAccounts;
      const frame = c.frame();
      expect(frame).toContain(`✓ ${names.length} sub-accounts`);
      expect(
        c.discovered
          .list()
          .map((d) => d.name)
          .sort(),
      ).toEqual([...names].sort());
      expect(c.discovered.scannedAt()).toBeGreaterThan(0);
      const [first, second] = c.discovered.list() as [{ name: string; lastTransferTime: number }, { name: string }];
      expect(lineWith(frame, first.name)).toContain(`last transfer ${formatLocalTime(first.lastTransferTime)}`);
      expect(lineWith(frame, first.name)).toMatch(/^› /);
      expectFits(c.rawFrame(), 80, 24);

      await c.press('down');
      await c.press('enter');
      await c.waitForScreen('keys');
      expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: second.name });
      await c.press('esc');
      await c.waitForScreen('discover');
      await c.press('esc');
      await c.waitForScreen('picker');
      expect(lineWith(c.frame(), first.name)).toContain('discovered');
    },
    20_000,
  );

  test.concurrent('/ filters what was found: the matching rows, N of M, enter opens the one picked; esc clears it first', async ({ onTestFinished }) => {
    // A recent name the service refuses (frozen): skipped, and said in the summary.
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, recent: [FROZEN_SUB_ACCOUNT] });
    await c.press(CTRL_D);
    await c.waitForScreen('discover');
    await c.press('enter');
    await c.waitForText(/✓ \d+ sub-accounts in 30 days of transfers/, 30_000);
    expect(c.frame()).toMatch(/1\s+name\s+refused\s+\(unknown\s+or\s+frozen\),\s+skipped/);
    const found = c.discovered.list().map((d) => d.name);
    const wanted = found[found.length - 1]!;
    const matching = found.filter((name) => name.includes(wanted));
    await c.press('/');
    await c.waitForText('type to filter');
    await c.type(wanted);
    await c.waitForText(`${matching.length} of ${found.length}`);
    // The match is drawn underlined (SGR 4) right before its text, as in the key list.
    await c.waitFor(() => new RegExp(`\\u001b\\[(?:\\d+;)*4(?:;\\d+)*m(?:\\u001b\\[[\\d;]*m)*${wanted}`).test(c.rawFrame()), 'the match underlined');
    const row = (name: string) => new RegExp(`^(› | {2})${name} `, 'm');
    for (const name of found) {
      if (matching.includes(name)) expect(c.frame()).toMatch(row(name));
      else expect(c.frame()).not.toMatch(row(name));
    }
    // Enter keeps the filter; enter again opens the sub-account under the cursor.
    await c.press('enter');
    await c.waitFor(() => /enter keys/.test(c.frame()), 'the list keys back');
    // The footer says what esc does now: it clears the kept filter first.
    expect(c.frame()).toMatch(/esc clear filter/);
    expect(c.frame()).not.toMatch(/esc back/);
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toEqual({ screen: 'keys', subAccount: matching[0] });
    await c.press('esc');
    await c.waitForScreen('discover');
    // Esc clears the kept filter first (the cursor stays on its row), then goes back.
    await c.press('esc');
    await c.waitForNoText(`${matching.length} of ${found.length}`);
    await c.waitForText('esc back');
    expect(c.frame()).toMatch(new RegExp(`^› ${matching[0]} `, 'm'));
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('discover');
    // A filter matching nothing says so and opens nothing.
    await c.press('/');
    await c.type('no-such-name');
    await c.waitForText('No sub-account matches the filter; esc clears it.');
    await c.press('enter');
    await c.press('enter');
    await c.settle(50);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('discover');
    await c.press('esc');
    await c.press('esc');
    await c.waitForScreen('picker');
  });

  test.concurrent('at 40x12 with the filter open, the summary takes a line a part and three rows still show', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12, recent: [FROZEN_SUB_ACCOUNT] });
    await c.press(CTRL_D);
    await c.waitForScreen('discover');
    await c.press('enter');
    await c.waitForText(/✓ \d+ sub-accounts/, 30_000);
    expect(c.discovered.list().length).toBeGreaterThanOrEqual(3);
    await c.press('/');
    await c.waitForText(/\d+ of \d+/);
    const frame = c.frame();
    expect(frame.match(/^(› | {2})\S+ +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/gm)?.length ?? 0, frame).toBeGreaterThanOrEqual(3);
    // Still named, in short: the line fits.
    expect(frame).toContain(`1 name refused: ${FROZEN_SUB_ACCOUNT}`);
    expectFits(c.rawFrame(), 40, 12);
  });

  test.concurrent.for(SIZES)(
    'a name the service refused is named, skipped, even when nothing is found, at %ix%i',
    async ([columns, rows], { onTestFinished }) => {
      const c = await consoleFor(onTestFinished, { columns, rows, suggestions: [], recent: [FROZEN_SUB_ACCOUNT] });
      await c.press(CTRL_D);
      await c.waitForScreen('discover');
      await c.press('enter');
      await c.waitForText(/None found in 30 days/, 30_000);
      expect(c.frame()).toMatch(new RegExp(`1\\s+name\\s+refused\\s+\\(unknown\\s+or\\s+frozen\\),\\s+skipped:\\s+${FROZEN_SUB_ACCOUNT}`));
      expectFits(c.rawFrame(), columns, rows);
    },
  );

  test.concurrent.for(SIZES)(
    'a failure part way says what failed and keeps what was found; r scans again, at %ix%i',
    { timeout: 45_000 },
    async ([columns, rows], { onTestFinished }) => {
      const c = await consoleFor(onTestFinished, { columns, rows, sandbox: { faults: { latencyMs: 40 } } });
      await c.press(CTRL_D);
      await c.waitForScreen('discover');
      await c.press('enter');
      await c.waitForText(/[1-9]\d* sub-accounts? found so far/, 10_000);
      // The client tries a GET three times: every try fails.
      c.sandbox.queueFaults(
        ...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 503, msg: 'Service Unavailable: the upstream keeps failing, try later' })),
      );
      await c.waitForText(/sub-accounts? found before it, kept/, 10_000);
      expect(c.frame()).toContain('✗');
      expect(c.frame()).toMatch(/503/);
      const kept = c.discovered.list().length;
      expect(kept).toBeGreaterThan(0);
      expect(c.frame()).toMatch(new RegExp(`${kept} sub-accounts? found before it, kept`));
      expectFits(c.rawFrame(), columns, rows);
      await c.press('?');
      await c.waitForText('press ? or esc to close');
      expectFits(c.rawFrame(), columns, rows);
      await c.press('?');
      await c.press('r');
      await c.waitForText('Days back: 30');
    },
  );

  test.concurrent.for(SIZES)('a bad number of days names the field and sends nothing, at %ix%i', async ([columns, rows], { onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns, rows });
    await c.press(CTRL_D);
    await c.waitForScreen('discover');
    await c.press('backspace');
    await c.press('backspace');
    await c.type('400');
    await c.press('enter');
    await c.waitForText('✗ days: a whole number from 1 to 365');
    expectFits(c.rawFrame(), columns, rows);
    await c.settle(50);
    expect(transferRequests(c)).toHaveLength(0);
    await c.press('esc');
    await c.waitForScreen('picker');
    expect(transferRequests(c)).toHaveLength(0);
  });
});

// ---- a service whose answers carry hostile names ----

const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const hostileNames = [`evil${OSC52}`, `wide名前🙂${'\u202e'}gnp.exe`, `a\r\nFAKE LINE`];

/** Answers "both accounts blank" as "from the master to anyone" (a reading of the service's docs the scan copes with), with hostile names. */
async function hostileService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const row = (from: string, to: string, i: number) => ({
    tranId: String(1000 + i),
    fromAccount: from,
    toAccount: to,
    clientTranId: '',
    asset: 'USDT',
    amount: '1',
    fromAccountType: 'SPOT',
    toAccountType: 'SPOT',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: T + i * 60_000,
  });
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const blank = !query.get('fromAccount') && !query.get('toAccount');
    const rows = blank ? [row('root', 'root', 0), ...hostileNames.map((name, i) => row('root', name, i + 1))] : [];
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(rows));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function expectClean(raw: string): void {
  const withoutSgr = raw.replace(/\u001b\[[0-9;]*m/g, '');
  expect(withoutSgr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
}

describe.concurrent('names from the service', () => {
  test.for(SIZES)('are found and shown sanitised, in the result and the picker, at %ix%i', async ([columns, rows]) => {
    const service = await hostileService();
    const api = createBrokerApi({ baseUrl: service.baseUrl, apiKey: 'k', secretKey: 's', retryBaseDelayMs: 1 });
    const discovered = memoryDiscoveredSubAccounts();
    const services: ConsoleServices = {
      api,
      mode: 'live',
      host: 'hostile.example:443',
      profile: 'ops',
      credentialSource: 'environment',
      discovered,
      exchanges: createExchangeLog(),
      recent: memoryRecentSubAccounts([]),
      suggestions: [],
      copy: async () => 'not copied',
      exporter: {} as ConsoleServices['exporter'],
      theme: makeTheme(false),
      now: () => T + 86_400_000,
    };
    const terminal = renderInTerminal(<App services={services} onExit={() => undefined} />, { columns, rows, everyCommit: true });
    const raw = () => terminal.stdout.lastFrame() ?? '';
    const waitFor = async (text: RegExp | string) => {
      const until = Date.now() + 5000;
      const ok = () => {
        const frame = stripVTControlCharacters(raw());
        return typeof text === 'string' ? frame.includes(text) : text.test(frame);
      };
      while (!ok()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${String(text)}:\n${stripVTControlCharacters(raw())}`);
        await sleep(5);
      }
    };
    const press = async (key: string) => {
      terminal.write(key);
      await terminal.handled();
    };
    try {
      await waitFor('No recent sub-accounts yet');
      await terminal.listening();
      await press(CTRL_D);
      await waitFor('Days back: 30');
      await press('\r');
      await waitFor(/✓ 3 sub-accounts/);
      // The master ("root", both sides of a master→master move) is not among them; of the rest only the names a
      // typed sub-account name could be are remembered (no controls, no spaces), whole.
      expect(discovered.list().map((d) => d.name)).toEqual([`wide名前🙂${'\u202e'}gnp.exe`]);
      for (const frame of terminal.stdout.frames) expectClean(frame);
      expectFits(raw(), columns, rows);
      expect(stripVTControlCharacters(raw())).not.toContain('root');
      await press('\u001b');
      await waitFor(/discovered/);
      for (const frame of terminal.stdout.frames) expectClean(frame);
      expectFits(raw(), columns, rows);
    } finally {
      terminal.unmount();
      await api.close().catch(() => undefined);
      await service.close();
    }
  });
});
