// Detail screens step through their list (j/k) without going back to it, the list's cursor following; the
// transfer detail copies its ids; the key detail shows the key's age and what the key audit flags on it.
import { describe, expect, test } from 'vitest';
import { auditKeys, ageInDays } from '../../src/audit/keyAudit';
import { consoleFor, type TestConsole } from './harness';
import { lineWith, openKeys, openTransfers, seededAccounts } from './flows';

const cursorLine = (c: TestConsole) =>
  c
    .frame()
    .split('\n')
    .find((l) => l.startsWith('›')) ?? '';
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

describe.concurrent('the transfer detail', { timeout: 40_000 }, () => {
  test('j and k step to the next and previous transfer of the page as shown; esc lands on the last one seen', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '10' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    await c.press('enter');
    await c.waitForText(`Transfer ${page[0]!.tranId} · row 1 of ${page.length}`);
    await c.press('j');
    await c.waitForText(`Transfer ${page[1]!.tranId} · row 2 of ${page.length}`);
    await c.press('j');
    await c.waitForText(`Transfer ${page[2]!.tranId} · row 3 of ${page.length}`);
    expect(lineWith(c.frame(), 'Amount')).toContain(page[2]!.amount);
    await c.press('k');
    await c.waitForText(`Transfer ${page[1]!.tranId} · row 2 of ${page.length}`);
    expect(c.navState()!.stack.at(-1)!.route.screen).toBe('transfers');
    await c.press('esc');
    await c.waitForText(/Page 1 · 10 per page · 10 rows · row 2$/m);
    expect(cursorLine(c)).toContain(` ${page[1]!.amount} `);
  });

  test('j pressed three times in one burst moves three rows', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '10' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    await c.press('enter');
    await c.waitForText(`Transfer ${page[0]!.tranId}`);
    await c.chunk('j', 'j', 'j');
    await c.waitForText(`Transfer ${page[3]!.tranId} · row 4 of 10`);
    await c.chunk('k', 'k');
    await c.waitForText(`Transfer ${page[1]!.tranId} · row 2 of 10`);
  });

  test('k on the first row and j on the last say so, and nothing moves', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '5' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    await c.press('enter');
    await c.waitForText(`Transfer ${page[0]!.tranId}`);
    await c.press('k');
    await c.waitForText('this is the first row of the page');
    expect(c.frame()).toContain(`Transfer ${page[0]!.tranId} · row 1 of 5`);
    await c.press('j', 4);
    await c.waitForText(`Transfer ${page[4]!.tranId} · row 5 of 5`);
    await c.press('j');
    await c.waitForText('this is the last row of the page');
    expect(c.frame()).toContain(`Transfer ${page[4]!.tranId} · row 5 of 5`);
  });

  test('the steps follow the search and the sort shown', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '30' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const asset = page[0]!.asset;
    await c.press('/');
    await c.type(asset);
    await c.press('enter');
    await c.press('o');
    await c.press('o');
    await c.waitForText('ASSET ↑');
    await c.press('O');
    await c.waitForText('ASSET ↓');
    const shown = c
      .frame()
      .split('\n')
      .filter((l) => /^[› ] \d{4}-/.test(l));
    await c.press('enter');
    await c.waitForText(new RegExp(`· row 1 of ${shown.length}`));
    await c.press('j');
    await c.waitForText(new RegExp(`· row 2 of ${shown.length}`));
    expect(shown[1]).toContain(` ${lineWith(c.frame(), 'Amount').trim().split(/\s+/).at(-1)} `);
  });

  test('c copies the transfer id and C the client id', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const query = await openTransfers(c, { startTime: '7d', limit: '40' });
    const page = await c.api.listUniversalTransfers({ ...query, page: 1 });
    const at = page.findIndex((t) => t.clientTranId !== '');
    expect(at).toBeGreaterThanOrEqual(0);
    await c.press('enter');
    await c.press('j', at);
    const t = page[at]!;
    await c.waitForText(`Transfer ${t.tranId}`);
    await c.press('c');
    await c.waitForText(`Transfer id sent to the test clipboard: ${t.tranId}`);
    await c.press('C');
    await c.waitForText(`Client id sent to the test clipboard: ${t.clientTranId}`);
    expect(c.copies).toEqual([t.tranId, t.clientTranId]);
    expect(c.frame().split('\n').at(-1)).toContain('c copy id');
  });
});

describe.concurrent('the key detail', { timeout: 40_000 }, () => {
  test('j and k step through the keys (↓↑ too); esc lands on the last one seen', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    const n = busyKeys.length;
    await openKeys(c, busy);
    await c.press('enter');
    await c.waitForText(`of ${busy} · 1 of ${n}`);
    expect(lineWith(c.frame(), 'API key')).toContain(busyKeys[0]!.apiKey);
    await c.press('j');
    await c.waitForText(`of ${busy} · 2 of ${n}`);
    expect(lineWith(c.frame(), 'API key')).toContain(busyKeys[1]!.apiKey);
    await c.press('down');
    await c.waitForText(`of ${busy} · 3 of ${n}`);
    await c.press('k');
    await c.waitForText(`of ${busy} · 2 of ${n}`);
    await c.press('k');
    await c.press('up');
    await c.waitForText('this is the first key');
    await c.press('esc');
    await c.waitForText(new RegExp(`^1/${n}$`, 'm'));
    await c.press('G');
    await c.press('enter');
    await c.waitForText(`· ${n} of ${n}`);
    await c.press('j');
    await c.waitForText('this is the last key');
    await c.press('esc');
    await c.waitForText(new RegExp(`^${n}/${n}$`, 'm'));
    expect(cursorLine(c)).toContain(busyKeys.at(-1)!.apiKey);
  });

  test('the age of each key and the flags the key audit gives it', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('enter');
    const findings = auditKeys(busyKeys, Date.now());
    for (const [i, finding] of findings.entries()) {
      await c.waitForText(`· ${i + 1} of ${busyKeys.length}`);
      const days = ageInDays(finding.key.createdAt, Date.now());
      expect(lineWith(c.frame(), 'Created')).toContain(`${days} days ago`);
      const text = flat(c.frame());
      if (finding.flags.length === 0) expect(text).toContain('Audit flags nothing flagged');
      for (const flag of finding.flags) expect(text).toContain(flat(`${flag.kind}: ${flag.reason}`));
      await c.press('j');
    }
    // The seed has keys with no IP, with write permissions, old ones and a shared note.
    const kinds = new Set(findings.flatMap((f) => f.flags.map((g) => g.kind)));
    expect(kinds).toEqual(new Set(['no-ip', 'write', 'old', 'shared-note']));
  });

  test('at 40x12 the age and the name of every flag stay in view', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('enter');
    const findings = auditKeys(busyKeys, Date.now());
    for (const [i, finding] of findings.entries()) {
      await c.waitForText(`· ${i + 1} of ${busyKeys.length}`);
      const days = ageInDays(finding.key.createdAt, Date.now());
      expect(lineWith(c.frame(), 'Created')).toContain(days === 0 ? 'today' : `${days} day`);
      const kinds = finding.flags.map((f) => f.kind).join(', ');
      expect(lineWith(c.frame(), 'Audit flags')).toContain(finding.flags.length === 0 ? 'nothing flagged' : kinds);
      await c.press('j');
    }
  });
});
