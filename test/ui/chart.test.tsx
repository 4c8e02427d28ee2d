// The chart of the transfers screen: v fetches every page of the filter in the background with
// progress, esc stops it and keeps a partial chart that says so, and the sums it shows equal an independent
// big.js sum of the sandbox's matching transfers fetched separately. At 40x12 and 80x24, with NO_COLOR, and
// with hostile asset and status text.
import Big from 'big.js';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { Transfer, TransferQuery } from '../../src/api/types';
import type { RunningSandbox } from '../../src/sandbox/types';
import { displayWidth, grouped } from '../../src/terminal/text';
import { matchesFilter } from '../../src/ui/hooks/useRowFilter';
import { MODES } from '../../src/ui/keyboard/modes';
import { transferSearchText } from '../../src/ui/transferTable';
import { fetchAllTransfers } from '../commands/helpers';
import { HOSTILE, startHostileServer } from '../commands/hostile';
import { openTransfers } from './flows';
import { consoleFor, type TestConsole } from './harness';

const dayOf = (ms: number): string => new Date(ms).toLocaleDateString('sv-SE');
const volume = (rows: readonly Transfer[]): string =>
  rows
    .filter((t) => t.status === 'SUCCESS')
    .reduce((s, t) => s.plus(t.amount), new Big(0))
    .toFixed();

/** Every transfer of the filter the browser runs, fetched with our own signed requests. */
function allOf(sandbox: RunningSandbox, query: TransferQuery): Promise<Transfer[]> {
  const params: Record<string, string> = { fromAccountType: query.fromAccountType, toAccountType: query.toAccountType };
  if (query.startTime !== undefined) params.startTime = String(query.startTime);
  if (query.endTime !== undefined) params.endTime = String(query.endTime);
  return fetchAllTransfers(sandbox, params);
}

/** The chart's day rows: day (YYYY-MM-DD or MM-DD), the sum, the bar. */
function dayRows(frame: string): Array<{ day: string; sum: string; bar: string }> {
  return frame
    .split('\n')
    .map((line) => /^(\d{4}-\d\d-\d\d|\d\d-\d\d) +(-?[\d.]+)(?: ([▏▎▍▌▋▊▉█]+))?$/.exec(line.trimEnd()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ day: m[1]!, sum: m[2]!, bar: m[3] ?? '' }));
}

/** The asset the chart shows, from its title. */
const shownAsset = (frame: string): string => /Chart(?: \(PARTIAL\))?: (\S+)/.exec(frame)?.[1] ?? '';

/** Every frame since `from` fits the terminal: no line wider, fewer lines than its rows. */
function expectFramesFit(t: TestConsole, columns: number, rows: number, from = 0): void {
  for (const raw of t.frames().slice(from)) {
    const lines = stripVTControlCharacters(raw).split('\n');
    expect(lines.filter((l) => displayWidth(l) > columns)).toEqual([]);
    expect(lines.length).toBeLessThan(rows);
  }
}

/** Checks every asset of the chart (→ through them) and every day row shown against the transfers. */
async function expectSumsOf(t: TestConsole, rows: readonly Transfer[], assets: readonly string[]): Promise<void> {
  for (let i = 0; i < assets.length; i += 1) {
    const asset = shownAsset(t.frame());
    expect(assets).toContain(asset);
    const mine = rows.filter((r) => r.asset === asset);
    expect(t.frame()).toContain(`${asset} ${volume(mine)} · ${grouped(mine.length)} transfer`);
    const shown = dayRows(t.frame());
    expect(shown.length).toBeGreaterThan(0);
    for (const { day, sum } of shown) expect(sum, `${asset} on ${day}`).toBe(volume(mine.filter((r) => dayOf(Number(r.timestamp)).endsWith(day))));
    await t.press('right');
  }
}

// Concurrent: each test has its own sandbox (the hostile one its own server); they mostly wait on pages.
describe.concurrent('the chart (v on the transfers page)', () => {
  test('80x24: progress while pages come, then every asset and day equal to an independent sum of all matching transfers', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, everyCommit: true });
    const query = await openTransfers(c, { startTime: '20d', limit: '20' });
    const all = await allOf(c.sandbox, query);
    expect(all.length).toBeGreaterThan(500);
    // Slow pages for the chart's fetch only, so its progress shows; the page and our own sum need not wait.
    c.sandbox.setFaultRates({ latencyMs: 120 });
    const from = c.requests().length;
    await c.press('v');
    await c.waitForText(/\d+ pages? · [\d,]+ rows · esc stops/);
    expect(c.frame()).toContain('esc stop');
    await c.waitForText(/All \d+ pages · [\d,]+ transfers/, 8000);
    await c.waitForText('r refetch');
    const pages = Math.floor(all.length / 500) + 1;
    expect(c.frame()).toContain(`All ${pages} pages · ${all.length.toLocaleString('en-US')} transfers`);
    // Every page from the first at 500 a page, whatever the screen's page and size.
    const asked = c.requestsOf('GET', from).map((r) => new URLSearchParams(r.query));
    expect(asked.map((p) => [p.get('page'), p.get('limit')])).toEqual(Array.from({ length: pages }, (_, i) => [String(i + 1), '500']));
    // The days: 21 of them (20 days back to today), newest first; ↓ and pgdn scroll to the oldest.
    const days = Array.from({ length: 21 }, (_, i) => dayOf(query.startTime! + (20 - i) * 86_400_000));
    const seen = dayRows(c.frame()).map((d) => d.day);
    expect(seen).toEqual(days.slice(0, seen.length));
    expect(c.frame()).toContain(`days 1–${seen.length} of 21`);
    await c.press('pageDown');
    await c.press('down');
    expect(dayRows(c.frame()).map((d) => d.day)).toEqual(days.slice(-seen.length));
    await expectSumsOf(c, all, [shownAsset(c.frame())]);
    await c.press('left');
    const assets = [...new Set(all.map((t) => t.asset))];
    expect(c.frame()).toContain(`1/${assets.length}`);
    await expectSumsOf(c, all, assets);
    // The largest day of an asset fills the bar's room; the others are shorter.
    const bars = dayRows(c.frame()).map((d) => [...d.bar].length);
    expect(Math.max(...bars)).toBeGreaterThan(40);
    expectFramesFit(c, 80, 24);
    // ? lists the chart's keys from its bindings.
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    for (const binding of MODES.transfersChart.bindings) expect(c.frame()).toContain(binding.description);
    await c.press('?');
    await c.waitForNoText('press ? or esc to close');
    // esc closes it: the page is as it was.
    expect(c.frame()).toContain('esc close');
    await c.press('esc');
    await c.waitForText('Page 1 · 20 per page · 20 rows');
  });

  test('esc stops the fetch: a partial chart marked partial, its sums those of the pages that came; r fetches all again', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    const query = await openTransfers(c);
    const all = await allOf(c.sandbox, query);
    expect(all.length).toBeGreaterThan(2500);
    // Slow pages (250 ms each) from v until the stop is checked, so esc lands part way; the page and our own
    // sum need not wait.
    c.sandbox.setFaultRates({ latencyMs: 250 });
    await c.press('v');
    await c.waitForText(/\b[1-5] pages? · [\d,]+ rows · esc stops/, 8000);
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    for (const binding of MODES.transfersChartLoading.bindings) expect(c.frame()).toContain(binding.description);
    await c.press('?');
    await c.waitForNoText('press ? or esc to close');
    await c.press('esc');
    await c.waitForText(/PARTIAL: stopped after \d+ pages?/);
    const pages = Number(/stopped after (\d+) pages?/.exec(c.frame())![1]);
    expect(c.frame()).toContain('Chart (PARTIAL)');
    expect(c.frame()).toContain(`(${(pages * 500).toLocaleString('en-US')} rows)`);
    // Nothing more is asked for.
    const after = c.requests().length;
    await c.settle(600);
    expect(c.requests().length).toBe(after);
    const came = all.slice(0, pages * 500);
    await expectSumsOf(c, came, [...new Set(came.map((t) => t.asset))]);
    // The footer of a stopped chart; r fetches every page again (at full speed: nothing is stopped this time).
    expect(c.frame()).toContain('r refetch');
    c.sandbox.setFaultRates({});
    await c.press('r');
    await c.waitForText(/All \d+ pages/, 10_000);
    expect(c.frame()).not.toContain('PARTIAL');
  }, 30_000);

  test('a first page that fails: the chart says nothing came, not that no transfer matches', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    await openTransfers(c);
    // Every try of the first page (the client retries a GET twice) answers 400, which is not retried.
    c.sandbox.queueFaults({ kind: 'status', status: 400, msg: 'refused for the test' });
    await c.press('v');
    await c.waitForText(/PARTIAL: .*refused for the test/);
    expect(c.frame()).toContain('Nothing to chart: the first page failed (above).');
    expect(c.frame()).not.toContain('No transfers match');
  });

  test('40x12: it fits, ←→ turns the assets, ↓ scrolls to older days', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12, everyCommit: true });
    const query = await openTransfers(c, { startTime: '30d' });
    const all = await allOf(c.sandbox, query);
    const first = c.frames().length;
    await c.press('v');
    await c.waitForText('r refetch', 8000);
    const top = dayRows(c.frame());
    expect(top.length).toBeGreaterThanOrEqual(3);
    expect(top[0]!.day).toBe(dayOf(Date.now()).slice(5));
    expect(c.frame()).toMatch(/days 1–\d+ of 31/);
    const asset = shownAsset(c.frame());
    await c.press('down');
    expect(dayRows(c.frame())[0]!.day).toBe(top[1]!.day);
    await c.press('pageDown');
    await c.press('right');
    expect(shownAsset(c.frame())).not.toBe(asset);
    await c.press('left');
    expect(shownAsset(c.frame())).toBe(asset);
    const mine = all.filter((t) => t.asset === asset);
    for (const { day, sum } of dayRows(c.frame())) expect(sum).toBe(volume(mine.filter((t) => dayOf(Number(t.timestamp)).endsWith(day))));
    expectFramesFit(c, 40, 12, first);
  });

  test('the / text kept on the page is applied to every page: only the matching transfers are summed', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '5d' });
    const all = await allOf(c.sandbox, query);
    await c.press('/');
    await c.type('eth');
    await c.press('enter');
    await c.press('v');
    await c.waitForText(/All \d+ page/, 8000);
    const kept = all.filter((t) => matchesFilter(transferSearchText(t), 'eth'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    expect(c.frame()).toContain(`${kept.length.toLocaleString('en-US')} matches for “eth”`);
    await expectSumsOf(c, kept, [...new Set(kept.map((t) => t.asset))]);
  });

  test('NO_COLOR: the bars are there without a colour code', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, noColor: true, everyCommit: true });
    await openTransfers(c, { startTime: '3d' });
    await c.press('v');
    await c.waitForText(/All \d+ page/, 8000);
    expect(dayRows(c.frame()).some((d) => d.bar.includes('█'))).toBe(true);
    expect(c.frames().some((f) => /\u001b\[(3|4|9|10)\d(;\d+)*m/.test(f))).toBe(false);
  });

  test('hostile asset and status text never reaches the terminal', async ({ onTestFinished }) => {
    const server = await startHostileServer();
    onTestFinished(() => server.close());
    const now = Date.now();
    server.transfers = HOSTILE.map(([, text], i) => ({
      tranId: String(i),
      fromAccount: '',
      toAccount: 'x',
      clientTranId: '',
      asset: text,
      amount: `${i + 1}.5`,
      fromAccountType: 'SPOT',
      toAccountType: 'FUTURE',
      fromSymbol: '',
      toSymbol: '',
      status: i % 2 === 0 ? 'SUCCESS' : text,
      timestamp: now - i * 3_600_000,
    }));
    const fake: RunningSandbox = {
      baseUrl: server.baseUrl,
      apiKey: 'mx0vhostile',
      secretKey: 'secret',
      apiKeyHeader: 'X-MEXC-APIKEY',
      subAccounts: [],
      requests: () => [],
      queueFaults: () => undefined,
      held: () => 0,
      releaseHeld: () => 0,
      setFaultRates: () => undefined,
      setPermissions: () => undefined,
      close: async () => undefined,
    };
    const c = await consoleFor(onTestFinished, {
      columns: 60,
      rows: 20,
      everyCommit: true,
      sharedSandbox: fake,
      initialRoute: { screen: 'transfers', query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 50 } },
    });
    await c.waitForText(/Page 1 · 50 per page/);
    const first = c.frames().length;
    await c.press('v');
    await c.waitForText('All 1 page');
    for (let i = 0; i < HOSTILE.length; i += 1) await c.press('right');
    for (const raw of c.frames().slice(first)) {
      const withoutStyles = raw.replace(/\u001b\[[0-9;]*m/g, '');
      expect(withoutStyles).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    }
    expect(c.frame()).toMatch(/␛/);
    expectFramesFit(c, 60, 20, first);
  });
});
