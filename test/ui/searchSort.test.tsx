// Search (`/`) in the keys list and the transfers page, and sort (`o`) of the transfers page.
import Big from 'big.js';
import { afterEach, describe, expect, test } from 'vitest';
import { decimalForBig } from '../../src/api/decimal';
import type { Transfer } from '../../src/api/types';
import { frameLines, lineWidth, startConsole, type TestConsole } from './harness';
import { lineWith, openKeys, openTransfers, seededAccounts } from './flows';

let c: TestConsole;
afterEach(async () => c?.cleanup());

const keyRowLines = (frame: string) => frame.split('\n').filter((l) => /^[›+ ] \S/.test(l) && !l.includes('NOTE') && !l.includes('API keys of'));
const transferRowLines = (frame: string) => frame.split('\n').filter((l) => /^[› ] \d{4}-\d\d-\d\d \d\d:\d\d /.test(l));

describe('search in the keys list', () => {
  test('/ and text filter the keys and show "N of M"; esc clears', async () => {
    c = await startConsole({ columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const target = busyKeys[busyKeys.length - 1]!;
    // A piece of the full API key (shown whole at 120 columns): exactly one key has it.
    const needle = target.apiKey.slice(4, 12);
    const expected = busyKeys.filter((k) => [k.note, k.apiKey, k.permissions.join(',')].join('\n').toLowerCase().includes(needle.toLowerCase()));
    expect(expected.length).toBeGreaterThanOrEqual(1);
    await c.press('/');
    await c.waitForText('/ ');
    await c.type(needle.toUpperCase());
    await c.waitForText(`${expected.length} of ${busyKeys.length}`);
    expect(c.frame()).toContain(`· ${expected.length} of ${busyKeys.length} keys`);
    const lines = keyRowLines(c.frame());
    expect(lines).toHaveLength(expected.length);
    expect(lines.join('\n')).toContain(target.apiKey);
    // The footer comes from the bindings of the filter line.
    expect(c.frame()).toContain('enter keep');
    expect(c.frame()).toContain('esc clear');
    // Enter keeps the filter; the rows take the keys again.
    await c.press('enter');
    await c.waitForNoText('enter keep');
    expect(c.frame()).toContain(`${expected.length} of ${busyKeys.length}`);
    // Esc clears it (and does not leave the screen).
    await c.press('esc');
    await c.waitForText(`API keys of ${busy} · ${busyKeys.length} keys`);
    expect(c.frame()).not.toContain(` of ${busyKeys.length}`);
    expect(keyRowLines(c.frame())).toHaveLength(busyKeys.length);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('keys');
  });

  test('esc while typing clears the filter and closes the line', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('/');
    await c.type('zzzz-no-such-key');
    await c.waitForText(`0 of ${busyKeys.length}`);
    expect(c.frame()).toContain('no key matches the filter');
    await c.press('esc');
    await c.waitForText(`API keys of ${busy} · ${busyKeys.length} keys`);
    expect(c.frame()).not.toContain('zzzz');
    expect(keyRowLines(c.frame())).toHaveLength(busyKeys.length);
  });

  test('a kept filter that matches no key: enter detail and c copy are not offered, ? says why', async () => {
    c = await startConsole({ columns: 100, rows: 30 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    expect(c.frame()).toContain('enter detail');
    await c.press('/');
    await c.type('zzzz-no-such-key');
    await c.press('enter');
    await c.waitForNoText('enter keep');
    expect(c.frame()).toContain('no key matches the filter');
    expect(c.frame()).not.toContain('enter detail');
    expect(c.frame()).not.toContain('c copy key');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    expect(c.frame()).toContain('No key matches the filter: nothing to open (esc clears it)');
    expect(c.frame()).toContain('No key matches the filter: nothing to copy (esc clears it)');
  });

  test('NO_COLOR: the match stays visible (underlined, inverse), with no colour code', async () => {
    c = await startConsole({ noColor: true, columns: 120, rows: 30, everyCommit: true });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const needle = busyKeys[0]!.apiKey.slice(4, 12);
    await c.press('/');
    await c.type(needle);
    await c.waitForText(` of ${busyKeys.length}`);
    await c.press('down');
    await c.settle(50);
    const raw = c.rawFrame();
    // The match is drawn underlined (SGR 4) right before its text.
    expect(raw).toMatch(new RegExp(`\\u001b\\[(?:\\d+;)*4(?:;\\d+)*m(?:\\u001b\\[[\\d;]*m)*${needle}`));
    expect(c.frames().some((f) => /\u001b\[(3|4|9|10)\d(;\d+)*m/.test(f))).toBe(false);
  });
});

describe('search and sort on the transfers page', () => {
  test('the page filtered by an asset: only its rows, "N of M rows"', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    const query = await openTransfers(c, { startTime: '7d', limit: '30' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const assets = [...new Set(page.map((t) => t.asset))];
    // An asset name that is no part of another asset, account or status on the page.
    const asset = assets.find(
      (a) =>
        page.filter((t) =>
          [t.fromAccount, t.toAccount, t.status, t.amount, t.fromAccountType, t.toAccountType].join(' ').toLowerCase().includes(a.toLowerCase()),
        ).length === 0 && assets.every((b) => b === a || !b.toLowerCase().includes(a.toLowerCase())),
    )!;
    expect(asset).toBeDefined();
    const matching = page.filter((t) => t.asset === asset);
    await c.press('/');
    await c.type(asset.toLowerCase());
    await c.waitForText(`${matching.length} of ${page.length} rows`);
    await c.press('enter');
    await c.waitForNoText('enter keep');
    const lines = transferRowLines(c.frame());
    expect(lines).toHaveLength(matching.length);
    lines.forEach((line, i) => {
      expect(line).toContain(` ${asset} `);
      expect(line).toContain(` ${matching[i]!.amount} `);
    });
    await c.press('esc');
    await c.waitForText(`Page 1 · 30 per page · ${page.length} rows`);
    expect(transferRowLines(c.frame())).toHaveLength(page.length);
  });

  test('a kept search that matches no row: enter detail and x export are not offered, x opens no 0-row export, ? says why', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    await openTransfers(c, { startTime: '7d', limit: '20' });
    expect(c.frame()).toContain('enter detail');
    expect(c.frame()).toContain('x export');
    await c.press('/');
    await c.type('zzzz-no-such-row');
    await c.press('enter');
    await c.waitForNoText('enter keep');
    expect(c.frame()).toContain('No row of this page matches; esc clears the filter.');
    expect(c.frame()).not.toContain('enter detail');
    expect(c.frame()).not.toContain('x export');
    await c.press('x');
    await c.settle(50);
    expect(c.frame()).not.toContain('Scope');
    await c.press('?');
    await c.waitForText('press ? or esc to close');
    expect(c.frame()).toContain('No row matches the search: nothing to open (esc clears it)');
    expect(c.frame()).toContain('No row matches the search: nothing to export (esc clears it, then x)');
  });

  test('o sorts the page by amount as a decimal, shown in the header; then asset, status, back to time', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    const query = await openTransfers(c, { startTime: '7d', limit: '25' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const numbers = page.filter((t) => decimalForBig(t.amount) !== undefined);
    const others = page.filter((t) => decimalForBig(t.amount) === undefined);
    const byAmount: Transfer[] = [...numbers].sort((a, b) => new Big(decimalForBig(b.amount)!).cmp(new Big(decimalForBig(a.amount)!))).concat(others);
    expect(c.frame()).toMatch(/ASSET +AMOUNT +STATUS/);
    await c.press('o');
    await c.waitForText('AMOUNT ↓');
    expect(c.frame()).toContain('sorted by amount ↓');
    const lines = transferRowLines(c.frame());
    expect(lines).toHaveLength(page.length);
    lines.forEach((line, i) => expect(line).toContain(` ${byAmount[i]!.amount} `));
    // Decimal, not text or float order: each shown amount is no less than the next one.
    const shown = lines.map((l) => l.trim().split(/\s+/).at(-2)!).filter((a) => decimalForBig(a) !== undefined);
    for (let i = 1; i < shown.length; i++) expect(new Big(shown[i - 1]!).gte(new Big(shown[i]!))).toBe(true);
    await c.press('o');
    await c.waitForText('ASSET ↑');
    const assets = transferRowLines(c.frame()).map((l) => page.find((t) => l.includes(` ${t.asset} `))!.asset);
    expect(assets).toEqual([...assets].sort());
    await c.press('o');
    await c.waitForText('STATUS ↑');
    await c.press('o');
    await c.waitForNoText('STATUS ↑');
    expect(lineWith(c.frame(), 'AMOUNT')).not.toMatch(/[↑↓]/);
    expect(c.frame()).not.toContain('sorted by');
    transferRowLines(c.frame()).forEach((line, i) => expect(line).toContain(` ${page[i]!.amount} `));
  });

  test('the selected transfer stays selected through o, O and a cleared search; r keeps the rows and the cursor while it loads', async () => {
    c = await startConsole({ columns: 100, rows: 40 });
    const query = await openTransfers(c, { startTime: '7d', limit: '25' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const selectedLine = () => transferRowLines(c.frame()).find((l) => l.startsWith('›'))!;
    const idOf = (line: string) => page.findIndex((t) => line.includes(` ${t.amount} `) && line.includes(` ${t.asset} `));
    await c.press('j', 4);
    const chosen = selectedLine();
    expect(transferRowLines(c.frame()).indexOf(chosen)).toBe(4);
    await c.press('o');
    await c.waitForText('AMOUNT ↓');
    expect(idOf(selectedLine())).toBe(idOf(chosen));
    await c.press('O');
    await c.waitForText('AMOUNT ↑');
    expect(idOf(selectedLine())).toBe(idOf(chosen));
    // A search that keeps the row, cleared: the row stays selected.
    const asset = page[idOf(chosen)]!.asset;
    await c.press('/');
    await c.type(asset);
    await c.press('enter');
    await c.waitForNoText('enter keep');
    await c.press('esc');
    await c.waitForNoText(`/ ${asset}`);
    expect(idOf(selectedLine())).toBe(idOf(chosen));
    // r: the same page again, held by the service; the rows and the cursor stay while it loads.
    const at = transferRowLines(c.frame()).indexOf(selectedLine());
    c.sandbox.queueFaults({ kind: 'hold' });
    await c.press('r');
    await c.settle(150);
    expect(transferRowLines(c.frame())).toHaveLength(page.length);
    expect(c.sandbox.releaseHeld()).toBe(1);
    await c.waitForText(/Page 1 · \d+ per page · \d+ rows/);
    await c.settle(50);
    expect(transferRowLines(c.frame()).indexOf(selectedLine())).toBe(at);
    // r again, the page served in another order: the cursor follows the transfer, not the row number.
    await c.press('O');
    await c.waitForText('AMOUNT ↓');
    await c.press('o', 3);
    await c.waitForNoText('sorted by');
    const before = selectedLine();
    const row = transferRowLines(c.frame()).indexOf(before);
    c.sandbox.queueFaults({ kind: 'reordered' });
    await c.press('r');
    await c.waitFor(() => transferRowLines(c.frame()).indexOf(selectedLine()) !== row, 'the page in another order');
    expect(idOf(selectedLine())).toBe(idOf(before));
    // r that fails (three 503s: a GET's tries): the rows and the cursor stay, under the error.
    const onIt = selectedLine();
    c.sandbox.queueFaults({ kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await c.press('r');
    await c.waitForText('(r retry)');
    expect(transferRowLines(c.frame())).toHaveLength(page.length);
    expect(selectedLine()).toBe(onIt);
    await c.press('r');
    await c.waitForNoText('(r retry)');
    expect(selectedLine()).toBe(onIt);
    // esc on a search still being typed keeps the selected transfer too.
    const kept = selectedLine();
    await c.press('/');
    await c.type(page[idOf(kept)]!.asset);
    await c.press('esc');
    await c.waitForNoText('enter keep');
    expect(idOf(selectedLine())).toBe(idOf(kept));
  });

  test('at 40 columns the page line keeps the row the cursor is on, sorted and full-size', async () => {
    c = await startConsole({ columns: 40, rows: 12 });
    await openTransfers(c, { startTime: '30d', limit: '500' });
    await c.press('o');
    await c.waitForText('AMOUNT ↓');
    await c.press('G');
    await c.waitForText(/^Page 1 · [\d,]+ rows · row [\d,]+$/m);
    const [, rows, row] = /^Page 1 · ([\d,]+) rows · row ([\d,]+)$/m.exec(c.frame())!;
    expect(row).toBe(rows);
  });

  test('at 40x12 with the filter line open, the frame fits', async () => {
    c = await startConsole({ columns: 40, rows: 12, everyCommit: true });
    await openTransfers(c, { startTime: '7d', limit: '20' });
    await c.press('/');
    await c.type('a');
    await c.waitForText(/\d+ of \d+/);
    await c.press('o');
    for (const raw of [c.rawFrame(), ...c.frames().slice(-5)]) {
      const lines = frameLines(raw);
      expect(lines.length).toBeLessThan(12);
      for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(40);
    }
    expect(lineWith(c.frame(), '/ a')).toMatch(/\d+ of \d+/);
  });

  test('at 40x12 with the keys filter line open, the frame fits', async () => {
    c = await startConsole({ columns: 40, rows: 12, everyCommit: true });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('/');
    await c.type('e');
    await c.waitForText(/\d+ of \d+/);
    for (const raw of c.frames().slice(-5)) {
      const lines = frameLines(raw);
      expect(lines.length).toBeLessThan(12);
      for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(40);
    }
  });
});
