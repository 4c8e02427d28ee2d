// What the transfers page shows is what its totals count and what "this page" exports: the `/` search and the
// `o`/`O` sort, said in words; Home/End (and G) on the page's rows.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Big from 'big.js';
import { describe, expect, test } from 'vitest';
import { decimalForBig } from '../../src/api/decimal';
import type { Transfer } from '../../src/api/types';
import { consoleFor, type TestConsole } from './harness';
import { lineWith, openTransfers } from './flows';

const transferRowLines = (frame: string) => frame.split('\n').filter((l) => /^[› ] \d{4}-\d\d-\d\d \d\d:\d\d /.test(l));
const cursorLine = (frame: string) => transferRowLines(frame).find((l) => l.startsWith('›'))!;

/** An asset of the page that is no part of another column or asset: searching it leaves its rows only. */
function searchableAsset(page: readonly Transfer[]): string {
  const assets = [...new Set(page.map((t) => t.asset))];
  const asset = assets.find(
    (a) =>
      page.filter((t) => [t.fromAccount, t.toAccount, t.status, t.amount, t.fromAccountType, t.toAccountType].join(' ').toLowerCase().includes(a.toLowerCase()))
        .length === 0 &&
      assets.every((b) => b === a || !b.toLowerCase().includes(a.toLowerCase())) &&
      page.filter((t) => t.asset === a).length > 1,
  );
  expect(asset).toBeDefined();
  return asset!;
}

async function exportedJson(c: TestConsole): Promise<Transfer[]> {
  const files = await readdir(c.exportDir);
  expect(files).toHaveLength(1);
  return JSON.parse(await readFile(join(c.exportDir, files[0]!), 'utf8')) as Transfer[];
}

describe('export and totals follow the search and the sort', { timeout: 40_000 }, () => {
  test.concurrent('a searched page: the totals say so and count its rows; "this page" writes those rows only', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 40 });
    const query = await openTransfers(c, { startTime: '7d', limit: '40' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const asset = searchableAsset(page);
    const matching = page.filter((t) => t.asset === asset);
    await c.press('/');
    await c.type(asset);
    await c.press('enter');
    await c.waitForText(`${matching.length} of ${page.length} rows`);
    const success = matching.filter((t) => t.status === 'SUCCESS');
    const sum = success.reduce((s, t) => s.plus(new Big(t.amount)), new Big(0));
    const totals = lineWith(c.frame(), 'Page totals');
    expect(totals).toContain(
      `Page totals of the rows searched "${asset}" (${matching.length} of ${page.length}), SUCCESS only (${success.length} of ${matching.length} rows)`,
    );
    if (success.length > 0) expect(totals).toContain(`${asset} ${sum.toFixed()}`);

    await c.press('x');
    await c.waitForText('Export transfers');
    expect(c.frame()).toContain(`this page as shown (${matching.length} of ${page.length} rows, searched "${asset}")`);
    await c.press('f');
    await c.press('enter');
    await c.waitForText(new RegExp(`✓ Wrote ${matching.length} rows? \\(1 page\\)`));
    expect((await exportedJson(c)).map((t) => t.tranId)).toEqual(matching.map((t) => t.tranId));
  });

  test.concurrent('o then O: the arrow turns, the rows turn, and "this page" is written in the shown order', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 40 });
    const query = await openTransfers(c, { startTime: '7d', limit: '25' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const numbers = page.filter((t) => decimalForBig(t.amount) !== undefined);
    const ascending = [...numbers].sort((a, b) => new Big(decimalForBig(a.amount)!).cmp(new Big(decimalForBig(b.amount)!)));
    await c.press('o');
    await c.waitForText('AMOUNT ↓');
    await c.press('O');
    await c.waitForText('AMOUNT ↑');
    expect(c.frame()).toContain('sorted by amount ↑');
    const lines = transferRowLines(c.frame());
    ascending.forEach((t, i) => expect(lines[i]).toContain(` ${t.amount} `));
    // O again: back to largest first.
    await c.press('O');
    await c.waitForText('AMOUNT ↓');
    await c.press('O');
    await c.waitForText('AMOUNT ↑');
    await c.press('x');
    await c.waitForText(`this page as shown (${page.length} rows, by amount ↑)`);
    await c.press('f');
    await c.press('enter');
    await c.waitForText(new RegExp(`✓ Wrote ${page.length} rows`));
    const written = (await exportedJson(c)).map((t) => t.tranId);
    expect(written.slice(0, ascending.length)).toEqual(ascending.map((t) => t.tranId));
    // o goes on to the next column in its first direction; time reversed is oldest first.
    await c.press('enter');
    await c.waitForNoText('Export transfers');
    await c.press('o', 3);
    await c.waitFor(() => !c.frame().includes('sorted by'), 'back to the served order');
    await c.press('O');
    await c.waitForText('sorted by time ↑ (oldest first)');
    expect(c.frame()).toContain('TIME ↑');
    transferRowLines(c.frame()).forEach((line, i) => expect(line).toContain(` ${[...page].reverse()[i]!.amount} `));
  });

  test.concurrent('a page as served still says "this page (N rows)"', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    await openTransfers(c, { startTime: '3d', limit: '10' });
    await c.press('x');
    await c.waitForText('this page (10 rows)');
    expect(c.frame()).not.toContain('as shown');
  });
});

describe('Home and End on the transfers page', { timeout: 40_000 }, () => {
  test.concurrent('End (and G) go to the last row, Home to the first; g still asks for a page', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 20 });
    const query = await openTransfers(c, { startTime: '7d', limit: '40' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    await c.press('\u001b[F');
    await c.waitForText(`row ${page.length}`);
    expect(cursorLine(c.frame())).toContain(` ${page.at(-1)!.amount} `);
    await c.press('\u001b[H');
    await c.waitForText(/· row 1$/m);
    expect(cursorLine(c.frame())).toContain(` ${page[0]!.amount} `);
    await c.press('G');
    await c.waitForText(`row ${page.length}`);
    await c.press('g');
    await c.waitForText('Go to page:');
  });
});
