import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Big from 'big.js';
import { afterEach, describe, expect, test } from 'vitest';
import type { Transfer, TransferQuery } from '../../src/api/types';
import { grouped } from '../../src/terminal/text';
import { startConsole, type TestConsole } from './harness';
import { CTRL_U, lineWith, openTransferFilter, openTransfers, setFilter } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const transferGets = (from = 0) => c.requestsOf('GET', from).filter((r) => r.path.endsWith('/universalTransfer'));
const param = (query: string, name: string) => new URLSearchParams(query).get(name);

async function allMatching(query: TransferQuery): Promise<Transfer[]> {
  const rows: Transfer[] = [];
  for (let page = 1; ; page++) {
    const batch = await c.api.listUniversalTransfers({ ...query, page, limit: 500 });
    rows.push(...batch);
    if (batch.length < 500) return rows;
  }
}

describe('TransferFilterForm', () => {
  test('a clientTranId of 5 characters is refused and nothing is sent', async () => {
    c = await startConsole();
    await openTransferFilter(c);
    await setFilter(c, { clientTranId: 'abc12' });
    // The live error shows once the field has lost focus.
    expect(c.frame()).toContain('✗ must be exactly 32 letters and digits (got 5)');
    await c.press('enter');
    await c.settle(100);
    expect(c.frame()).toContain('✗ must be exactly 32 letters and digits (got 5)');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transferFilter');
    expect(lineWith(c.frame(), 'Client id')).toMatch(/^› /);
    expect(transferGets()).toHaveLength(0);
  });

  test('an account type two edits from FUTURES is refused with the one it likely meant, and nothing is sent', async () => {
    c = await startConsole();
    await openTransferFilter(c);
    await setFilter(c, { toAccountType: 'FUTUR' });
    await c.press('enter');
    await c.waitForText("✗ 'FUTUR' is not a known account type: did you mean FUTURES?");
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transferFilter');
    expect(transferGets()).toHaveLength(0);
  });

  test('since after until is refused with the endTime message', async () => {
    c = await startConsole();
    await openTransferFilter(c);
    await setFilter(c, { startTime: '2d', endTime: '3d' });
    await c.press('enter');
    await c.waitForText('✗ must not be before Since');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transferFilter');
    expect(transferGets()).toHaveLength(0);
  });

  test('account types cycle with the arrows; times show what they mean', async () => {
    c = await startConsole();
    await openTransferFilter(c);
    expect(lineWith(c.frame(), 'From type')).toContain('SPOT');
    expect(lineWith(c.frame(), 'To type')).toMatch(/To type +FUTURES\b/);
    // ←→ cycle the offered types (the documented ones), not the cursor.
    await c.press('right');
    await c.waitFor(() => /From type +FUTURES\b/.test(lineWith(c.frame(), 'From type')), 'From type FUTURES');
    await c.press('right');
    await c.waitFor(() => /From type +SPOT\b/.test(lineWith(c.frame(), 'From type')), 'From type SPOT again');
    await c.press('left');
    await c.waitFor(() => /From type +FUTURES\b/.test(lineWith(c.frame(), 'From type')), 'From type FUTURES again');
    await c.press('tab', 4);
    await c.type('24h');
    expect(lineWith(c.frame(), 'Since')).toMatch(/= \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });

  test('the filter is kept as it was left: ctrl+t again shows it, spans as typed; as it starts, it keeps nothing', async () => {
    c = await startConsole();
    await openTransferFilter(c);
    expect(c.frame()).not.toContain('as you left it');
    await c.press('esc');
    await c.waitForScreen('picker');
    await openTransferFilter(c);
    expect(c.frame()).not.toContain('as you left it');
    await c.press('right');
    await setFilter(c, { fromAccount: 'desk 注释🙂', startTime: '7d', limit: '50' });
    await c.press('esc');
    await c.waitForScreen('picker');
    await openTransferFilter(c);
    expect(c.frame()).toContain('Universal transfers: filter · as you left it');
    expect(lineWith(c.frame(), 'From type')).toContain('FUTURE');
    expect(lineWith(c.frame(), 'From account')).toContain('desk 注释🙂');
    expect(lineWith(c.frame(), 'Since')).toMatch(/7d += \d{4}-\d\d-\d\d/);
    expect(lineWith(c.frame(), 'Page size')).toContain('50');
    expect(lineWith(c.frame(), 'From type')).toMatch(/^› /);
    expect(transferGets()).toHaveLength(0);
  });

  test('the last filter searched comes back with ctrl+t from anywhere', async () => {
    c = await startConsole();
    const query = await openTransfers(c, { toAccountType: 'SPOT', fromAccountType: 'FUTURE', limit: '20' });
    expect(query.limit).toBe(20);
    await c.press('esc');
    await c.waitForScreen('transferFilter');
    await c.press('esc');
    await c.waitForScreen('picker');
    await c.type(c.sandbox.subAccounts[0]!);
    await c.press('enter');
    await c.waitForScreen('keys');
    await c.press('ctrlT');
    await c.waitForText('Universal transfers: filter · as you left it');
    expect(lineWith(c.frame(), 'From type')).toContain('FUTURE');
    expect(lineWith(c.frame(), 'To type')).toContain('SPOT');
    expect(lineWith(c.frame(), 'Page size')).toContain('20');
  });
});

describe('TransferBrowser', () => {
  test('results table: the page the api returns, the active filter, and paging by n, p and g', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '3d', limit: '10' });
    expect(query).toMatchObject({ fromAccountType: 'SPOT', toAccountType: 'FUTURES', limit: 10 });
    const page1 = await c.api.listUniversalTransfers({ ...query, page: 1 });
    expect(page1).toHaveLength(10);
    const frame = c.frame();
    expect(frame).toContain('Filter: SPOT → FUTURES · from master · to master · since');
    expect(frame).toContain('Page 1 · 10 per page · 10 rows · row 1');
    expect(frame).toMatch(/TIME +FROM → TO +TYPES +ASSET +AMOUNT +STATUS/);
    for (const t of page1) expect(frame).toContain(` ${t.amount} `);

    const from = c.requests().length;
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page · 10 rows');
    expect(transferGets(from).map((r) => param(r.query, 'page'))).toEqual(['2']);
    const page2 = await c.api.listUniversalTransfers({ ...query, page: 2 });
    for (const t of page2) expect(c.frame()).toContain(` ${t.amount} `);

    await c.press(']');
    await c.waitForText('Page 3 ·');
    await c.press('p');
    await c.waitForText('Page 2 ·');
    await c.press('[');
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    await c.press('p');
    await c.waitForText('this is the first page');

    await c.press('g');
    await c.waitForText('Go to page:');
    await c.type('0');
    await c.press('enter');
    await c.waitForText('✗ Page: must be a whole number of 1 or more');
    await c.press('backspace');
    await c.type('4');
    await c.press('enter');
    await c.waitForText('Page 4 · 10 per page · 10 rows');
    expect(transferGets(from).map((r) => param(r.query, 'page'))).toContain('4');
  });

  test('page size: s accepts 1..500 and refuses 501; what is typed replaces the size, enter alone keeps it', async () => {
    c = await startConsole();
    const query = await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('s');
    await c.waitForText('Page size (1–500): now 10; enter keeps it');
    await c.press('enter');
    await c.waitForNoText('Page size (1–500):');
    expect(c.frame()).toContain('10 per page');
    await c.press('s');
    await c.type('501');
    await c.press('enter');
    await c.waitForText('✗ Page size: must be a whole number from 1 to 500 (got 501)');
    const from = c.requests().length;
    await c.press(CTRL_U);
    await c.type('3');
    await c.press('enter');
    await c.waitForText('Page 1 · 3 per page · 3 rows');
    expect(transferGets(from).map((r) => param(r.query, 'limit'))).toEqual(['3']);
    const rows = await c.api.listUniversalTransfers({ ...query, page: 1, limit: 3 });
    for (const t of rows) expect(c.frame()).toContain(` ${t.amount} `);
  });

  test('the filter form follows s: back with esc, f or ctrl+t, it shows the page size the results moved to', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '10' });
    const moveTo = async (size: string) => {
      await c.press('s');
      await c.type(size);
      await c.press('enter');
      await c.waitForText(`Page 1 · ${size} per page`);
    };
    const pageSizeField = async (size: string) => {
      await c.waitForText('Universal transfers: filter');
      await c.waitFor(() => lineWith(c.frame(), 'Page size').includes(` ${size}`), `page size ${size} in the form`);
      expect(lineWith(c.frame(), 'Page size')).not.toContain(' 10');
    };
    await moveTo('3');
    await c.press('esc');
    await pageSizeField('3');
    // Searched again from there, the form's size is the one sent.
    const from = c.requests().length;
    await c.press('enter');
    await c.waitForText('Page 1 · 3 per page');
    expect(transferGets(from).map((r) => param(r.query, 'limit'))).toEqual(['3']);
    await moveTo('4');
    await c.press('f');
    await pageSizeField('4');
    await c.press('esc');
    await c.waitForText('Page 1 · 4 per page');
    await moveTo('5');
    await c.press('ctrlT');
    await pageSizeField('5');
    // ctrl+t from a filter's results goes back to that filter: the results are not kept above it, out of its way.
    expect(
      c
        .navState()!
        .stack.map((e) => e.route.screen)
        .slice(-2),
    ).not.toContain('transfers');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transferFilter');
    // A size whose page is given up while it loads (esc) is not the form's either: the results kept 5.
    await c.press('enter');
    await c.waitForText('Page 1 · 5 per page');
    c.sandbox.setFaultRates({ latencyMs: 1500 });
    await c.press('s');
    await c.type('8');
    await c.press('enter');
    await c.press('esc');
    await c.waitForText('page 1 not loaded: back on page 1');
    c.sandbox.setFaultRates({});
    await c.waitForText('Page 1 · 5 per page', 5000);
    await c.press('esc');
    await pageSizeField('5');
  });

  test('esc while the next page loads gives that load up: the page in hand stays, said; esc again goes back', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    c.sandbox.setFaultRates({ latencyMs: 1500 });
    await c.press('n');
    await c.waitForText('Loading page 2');
    const sent = c.requests().length;
    await c.press('esc');
    await c.waitForText('page 2 not loaded: back on page 1');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transfers');
    // Its rows are in hand: back at once, not asked again (a slow or rate-limited service would hold them back).
    await c.waitForText('Page 1 · 10 per page · 10 rows', 500);
    await c.settle(200);
    expect(c.requests().length).toBe(sent);
    c.sandbox.setFaultRates({});
    // The notice gives the totals line back after a while.
    await c.waitForNoText('page 2 not loaded', 12_000);
    await c.press('esc');
    await c.waitForScreen('transferFilter');
  });

  test('esc after a reload of the page in hand failed: its rows are still in hand, shown at once, not asked again', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    c.sandbox.queueFaults(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 503, msg: 'busy' })));
    await c.press('r');
    await c.waitForText('list transfers failed');
    c.sandbox.setFaultRates({ latencyMs: 1500 });
    await c.press('n');
    await c.waitForText('Loading page 2');
    const sent = c.requests().length;
    await c.press('esc');
    await c.waitForText('Page 1 · 10 per page · 10 rows', 500);
    await c.settle(200);
    expect(c.requests().length).toBe(sent);
    c.sandbox.setFaultRates({});
  });

  test('"no more pages" on a short page; n then sends nothing', async () => {
    c = await startConsole();
    const query = await openTransfers(c, { startTime: '12h' });
    const all = await allMatching(query);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(500);
    expect(c.frame()).toContain(`Page 1 · 500 per page · ${all.length} rows · no more pages`);
    // The footer does not offer a next page; the help says why there is none.
    expect(c.frame()).not.toContain('n/] next page');
    await c.press('?');
    await c.waitForText('Next page (this is the last page)');
    await c.press('?');
    const from = c.requests().length;
    await c.press('n');
    await c.waitForText('no more pages: page 1 is the last');
    await c.settle(100);
    expect(transferGets(from)).toHaveLength(0);
  });

  test('a page past the end says so', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '50' });
    await c.press('g');
    await c.type('999');
    await c.press('enter');
    await c.waitForText('Page 999 is empty: there are fewer transfers than that.');
    expect(c.frame()).toContain('0 rows · no more pages');
  });

  test('per-asset totals of the page equal an exact sum of the same page', async () => {
    c = await startConsole({ columns: 220, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '40' });
    const rows = await c.api.listUniversalTransfers({ ...query, page: 1 });
    // Only SUCCESS rows moved money: the totals count those, and say so.
    const success = rows.filter((t) => t.status === 'SUCCESS');
    const sums = new Map<string, Big>();
    for (const t of success) sums.set(t.asset, (sums.get(t.asset) ?? new Big(0)).plus(new Big(t.amount)));
    expect(sums.size).toBeGreaterThan(1);
    const expected = [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([asset, sum]) => `${asset} ${sum.toFixed()}`);
    expect(lineWith(c.frame(), 'Page totals').trim()).toMatch(
      new RegExp(
        `^Page totals, SUCCESS only \\(${success.length} of ${rows.length} rows\\): ${expected.join(' · ').replace(/\./g, '\\.')}( · not counted: .*)?$`,
      ),
    );
  });

  test('the detail of the selected transfer shows every field', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '3d', limit: '10' });
    const rows = await c.api.listUniversalTransfers({ ...query, page: 1 });
    await c.press('down');
    await c.press('j');
    expect(c.frame()).toContain('row 3');
    await c.press('enter');
    const t = rows[2]!;
    await c.waitForText(`Transfer ${t.tranId}`);
    const frame = c.frame();
    expect(lineWith(frame, 'Client id')).toContain(t.clientTranId || '—');
    expect(lineWith(frame, 'Time')).toContain(new Date(t.timestamp).toISOString());
    expect(lineWith(frame, 'From account')).toContain('master');
    expect(lineWith(frame, 'From type')).toContain(t.fromAccountType);
    expect(lineWith(frame, 'To type')).toContain(t.toAccountType);
    expect(lineWith(frame, 'To symbol')).toContain(t.toSymbol || '—');
    expect(lineWith(frame, 'Asset')).toContain(t.asset);
    expect(lineWith(frame, 'Amount')).toContain(t.amount);
    expect(lineWith(frame, 'Status')).toContain(t.status);
    await c.press('esc');
    await c.waitForText('Page 1 · 10 per page');
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transfers');
  });

  test('export of the page to CSV writes the header and the rows', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('x');
    await c.waitForText('Export transfers');
    expect(c.frame()).toContain('this page (10 rows)');
    await c.press('enter');
    await c.waitForText(/✓ Wrote 10 rows \(1 page\) to/);
    const files = await readdir(c.exportDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.csv$/);
    const lines = (await readFile(join(c.exportDir, files[0]!), 'utf8')).trim().split(/\r?\n/);
    expect(lines[0]).toContain('tranId');
    expect(lines).toHaveLength(11);
    await c.press('enter');
    await c.waitForNoText('Export transfers');
  });

  test('export of all pages to JSON shows progress and writes every matching transfer', async () => {
    c = await startConsole();
    // The export fetches pages of 500 whatever the screen shows (here 20): 30 days make two of them.
    const query = await openTransfers(c, { startTime: '30d', limit: '20' });
    const all = await allMatching(query);
    expect(all.length).toBeGreaterThan(500);
    c.sandbox.setFaultRates({ latencyMs: 40 });
    await c.press('x');
    await c.press('a');
    await c.press('f');
    await c.press('enter');
    await c.waitForText(/\d+ pages? · [\d,]+ rows · esc cancels/);
    await c.waitForText(/✓ Wrote [\d,]+ rows \(\d+ pages\) to/, 10_000);
    c.sandbox.setFaultRates({ latencyMs: 0 });
    expect(c.frame()).toContain(`Wrote ${grouped(all.length)} rows (${Math.floor(all.length / 500) + 1} pages)`);
    const files = await readdir(c.exportDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-all\.json$/);
    const parsed = JSON.parse(await readFile(join(c.exportDir, files[0]!), 'utf8')) as Transfer[];
    expect(parsed).toHaveLength(all.length);
    expect(parsed.map((t) => t.tranId)).toEqual(all.map((t) => t.tranId));
  });

  test('f goes back to the filter with its values', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('f');
    await c.waitForText('Universal transfers: filter');
    expect(lineWith(c.frame(), 'Since')).toContain('3d');
    expect(lineWith(c.frame(), 'Page size')).toContain('10');
  });

  test('esc from a filter opened on results goes back to those results as they were', async () => {
    c = await startConsole();
    await openTransfers(c, { startTime: '30d', limit: '10' });
    await c.press('n');
    await c.waitForText(/Page 2 · 10 per page/);
    await c.press('o');
    await c.press('/');
    await c.type('US');
    await c.waitForText(/\d+ of 10 rows/);
    await c.press('enter');
    await c.press('down');
    const before = c.frame();
    expect(before).toMatch(/\d+ of 10 rows/);
    const sent = c.requests().length;
    await c.press('f');
    await c.waitForText('Universal transfers: filter');
    expect(c.frame()).toContain('Filter');
    expect(lineWith(c.frame(), 'Since')).toContain('30d');
    await c.press('esc');
    await c.waitForScreen('transfers');
    // Same page, sort and cursor; nothing fetched again.
    expect(c.frame()).toBe(before);
    expect(c.requests()).toHaveLength(sent);
    expect(c.exitCode()).toBeUndefined();

    // A new search from that filter replaces the results and the filter below them: nothing repeats.
    await c.press('f');
    await c.waitForText('Universal transfers: filter');
    await setFilter(c, { limit: '5' });
    await c.press('enter');
    await c.waitForText(/Page 1 · 5 per page/);
    expect(c.navState()!.stack.map((e) => e.route.screen)).toEqual(['picker', 'transferFilter', 'transfers']);
    expect(c.frame()).toContain('Sub-accounts › Transfers › Results');
    await c.press('esc');
    await c.waitForScreen('transferFilter');
    expect(lineWith(c.frame(), 'Page size')).toContain('5');
    expect(lineWith(c.frame(), 'Since')).toContain('30d');
    await c.press('esc');
    await c.waitForScreen('picker');
    await c.press('esc');
    await c.settle(50);
    expect(c.exitCode()).toBeUndefined();
  });
});

describe('TransferBrowser at 60 columns', () => {
  test('each row fits on one line: the types column goes, the filter line stays', async () => {
    c = await startConsole({ columns: 60, rows: 20 });
    const query = await openTransfers(c, { startTime: '3d', limit: '10' });
    const rows = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const frame = c.frame();
    expect(frame).toContain('Filter: SPOT → FUTURE');
    expect(frame).not.toContain('TYPES');
    const rowLines = frame.split('\n').filter((l) => /^[› ] \d{4}-\d\d-\d\d \d\d:\d\d /.test(l));
    expect(rowLines.length).toBeGreaterThan(0);
    rowLines.forEach((line, i) => {
      expect(line).toContain(rows[i]!.status.slice(0, 9));
      expect(line).toContain(rows[i]!.asset);
    });
  });
});
