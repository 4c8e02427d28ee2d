// Home/End (and g/G where no text is typed) on every long list: keys, audit, discover, the picker, the help.
import { describe, expect, test } from 'vitest';
import { consoleFor, type TestConsole } from './harness';
import { openKeys, openTransfers, seededAccounts } from './flows';

const HOME = '\u001b[H';
const END = '\u001b[F';
const CTRL_D = '\u0004';

/** The line the cursor is on (marked `›`). */
const cursorLine = (c: TestConsole) =>
  c
    .frame()
    .split('\n')
    .find((l) => l.startsWith('›')) ?? '';

// One at a time: the discover scan and the chart fetch every page, and would slow the others past their time.
describe('Home and End, g and G', { timeout: 40_000 }, () => {
  test('the key list: G and End to the last key, g and Home to the first', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const n = busyKeys.length;
    await c.press('G');
    await c.waitForText(`${n}/${n}`);
    expect(cursorLine(c)).toContain(busyKeys.at(-1)!.apiKey);
    await c.press('g');
    await c.waitForText(`1/${n}`);
    expect(cursorLine(c)).toContain(busyKeys[0]!.apiKey);
    await c.press(END);
    await c.waitForText(`${n}/${n}`);
    await c.press(HOME);
    await c.waitForText(`1/${n}`);
  });

  test('the key audit: End and G to the last row, Home and g to the first', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, rows: 30 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('a');
    await c.waitForScreen('keyAudit');
    await c.waitFor(() => /^\d+\/\d+ ·/m.test(c.frame()) && !/Auditing/.test(c.frame()), 'the audit');
    const total = Number(/^(\d+)\/(\d+) ·/m.exec(c.frame())![2]);
    expect(total).toBeGreaterThan(2);
    await c.press(END);
    await c.waitForText(new RegExp(`^${total}/${total} ·`, 'm'));
    await c.press('g');
    await c.waitForText(new RegExp(`^1/${total} ·`, 'm'));
    await c.press('G');
    await c.waitForText(new RegExp(`^${total}/${total} ·`, 'm'));
    await c.press(HOME);
    await c.waitForText(new RegExp(`^1/${total} ·`, 'm'));
  });

  test('the discovered list: End and G to the last name, Home and g to the first', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24 });
    await c.press(CTRL_D);
    await c.waitForScreen('discover');
    await c.press('enter');
    await c.waitForText(/✓ \d+ sub-accounts in 30 days of transfers/, 30_000);
    const found = c.discovered.list();
    expect(found.length).toBeGreaterThan(2);
    expect(cursorLine(c)).toContain(found[0]!.name);
    await c.press(END);
    await c.waitFor(() => cursorLine(c).includes(found.at(-1)!.name), 'the last name');
    await c.press('g');
    await c.waitFor(() => cursorLine(c).includes(found[0]!.name), 'the first name');
    await c.press('G');
    await c.waitFor(() => cursorLine(c).includes(found.at(-1)!.name), 'the last name again');
    await c.press(HOME);
    await c.waitFor(() => cursorLine(c).includes(found[0]!.name), 'the first name again');
  });

  test("the picker: Home and End move in the list once a name is highlighted; before, they are the name field's", async ({ onTestFinished }) => {
    const names = ['alpha01', 'bravo02', 'charlie03', 'delta04', 'echo05', 'foxtrot06'];
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 24, suggestions: names });
    // Typed text: End stays in the field (nothing highlighted).
    await c.type('o');
    await c.press(END);
    await c.settle(30);
    expect(cursorLine(c)).toBe('');
    await c.press('down');
    await c.waitFor(() => cursorLine(c).includes('bravo02'), 'the first match highlighted');
    await c.press(END);
    await c.waitFor(() => cursorLine(c).includes('foxtrot06'), 'the last match');
    await c.press(HOME);
    await c.waitFor(() => cursorLine(c).includes('bravo02'), 'the first match');
    await c.press(END);
    await c.press('enter');
    await c.waitForScreen('keys');
    expect(c.navState()!.stack.at(-1)!.route).toMatchObject({ subAccount: 'foxtrot06' });
  });

  test('the help, when it scrolls: G and End to its end, g and Home to its top', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12 });
    const { busy } = await seededAccounts(c);
    await openKeys(c, busy);
    await c.press('?');
    await c.waitForText('↓ more');
    await c.press('G');
    await c.waitForText(/^↑ more/m);
    expect(c.frame()).toContain('Quit from anywhere');
    await c.press('g');
    await c.waitForText(/^↓ more/m);
    await c.press(END);
    await c.waitForText(/^↑ more/m);
    await c.press(HOME);
    await c.waitForText(/^↓ more/m);
  });

  test('the chart of every page: End and G to the oldest days, Home and g to the newest', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 80, rows: 16 });
    await openTransfers(c, { startTime: '12d', limit: '50' });
    await c.press('v');
    await c.waitForText(/All \d+ pages? · [\d,]+ transfers/, 30_000);
    const [, shown, total] = /days 1–(\d+) of (\d+)/.exec(c.frame())!.map(Number) as [number, number, number];
    expect(total).toBeGreaterThan(shown);
    await c.press('\u001b[F');
    await c.waitForText(`days ${total - shown + 1}–${total} of ${total}`);
    await c.press('g');
    await c.waitForText(`days 1–${shown} of ${total}`);
    await c.press('G');
    await c.waitForText(`days ${total - shown + 1}–${total} of ${total}`);
    await c.press(HOME);
    await c.waitForText(`days 1–${shown} of ${total}`);
  });
});
