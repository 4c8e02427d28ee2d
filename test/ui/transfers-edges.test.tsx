// The transfers side at the terminal's edges: every window size from 40x12 up, hostile text from the
// service, CJK and emoji, and screens that say what their keys do (retry only where it helps, totals that say
// what they count, an export that says "cancelled").
import React from 'react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import Big from 'big.js';
import { describe, expect, test } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import type { TransferQuery } from '../../src/api/types';
import { memoryDiscoveredSubAccounts } from '../../src/config/discoveredSubAccounts';
import { memoryRecentSubAccounts } from '../../src/config/recentSubAccounts';
import { fileExporter } from '../../src/export/fileExporter';
import { displayWidth } from '../../src/terminal/text';
import { App } from '../../src/ui/App';
import { createExchangeLog } from '../../src/ui/exchangeLog';
import { makeTheme } from '../../src/ui/theme';
import type { TargetSwitcher } from '../../src/ui/targets';
import { CTRL_U, lineWith, openTransferFilter, openTransfers, setFilter } from './flows';
import { consoleFor, KEYS, oneOtherProfile, type OnFinished, sleep, type TestConsole } from './harness';
import { renderInTerminal } from './terminal';

const SIZES = [
  [40, 12],
  [60, 20],
  [80, 24],
  [200, 60],
] as const;

/** Every frame written since `from` fits: no line wider than the terminal, fewer lines than its rows. */
function expectFramesFit(frames: readonly string[], columns: number, rows: number, from = 0): void {
  frames.slice(from).forEach((raw) => {
    const lines = stripVTControlCharacters(raw).split('\n');
    const wide = lines.filter((line) => displayWidth(line) > columns);
    expect(wide, `lines wider than ${columns} in:\n${stripVTControlCharacters(raw)}`).toEqual([]);
    expect(lines.length, `a frame of ${lines.length} lines at ${rows} rows:\n${stripVTControlCharacters(raw)}`).toBeLessThan(rows);
  });
}

/** The frame's text as one line (wrapped text joined again). */
const flat = (frame: string) =>
  frame
    .split('\n')
    .map((l) => l.trim())
    .join(' ');
const focusedLine = (t: TestConsole) =>
  t
    .frame()
    .split('\n')
    .find((l) => l.startsWith('› ')) ?? '';
const transferGets = (t: TestConsole, from = 0) => t.requestsOf('GET', from).filter((r) => r.path.endsWith('/universalTransfer'));

// Concurrent: every test has its own console and sandbox (its faults and latency its own).
describe.concurrent('every window size from 40x12 up', () => {
  for (const [columns, rows] of SIZES) {
    test(`${columns}x${rows}: filter, results, detail, export (choose, progress, done), errors`, async ({ onTestFinished }) => {
      const c = await consoleFor(onTestFinished, { columns, rows, everyCommit: true });
      const start = c.frames().length;
      await openTransferFilter(c);
      expectFramesFit(c.frames(), columns, rows, start);
      // A refused field shows its error (wrapped) under it, with the form still in the window.
      await setFilter(c, { startTime: '3d', clientTranId: 'abc12' });
      await c.press('enter');
      await c.waitForText('✗ must be exactly 32');
      expect(c.frame()).toContain('› Client id');
      expectFramesFit(c.frames(), columns, rows, start);
      await c.press(CTRL_U);
      await c.press('enter');
      await c.waitForText(/Page 1 · \d+ per page · \d+ rows/);
      expect(c.frame()).toMatch(/TIME +.*ASSET +AMOUNT STATUS/);
      // Nothing squeezed (an overfull column prints lines over each other): the page line and a row are intact.
      expect(c.frame()).toMatch(/^Page 1 · 500 per page · \d+ rows/m);
      expect(c.frame()).toMatch(/^› [\d-]+ \d\d:\d\d .* (SUCCESS|FAILED|WAIT) *$/m);
      expectFramesFit(c.frames(), columns, rows, start);

      // The page prompt, with its error wrapped under it.
      await c.press('g');
      await c.waitForText('Go to page:');
      expect(c.frame().split('\n').at(-1)).toContain('enter go');
      await c.type('0');
      await c.press('enter');
      await c.waitFor(() => flat(c.frame()).includes('✗ Page: must be a whole number of 1 or more (got 0)'), 'the whole prompt error');
      expectFramesFit(c.frames(), columns, rows, start);
      await c.press('esc');
      await c.waitForNoText('Go to page:');

      // The detail: every line fits; where it is taller than the window it scrolls and the footer says so.
      await c.press('enter');
      await c.waitForText('Transfer id');
      if (c.frame().includes('↑↓ scroll')) {
        for (let i = 0; i < 20; i++) await c.press('down');
        expect(c.frame()).toContain('Status');
      } else {
        expect(c.frame()).toContain('Status');
      }
      await c.press('esc');
      await c.waitForText(/Page 1 ·/);

      // Export: the choice, then all pages with progress, then done.
      await c.press('x');
      await c.waitForText('Export transfers');
      expect(c.frame()).toMatch(/› (this page|page \()/);
      c.sandbox.setFaultRates({ latencyMs: 30 });
      await c.press('a');
      const exporting = c.frames().length;
      await c.press('enter');
      // In a frame since enter, however short it stayed (other tests share the event loop with this one's waits).
      await c.waitFor(
        () =>
          c
            .frames()
            .slice(exporting)
            .some((f) => /\d+ pages? · [\d,]+ rows/.test(stripVTControlCharacters(f))),
        'the progress',
      );
      await c.waitForText(/✓ Wrote [\d,]+ rows/, 15_000);
      c.sandbox.setFaultRates({});
      await c.waitForText('enter close');
      expectFramesFit(c.frames(), columns, rows, start);
      await c.press('enter');
      await c.waitForNoText('Export transfers');

      // A page the service refuses, with a long message: shown whole, wrapped, and still inside the window.
      const msg = 'Parameter error: the startTime and endTime you sent span more than the service allows for this account';
      c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700004, msg });
      await c.press('r');
      await c.waitForText('✗ list transfers failed');
      expectFramesFit(c.frames(), columns, rows, start);
      // Whole wherever the window has the room for it (at 40x12 it is cut at the window's last line, with "…").
      if (rows >= 20) expect(flat(c.frame())).toContain(msg);
    }, 30_000);
  }

  test('the filter form at 40x12 keeps the focused field in view as focus moves', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12, everyCommit: true });
    const start = c.frames().length;
    await openTransferFilter(c);
    for (let i = 0; i < 7; i++) {
      await c.press('tab');
      expect(c.frame()).toMatch(/^› /m);
    }
    expect(c.frame()).toMatch(/Universal transfers: filter · \d–8\/8 ↑/);
    expect(focusedLine(c)).toContain('Page size');
    await c.press('tab');
    expect(c.frame()).toMatch(/Universal transfers: filter · 1–\d\/8 ↓/);
    expect(focusedLine(c)).toContain('From type');
    await c.press('shiftTab');
    expect(focusedLine(c)).toContain('Page size');
    // A long value typed in a field stays on its line.
    await c.type('x'.repeat(60));
    expectFramesFit(c.frames(), 40, 12, start);
  });

  test('column widths come from the window, not the page: they stay put from page to page', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    await openTransfers(c, { startTime: '7d', limit: '15' });
    const headerOf = () =>
      c
        .frame()
        .split('\n')
        .find((l) => /TIME +FROM/.test(l))!;
    const first = headerOf();
    for (let i = 0; i < 4; i++) {
      await c.press('n');
      await c.waitForText(`Page ${i + 2} · 15 per page · 15 rows`);
      expect(headerOf()).toBe(first);
    }
  });
});

/** A console whose all-pages export is under way, its pages answered `latencyMs` late (119 days make several pages of 500). */
async function allPagesExportUnderWay(onTestFinished: OnFinished, latencyMs: number, options: { switcher?: TargetSwitcher } = {}): Promise<TestConsole> {
  const c = await consoleFor(onTestFinished, { columns: 100, rows: 30, ...options });
  await openTransfers(c, { startTime: '119d', limit: '10' });
  c.sandbox.setFaultRates({ latencyMs });
  await c.press('x');
  await c.press('a');
  await c.press('enter');
  await c.waitForText(/[1-9]\d* pages? · [\d,]+ rows · esc cancels/, 5000);
  return c;
}

// Concurrent but for the test that must look while a page is held back (400 ms): it runs alone.
describe('what the screen says matches what the keys do', () => {
  test.concurrent('page totals count SUCCESS only, and say what they leave out', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 200, rows: 40 });
    const query = await openTransfers(c, { startTime: '3d', limit: '100' });
    const rows = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const success = rows.filter((t) => t.status === 'SUCCESS');
    expect(success.length).toBeLessThan(rows.length);
    const sums = new Map<string, Big>();
    for (const t of success) sums.set(t.asset, (sums.get(t.asset) ?? new Big(0)).plus(new Big(t.amount)));
    const expected = [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([asset, sum]) => `${asset} ${sum.toFixed()}`);
    const line = lineWith(c.frame(), 'Page totals').trim();
    expect(line).toContain(`Page totals, SUCCESS only (${success.length} of ${rows.length} rows): ${expected.join(' · ')}`);
    const others = new Map<string, number>();
    for (const t of rows) if (t.status !== 'SUCCESS') others.set(t.status, (others.get(t.status) ?? 0) + 1);
    expect(line).toContain('not counted:');
    for (const [status, n] of others) expect(line).toContain(`${n} ${status}`);
  });

  test.concurrent('after jumping past the last page, p goes back to the last page seen with rows, and the totals follow', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page · 10 rows');
    const totals2 = lineWith(c.frame(), 'Page totals');
    await c.press('g');
    await c.type('999');
    await c.press('enter');
    await c.waitForText('Page 999 is empty');
    expect(c.frame()).toContain('p goes back to page 2, the last seen with rows.');
    // The footer offers what an empty page can do: no moving, no detail, no export.
    await c.waitFor(() => c.frame().split('\n').at(-1)!.includes('p/[ prev'), 'the empty-page footer');
    expect(c.frame().split('\n').at(-1)).not.toMatch(/enter detail|x export|↑↓/);
    // No totals of another page under "Page 999", and nothing NaN anywhere.
    expect(c.frame()).not.toContain('Page totals');
    expect(c.frame()).not.toContain('NaN');
    await c.press('n');
    await c.waitForText('no more pages: page 999 is past the end');
    const from = c.requests().length;
    await c.press('p');
    await c.waitForText('Page 2 · 10 per page · 10 rows');
    expect(transferGets(c, from).map((r) => new URLSearchParams(r.query).get('page'))).toEqual(['2']);
    expect(lineWith(c.frame(), 'Page totals')).toBe(totals2);
    expect(c.frame()).not.toContain('NaN');
  });

  test('while the next page loads, the previous page and its totals are not shown under the new number', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page');
    expect(c.frame()).not.toContain('Page totals');
    expect(c.frame()).not.toMatch(/› \d{4}-/);
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText('Page 2 · 10 per page · 10 rows', 3000);
    expect(c.frame()).toContain('Page totals');
  });

  test.concurrent('a 400 for invalid input offers no retry, and r then sends nothing', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700004, msg: 'Mandatory parameter startTime is malformed' });
    await c.press('r');
    await c.waitForText('✗ list transfers failed (HTTP 400 code 700004)');
    expect(c.frame()).not.toContain('retry');
    expect(c.frame()).toContain('f filter');
    const from = c.requests().length;
    await c.press('r');
    await c.settle(100);
    expect(transferGets(c, from)).toHaveLength(0);
  });

  test.concurrent('a failed page still pages: p goes back, g and s ask for a page and a size, f opens the filter', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    const fail = () => c.sandbox.queueFaults({ kind: 'status', status: 400, code: 700004, msg: 'Mandatory parameter startTime is malformed' });
    fail();
    await c.press('n');
    await c.waitForText('✗ list transfers failed (HTTP 400 code 700004)');
    const from = c.requests().length;
    await c.press('p');
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    // The page last shown: its rows are in hand, not asked again.
    expect(transferGets(c, from)).toEqual([]);
    fail();
    await c.press('r');
    await c.waitForText('✗ list transfers failed (HTTP 400 code 700004)');
    await c.press('g');
    await c.waitForText('Go to page:');
    await c.press('esc');
    await c.waitForNoText('Go to page:');
    await c.press('s');
    await c.waitForText('Page size (1–500): now 10; enter keeps it');
    await c.press('esc');
    await c.waitForNoText('Page size (1–500):');
    await c.press('f');
    await c.waitForScreen('transferFilter');
  });

  test.concurrent('an unknown sub-account offers no retry', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    c.sandbox.queueFaults({ kind: 'status', status: 400, code: 140001, msg: 'sub account does not exist' });
    await c.press('r');
    await c.waitForText('sub account does not exist');
    expect(c.frame()).not.toContain('retry');
  });

  test.concurrent('a 5xx offers r retry (message and footer), and r then loads the page', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    // Page 1 asked afresh (from page 2): the client retries a GET itself (3 tries), and all of them fail.
    await c.press('n');
    await c.waitForText('Page 2 · 10 per page · 10 rows');
    c.sandbox.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await c.press('p');
    await c.waitForText('(r retry)');
    expect(c.frame().split('\n').at(-1)).toContain('r retry');
    // Page 1 has no page before it: p is not offered there (its notice would have no line to show on).
    expect(c.frame().split('\n').at(-1)).not.toContain('p/[ prev');
    await c.press('r');
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    expect(c.frame()).not.toContain('retry');
    // r on the page in hand, failing: its rows stay under the error, and r retry is offered.
    c.sandbox.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await c.press('r');
    await c.waitForText('(r retry)');
    expect(
      c
        .frame()
        .split('\n')
        .filter((l) => /^[› ] \d{4}-\d\d-\d\d /.test(l)),
    ).toHaveLength(10);
    expect(c.frame().split('\n').at(-1)).toContain('r retry');
    // Page 1 still: no p, whose notice the error's line would hide.
    expect(c.frame().split('\n').at(-1)).not.toContain('p/[ prev');
    // The rows in hand act as rows: / filters them and x exports them, as the footer offers.
    expect(c.frame().split('\n').at(-1)).toContain('/ search');
    expect(c.frame().split('\n').at(-1)).toContain('x export');
    await c.press('/');
    await c.waitForText('10 of 10');
    await c.press('esc');
    await c.waitForNoText('10 of 10');
    await c.press('x');
    await c.waitForText('Export transfers');
    await c.press('esc');
    await c.waitForNoText('Export transfers');
    await c.press('r');
    await c.waitForNoText('(r retry)');
  });

  test.concurrent('a network failure offers retry; a 429 too', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    c.sandbox.queueFaults({ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' });
    await c.press('r');
    await c.waitForText('(r retry)');
    await c.press('r');
    await c.waitForText('Page 1 · 10 per page · 10 rows');
    c.sandbox.queueFaults({ kind: 'rate-limit', retryAfterSec: 0 }, { kind: 'rate-limit', retryAfterSec: 0 }, { kind: 'rate-limit', retryAfterSec: 0 });
    await c.press('r');
    await c.waitForText('(r retry)', 5000);
  });

  test.concurrent("a 429 whose Retry-After is too long to wait out: the error's 'try again in' counts down", async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    c.sandbox.queueFaults({ kind: 'rate-limit', retryAfterSec: 30 });
    await c.press('r');
    // The line may wrap between any two words.
    await c.waitForText(/try again\s+in\s+30 s/);
    // A second later the line says what is left, not the number the service gave.
    await c.waitForText(/try again\s+in\s+2\d s/, 3000);
    expect(c.frame()).not.toMatch(/try again\s+in\s+30 s/);
  });

  test.concurrent('the export footer follows its state: choose, running, done', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30, everyCommit: true });
    await openTransfers(c, { startTime: '3d', limit: '20' });
    await c.press('x');
    await c.waitForText('enter start');
    const footer = () => c.frame().split('\n').at(-1)!;
    expect(footer()).toContain('a page/all');
    c.sandbox.setFaultRates({ latencyMs: 60 });
    await c.press('a');
    const exporting = c.frames().length;
    await c.press('enter');
    // The footer of a frame since enter, however short it stayed (other tests share the event loop with this one's waits).
    const running = () =>
      c
        .frames()
        .slice(exporting)
        .map((f) => stripVTControlCharacters(f).split('\n').at(-1)!)
        .find((l) => l.includes('esc cancel'));
    await c.waitFor(() => running() !== undefined, 'the running footer');
    expect(running()).not.toContain('enter start');
    await c.waitForText(/✓ Wrote [\d,]+ rows/, 15_000);
    c.sandbox.setFaultRates({});
    await c.waitFor(() => footer().includes('enter close'), 'the done footer');
    expect(footer()).not.toContain('enter start');
    expect(footer()).not.toContain('esc cancel');
  });

  test.concurrent('a cancelled export says "cancelled", and the partial file is gone', async ({ onTestFinished }) => {
    const c = await allPagesExportUnderWay(onTestFinished, 150);
    await c.press('esc');
    await c.waitForText('Export cancelled: the partial file was removed');
    c.sandbox.setFaultRates({});
    const panel = c.frame().split('\n').slice(0, -2).join('\n');
    expect(panel).not.toContain('no answer');
    expect(panel).not.toContain('✗');
    expect(await readdir(c.exportDir)).toEqual([]);
    await c.waitFor(() => c.frame().split('\n').at(-1)!.includes('enter close'), 'the closing footer');
    await c.press('enter');
    await c.waitForNoText('Export transfers');
  });

  test.concurrent('ctrl+p while it runs opens nothing: the panel says why, and the export goes on to its end', async ({ onTestFinished }) => {
    const opened: string[] = [];
    const switcher = oneOtherProfile(opened);
    const c = await allPagesExportUnderWay(onTestFinished, 150, { switcher });
    await c.press('\u0010'); // ctrl+p
    await c.waitForText('ctrl+p waits for the export');
    expect(c.navState()!.stack.map((entry) => entry.route.screen)).not.toContain('profiles');
    c.sandbox.setFaultRates({});
    await c.waitForText(/✓ Wrote [\d,]+ rows/, 15_000);
    expect(await readdir(c.exportDir)).toHaveLength(1);
    // Once it has ended, ctrl+p opens the profiles.
    await c.press('enter');
    await c.press('\u0010');
    await c.waitFor(() => c.navState()!.stack.at(-1)!.route.screen === 'profiles', 'the profiles screen');
    expect(opened).toEqual([]);
  });

  test.concurrent('a service failing part way: the pages written stay in an -incomplete file the panel names, and r is offered', async ({ onTestFinished }) => {
    const c = await allPagesExportUnderWay(onTestFinished, 150);
    // Every try of the next pages fails: the client's retries too.
    c.sandbox.queueFaults(...Array.from({ length: 12 }, () => ({ kind: 'status' as const, status: 503 })));
    await c.waitForText('(incomplete)', 5000);
    c.sandbox.setFaultRates({});
    const panel = c.frame().replace(/\s*\n\s*/g, ' ');
    const [, rows, pages] = /The ([\d,]+) rows of (\d+) pages? so far are in /.exec(panel) ?? [];
    expect(Number(pages)).toBeGreaterThanOrEqual(1);
    const files = await readdir(c.exportDir);
    expect(files).toEqual([expect.stringMatching(/^transfers-.*-all-incomplete\.csv$/)]);
    expect(panel).toContain(files[0]);
    expect(panel).toContain('503');
    expect(panel).toContain('r retry');
    const lines = (await readFile(join(c.exportDir, files[0]!), 'utf8')).trimEnd().split('\r\n');
    expect(lines.length - 1).toBe(Number(rows!.replace(/,/g, '')));
    // Named again once the console has closed: the file stays after the panel is gone.
    await c.cleanup();
    expect(c.said).toEqual([
      `export of transfers (all pages): ${rows} rows of ${pages} page${pages === '1' ? '' : 's'} kept in ${join(c.exportDir, files[0]!)} (incomplete)`,
    ]);
  });

  test.concurrent(
    'the console closed during an all-pages export: the terminal is told it stopped (test/e2e/exportEnds checks the file goes)',
    async ({ onTestFinished }) => {
      const c = await allPagesExportUnderWay(onTestFinished, 150);
      expect(await readdir(c.exportDir)).toEqual([expect.stringMatching(/-all-incomplete\.csv$/)]);
      await c.cleanup();
      c.sandbox.setFaultRates({});
      expect(c.said).toEqual(['export of transfers (all pages as CSV): stopped as the console closed; the partial file was removed, nothing was written']);
    },
  );

  test.concurrent('the status bar says "cancelled", not "✗ list transfers no answer", after a cancelled export', async ({ onTestFinished }) => {
    const c = await allPagesExportUnderWay(onTestFinished, 300);
    await c.press('esc');
    await c.waitForText('Export cancelled');
    c.sandbox.setFaultRates({});
    const status = c.frame().split('\n').at(-2)!;
    expect(status).toContain('list transfers cancelled');
    expect(status).not.toContain('no answer');
    expect(status).not.toContain('✗');
  });

  test.concurrent('NO_COLOR: the export choice is marked with › and inverse/bold, not colour alone', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, noColor: true });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('x');
    await c.waitForText('Export transfers');
    expect(lineWith(c.frame(), 'Scope')).toMatch(/› this page \(10 rows\)/);
    expect(lineWith(c.frame(), 'Format')).toMatch(/› CSV/);
    expect(c.rawFrame()).toMatch(/\u001b\[7m[^\n]*› this page/);
    await c.press('a');
    await c.press('f');
    expect(lineWith(c.frame(), 'Scope')).toMatch(/ {2}this page \(10 rows\) .*› all pages/);
    expect(lineWith(c.frame(), 'Format')).toMatch(/› JSON/);
    // No colour codes at all from the theme (inverse and bold are not colours).
    expect(c.rawFrame()).not.toMatch(/\u001b\[3[0-9]m/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A hostile service: a tiny HTTP server answering the transfers endpoint with crafted JSON (a fake server does
// not check signatures), and the real client and App pointed at it.

const ESC = '\u001b';
const BEL = '\u0007';
const EVIL = `A${ESC}]52;c;ZXZpbA==${BEL}B${ESC}]0;pwned${BEL}C${ESC}[2J${ESC}[31mD\u202eE\u009b1mF\u0000G\r\nH${ESC}P1;2|x${ESC}\\`;

interface HostileConsole {
  frame(): string;
  rawFrame(): string;
  frames(): readonly string[];
  press(key: keyof typeof KEYS | (string & {})): Promise<void>;
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  setAnswer(answer: { status: number; body: string }): void;
  /** Every text passed to the copy service, in order. */
  copies: string[];
  exportDir: string;
  cleanup(): Promise<void>;
}

function wire(overrides: Partial<Record<string, unknown>> = {}, i = 0): Record<string, unknown> {
  return {
    tranId: `66425820955606${String(i).padStart(4, '0')}`,
    fromAccount: '',
    toAccount: 'sub1',
    clientTranId: 'abc',
    asset: 'USDT',
    amount: '12.5',
    fromAccountType: 'SPOT',
    toAccountType: 'FUTURE',
    fromSymbol: '',
    toSymbol: '',
    status: 'SUCCESS',
    timestamp: Date.now() - i * 60_000,
    ...overrides,
  };
}

async function startHostileConsole(options: {
  columns: number;
  rows: number;
  records: Record<string, unknown>[];
  body?: string;
  query?: Partial<TransferQuery>;
}): Promise<HostileConsole> {
  let answer = { status: 200, body: options.body ?? JSON.stringify(options.records) };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const exchanges = createExchangeLog();
  const api = createBrokerApi({ baseUrl, apiKey: 'mx0vhostile', secretKey: 'secret', retryBaseDelayMs: 5, maxTries: 1, onExchange: exchanges.record });
  const exportDir = await mkdtemp(join(tmpdir(), 'broker-console-hostile-'));
  const query: TransferQuery = { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 10, ...options.query };
  const copies: string[] = [];
  // A terminal of the asked size from the first frame: Ink never falls back to asking the real one (tput).
  const terminal = renderInTerminal(
    <App
      services={{
        api,
        mode: 'live',
        host: new URL(baseUrl).host,
        profile: 'ops',
        credentialSource: 'environment',
        exchanges,
        recent: memoryRecentSubAccounts([]),
        discovered: memoryDiscoveredSubAccounts(),
        suggestions: [],
        copy: async (text) => {
          copies.push(text);
          return 'sent to the test clipboard';
        },
        exporter: fileExporter(api, exportDir),
        theme: makeTheme(false),
        now: Date.now,
      }}
      onExit={() => undefined}
      initialRoute={{ screen: 'transfers', query }}
    />,
    { columns: options.columns, rows: options.rows, everyCommit: true },
  );
  await terminal.listening();
  const { stdout } = terminal;
  const rawFrame = () => stdout.lastFrame() ?? '';
  const frame = () => stripVTControlCharacters(rawFrame());
  return {
    frame,
    rawFrame,
    frames: () => stdout.frames,
    async press(key) {
      // Through the console's key splitter, handled and drawn; what it started is waited for with waitForText.
      terminal.write((KEYS as Record<string, string>)[key] ?? key);
      await terminal.handled();
    },
    async waitForText(text, timeoutMs = 3000) {
      const until = Date.now() + timeoutMs;
      const ok = () => (typeof text === 'string' ? frame().includes(text) : text.test(frame()));
      while (!ok()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${String(text)}; last frame:\n${frame()}`);
        await sleep(5);
      }
    },
    setAnswer(next) {
      answer = next;
    },
    copies,
    exportDir,
    async cleanup() {
      terminal.unmount();
      await api.close().catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await rm(exportDir, { recursive: true, force: true });
    },
  };
}

/** A test's own hostile console, closed at its end. */
async function hostileFor(onTestFinished: OnFinished, options: Parameters<typeof startHostileConsole>[0]): Promise<HostileConsole> {
  const hostile = await startHostileConsole(options);
  onTestFinished(() => hostile.cleanup());
  return hostile;
}

/** Nothing that drives a terminal: no ESC but the colour/style codes Ink writes itself, no BEL, no C1 CSI, no bidi override. */
function expectInert(raw: string): void {
  const withoutStyles = raw.replace(/\u001b\[[0-9;]*m/g, '');
  expect(withoutStyles).not.toContain(ESC);
  expect(raw).not.toContain(BEL);
  expect(raw).not.toContain('\u009b');
  expect(raw).not.toContain('\u202e');
  expect(raw).not.toContain('\u0000');
  expect(raw).not.toMatch(/\u001b\]/);
}

// Concurrent but for the test that times the renders: it runs alone.
describe('hostile text from the service', () => {
  const fields = ['asset', 'status', 'fromAccount', 'toAccount', 'tranId', 'clientTranId', 'fromAccountType', 'toAccountType', 'fromSymbol', 'toSymbol'];

  test.concurrent('controls, escapes and bidi in every field never reach the terminal: table, totals, detail, export', async ({ onTestFinished }) => {
    const records = [wire(Object.fromEntries(fields.map((f) => [f, `${f}:${EVIL}`])), 0), wire({ status: EVIL, asset: EVIL }, 1), wire({}, 2)];
    const hostile = await hostileFor(onTestFinished, { columns: 100, rows: 30, records });
    await hostile.waitForText(/Page 1 · 10 per page · 3 rows/);
    expect(hostile.frame()).toContain('␛]52;c;');
    expect(hostile.frame()).toContain('not counted');
    expectInert(hostile.rawFrame());
    expectFramesFit(hostile.frames(), 100, 30);
    await hostile.press('enter');
    await hostile.waitForText('Transfer id');
    for (const f of ['From account', 'To account', 'Client id', 'Asset', 'Status']) expect(lineWith(hostile.frame(), f)).toContain('␛]');
    // The whole value, wrapped: every mark of it is there, the bidi override as a visible <U+202E>.
    expect(hostile.frame().replace(/\n {13,15}/g, '')).toContain(
      'Transfer id    tranId:A␛]52;c;ZXZpbA==␇B␛]0;pwned␇C␛[2J␛[31mD<U+202E>E<U+009B>1mF␀G␍␊H␛P1;2|x␛\\',
    );
    expectInert(hostile.rawFrame());
    await hostile.press('esc');
    await hostile.press('x');
    await hostile.press('enter');
    await hostile.waitForText('✓ Wrote 3 rows');
    expectInert(hostile.rawFrame());
    // Every frame, not only the last.
    for (const raw of hostile.frames()) expectInert(raw);
  });

  test.concurrent('an error msg with escapes is shown as visible marks, whole', async ({ onTestFinished }) => {
    const hostile = await hostileFor(onTestFinished, { columns: 80, rows: 24, records: [] });
    hostile.setAnswer({ status: 400, body: JSON.stringify({ code: 700004, msg: `bad ${EVIL} input` }) });
    await hostile.press('r');
    await hostile.waitForText('✗ list transfers failed (HTTP 400 code 700004)');
    expect(hostile.frame()).toContain('␛]52;c;ZXZpbA==␇B');
    expect(hostile.frame()).not.toContain('retry');
    for (const raw of hostile.frames()) expectInert(raw);
    expectFramesFit(hostile.frames(), 80, 24);
  });

  test.concurrent('c and C copy nothing that holds a line break or an escape, and say so, naming the character', async ({ onTestFinished }) => {
    const records = [
      wire({ tranId: '6708\r\necho PWNED\r\n', clientTranId: `id${ESC}]52;c;ZXZpbA==${BEL}` }, 0),
      wire({ clientTranId: 'a\u202eb' }, 1),
      wire({}, 2),
    ];
    const hostile = await hostileFor(onTestFinished, { columns: 100, rows: 30, records });
    await hostile.waitForText(/Page 1 · 10 per page · 3 rows/);
    await hostile.press('enter');
    await hostile.waitForText('Transfer id');
    await hostile.press('c');
    await hostile.waitForText('✗ The transfer id was not copied: it holds U+000D, which a terminal cannot show (shown as a mark)');
    await hostile.press('C');
    await hostile.waitForText('✗ The client id was not copied: it holds U+001B, which a terminal cannot show (shown as a mark)');
    await hostile.press('j');
    await hostile.press('C');
    await hostile.waitForText('✗ The client id was not copied: it holds U+202E');
    expect(hostile.copies).toEqual([]);
    // A value a terminal shows as it is still goes, as sent.
    await hostile.press('j');
    await hostile.press('c');
    await hostile.waitForText(`Transfer id sent to the test clipboard: ${String(records[2]!.tranId)}`);
    expect(hostile.copies).toEqual([records[2]!.tranId]);
    for (const raw of hostile.frames()) expectInert(raw);
  });

  test.concurrent('a long id copied at 40 columns: the notice says what was done before the id it cuts', async ({ onTestFinished }) => {
    const tranId = '6708'.repeat(30);
    const hostile = await hostileFor(onTestFinished, { columns: 40, rows: 12, records: [wire({ tranId }, 0)] });
    await hostile.waitForText(/1 row/);
    await hostile.press('enter');
    await hostile.waitForText('Transfer id');
    await hostile.press('c');
    await hostile.waitForText('Transfer id sent to the test clipboard');
    expect(hostile.copies).toEqual([tranId]);
    expectFramesFit(hostile.frames(), 40, 12);
  });

  test('a 200,000-character field renders as fast as a short one', async ({ onTestFinished }) => {
    const huge = 'X'.repeat(200_000);
    const records = [
      wire({ asset: huge, status: huge, tranId: huge, toAccount: huge, clientTranId: huge }, 0),
      ...Array.from({ length: 9 }, (_, i) => wire({}, i + 1)),
    ];
    const started = performance.now();
    const hostile = await hostileFor(onTestFinished, { columns: 80, rows: 24, records });
    await hostile.waitForText(/Page 1 · 10 per page · 10 rows/);
    const results = performance.now() - started;
    const before = performance.now();
    await hostile.press('enter');
    await hostile.waitForText('Transfer id');
    await hostile.press('pageDown');
    const detail = performance.now() - before;
    expect(results).toBeLessThan(2000);
    expect(detail).toBeLessThan(1000);
    expectFramesFit(hostile.frames(), 80, 24);
  });

  test.concurrent('CJK and emoji values keep the table aligned (display widths)', async ({ onTestFinished }) => {
    const values: Array<Partial<Record<string, unknown>>> = [
      { asset: '比特币', status: '成功', amount: '1.5', toAccount: '子账户一号' },
      { asset: 'USDT', status: 'SUCCESS', amount: '22.25', toAccount: 'sub1' },
      { asset: '🚀🚀', status: '👍🏽ok', amount: '333.125', toAccount: 'e\u0301quipe' },
      { asset: 'ｅｔｈ', status: '処理中処理中', amount: '4', toAccount: '🧑‍🚀 crew' },
    ];
    let hostile: HostileConsole | undefined;
    onTestFinished(async () => hostile?.cleanup());
    for (const columns of [40, 60, 80, 120]) {
      hostile = await startHostileConsole({ columns, rows: 24, records: values.map((v, i) => wire(v, i)) });
      await hostile.waitForText(/Page 1 · 10 per page · 4 rows/);
      const lines = hostile.frame().split('\n');
      const header = lines.find((l) => l.includes('AMOUNT'))!;
      const amountEnd = displayWidth(header.slice(0, header.indexOf('AMOUNT') + 'AMOUNT'.length));
      const statusAt = displayWidth(header.slice(0, header.indexOf('STATUS')));
      values.forEach((v) => {
        const amount = v.amount as string;
        const row = lines.find((l) => /^[› ] /.test(l) && l.includes(` ${amount} `))!;
        expect(row, `a row with ${amount} at ${columns}`).toBeDefined();
        expect(displayWidth(row.slice(0, row.indexOf(` ${amount} `) + amount.length + 1))).toBe(amountEnd);
        expect(displayWidth(row.slice(0, row.indexOf(` ${amount} `) + amount.length + 2))).toBe(statusAt);
        expect(displayWidth(row)).toBeLessThanOrEqual(columns);
      });
      await hostile.cleanup();
      hostile = undefined;
    }
  });
});

describe('numbers as the service sent them', () => {
  test.concurrent(
    'a tranId above 2^53 and times beyond the Date range: shown as they came in the table, the detail and the chart',
    async ({ onTestFinished }) => {
      // JSON.stringify writes 1e20 as 100000000000000000000; the tranId is written as digits JSON.parse would round (…992).
      const records = [wire({ tranId: 'BIG', timestamp: 1e20 }, 0), wire({ timestamp: 1_763_726_400_000.5 }, 1), wire({}, 2)];
      const body = JSON.stringify(records).replace('"tranId":"BIG"', '"tranId":9007199254740993');
      const hostile = await hostileFor(onTestFinished, { columns: 120, rows: 30, records, body });
      await hostile.waitForText(/Page 1 · 10 per page · 3 rows/);
      expect(hostile.frame()).toContain('1000000000000');
      await hostile.press('enter');
      await hostile.waitForText('Transfer id');
      expect(lineWith(hostile.frame(), 'Transfer id')).toContain('9007199254740993');
      expect(lineWith(hostile.frame(), 'Time')).toContain('100000000000000000000 (local) · 100000000000000000000 (not a date)');
      await hostile.press('esc');
      await hostile.press('down');
      await hostile.press('enter');
      await hostile.waitForText('Transfer id');
      expect(lineWith(hostile.frame(), 'Time')).toContain('1763726400000.5 (local) · 1763726400000.5 (not a date)');
      await hostile.press('esc');
      await hostile.press('v');
      await hostile.waitForText(/All 1 page · 3 transfers/);
      expectFramesFit(hostile.frames(), 120, 30);
    },
  );
});
